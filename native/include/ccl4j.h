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

/* ---- mesh labelling ------------------------------------------------------------------------ */

/* Labelling 2D and 3D meshes of cells (images, lattices, simulation fields) without a graph: the
 * neighbours of a cell are computed from its coordinates. Cell (x, y, z) is at linear index
 * x + width * (y + height * z). Labels are canonical: every labelled cell gets the smallest linear
 * index of its cluster; cells outside every cluster (zero cells in foreground mode) get -1. */

/* ccl4j_mesh.cell_type (the value is the size of a cell in bytes). */
#define CCL4J_CELL_U8 1  /* uint8_t */
#define CCL4J_CELL_I32 4 /* int32_t */

/* ccl4j_mesh_options.mode */
#define CCL4J_MESH_FOREGROUND 0 /* non-zero cells are labelled, all non-zero neighbours connect; zero cells get -1 */
#define CCL4J_MESH_SAME_VALUE 1 /* every cell is labelled; neighbours connect when their values are equal */

/* Bits of ccl4j_mesh_options.periodic: wrap-around boundaries per axis. */
#define CCL4J_PERIODIC_X 1u
#define CCL4J_PERIODIC_Y 2u
#define CCL4J_PERIODIC_Z 4u

/* A host-resident mesh: width * height * depth cells of cell_type, x fastest. depth == 1 is a 2D
 * mesh. Every extent is at least 1 and the cell count at most INT32_MAX.
 * The cells may lie apart in memory (a region of a larger image or volume, rows with padding):
 * cell (x, y, z) is at cells[x + row_stride * y + layer_stride * z], strides counted in cells, not
 * bytes. 0 means dense: row_stride 0 is width, layer_stride 0 is the row stride times height.
 * Rows and layers must not overlap: row_stride >= width, layer_stride >= row stride * height.
 * The labels are dense whatever the strides: cell (x, y, z) has label x + width * (y + height * z),
 * and canonical labels are the smallest such index of a cluster. Periodic boundaries wrap within
 * the mesh as described (a region wraps at its own edges). */
typedef struct ccl4j_mesh {
    int32_t width;
    int32_t height;
    int32_t depth;
    int32_t cell_type;     /* CCL4J_CELL_U8 or CCL4J_CELL_I32 */
    const void* cells;     /* cell (0, 0, 0) */
    int64_t row_stride;    /* cells from (x, y, z) to (x, y + 1, z); 0 = width */
    int64_t layer_stride;  /* cells from (x, y, z) to (x, y, z + 1); 0 = row stride * height */
} ccl4j_mesh;

typedef struct ccl4j_mesh_options {
    ccl4j_algorithm algorithm; /* AUTO or a CCL4J_ALGORITHM_MESH_* id */
    uint32_t flags;            /* no flags are defined for meshes: 0 */
    int32_t connectivity;      /* 4 or 8 in 2D (6 and 26 act as 4 and 8 there), 6 or 26 in 3D;
                                  0 = face neighbours (4 in 2D, 6 in 3D) */
    uint32_t periodic;         /* CCL4J_PERIODIC_* bits; 0 = open boundaries */
    int32_t mode;              /* CCL4J_MESH_FOREGROUND or CCL4J_MESH_SAME_VALUE */
    int32_t cpu_threads;       /* MESH_CPU_PARALLEL on CPU_PARALLEL: thread count; 0 = all available */
    int32_t block_size;        /* CUDA threads per block; 0 = the algorithm's default */
    int32_t tile_size;         /* MESH_LOCAL: tile edge in cells; 0 = its default */
    int32_t max_iterations;    /* iterative algorithms stop with CCL4J_NOT_CONVERGED after this many
                                  iterations; 0 = cell count + 2, which no correct run exceeds */
} ccl4j_mesh_options;

/* Labels the clusters of a host-resident mesh into labels (cell count entries, host memory).
 * options may be NULL (AUTO, face neighbours, open boundaries, foreground mode); timings may be
 * NULL. AUTO runs MESH_UNION_FIND on CUDA and MESH_CPU_PARALLEL on the CPU backends; the GPU
 * algorithms (MESH_NEIGHBOUR .. MESH_UNION_FIND) need a CUDA context and the CPU ones
 * (MESH_CPU_*) a CPU context, otherwise CCL4J_UNSUPPORTED. A strided mesh is gathered into dense
 * device memory by the copy to the GPU itself (its h2d phase); the CPU backends pack it into a
 * dense buffer first (a "pack" phase), and read a dense mesh in place. */
CCL4J_API ccl4j_status ccl4j_label_mesh(ccl4j_context context, const ccl4j_mesh* mesh,
                                        const ccl4j_mesh_options* options, int32_t* labels,
                                        ccl4j_timings* timings);
/* ---- label book-keeping: counts, compaction, sizes, histograms, members ------------------ */

/* These functions take any label array: graph labels, mesh labels, or labels they produced
 * themselves. Each entry is a label in [0, count) or -1 (unlabelled: background cells, entries a
 * filter removed), which every function ignores. Entries with equal labels form one component.
 * Any other value is CCL4J_INVALID_INPUT, naming the first such index and its value.
 * A component's smallest member is its smallest index; canonical labels (ccl4j_label_graph,
 * ccl4j_label_mesh) are exactly the smallest members, so there both orders below agree on ties.
 * Results are written into caller buffers; the sizes of the larger ones come from a first call
 * (ccl4j_labels_summary, or the function itself with capacity 0). On a CUDA context the work
 * runs on the device (host labels are copied there first); on the CPU backends on the host. */

/* Component orders (the int32_t order parameters below). */
#define CCL4J_ORDER_SMALLEST_MEMBER 0 /* components ordered by their smallest member */
#define CCL4J_ORDER_SIZE_DESCENDING 1 /* largest first; equal sizes by label, ascending */

/* Histogram binnings. */
#define CCL4J_HISTOGRAM_EXACT 0 /* one bin per component size that occurs, ascending */
#define CCL4J_HISTOGRAM_LOG2 1  /* bin b holds sizes in [2^b, 2^(b+1)), b = 0 .. floor(log2(largest)) */

/* Where the labels of a ccl4j_label_array are. */
#define CCL4J_LABELS_HOST 0
#define CCL4J_LABELS_DEVICE 1 /* the labels the context's last ccl4j_label_device_graph call left on
                                 its device (labels pointer NULL, count == that graph's vertices) */

typedef struct ccl4j_label_array {
    int64_t count;         /* entries, at most INT32_MAX */
    const int32_t* labels; /* count labels in host memory (CCL4J_LABELS_HOST), else NULL */
    int32_t location;      /* CCL4J_LABELS_HOST or CCL4J_LABELS_DEVICE */
    int32_t reserved;
} ccl4j_label_array;

typedef struct ccl4j_label_summary {
    int64_t count;         /* entries */
    int64_t labelled;      /* entries that are not -1 */
    int64_t components;    /* distinct labels */
    int32_t largest_size;  /* 0 when there is no component */
    int32_t largest_label; /* the largest component's label (the smallest label on ties); -1 when none */
    int32_t smallest_size; /* 0 when there is no component */
    int32_t reserved;
} ccl4j_label_summary;

/* Component count, labelled entries, largest and smallest component. */
CCL4J_API ccl4j_status ccl4j_labels_summary(ccl4j_context context, const ccl4j_label_array* labels,
                                            ccl4j_label_summary* out);

/* The first min(capacity, components) components in `order`: their labels and sizes (either
 * output may be NULL). With CCL4J_ORDER_SIZE_DESCENDING and capacity k, the k largest.
 * *components (may be NULL) receives the component count. */
CCL4J_API ccl4j_status ccl4j_labels_components(ccl4j_context context, const ccl4j_label_array* labels,
                                               int32_t order, int64_t capacity, int32_t* component_labels,
                                               int32_t* sizes, int64_t* components);

/* out[i] = the position of entry i's component in `order` (0 .. components - 1), or -1 where the
 * entry is -1. out has labels->count entries (host) and may be labels->labels itself.
 * *components (may be NULL) receives the component count. */
CCL4J_API ccl4j_status ccl4j_labels_compact(ccl4j_context context, const ccl4j_label_array* labels,
                                            int32_t order, int32_t* out, int64_t* components);

/* The size histogram: bin_sizes[b] is the size (EXACT) or the smallest size (LOG2) of bin b,
 * bin_counts[b] its number of components; the first min(capacity, bins) bins are written
 * (either output may be NULL) and *bins (may be NULL) receives the number of bins. */
CCL4J_API ccl4j_status ccl4j_labels_histogram(ccl4j_context context, const ccl4j_label_array* labels,
                                              int32_t binning, int64_t capacity, int32_t* bin_sizes,
                                              int32_t* bin_counts, int64_t* bins);

/* The members of every component, as CSR: component c (in `order`) has the members
 * members[offsets[c] .. offsets[c + 1]), ascending. offsets needs components + 1 entries and
 * members `labelled` entries (see ccl4j_labels_summary); smaller capacities are refused. */
CCL4J_API ccl4j_status ccl4j_labels_members(ccl4j_context context, const ccl4j_label_array* labels,
                                            int32_t order, int64_t offsets_capacity, int32_t* offsets,
                                            int64_t members_capacity, int32_t* members);

/* The members of the component labelled `label`, ascending: the first min(capacity, size) are
 * written; *size (may be NULL) receives the component's size (0 when no entry has that label). */
CCL4J_API ccl4j_status ccl4j_labels_component_members(ccl4j_context context, const ccl4j_label_array* labels,
                                                      int32_t label, int64_t capacity, int32_t* members,
                                                      int64_t* size);

/* Keeps the components whose size is in [min_size, max_size]: out[i] = labels[i] there, -1
 * elsewhere. out has labels->count entries (host) and may be labels->labels itself.
 * *kept (may be NULL) receives the number of components kept. */
CCL4J_API ccl4j_status ccl4j_labels_filter(ccl4j_context context, const ccl4j_label_array* labels,
                                           int32_t min_size, int32_t max_size, int32_t* out, int64_t* kept);

/* The subgraph of a host CSR graph induced by `vertices` (vertex_count distinct ids in
 * [0, graph->vertex_count), ascending), with vertex vertices[i] renumbered i. *arc_count receives
 * its arc count; with offsets and neighbors NULL nothing else is written (the first call).
 * Otherwise offsets gets vertex_count + 1 entries of offset_width bytes (4 or 8) and neighbors
 * *arc_count entries (neighbors_capacity at least that). Runs on the host. */
CCL4J_API ccl4j_status ccl4j_induced_subgraph(ccl4j_context context, const ccl4j_csr* graph, const int32_t* vertices,
                                              int64_t vertex_count, int32_t offset_width, void* offsets,
                                              int32_t* neighbors, int64_t neighbors_capacity, int64_t* arc_count);
/* ---- lattices, bond percolation and Swendsen-Wang ---------------------------------------- */

/* Nearest-neighbour lattices as CSR graphs whose arcs carry the index of their bond (an
 * undirected edge, stored as two arcs), numbered densely from 0. length is the sites per side
 * (L x L, L x L x L, or L^3 cells of two sites for bcc), or the number of shells around the centre
 * for the Bethe lattice (3 * 2^length - 2 sites). The honeycomb lattice is a brick wall: every
 * site has its +x bond, and the sites with x + y even their +y bond. */
typedef int32_t ccl4j_lattice_kind;
#define CCL4J_LATTICE_SQUARE 1
#define CCL4J_LATTICE_TRIANGULAR 2   /* square plus the diagonal (x, y)-(x + 1, y + 1) */
#define CCL4J_LATTICE_HONEYCOMB 3
#define CCL4J_LATTICE_SIMPLE_CUBIC 4
#define CCL4J_LATTICE_BCC 5          /* site 2 * cell is the corner, 2 * cell + 1 the body centre */
#define CCL4J_LATTICE_BETHE 6        /* z = 3, sites numbered from the centre outwards */
#define CCL4J_LATTICE_BETHE_RANDOM 7 /* z = 3, sites numbered by a random permutation of the seed */

typedef struct ccl4j_lattice_s* ccl4j_lattice;

typedef struct ccl4j_lattice_info {
    ccl4j_lattice_kind kind;
    int32_t length;
    int32_t periodic;
    int32_t vertex_count;
    int64_t arc_count;
    int64_t bond_count;
    /* Sites of the two opposite open boundaries a spanning cluster joins: the first and the last
     * row (2D) or plane along z (3D); the centre and the surface shell (Bethe); 0 when periodic. */
    int32_t side0_count;
    int32_t side1_count;
} ccl4j_lattice_info;

/* Builds a lattice on the host (periodic: 0 open, 1 periodic; seed only numbers BETHE_RANDOM). */
CCL4J_API ccl4j_status ccl4j_lattice_create(ccl4j_lattice_kind kind, int32_t length, int32_t periodic,
                                            uint64_t seed, ccl4j_lattice* out);
CCL4J_API void ccl4j_lattice_destroy(ccl4j_lattice lattice);
CCL4J_API ccl4j_status ccl4j_lattice_get_info(ccl4j_lattice lattice, ccl4j_lattice_info* out);
/* Copies the arrays out; any pointer may be NULL. offsets: vertex_count + 1 entries; neighbors and
 * arc_bonds: arc_count; side0, side1: side0_count, side1_count. */
CCL4J_API ccl4j_status ccl4j_lattice_copy(ccl4j_lattice lattice, int32_t* offsets, int32_t* neighbors,
                                          int32_t* arc_bonds, int32_t* side0, int32_t* side1);

/* Bond b of realisation r is open when the first word of Philox-4x32-10 with key (seed low, seed
 * high) and counter (b, 0, r low, r high) is below floor(p * 2^32) (always for p = 1). Draws
 * open[b] for bond_count bonds on the context's backend: every backend gives the same bits. */
CCL4J_API ccl4j_status ccl4j_draw_bonds(ccl4j_context context, int64_t bond_count, uint64_t seed,
                                        uint64_t realisation, double p, uint8_t* open);

/* Bond percolation on one lattice: its arrays (and, on CUDA, the device buffers) are set up once
 * and reused by every realisation. A closed bond's arcs become self-loops of the masked graph,
 * which any labelling algorithm then labels; options NULL or AUTO means Komura's algorithm.
 * The context must outlive the handle; the options are copied and the lattice may be destroyed. */
typedef struct ccl4j_percolation_s* ccl4j_percolation;

typedef struct ccl4j_percolation_result {
    int64_t realisations;
    int64_t spanning;  /* realisations with a cluster touching both sides */
    double total_ms;   /* host clock, whole call */
    double label_ms;   /* labelling alone (the backend's phase times), summed */
} ccl4j_percolation_result;

CCL4J_API ccl4j_status ccl4j_percolation_create(ccl4j_context context, ccl4j_lattice lattice,
                                                const ccl4j_label_options* options, ccl4j_percolation* out);
CCL4J_API void ccl4j_percolation_destroy(ccl4j_percolation percolation);
/* Runs realisations first_realisation ... first_realisation + count - 1 at probability p.
 * spanning (count entries) and labels (vertex_count entries, those of the last realisation) may
 * be NULL. */
CCL4J_API ccl4j_status ccl4j_percolation_run(ccl4j_percolation percolation, double p, uint64_t seed,
                                             uint64_t first_realisation, int32_t count, uint8_t* spanning,
                                             int32_t* labels, ccl4j_percolation_result* out);

/* Swendsen-Wang cluster updates of the Ising model (J = 1) on any lattice, spins starting all up.
 * A sweep activates each bond between equal spins with probability 1 - exp(-2 / T) (Philox
 * counter (b, 1, sweep)), labels the clusters, and flips the cluster labelled l when the top bit of
 * Philox counter (l, 2, sweep) is set. Sweeps are numbered across calls. */
typedef struct ccl4j_ising_s* ccl4j_ising;

CCL4J_API ccl4j_status ccl4j_ising_create(ccl4j_context context, ccl4j_lattice lattice,
                                          const ccl4j_label_options* options, uint64_t seed, ccl4j_ising* out);
CCL4J_API void ccl4j_ising_destroy(ccl4j_ising ising);
/* Runs `sweeps` sweeps at temperature T; after each, magnetisation[i] = sum of spins / N and
 * energy[i] = -(sum over bonds of s s') / N (either may be NULL). total_ms may be NULL. */
CCL4J_API ccl4j_status ccl4j_ising_sweep(ccl4j_ising ising, double temperature, int32_t sweeps,
                                         double* magnetisation, double* energy, double* total_ms);
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

/* ---- per-phase runs over a mesh -------------------------------------------------------- */

/* Prepares per-phase runs of a mesh algorithm (options->algorithm; NULL or AUTO: the context's
 * default, as for ccl4j_label_mesh) on `mesh`, checked as ccl4j_label_mesh checks it. The run is
 * used with the ccl4j_phase_run_* calls above (labels: cell_count entries, canonical after the
 * last phase, as ccl4j_label_mesh gives them). Phases, without the h2d and d2h copies:
 *   MESH_NEIGHBOUR, MESH_LOCAL, MESH_DIRECTIONAL: init, propagate
 *   MESH_EQUIVALENCE: init, iterate (its scan, analysis and labelling kernels, every pass)
 *   MESH_KOMURA: init, analysis1, reduction, analysis2
 *   MESH_UNION_FIND: local, merge, finalize
 *   MESH_CPU_RASTER: init, scan;  MESH_CPU_EQUIVALENCE: init, iterate;  MESH_CPU_PARALLEL: local, merge, flatten
 * A fixpoint loop is one phase, the whole loop (as for Hawick's graph kernels); ccl4j_label_mesh
 * still times kernel D's scan, analysis and labelling apart, summed over the passes.
 * On a CUDA context the cells are copied to the run's own device buffers here (mesh->cells may be
 * freed afterwards); on a CPU context the run works on mesh->cells, which must stay unchanged and
 * alive until the run is destroyed (a strided mesh is packed into a dense copy of the run's own). */
CCL4J_API ccl4j_status ccl4j_phase_run_create_mesh(ccl4j_context context, const ccl4j_mesh* mesh,
                                                   const ccl4j_mesh_options* options, ccl4j_phase_run* out);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_H */
