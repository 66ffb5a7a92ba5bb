/*
 * ccl4j: contacts between the components of a labelled mesh, the region adjacency graph with
 * contact counts (cc3d's contacts and region_graph). Included by ccl4j.h.
 */
#ifndef CCL4J_CONTACTS_H
#define CCL4J_CONTACTS_H

#include "common.h"
#include "mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- contacts between components ----------------------------------------------------------- */

/* The pairs of labels a < b whose cells touch, with how they touch. Two cells touch when they
 * are neighbours under `connectivity`: 4 or 8 on a 2D mesh (depth 1), 6 (faces), 18 (faces and
 * edges) or 26 (faces, edges and corners) on a 3D one; 0 = faces (4 in 2D, 6 in 3D). On a 2D mesh
 * the 3D stencils act as planar ones (6 as 4, 18 and 26 as 8); 4 and 8 on a 3D mesh are
 * CCL4J_INVALID_ARGUMENT. `periodic` (CCL4J_PERIODIC_* bits) makes cells across the mesh's
 * boundary on those axes neighbours too.
 *
 * labels: one per cell of the mesh, dense (cell (x, y, z) at x + width * (y + height * z)), host
 * memory, each in [0, cell count) or -1; -1 cells (background) touch nothing. Any labelling will
 * do: canonical labels of ccl4j_label_mesh (in CCL4J_MESH_SAME_VALUE mode neighbouring clusters
 * differ in value and touch; in foreground mode clusters touch only under a wider stencil than
 * they were labelled with), or a segmentation of the caller's. A label outside that range is
 * CCL4J_INVALID_INPUT, naming the first such cell. Only the mesh's extents are read (the labels
 * are dense whatever its strides), and it has at most INT32_MAX cells.
 *
 * Row r describes the pair (first[r], second[r]), first < second, rows ascending by first, then
 * second (the pairs are cc3d's region_graph):
 *  - contacts[r]: the unordered pairs of neighbouring cells, one labelled first and one second,
 *    each pair once (cc3d's contacts with surface_area=False);
 *  - x_faces[r], y_faces[r], z_faces[r]: those pairs that share a face across x (the cells differ
 *    in x only), across y, across z (0 in 2D). cc3d's contact area (surface_area=True) with
 *    anisotropy (wx, wy, wz) is x_faces * wy * wz + y_faces * wx * wz + z_faces * wx * wy in 3D
 *    and x_faces * wy + y_faces * wx in 2D: edges and corners have no area.
 * *pairs receives the number of pairs; the first min(capacity, pairs) rows are written, each
 * output may be NULL (capacity 0 and NULL outputs: a first call that sizes the second). Every
 * count is exact, so every backend gives the same table. On a CUDA context the work runs on the
 * device (the labels are copied there), or on the host when the device lacks the memory for its
 * sort (about 28 bytes per contact of two cells) or there are more than INT32_MAX such contacts;
 * on the CPU backends on the host. */
CCL4J_API ccl4j_status ccl4j_mesh_contacts(ccl4j_context context, const ccl4j_mesh* mesh, const int32_t* labels,
                                           int32_t connectivity, uint32_t periodic, int64_t capacity, int32_t* first,
                                           int32_t* second, int64_t* contacts, int64_t* x_faces, int64_t* y_faces,
                                           int64_t* z_faces, int64_t* pairs);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_CONTACTS_H */
