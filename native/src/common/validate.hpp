// The one validation routine for graphs crossing the ABI.
#pragma once

#include "common/csr.hpp"

namespace ccl4j {

// Checks what can be checked in O(1): non-null pointers, sizes in range, offset width, and the
// first and last offsets. Throws Error(CCL4J_INVALID_ARGUMENT or CCL4J_INVALID_INPUT).
// Reads offsets[0] and offsets[vertex_count] of host memory.
Graph validate_sizes(const ccl4j_csr* graph);

// The O(n + m) checks: offsets monotone, neighbour ids in range, every arc (u, v) has its
// reverse (v, u) with the same multiplicity. Throws Error(CCL4J_INVALID_INPUT) naming the
// first offending vertex or arc. Uses up to `threads` OpenMP threads (0 = all).
void check_input(const Graph& graph, int threads);

}  // namespace ccl4j
