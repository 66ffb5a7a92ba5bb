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

/* Hears the progress of ccl4j_label_graph (the other calls that take ccl4j_label_options ignore
 * it): `done` of `total` units are done, the last in `stage`. A unit is an arc of the graph, and
 * total = 2 * arc_count. A graph streamed through the GPU by gathering (STREAMED) reports its
 * passes as they go: "sample" covers every row (all m arcs, sent or not), then "link" every arc
 * position again; its first call comes once the first block of arcs has been handed to the GPU
 * (a caller's "time to first byte"), later ones about once per 1/256 of total. Every call that
 * succeeds ends with one call of stage "done" and done == total (the only call on the other
 * paths). Calls come one at a time, from the library's threads (not necessarily the caller's);
 * a listener must return quickly, must not call into ccl4j and cannot stop the labelling. */
typedef void (*ccl4j_progress_fn)(void* user, const char* stage, int64_t done, int64_t total);

typedef struct ccl4j_label_options {
    ccl4j_algorithm algorithm;
    uint32_t flags;
    int32_t cpu_threads;      /* CPU_PARALLEL thread count; 0 = the processors that other running
                                 work leaves free when the call starts (at least 1) */
    int32_t block_size;       /* CUDA threads per block; 0 = the algorithm's default */
    int32_t warp_threshold;   /* ECL-CC: degree above which a vertex goes to the warp tier; 0 = 16 */
    int32_t block_threshold;  /* ECL-CC: degree above which a vertex goes to the block tier; 0 = 352 */
    int32_t max_iterations;   /* iterative algorithms stop with CCL4J_NOT_CONVERGED after this many
                                 iterations; 0 = vertex_count + 2, which no correct run exceeds */
    int64_t device_memory;    /* CUDA, host graphs: bytes of device memory the call may use; 0 = what
                                 is free. AUTO streams a graph that does not fit (STREAMED) */
    ccl4j_progress_fn progress; /* NULL: none */
    void* progress_user;        /* passed to progress as is */
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

/* ---- edge lists ------------------------------------------------------------------------------ */

/* An undirected graph as a list of edge_count edges {sources[i * stride], targets[i * stride]}
 * over vertex ids in [0, vertex_count), vertex_count <= INT32_MAX. Two separate arrays have
 * stride 1; one interleaved array of pairs (u0 v0 u1 v1 ...) is sources = pairs, targets =
 * pairs + 1, stride 2. Edges may come in any order and direction, repeated, and as self loops. */
typedef struct ccl4j_edges {
    int64_t vertex_count;
    int64_t edge_count;
    int32_t stride;  /* >= 1, in int32 entries */
    int32_t reserved;
} ccl4j_edges;

/* Labels the components of an edge list without building a CSR: one union-find over the edges,
 * each edge once (in parallel on CPU_PARALLEL and on the GPU); labels as ccl4j_label_graph's.
 * Every id is checked as it is read: one outside [0, vertex_count) fails with
 * CCL4J_INVALID_INPUT naming the edge (labels then unspecified). options may be NULL; its
 * algorithm must be AUTO (there is one edge-list algorithm); cpu_threads and block_size apply.
 * On CUDA an edge list that does not fit the device with its labels (or device_memory) is
 * streamed: only the labels stay on the device, and the edges are read in place from page-locked
 * memory or cross in blocks through page-locked staging buffers (CCL4J_OUT_OF_MEMORY naming both
 * sizes when not even the labels and two small buffers fit). Phases: h2d (CUDA, copied whole),
 * init, link, finalize, d2h (CUDA). */
CCL4J_API ccl4j_status ccl4j_label_edges(ccl4j_context context, const ccl4j_edges* edges, const int32_t* sources,
                                         const int32_t* targets, const ccl4j_label_options* options, int32_t* labels,
                                         ccl4j_timings* timings);

/* Builds the canonical CSR of an edge list on the host CPU cores (every context's): each distinct
 * edge as its two arcs, self loops and repeated edges dropped, every neighbour list ascending.
 * In two calls, so that the caller can allocate the result's exact size between them:
 * ccl4j_csr_build_create checks the ids (CCL4J_INVALID_INPUT naming the first bad edge), sorts
 * the arcs into memory of its own and reports the result's shape in *shape (offset_width 4 when
 * the arc count fits int32, else 8); ccl4j_csr_build_write writes shape->vertex_count + 1 offsets
 * of that width and shape->arc_count neighbours; ccl4j_csr_build_destroy frees the build (NULL is
 * ignored). The edge arrays are only read by create. */
typedef struct ccl4j_csr_build_s* ccl4j_csr_build;

CCL4J_API ccl4j_status ccl4j_csr_build_create(ccl4j_context context, const ccl4j_edges* edges, const int32_t* sources,
                                              const int32_t* targets, ccl4j_csr_build* out, ccl4j_csr* shape);
CCL4J_API ccl4j_status ccl4j_csr_build_write(ccl4j_context context, ccl4j_csr_build build, void* offsets,
                                             int32_t* neighbors);
CCL4J_API void ccl4j_csr_build_destroy(ccl4j_csr_build build);

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
