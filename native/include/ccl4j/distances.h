/*
 * ccl4j: shortest-path distances within the components of a graph (unweighted, undirected): per
 * component the mean shortest-path length and the diameter, and the full distance matrix of
 * small graphs. Included by ccl4j.h.
 */
#ifndef CCL4J_DISTANCES_H
#define CCL4J_DISTANCES_H

#include "common.h"
#include "graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- definitions ------------------------------------------------------------------------------
 *
 * d(u, v) is the number of edges of a shortest path from u to v (each edge counts 1; self loops
 * and repeated arcs change nothing), d(v, v) = 0, and d(u, v) is undefined (unreachable) when u
 * and v lie in different components. For a component C of k vertices:
 *  - PATH SUM   = the sum of d(u, v) over the ordered pairs (u, v) of distinct vertices of C,
 *                 i.e. twice the sum over unordered pairs; an exact 64-bit integer (it fits for
 *                 every component of up to 2^21 vertices, and beyond while below 2^63);
 *  - MEAN       = PATH SUM / (k (k - 1)), computed as (double) PATH SUM / ((double) k * (k - 1)) on
 *                 every backend, so it is the same bit for bit; 0 for a single-vertex component.
 *                 It is the mean over pairs of distinct vertices that reach each other
 *                 (networkx's average_shortest_path_length of the component);
 *  - DIAMETER   = the largest d(u, v) in C (the largest eccentricity); 0 for a single vertex.
 * The graph must be symmetric (each edge stored as two arcs): it is checked in full (the checks
 * of CCL4J_CHECK_INPUT) before any arc is followed. */

/* Algorithms (ccl4j_distance_options.algorithm). */
#define CCL4J_DISTANCES_AUTO 0            /* BFS */
#define CCL4J_DISTANCES_BFS 1             /* a breadth-first search from every vertex, O(n (n + m)) time,
                                             64 sources of a component per machine word: CPU: one
                                             bit-parallel search per 64 sources over lists of active
                                             vertices, the batches in parallel; CUDA: many words at
                                             once, one launch pair per level */
#define CCL4J_DISTANCES_FLOYD_WARSHALL 2  /* Floyd and Warshall's O(n^3) relaxation of an n x n matrix
                                             (the CPU baseline of Leist, Playne & Hawick 2009): CPU
                                             backends only, vertex_count at most
                                             CCL4J_DISTANCE_MATRIX_MAX_VERTICES */

/* The most vertices a distance matrix (and Floyd-Warshall) takes: 16384^2 int32 are 1 GiB. */
#define CCL4J_DISTANCE_MATRIX_MAX_VERTICES 16384

typedef struct ccl4j_distance_options {
    int32_t algorithm;    /* CCL4J_DISTANCES_* */
    int32_t cpu_threads;  /* CPU_PARALLEL threads; 0 = the free processors (as ccl4j_label_options') */
} ccl4j_distance_options;

/* ---- functions ----------------------------------------------------------------------------- */

/* The distances within every component of a host CSR graph. Rows are the components in canonical
 * order (by smallest vertex id, the canonical label ccl4j_label_graph gives), one value per row
 * in each output: first[r] the component's smallest vertex, vertices[r] its vertex count,
 * path_sums[r], diameters[r] and mean_lengths[r] as defined above. The first min(capacity,
 * components) rows are written (a capacity of vertex_count always suffices); each output may be
 * NULL. *components (may be NULL) receives the component count. options may be NULL (AUTO);
 * timings may be NULL; its algorithm field receives the CCL4J_DISTANCES_* run and iterations the
 * levels the GPU searched. Phases: check (the graph's checks), label (components, on the host),
 * then bfs or floyd-warshall and reduce; on CUDA h2d, bfs, reduce, d2h after label. */
CCL4J_API ccl4j_status ccl4j_graph_distances(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                             const int32_t* neighbors, const ccl4j_distance_options* options,
                                             int64_t capacity, int32_t* first, int64_t* vertices, int64_t* path_sums,
                                             int32_t* diameters, double* mean_lengths, int64_t* components,
                                             ccl4j_timings* timings);

/* The distance matrix of a host CSR graph of at most CCL4J_DISTANCE_MATRIX_MAX_VERTICES vertices
 * (larger ones are refused with CCL4J_INVALID_ARGUMENT): matrix[u * n + v] = d(u, v), -1 where v
 * is unreachable from u, 0 on the diagonal; row-major, n = vertex_count, capacity (entries) at
 * least n * n. options and timings as above; phases: check, then label and bfs (the CPU backends),
 * floyd-warshall, or h2d and bfs (CUDA: bfs copies the rows out as they are done). */
CCL4J_API ccl4j_status ccl4j_graph_distance_matrix(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                                   const int32_t* neighbors, const ccl4j_distance_options* options,
                                                   int64_t capacity, int32_t* matrix, ccl4j_timings* timings);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_DISTANCES_H */
