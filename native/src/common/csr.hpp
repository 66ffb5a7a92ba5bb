// The one CSR view of the library: a validated ccl4j_csr with its offset width resolved.
#pragma once

#include <cstdint>

#include "ccl4j.h"

namespace ccl4j {

// Offsets are int32_t (the fast path) or int64_t (more than 2^31 - 1 arcs); ids are int32_t.
template <class Offset>
struct CsrView {
    int32_t vertex_count;
    int64_t arc_count;
    const Offset* offsets;     // vertex_count + 1 entries
    const int32_t* neighbors;  // arc_count entries

    Offset begin(int32_t v) const { return offsets[v]; }
    Offset end(int32_t v) const { return offsets[v + 1]; }
    int64_t degree(int32_t v) const { return static_cast<int64_t>(offsets[v + 1] - offsets[v]); }
};

// A graph whose sizes have been validated (see validate.hpp), with the offset width erased.
struct Graph {
    int32_t vertex_count;
    int64_t arc_count;
    int32_t offset_width;  // 4 or 8
    const void* offsets;
    const int32_t* neighbors;

    // Calls f with the CsrView of the right offset type.
    template <class F>
    decltype(auto) visit(F&& f) const {
        if (offset_width == 4) {
            return f(CsrView<int32_t>{vertex_count, arc_count, static_cast<const int32_t*>(offsets), neighbors});
        }
        return f(CsrView<int64_t>{vertex_count, arc_count, static_cast<const int64_t*>(offsets), neighbors});
    }
};

}  // namespace ccl4j
