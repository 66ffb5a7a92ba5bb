/*
 * ccl4j: per-phase runs and transfer probes, for the benchmarks of this project (java/bench,
 * native/bench) and its tests. NOT FOR USERS: ccl4j.h does not include this header, and what it
 * declares may change or go away in any release. Its functions are exported by libccl4j.so like
 * the others and use the types of ccl4j.h (contexts, graphs, meshes, options), which it includes.
 */
#ifndef CCL4J_BENCH_H
#define CCL4J_BENCH_H

#include "../ccl4j.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- per-phase runs and transfer probes, for benchmarks ---------------------------------- */

/* An algorithm is a sequence of named phases (ECL-CC on CUDA: init, compute1, compute2, compute3,
 * finalize; the names and order are those of ccl4j_timings.phases of a labelling call, transfers
 * left out). A phase run holds one algorithm's work state on one graph and runs its phases one at
 * a time, so that each can be timed alone:
 *
 *     ccl4j_phase_run_create(ctx, dgraph, NULL, &options, &run);   // CUDA: a resident graph
 *     ccl4j_phase_run_reset(ctx, run, 2);                          // phases 0 and 1, untimed
 *     ccl4j_phase_run_phase(ctx, run, 2, &ms, NULL);               // phase 2 alone, timed
 *
 * Phases mutate the state, so phase i runs only on the state that phases 0..i-1 left: right
 * after ccl4j_phase_run_reset(i) or after phase i-1 ran (phase 0 starts from scratch and may
 * always run). Running all phases in order labels the graph like ccl4j_label_graph.
 * A fixpoint loop (Hawick's kernels) is one phase, the whole loop: its cost per launch depends on
 * how far the colours have spread, so a single launch stands for nothing in particular.
 * Available: every algorithm on the backends that label with it. On the CPU backends: ECL-CC
 * (init, compute, finalize; parallel on CPU_PARALLEL), and serially on both Hawick's kernels 1-2
 * (init, propagate), kernel 3 (init, search), Komura's (init, analysis1, reduction, analysis2) and
 * Hawick's CPU reference (label); on CUDA every CUDA algorithm. */

typedef struct ccl4j_phase_run_s* ccl4j_phase_run;

/* Does nothing and returns value: the cost of a native call from Java, measured by itself. */
CCL4J_API int32_t ccl4j_noop(int32_t value);

/* Copies `bytes` of host memory at `host` to a device buffer of the CUDA context (the one a host
 * graph's neighbours are copied into) and waits; *ms receives the copy's CUDA-event time (may be
 * NULL). From pinned memory (ccl4j_host_alloc) the copy is DMA; from ordinary memory it is staged. */
CCL4J_API ccl4j_status ccl4j_copy_to_device(ccl4j_context context, const void* host, int64_t bytes, double* ms);

/* Prepares per-phase runs of options->algorithm (NULL: defaults; AUTO: as ccl4j_label_graph picks) on a graph with at
 * least one vertex: on a CUDA context a resident graph (device_graph; host_graph and its arrays
 * NULL), which must outlive the run; on a CPU context a host graph (host_graph with its arrays
 * host_offsets and host_neighbors; device_graph NULL), whose arrays must outlive the run. The run has its own work buffers (and on CUDA its own stream), so
 * labelling calls on the context meanwhile leave it alone. Nothing runs yet. */
CCL4J_API ccl4j_status ccl4j_phase_run_create(ccl4j_context context, ccl4j_device_graph device_graph,
                                              const ccl4j_csr* host_graph, const void* host_offsets,
                                              const int32_t* host_neighbors, const ccl4j_label_options* options,
                                              ccl4j_phase_run* out);
CCL4J_API void ccl4j_phase_run_destroy(ccl4j_phase_run run);

/* The number of phases, and the NUL-terminated name of phase `phase` (name: CCL4J_PHASE_NAME_SIZE bytes). */
CCL4J_API ccl4j_status ccl4j_phase_run_count(ccl4j_context context, ccl4j_phase_run run, int32_t* count);
CCL4J_API ccl4j_status ccl4j_phase_run_name(ccl4j_context context, ccl4j_phase_run run, int32_t phase, char* name);

/* Brings the state to where phase `phase` starts by running phases 0..phase-1 (untimed), and waits.
 * phase may be the phase count: the state after the last phase. */
CCL4J_API ccl4j_status ccl4j_phase_run_reset(ccl4j_context context, ccl4j_phase_run run, int32_t phase);

/* Runs phase `phase` once and waits. *ms: its time (CUDA events on the run's stream; a steady
 * clock on the CPU); *iterations: the launches of its fixpoint loop, 0 for none; either may be
 * NULL. CCL4J_INVALID_ARGUMENT when the state is not the one the phase starts from. */
CCL4J_API ccl4j_status ccl4j_phase_run_phase(ccl4j_context context, ccl4j_phase_run run, int32_t phase, double* ms,
                                             int32_t* iterations);

/* Copies the vertex_count labels as the phases left them into labels (host memory): canonical
 * after the last phase, the algorithm's intermediate state before. */
CCL4J_API ccl4j_status ccl4j_phase_run_labels(ccl4j_context context, ccl4j_phase_run run, int32_t* labels);

/* ---- per-phase runs over a mesh -------------------------------------------------------- */

/* Prepares per-phase runs of a mesh algorithm (options->algorithm; NULL or AUTO: the context's
 * default, as for ccl4j_label_mesh) on `mesh` with its `cells`, checked as ccl4j_label_mesh checks it. The run is
 * used with the ccl4j_phase_run_* calls above (labels: cell_count entries, canonical after the
 * last phase, as ccl4j_label_mesh gives them). Phases, without the h2d and d2h copies:
 *   MESH_NEIGHBOR, MESH_LOCAL, MESH_DIRECTIONAL: init, propagate
 *   MESH_EQUIVALENCE: init, iterate (its scan, analysis and labelling kernels, every pass)
 *   MESH_KOMURA: init, analysis1, reduction, analysis2
 *   MESH_UNION_FIND: local, merge, finalize
 *   MESH_CPU_RASTER: init, scan;  MESH_CPU_EQUIVALENCE: init, iterate;  MESH_CPU_PARALLEL: local, merge, flatten
 * A fixpoint loop is one phase, the whole loop (as for Hawick's graph kernels); ccl4j_label_mesh
 * still times kernel D's scan, analysis and labelling apart, summed over the passes.
 * On a CUDA context the cells are copied to the run's own device buffers here (the cells may be
 * freed afterwards); on a CPU context the run works on the cells, which must stay unchanged and
 * alive until the run is destroyed (a strided mesh is packed into a dense copy of the run's own). */
CCL4J_API ccl4j_status ccl4j_phase_run_create_mesh(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                                   const ccl4j_mesh_options* options, ccl4j_phase_run* out);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_BENCH_H */
