#include "common/canonical.hpp"

#include <cstddef>
#include <vector>

namespace ccl4j {

void canonicalize(int32_t* labels, int32_t n) {
    // Scanning vertices in increasing order, the first vertex seen with a given component id is
    // the smallest vertex of that component.
    std::vector<int32_t> smallest(static_cast<size_t>(n), -1);
    for (int32_t v = 0; v < n; ++v) {
        int32_t& s = smallest[static_cast<size_t>(labels[v])];
        if (s < 0) s = v;
        labels[v] = s;
    }
}

}  // namespace ccl4j
