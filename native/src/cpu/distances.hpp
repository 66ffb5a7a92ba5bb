// Distances within components on the CPU (ccl4j/distances.h): a breadth-first search from every
// source, 64 sources of a component at a time as one bit-parallel search, the batches in
// parallel; and Floyd-Warshall, the O(n^3) baseline of Leist, Playne & Hawick 2009 (section
// 4.4). Both give, per source, the sum of its distances to the vertices it reaches and its
// eccentricity, which common/distances.hpp adds into the components' rows.
#pragma once

#include <cstdint>

#include "common/csr.hpp"

namespace ccl4j::cpu {

// A search from every source s: sums[s] (the sum of d(s, v) over the vertices v it reaches) and
// eccentricities[s] (the largest); with a matrix (n * n entries, may be nullptr) also row s of
// the distances, -1 where unreachable. row (n entries) numbers the components 0 .. rows - 1
// (common/distances.hpp: rows_of). The graph is checked (ids in range, symmetric). `threads` as
// parallel::thread_count.
void bfs_distances(const Graph& graph, const int32_t* row, int32_t rows, int64_t* sums, int32_t* eccentricities,
                   int32_t* matrix, int threads);

// Floyd-Warshall into matrix (n * n entries, n at most CCL4J_DISTANCE_MATRIX_MAX_VERTICES): the
// same distances as the searches, -1 where unreachable.
void floyd_warshall(const Graph& graph, int32_t* matrix, int threads);

// The per-source sums and eccentricities of a distance matrix (n * n, -1 where unreachable).
void matrix_sources(const int32_t* matrix, int32_t n, int64_t* sums, int32_t* eccentricities, int threads);

}  // namespace ccl4j::cpu
