/*
 * ccl4j: per-component statistics of meshes (size, bounding box, centroid, faces touched,
 * intensity) and of graphs (vertices, edges, vertex range, degree), and the numberings users
 * compare with. Included by ccl4j.h.
 */
#ifndef CCL4J_STATISTICS_H
#define CCL4J_STATISTICS_H

#include "common.h"
#include "graph.h"
#include "labels.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- component statistics ------------------------------------------------------------------ */

/* A statistics call computes one row per component into a table the context keeps (on its device
 * for CUDA, in host memory on the CPU backends) until its next statistics call or its
 * destruction; ccl4j_statistics_column copies columns of it out. *components receives the row
 * count k, so that the caller can size the columns before copying them.
 *
 * Rows and labels follow a numbering. Every numbering starts from canonical labels (each entry
 * labelled with the smallest index of its component, -1 for background), as ccl4j_label_mesh and
 * ccl4j_label_graph write them: */
#define CCL4J_NUMBERING_CANONICAL 0 /* labels stay canonical; rows in raster order (by smallest index) */
#define CCL4J_NUMBERING_RASTER 1    /* labels 1 .. k in raster order, 0 for background: the labels of
                                       OpenCV's connectedComponents and scikit-image's label; row r
                                       has label r + 1 */
#define CCL4J_NUMBERING_SIZE 2      /* labels 0 .. k-1, largest component first (equal sizes by smallest
                                       index), -1 for background; row r has label r */

/* The columns of a table (ccl4j_statistics_column). Each is an array of k values of the type
 * given. Coordinates are zero-based cell coordinates x, y, z (z is 0 throughout a 2D mesh). */
#define CCL4J_STAT_LABEL 0       /* int64: the row's label in the table's numbering */
#define CCL4J_STAT_FIRST 1       /* int64: the component's smallest index (its canonical label) */
#define CCL4J_STAT_SIZE 2        /* int64: cells of a mesh component, vertices of a graph component */
/* Mesh tables only. */
#define CCL4J_STAT_MIN_X 3       /* int32: the bounding box, inclusive */
#define CCL4J_STAT_MIN_Y 4
#define CCL4J_STAT_MIN_Z 5
#define CCL4J_STAT_MAX_X 6
#define CCL4J_STAT_MAX_Y 7
#define CCL4J_STAT_MAX_Z 8
#define CCL4J_STAT_CENTROID_X 9  /* double: the mean coordinates of the cells (see below) */
#define CCL4J_STAT_CENTROID_Y 10
#define CCL4J_STAT_CENTROID_Z 11
#define CCL4J_STAT_TOUCHES 12    /* uint32: CCL4J_FACE_* bits of the grid's faces a cell of it lies on */
#define CCL4J_STAT_SUM 13        /* double: the sum of the intensity over the component's cells */
#define CCL4J_STAT_MIN 14        /* double: the smallest intensity */
#define CCL4J_STAT_MAX 15        /* double: the largest intensity */
#define CCL4J_STAT_MEAN 16       /* double: SUM / SIZE */
/* Graph tables only. */
#define CCL4J_STAT_EDGES 17      /* int64: edges among the component's vertices (see below) */
#define CCL4J_STAT_MAX_VERTEX 18 /* int32: the largest vertex id (the smallest is CCL4J_STAT_FIRST) */
#define CCL4J_STAT_MAX_DEGREE 19 /* int64: the largest number of arcs leaving one of its vertices */
/* Mesh tables only. */
#define CCL4J_STAT_WRAPS 20      /* uint32: CCL4J_WRAP_* bits of the periodic axes it wraps around */
/* Mesh tables made with ccl4j_statistics_options.measurements only: the component's shape, in cell
 * units (spacing is applied by the caller: see "Measurements" below). */
#define CCL4J_STAT_MOMENT_XX 21  /* double: the central second moments, sum over its cells of */
#define CCL4J_STAT_MOMENT_YY 22  /* (x - cx)^2, (y - cy)^2, (z - cz)^2, (x - cx)(y - cy), ...: */
#define CCL4J_STAT_MOMENT_ZZ 23  /* scikit-image's moments_central of order 2 */
#define CCL4J_STAT_MOMENT_XY 24
#define CCL4J_STAT_MOMENT_XZ 25
#define CCL4J_STAT_MOMENT_YZ 26
#define CCL4J_STAT_PERIMETER 27   /* double: scikit-image's perimeter of its mask, neighbourhood 4 (2D; 0 in 3D) */
#define CCL4J_STAT_PERIMETER_8 28 /* double: the same with neighbourhood 8 (2D; 0 in 3D) */
#define CCL4J_STAT_FACES_X 29     /* int64: faces of its cells normal to x that it shares with no cell */
#define CCL4J_STAT_FACES_Y 30     /* of it (the other side is another component, background or the */
#define CCL4J_STAT_FACES_Z 31     /* grid's edge); FACES_Z is 0 in 2D */

/* Bits of CCL4J_STAT_TOUCHES: a cell at x = 0 touches X_MIN, at x = width - 1 X_MAX, and so on
 * (on periodic axes too: the faces are those of the array). A 2D mesh has no Z faces. */
#define CCL4J_FACE_X_MIN 1u
#define CCL4J_FACE_X_MAX 2u
#define CCL4J_FACE_Y_MIN 4u
#define CCL4J_FACE_Y_MAX 8u
#define CCL4J_FACE_Z_MIN 16u
#define CCL4J_FACE_Z_MAX 32u

/* Bits of CCL4J_STAT_WRAPS: the component wraps around a periodic axis when it holds a path that
 * leaves through the axis's boundary and comes back to where it started, so that its copies in the
 * periodic continuation of the mesh join into an infinite cluster: it percolates along the axis.
 * Always 0 on open axes. Found by labelling the mesh again with open boundaries (on the CPU, also
 * for a CUDA context) and joining its clusters across the periodic boundaries, with the
 * displacement of each crossing; a loop of non-zero displacement wraps. */
#define CCL4J_WRAP_X 1u
#define CCL4J_WRAP_Y 2u
#define CCL4J_WRAP_Z 4u

/* The intensity a mesh table sums: by default (type NONE) the labelled cells themselves. */
#define CCL4J_INTENSITY_NONE 0
#define CCL4J_INTENSITY_U8 1
#define CCL4J_INTENSITY_I32 2
#define CCL4J_INTENSITY_F32 3
#define CCL4J_INTENSITY_U16 4

typedef struct ccl4j_statistics_options {
    int32_t numbering;           /* CCL4J_NUMBERING_* */
    int32_t intensity_type;      /* CCL4J_INTENSITY_*; NONE: the mesh's cells, intensity argument NULL */
    int64_t intensity_row_stride;   /* the intensity grid's strides in cells, as ccl4j_mesh's (0 = dense); */
    int64_t intensity_layer_stride; /* its extents are the mesh's */
    int32_t measurements;           /* non-zero: also the shape columns CCL4J_STAT_MOMENT_XX .. FACES_Z */
} ccl4j_statistics_options;

/* How the values are computed, on every backend alike:
 *  - sizes, bounding boxes, faces and the sums of coordinates are exact integers; a centroid is
 *    (double) coordinate sum / (double) size, so centroids agree bit for bit across backends;
 *  - integer intensities are summed exactly in 64 bits and converted to double at the end (SUM and
 *    MEAN are then also the same everywhere); float intensities are summed in double in an order
 *    that depends on the backend and the thread count, so SUM and MEAN of F32 may differ in the
 *    last bits between runs;
 *  - NaN intensities take no part in MIN and MAX (NumPy's nanmin and nanmax: NaN only for a
 *    component whose every intensity is NaN) and make SUM and MEAN NaN (np.sum, np.mean), on the
 *    CPU backends; on CUDA a positive NaN is still the largest MAX;
 *  - on periodic axes a cluster that crosses the boundary keeps its cells' coordinates in the
 *    array: its bounding box and centroid are those of its cells as stored (as scikit-image or
 *    OpenCV report for the same array), not of an unwrapped copy, which a cluster wrapping all the
 *    way round (one that percolates) does not have;
 *  - edges of a graph component: each arc u -> v with u < v counts one edge and each self-loop arc
 *    one edge, so a symmetric CSR graph (each edge stored as two arcs) gives its edge count.
 *
 * Measurements (the shape columns), alike on every backend and bit for bit:
 *  - the central moments come from exact sums of the coordinates and of their products (128-bit
 *    integers): MOMENT_XX is (size * sum x^2 - (sum x)^2) / size, the numerator exact, then one
 *    conversion to double and one division; exact while size^2 * extent^2 < 2^127;
 *  - PERIMETER and PERIMETER_8 are scikit-image's perimeter(mask, neighbourhood) of the component's
 *    mask alone (regionprops' perimeter is the 4 one): a cell of the component is on its border
 *    when one of its 4 (8) neighbours is not in it; each border cell weighs by how many of its 4
 *    and diagonal neighbours are border cells of the component: 1 for a straight run (two or three
 *    of its 4 neighbours, up to two diagonals), sqrt(2) for a diagonal one (no 4 neighbour and two
 *    diagonals, or one and three), (1 + sqrt(2)) / 2 for a bend (one 4 neighbour and one or two
 *    diagonals), 0 otherwise. The weights are counted as integers and combined at the end;
 *  - FACES_* count the faces between a cell of the component and a cell outside it or the grid's
 *    edge: the voxelised surface area is FACES_X * dy * dz + FACES_Y * dx * dz + FACES_Z * dx * dy
 *    for cell spacing (dx, dy, dz) (in 2D, FACES_X * dy + FACES_Y * dx is the length of the
 *    pixels' outline);
 *  - on periodic axes the array's edges still bound a component (as scikit-image sees the array).
 * They cost one more pass over the labels in the table's numbering: on CUDA (int32 labels) over
 * the device labels, after the statistics pass and before they are copied back (224 bytes of
 * device memory a component); elsewhere in parallel on the host (int64 tables, CUDA's too). Host
 * memory: about 450 bytes a component while it runs, 224 after. */

/* Labels a mesh like ccl4j_label_mesh and computes the statistics of its clusters in the same
 * call: on CUDA, on the device, in the pass that writes the final labels, without copying the
 * labels to the host for it. labels receives the labels in the options' numbering (NULL stats
 * options: canonical labels, the mesh's cells as intensity). intensity, when the options name a
 * type, is a grid of the mesh's extents with the options' strides (host memory). */
CCL4J_API ccl4j_status ccl4j_label_mesh_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                                   const ccl4j_mesh_options* options,
                                                   const ccl4j_statistics_options* statistics,
                                                   const void* intensity, int32_t* labels, int64_t* components,
                                                   ccl4j_timings* timings);

/* The statistics of the canonical labels of a mesh (host labels; as ccl4j_label_mesh wrote them
 * with `options`, checked: CCL4J_INVALID_INPUT names the first entry that is not). cells is the
 * labelled mesh's cells, the default intensity; it may be NULL when the options name an intensity
 * grid and no axis is periodic (wrapping is found from the cells). options (may be NULL: open
 * boundaries) give the connectivity, boundaries and mode the labels were made with. out receives
 * the labels in the statistics options' numbering (may be labels itself, or NULL). */
CCL4J_API ccl4j_status ccl4j_mesh_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                             const ccl4j_mesh_options* options, const int32_t* labels,
                                             const ccl4j_statistics_options* statistics, const void* intensity,
                                             int32_t* out, int64_t* components);

/* As ccl4j_label_mesh_statistics, into int64 labels (meshes of any size, as ccl4j_label_mesh64
 * labels them). The table is computed on the host by the parallel CPU engine on every backend:
 * on CUDA the int64 labelling leaves its labels in host memory, and the device pass of
 * ccl4j_label_mesh_statistics numbers cells and rows with int32. A table holds at most INT32_MAX
 * rows (CCL4J_UNSUPPORTED beyond, naming the count); its LABEL and FIRST columns are int64 as in
 * every table. Host memory: about 200 bytes a component while the table is made, 100 after. */
CCL4J_API ccl4j_status ccl4j_label_mesh64_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                                     const ccl4j_mesh_options* options,
                                                     const ccl4j_statistics_options* statistics,
                                                     const void* intensity, int64_t* labels, int64_t* components,
                                                     ccl4j_timings* timings);

/* As ccl4j_mesh_statistics, for int64 canonical labels (as ccl4j_label_mesh64 wrote them); out
 * receives int64 labels in the numbering. Computed on the host as above. */
CCL4J_API ccl4j_status ccl4j_mesh64_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                               const ccl4j_mesh_options* options, const int64_t* labels,
                                               const ccl4j_statistics_options* statistics, const void* intensity,
                                               int64_t* out, int64_t* components);

/* The statistics of the canonical labels of a host CSR graph (labels as ccl4j_label_graph wrote
 * them, vertex_count entries, checked). numbering is a CCL4J_NUMBERING_* (graphs have no
 * background: RASTER labels 1 .. k); out receives the labels in it (may be labels, or NULL). */
CCL4J_API ccl4j_status ccl4j_graph_statistics(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                              const int32_t* neighbors, const int32_t* labels, int32_t numbering,
                                              int32_t* out, int64_t* components);

/* Copies rows first .. first + count - 1 of a column of the context's last table into out (count
 * values of the column's type). CCL4J_INVALID_ARGUMENT when there is no table, the column does
 * not belong to its kind (mesh or graph), or the rows are outside 0 .. k-1. */
CCL4J_API ccl4j_status ccl4j_statistics_column(ccl4j_context context, int32_t column, int64_t first, int64_t count,
                                               void* out);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_STATISTICS_H */
