// The validation routines for graphs and meshes crossing the ABI.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/csr.hpp"

namespace ccl4j {

// Checks what can be checked in O(1): non-null pointers, sizes in range, offset width, and the
// first and last offsets. Throws Error(CCL4J_INVALID_ARGUMENT or CCL4J_INVALID_INPUT).
// Reads offsets[0] and offsets[vertex_count] of host memory.
Graph validate_sizes(const ccl4j_csr* graph, const void* offsets, const int32_t* neighbors);

// The O(n + m) checks: offsets monotone, neighbour ids in range, every arc (u, v) has its
// reverse (v, u) with the same multiplicity (tested in one pass with a keyed multiset hash, wrong
// with probability 2^-61; a failure is explained by an exact test). Throws
// Error(CCL4J_INVALID_INPUT) naming the first offending vertex or arc. Uses up to `threads`
// threads (0 = all).
void check_input(const Graph& graph, int threads);

// The first of the checks above alone: offsets monotone, so that every vertex's arcs lie within
// the arrays (for the operations that read arcs without following them).
void check_offsets(const Graph& graph, int threads);

// A mesh's strides (in cells, 0 = dense) against its extents and cell size (bytes): rows and
// layers must not overlap, and the span from the first cell to the last must fit int64 in cells
// and size_t in bytes. Throws Error(CCL4J_INVALID_ARGUMENT) naming the stride. The ABI checks
// every mesh it is given with it, and the GPU again before its copy gathers the cells.
void check_strides(int32_t width, int32_t height, int32_t depth, int32_t cell_bytes, int64_t row_stride,
                   int64_t layer_stride);

// Refuses an output that overlaps an input: labels written into the cells or arrays being read
// would change them under the algorithm, which then answers wrongly. Throws
// Error(CCL4J_INVALID_ARGUMENT) naming both.
void check_disjoint(const void* output, size_t output_bytes, const char* output_name, const void* input,
                    size_t input_bytes, const char* input_name);

}  // namespace ccl4j
