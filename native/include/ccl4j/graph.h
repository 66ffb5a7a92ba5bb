/*
 * ccl4j: graphs in compressed sparse rows: their description, labelling options, labelling host
 * graphs, and graphs resident on the device. Included by ccl4j.h.
 */
#ifndef CCL4J_GRAPH_H
#define CCL4J_GRAPH_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- input descriptions ------------------------------------------------------------------- */

/* The shape of an undirected graph in compressed sparse rows, each edge stored as two arcs. Its
 * arrays are separate arguments of the functions that read them: offsets, vertex_count + 1
 * entries of offset_width bytes (4 or 8) with offsets[0] == 0 and offsets[vertex_count] ==
 * arc_count; neighbors, arc_count vertex ids in [0, vertex_count). */
typedef struct ccl4j_csr {
    int64_t vertex_count;
    int64_t arc_count;
    int32_t offset_width;
    int32_t reserved;
} ccl4j_csr;

/* ---- options ------------------------------------------------------------------------------ */

/* Flags of ccl4j_label_options.flags. */
#define CCL4J_CHECK_INPUT 1u /* O(n + m) checks: monotone offsets, ids in range, symmetry; timed as the
                                phase "check" */

typedef struct ccl4j_label_options {
    ccl4j_algorithm algorithm;
    uint32_t flags;
    int32_t cpu_threads;      /* CPU_PARALLEL thread count; 0 = all available */
    int32_t block_size;       /* CUDA threads per block; 0 = the algorithm's default */
    int32_t warp_threshold;   /* ECL-CC: degree above which a vertex goes to the warp tier; 0 = 16 */
    int32_t block_threshold;  /* ECL-CC: degree above which a vertex goes to the block tier; 0 = 352 */
    int32_t max_iterations;   /* iterative algorithms stop with CCL4J_NOT_CONVERGED after this many
                                 iterations; 0 = vertex_count + 2, which no correct run exceeds */
} ccl4j_label_options;

/* ---- graph labelling ---------------------------------------------------------------------- */

/* Labels the components of a host-resident CSR graph: labels[v] = smallest vertex id of v's
 * component, for vertex_count entries; labels must not overlap offsets or neighbors. options may
 * be NULL (defaults); timings may be NULL. */
CCL4J_API ccl4j_status ccl4j_label_graph(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                         const int32_t* neighbors, const ccl4j_label_options* options,
                                         int32_t* labels, ccl4j_timings* timings);

/* Checks a CSR graph (sizes, monotone offsets, ids in range, symmetry) without labelling it. */
CCL4J_API ccl4j_status ccl4j_check_graph(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                         const int32_t* neighbors);

/* ---- device-resident graphs: upload once, label many times --------------------------------- */

typedef struct ccl4j_device_graph_s* ccl4j_device_graph;

/* Copies a host CSR graph to the context's device (CUDA contexts only). h2d_ms may be NULL. */
CCL4J_API ccl4j_status ccl4j_device_graph_create(ccl4j_context context, const ccl4j_csr* graph,
                                                 const void* offsets, const int32_t* neighbors,
                                                 ccl4j_device_graph* out, double* h2d_ms);
CCL4J_API void ccl4j_device_graph_destroy(ccl4j_device_graph graph);

/* Labels a device-resident graph. labels is a host buffer of vertex_count entries, or NULL to
 * leave the labels on the device (kernel-only measurements). */
CCL4J_API ccl4j_status ccl4j_label_device_graph(ccl4j_context context, ccl4j_device_graph graph,
                                                const ccl4j_label_options* options, int32_t* labels,
                                                ccl4j_timings* timings);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_GRAPH_H */
