/*
 * ccl4j: label book-keeping (counts, compaction, sizes, histograms, members) and induced
 * subgraphs. Included by ccl4j.h.
 */
#ifndef CCL4J_LABELS_H
#define CCL4J_LABELS_H

#include "common.h"
#include "graph.h"

#ifdef __cplusplus
extern "C" {
#endif

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
                                 its device (labels argument NULL, count == that graph's vertices) */

/* The shape of a label array; the labels themselves are the argument after it (`labels`):
 * count entries of host memory (CCL4J_LABELS_HOST), or NULL (CCL4J_LABELS_DEVICE). */
typedef struct ccl4j_label_array {
    int64_t count;    /* entries, at most INT32_MAX */
    int32_t location; /* CCL4J_LABELS_HOST or CCL4J_LABELS_DEVICE */
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
CCL4J_API ccl4j_status ccl4j_labels_summary(ccl4j_context context, const ccl4j_label_array* array,
                                            const int32_t* labels, ccl4j_label_summary* out);

/* The first min(capacity, components) components in `order`: their labels and sizes (either
 * output may be NULL). With CCL4J_ORDER_SIZE_DESCENDING and capacity k, the k largest.
 * *components (may be NULL) receives the component count. */
CCL4J_API ccl4j_status ccl4j_labels_components(ccl4j_context context, const ccl4j_label_array* array,
                                               const int32_t* labels, int32_t order, int64_t capacity,
                                               int32_t* component_labels, int32_t* sizes, int64_t* components);

/* out[i] = the position of entry i's component in `order` (0 .. components - 1), or -1 where the
 * entry is -1. out has array->count entries (host) and may be labels itself.
 * *components (may be NULL) receives the component count. */
CCL4J_API ccl4j_status ccl4j_labels_compact(ccl4j_context context, const ccl4j_label_array* array,
                                            const int32_t* labels, int32_t order, int32_t* out, int64_t* components);

/* The size histogram: bin_sizes[b] is the size (EXACT) or the smallest size (LOG2) of bin b,
 * bin_counts[b] its number of components; the first min(capacity, bins) bins are written
 * (either output may be NULL) and *bins (may be NULL) receives the number of bins. */
CCL4J_API ccl4j_status ccl4j_labels_histogram(ccl4j_context context, const ccl4j_label_array* array,
                                              const int32_t* labels, int32_t binning, int64_t capacity,
                                              int32_t* bin_sizes, int32_t* bin_counts, int64_t* bins);

/* The members of every component, as CSR: component c (in `order`) has the members
 * members[offsets[c] .. offsets[c + 1]), ascending. offsets needs components + 1 entries and
 * members `labelled` entries (see ccl4j_labels_summary); smaller capacities are refused. */
CCL4J_API ccl4j_status ccl4j_labels_members(ccl4j_context context, const ccl4j_label_array* array,
                                            const int32_t* labels, int32_t order, int64_t offsets_capacity,
                                            int32_t* offsets, int64_t members_capacity, int32_t* members);

/* The members of the component labelled `label`, ascending: the first min(capacity, size) are
 * written; *size (may be NULL) receives the component's size (0 when no entry has that label). */
CCL4J_API ccl4j_status ccl4j_labels_component_members(ccl4j_context context, const ccl4j_label_array* array,
                                                      const int32_t* labels, int32_t label, int64_t capacity,
                                                      int32_t* members, int64_t* size);

/* Keeps the components whose size is in [min_size, max_size]: out[i] = labels[i] there, -1
 * elsewhere. out has array->count entries (host) and may be labels itself.
 * *kept (may be NULL) receives the number of components kept. */
CCL4J_API ccl4j_status ccl4j_labels_filter(ccl4j_context context, const ccl4j_label_array* array,
                                           const int32_t* labels, int32_t min_size, int32_t max_size, int32_t* out,
                                           int64_t* kept);

/* The subgraph of a host CSR graph (graph_offsets, graph_neighbors) induced by `vertices` (vertex_count distinct ids in
 * [0, graph->vertex_count), ascending), with vertex vertices[i] renumbered i. *arc_count receives
 * its arc count; with offsets and neighbors NULL nothing else is written (the first call).
 * Otherwise offsets gets vertex_count + 1 entries of offset_width bytes (4 or 8) and neighbors
 * *arc_count entries (neighbors_capacity at least that). Runs on the host. */
CCL4J_API ccl4j_status ccl4j_induced_subgraph(ccl4j_context context, const ccl4j_csr* graph,
                                              const void* graph_offsets, const int32_t* graph_neighbors,
                                              const int32_t* vertices,
                                              int64_t vertex_count, int32_t offset_width, void* offsets,
                                              int32_t* neighbors, int64_t neighbors_capacity, int64_t* arc_count);

#ifdef __cplusplus
}
#endif

#endif /* CCL4J_LABELS_H */
