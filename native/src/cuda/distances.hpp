// Distances within components on the GPU (ccl4j/distances.h). Only compiled with
// CCL4J_WITH_CUDA; the ABI layer (api/api_distances.cpp) validates every argument first and checks
// the graph in full (ids in range, symmetry) before it comes here.
#pragma once

#include <cstdint>

#include "common/csr.hpp"
#include "common/phase_log.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

// A breadth-first search from every vertex of a host graph, on the device. With `row` (host,
// vertex_count entries: the row of each vertex's component, rows 0 .. rows - 1) the per-source
// sums and eccentricities are reduced per row on the device into path_sums and diameters (host,
// `rows` entries each). With `matrix` (host, n * n entries, n at most
// CCL4J_DISTANCE_MATRIX_MAX_VERTICES) the distances are written row by row, -1 where unreachable.
// Phases: h2d, bfs (with the matrix's copies), reduce, d2h; iterations: the levels searched.
void graph_distances(DeviceState& state, const Graph& graph, const int32_t* row, int32_t rows, int64_t* path_sums,
                     int32_t* diameters, int32_t* matrix, PhaseLog& log);

}  // namespace ccl4j::cuda
