/*
 * ccl4j: connected-component labelling on NVIDIA GPUs and CPUs.
 *
 * The C ABI of libccl4j.so. Plain C, no C++ types, no exceptions across the boundary.
 *
 * Conventions
 *  - Every function that can fail returns a ccl4j_status (CCL4J_SUCCESS == 0). The message that
 *    explains a failure is read with ccl4j_context_error_message(); failures of functions that
 *    have no context (context creation, capability queries) are read with
 *    ccl4j_context_error_message(NULL), which holds the calling thread's last such message.
 *  - Handles are opaque and come in create/destroy pairs. A context is used by one thread at a time.
 *  - Inputs are described by small structs holding pointers and lengths; the library never takes
 *    ownership of them. Outputs go into buffers the caller provides.
 *  - Labels are canonical: every vertex gets the smallest vertex id of its component.
 *  - Sizes are validated before anything is dereferenced or launched. CCL4J_CHECK_INPUT adds the
 *    O(n + m) checks (monotone offsets, neighbour ids in range, symmetry).
 */
#ifndef CCL4J_H
#define CCL4J_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CCL4J_API __attribute__((visibility("default")))
#else
#define CCL4J_API
#endif

/* ---- versions, status codes and enumerations --------------------------------------------- */

#define CCL4J_VERSION_MAJOR 0
#define CCL4J_VERSION_MINOR 1
#define CCL4J_VERSION_PATCH 0

typedef int32_t ccl4j_status;
#define CCL4J_SUCCESS 0
#define CCL4J_INVALID_ARGUMENT 1    /* a null pointer, a negative size, an unknown enum value */
#define CCL4J_INVALID_INPUT 2       /* the graph itself is malformed (found by the input checks) */
#define CCL4J_BACKEND_UNAVAILABLE 3 /* e.g. CUDA asked for, but no device or driver */
#define CCL4J_OUT_OF_MEMORY 4       /* host or device allocation failed */
#define CCL4J_DEVICE_ERROR 5        /* a CUDA call or launch failed */
#define CCL4J_NOT_CONVERGED 6       /* an iterative algorithm exceeded its iteration limit */
#define CCL4J_UNSUPPORTED 7         /* this algorithm does not run on this backend */
#define CCL4J_INTERNAL_ERROR 8

typedef int32_t ccl4j_backend;
#define CCL4J_BACKEND_AUTO 0         /* CUDA when a device is present, else CPU_PARALLEL */
#define CCL4J_BACKEND_CUDA 1
#define CCL4J_BACKEND_CPU_PARALLEL 2 /* OpenMP */
#define CCL4J_BACKEND_CPU_SERIAL 3

typedef int32_t ccl4j_algorithm;
#define CCL4J_ALGORITHM_AUTO 0
#define CCL4J_ALGORITHM_ECL_CC 1        /* Jaiganesh & Burtscher 2018 */
#define CCL4J_ALGORITHM_CPU_REFERENCE 2 /* Hawick, Leist & Playne 2010, Algorithm 1 (serial) */
#define CCL4J_ALGORITHM_HAWICK_EDGE 3   /* Hawick et al. kernel 1: edge-parallel, atomicMin, to a fixpoint */
#define CCL4J_ALGORITHM_HAWICK_VERTEX 4 /* Hawick et al. kernel 2: vertex-parallel with two frontier arrays */
#define CCL4J_ALGORITHM_HAWICK_BFS 5    /* Hawick et al. kernel 3: one breadth-first search per component */
#define CCL4J_ALGORITHM_KOMURA 6        /* Komura 2016: generalized label reduction on neighbour lists */
/* Mesh algorithms (ccl4j_label_mesh). AUTO picks MESH_UNION_FIND on CUDA and MESH_CPU_PARALLEL on the CPU. */
#define CCL4J_ALGORITHM_MESH_NEIGHBOUR 16     /* Hawick et al. 2010 kernel A: neighbour propagation (CUDA) */
#define CCL4J_ALGORITHM_MESH_LOCAL 17         /* kernel B: shared-memory local propagation in tiles (CUDA) */
#define CCL4J_ALGORITHM_MESH_DIRECTIONAL 18   /* kernel C: directional propagation along rows (CUDA) */
#define CCL4J_ALGORITHM_MESH_EQUIVALENCE 19   /* kernel D: label equivalence, iterated (CUDA) */
#define CCL4J_ALGORITHM_MESH_KOMURA 20        /* Komura 2015/2016 lattice algorithm, no fixpoint loop (CUDA) */
#define CCL4J_ALGORITHM_MESH_UNION_FIND 21    /* block-based union-find, Playne & Hawick 2018 (CUDA) */
#define CCL4J_ALGORITHM_MESH_CPU_RASTER 22    /* Hawick et al. CPU I: alternating raster scans (CPU) */
#define CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE 23 /* Hawick et al. CPU II: serial label equivalence (CPU) */
#define CCL4J_ALGORITHM_MESH_CPU_PARALLEL 24  /* parallel union-find over slabs, merged along their seams (CPU) */

/* Flags of ccl4j_label_options.flags. */
#define CCL4J_CHECK_INPUT 1u /* O(n + m) checks: monotone offsets, ids in range, symmetry */

/* ---- input descriptions ------------------------------------------------------------------- */

/* An undirected graph in compressed sparse rows, each edge stored as two arcs.
 * offsets has vertex_count + 1 entries of offset_width bytes (4 or 8), offsets[0] == 0 and
 * offsets[vertex_count] == arc_count; neighbors has arc_count vertex ids in [0, vertex_count). */
typedef struct ccl4j_csr {
    int64_t vertex_count;
    int64_t arc_count;
    int32_t offset_width;
    int32_t reserved;
    const void* offsets;
    const int32_t* neighbors;
} ccl4j_csr;

/* ---- options and timings ------------------------------------------------------------------ */

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

#define CCL4J_PHASE_NAME_SIZE 24
#define CCL4J_MAX_PHASES 16

typedef struct ccl4j_phase_time {
    char name[CCL4J_PHASE_NAME_SIZE]; /* NUL-terminated, e.g. "init", "compute1", "finalize" */
    double ms;
} ccl4j_phase_time;

/* Filled by every labelling call. total_ms is the whole call as seen by the host; the phases
 * are what the backend measured (CUDA events on the GPU, a steady clock on the CPU). */
typedef struct ccl4j_timings {
    double total_ms;
    int32_t phase_count;
    int32_t iterations;     /* fixpoint iterations or kernel launches of the iterative part */
    ccl4j_backend backend;  /* the backend that ran (AUTO resolved) */
    ccl4j_algorithm algorithm; /* the algorithm that ran (AUTO resolved) */
    ccl4j_phase_time phases[CCL4J_MAX_PHASES];
} ccl4j_timings;

/* ---- capabilities ------------------------------------------------------------------------- */

#define CCL4J_NAME_SIZE 256

typedef struct ccl4j_capabilities {
    char version[32];           /* "major.minor.patch" */
    uint32_t backends;          /* bit (1 << backend) set for each backend usable now */
    int32_t cuda_compiled;      /* 1 when the library was built with CUDA */
    char cuda_archs[64];        /* compiled device architectures, e.g. "sm_80 sm_90 compute_90" */
    int32_t cuda_runtime_version; /* e.g. 13000; 0 without CUDA */
    int32_t cuda_driver_version;  /* 0 when no driver is installed */
    int32_t device_count;
    int32_t cpu_threads;        /* threads CPU_PARALLEL uses by default */
} ccl4j_capabilities;

typedef struct ccl4j_device_info {
    int32_t index;
    int32_t compute_major;
    int32_t compute_minor;
    int32_t multiprocessors;
    int64_t total_memory;       /* bytes */
    char name[CCL4J_NAME_SIZE];
} ccl4j_device_info;

CCL4J_API ccl4j_status ccl4j_get_capabilities(ccl4j_capabilities* out);
CCL4J_API ccl4j_status ccl4j_get_device_info(int32_t device, ccl4j_device_info* out);

/* ---- contexts ----------------------------------------------------------------------------- */

typedef struct ccl4j_context_s* ccl4j_context;

/* Creates a context for a backend (AUTO is resolved here) and, for CUDA, a device index. */
CCL4J_API ccl4j_status ccl4j_context_create(ccl4j_backend backend, int32_t device, ccl4j_context* out);
CCL4J_API void ccl4j_context_destroy(ccl4j_context context);
/* The backend this context runs on. */
CCL4J_API ccl4j_backend ccl4j_context_backend(ccl4j_context context);
/* The message of the last failure on this context, or "" when none; with NULL, the calling
 * thread's last failure of a function without a context. Valid until the next call. */
CCL4J_API const char* ccl4j_context_error_message(ccl4j_context context);

/* ---- graph labelling ---------------------------------------------------------------------- */

/* Labels the components of a host-resident CSR graph: labels[v] = smallest vertex id of v's
 * component, for vertex_count entries. options may be NULL (defaults); timings may be NULL. */
CCL4J_API ccl4j_status ccl4j_label_graph(ccl4j_context context, const ccl4j_csr* graph,
                                         const ccl4j_label_options* options, int32_t* labels,
                                         ccl4j_timings* timings);

/* Checks a CSR graph (sizes, monotone offsets, ids in range, symmetry) without labelling it. */
CCL4J_API ccl4j_status ccl4j_check_graph(ccl4j_context context, const ccl4j_csr* graph);

/* ---- host memory for zero-copy transfers --------------------------------------------------- */

/* Allocates `bytes` of host memory, 64-byte aligned: page-locked (pinned) when the CUDA backend is
 * usable, so that transfers to the device are DMA without staging; ordinary memory otherwise.
 * *pinned tells which (may be NULL). Free with ccl4j_host_free. */
CCL4J_API ccl4j_status ccl4j_host_alloc(int64_t bytes, void** out, int32_t* pinned);
CCL4J_API void ccl4j_host_free(void* memory);

/* ---- device-resident graphs: upload once, label many times --------------------------------- */

typedef struct ccl4j_device_graph_s* ccl4j_device_graph;

/* Copies a host CSR graph to the context's device (CUDA contexts only). h2d_ms may be NULL. */
CCL4J_API ccl4j_status ccl4j_device_graph_create(ccl4j_context context, const ccl4j_csr* graph,
                                                 ccl4j_device_graph* out, double* h2d_ms);
CCL4J_API void ccl4j_device_graph_destroy(ccl4j_device_graph graph);

/* Labels a device-resident graph. labels is a host buffer of vertex_count entries, or NULL to
 * leave the labels on the device (kernel-only measurements). */
CCL4J_API ccl4j_status ccl4j_label_device_graph(ccl4j_context context, ccl4j_device_graph graph,
                                                const ccl4j_label_options* options, int32_t* labels,
                                                ccl4j_timings* timings);

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
 * Available: every CUDA algorithm on a CUDA context; ECL-CC on the CPU backends (init, compute,
 * finalize), where the other CPU algorithms give CCL4J_UNSUPPORTED. */

typedef struct ccl4j_phase_run_s* ccl4j_phase_run;

/* Does nothing and returns value: the cost of a native call from Java, measured by itself. */
CCL4J_API int32_t ccl4j_noop(int32_t value);

/* Copies `bytes` of host memory at `host` to a device buffer of the CUDA context (the one a host
 * graph's neighbours are copied into) and waits; *ms receives the copy's CUDA-event time (may be
 * NULL). From pinned memory (ccl4j_host_alloc) the copy is DMA; from ordinary memory it is staged. */
CCL4J_API ccl4j_status ccl4j_copy_to_device(ccl4j_context context, const void* host, int64_t bytes, double* ms);

/* Prepares per-phase runs of options->algorithm (NULL: defaults; AUTO: ECL-CC) on a graph with at
 * least one vertex: on a CUDA context a resident graph (device_graph; host_graph NULL), which
 * must outlive the run; on a CPU context a host graph (host_graph; device_graph NULL), whose
 * arrays must outlive the run. The run has its own work buffers (and on CUDA its own stream), so
 * labelling calls on the context meanwhile leave it alone. Nothing runs yet. */
CCL4J_API ccl4j_status ccl4j_phase_run_create(ccl4j_context context, ccl4j_device_graph device_graph,
                                              const ccl4j_csr* host_graph, const ccl4j_label_options* options,
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

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_H */
