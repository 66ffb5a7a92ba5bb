/*
 * ccl4j: labelling 2D and 3D meshes of cells. Included by ccl4j.h.
 */
#ifndef CCL4J_MESH_H
#define CCL4J_MESH_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- mesh labelling ------------------------------------------------------------------------ */

/* Labelling 2D and 3D meshes of cells (images, lattices, simulation fields) without a graph: the
 * neighbours of a cell are computed from its coordinates. Cell (x, y, z) is at linear index
 * x + width * (y + height * z). Labels are canonical: every labelled cell gets the smallest linear
 * index of its cluster; cells outside every cluster (zero cells in foreground mode) get -1. */

/* ccl4j_mesh.cell_type. */
#define CCL4J_CELL_U8 1  /* uint8_t */
#define CCL4J_CELL_U16 2 /* uint16_t */
#define CCL4J_CELL_I32 4 /* int32_t */
#define CCL4J_CELL_F32 5 /* float (IEEE 754 binary32): zero and -0.0 are background in foreground mode, a
                            NaN cell is labelled there but connects to nothing in same-value mode */

/* ccl4j_mesh_options.mode */
#define CCL4J_MESH_FOREGROUND 0 /* non-zero cells are labelled, all non-zero neighbours connect; zero cells get -1 */
#define CCL4J_MESH_SAME_VALUE 1 /* every cell is labelled; neighbours connect when their values are equal,
                                   or differ by at most ccl4j_mesh_options.delta */

/* Bits of ccl4j_mesh_options.periodic: wrap-around boundaries per axis. */
#define CCL4J_PERIODIC_X 1u
#define CCL4J_PERIODIC_Y 2u
#define CCL4J_PERIODIC_Z 4u

/* The shape of a host-resident mesh: width * height * depth cells of cell_type, x fastest; the
 * cells themselves are a separate argument (cells, pointing at cell (0, 0, 0)). depth == 1 is a 2D
 * mesh. Every extent is at least 1; ccl4j_label_mesh takes at most INT32_MAX cells (its labels are
 * int32), ccl4j_label_mesh64 any count.
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
    int32_t cell_type;     /* CCL4J_CELL_U8, U16, I32 or F32 */
    int64_t row_stride;    /* cells from (x, y, z) to (x, y + 1, z); 0 = width */
    int64_t layer_stride;  /* cells from (x, y, z) to (x, y, z + 1); 0 = row stride * height */
} ccl4j_mesh;

typedef struct ccl4j_mesh_options {
    ccl4j_algorithm algorithm; /* AUTO or a CCL4J_ALGORITHM_MESH_* id */
    uint32_t flags;            /* no flags are defined for meshes: 0 */
    int32_t connectivity;      /* 4 or 8 in 2D (6, 18 and 26 act as 4, 8 and 8 there), 6, 18 or 26 in
                                  3D (18: faces and edges, not corners);
                                  0 = face neighbours (4 in 2D, 6 in 3D) */
    uint32_t periodic;         /* CCL4J_PERIODIC_* bits; 0 = open boundaries */
    int32_t mode;              /* CCL4J_MESH_FOREGROUND or CCL4J_MESH_SAME_VALUE */
    int32_t cpu_threads;       /* MESH_CPU_PARALLEL on CPU_PARALLEL: thread count; 0 = all available */
    int32_t block_size;        /* CUDA threads per block; 0 = the algorithm's default */
    int32_t tile_size;         /* MESH_LOCAL: tile edge in cells; 0 = its default */
    int32_t max_iterations;    /* iterative algorithms stop with CCL4J_NOT_CONVERGED after this many
                                  iterations; 0 = cell count + 2, which no correct run exceeds */
    double delta;              /* SAME_VALUE: neighbours a, b connect when |a - b| <= delta, the difference
                                  taken in double (cc3d's delta); 0 = equal values. Finite, >= 0; 0 in
                                  FOREGROUND mode */
} ccl4j_mesh_options;

/* Labels the clusters of a host-resident mesh (its cells at `cells`) into labels (cell count
 * entries, host memory, not overlapping the cells).
 * options may be NULL (AUTO, face neighbours, open boundaries, foreground mode); timings may be
 * NULL. AUTO runs MESH_UNION_FIND on CUDA and MESH_CPU_PARALLEL on the CPU backends; the GPU
 * algorithms (MESH_NEIGHBOR .. MESH_UNION_FIND) need a CUDA context and the CPU ones
 * (MESH_CPU_*) a CPU context, otherwise CCL4J_UNSUPPORTED. A strided mesh is gathered into dense
 * device memory by the copy to the GPU itself (its h2d phase); the CPU backends pack it into a
 * dense buffer first (a "pack" phase), and read a dense mesh in place. */
CCL4J_API ccl4j_status ccl4j_label_mesh(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                        const ccl4j_mesh_options* options, int32_t* labels,
                                        ccl4j_timings* timings);

/* As ccl4j_label_mesh, into int64 labels (cell count entries): the same canonical labels, for
 * meshes of any size, also past INT32_MAX cells. MESH_UNION_FIND (CUDA) and MESH_CPU_PARALLEL
 * (both CPU backends), which AUTO runs, write them; the other algorithms write int32 labels only
 * (CCL4J_UNSUPPORTED). Per-phase runs and statistics take int32 labels, so at most INT32_MAX cells. */
CCL4J_API ccl4j_status ccl4j_label_mesh64(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                          const ccl4j_mesh_options* options, int64_t* labels,
                                          ccl4j_timings* timings);

/* The memory a mesh labelling call needs besides the caller's cells, and what there is. */
typedef struct ccl4j_memory_needs {
    int64_t labels_bytes;     /* the caller's label array: cell count * label_bytes (host memory) */
    int64_t host_bytes;       /* host memory the call allocates itself: the packed copy of a strided mesh
                                 on the CPU backends, 0 otherwise */
    int64_t device_bytes;     /* device memory the call needs on CUDA (dense cells, labels, working
                                 arrays), 0 on the CPU backends */
    int64_t host_available;   /* host memory available to new allocations now (Linux: MemAvailable of
                                 /proc/meminfo), -1 where unknown */
    int64_t device_available; /* device memory the call can use now: free memory plus what the context
                                 holds for meshes already; 0 on the CPU backends */
} ccl4j_memory_needs;

/* What ccl4j_label_mesh (label_bytes 4) or ccl4j_label_mesh64 (8) needs for this mesh and options on
 * this context, so that a caller can check before it allocates the labels: labelling fails with
 * CCL4J_OUT_OF_MEMORY, naming the figures, before it allocates anything when device_bytes exceeds
 * device_available or host_bytes exceeds host_available; the caller compares labels_bytes itself.
 * The cells are not read: the mesh's cells argument of labelling is not needed here. */
CCL4J_API ccl4j_status ccl4j_mesh_memory_needs(ccl4j_context context, const ccl4j_mesh* mesh,
                                               const ccl4j_mesh_options* options, int32_t label_bytes,
                                               ccl4j_memory_needs* out);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_MESH_H */
