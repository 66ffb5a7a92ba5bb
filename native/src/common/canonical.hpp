// Canonical labels: every vertex gets the smallest vertex id of its component.
#pragma once

#include <cstdint>

namespace ccl4j {

// labels[v] is any component id in [0, n) (equal ids <=> same component). Rewrites each to the
// smallest vertex of its component, in O(n) time and O(n) extra memory.
void canonicalize(int32_t* labels, int32_t n);

}  // namespace ccl4j
