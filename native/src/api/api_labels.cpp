// The C ABI of the label book-keeping (section "label book-keeping" of ccl4j.h): argument checks
// and dispatch to the CPU (cpu/label_stats) or the GPU (cuda/label_stats).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "api/context.hpp"
#include "ccl4j.h"
#include "common/csr.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"
#include "cpu/label_stats.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/label_stats.hpp"
#endif

namespace {

using namespace ccl4j::api;
using ccl4j::fail;
namespace cpu = ccl4j::cpu;

// A checked label array: host labels (nullptr when they are on the device) and their count.
struct Source {
    const int32_t* host;
    int32_t count;
    bool on_device;
};

Source check_labels(const ccl4j_context_s& context, const ccl4j_label_array* array, const int32_t* labels) {
    if (!array) fail(CCL4J_INVALID_ARGUMENT, "label array is NULL");
    if (array->count < 0 || array->count > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "label count " + std::to_string(array->count) + " is outside 0 .. " +
                                         std::to_string(INT32_MAX));
    }
    const int32_t count = static_cast<int32_t>(array->count);
    if (array->location == CCL4J_LABELS_HOST) {
        if (!labels && count > 0) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        return {labels, count, false};
    }
    if (array->location != CCL4J_LABELS_DEVICE) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown label location " + std::to_string(array->location));
    }
    require_cuda(context, "labels on the device");
    if (labels) fail(CCL4J_INVALID_ARGUMENT, "labels on the device take a NULL labels pointer");
    return {nullptr, count, true};
}

// An output of one entry per label may be the labels themselves (rewritten in place, entry by
// entry) or lie apart from them; a partial overlap would overwrite labels before they are read.
void check_in_place_or_disjoint(const Source& s, const int32_t* out, const char* name) {
    if (out == s.host) return;
    const size_t bytes = static_cast<size_t>(s.count) * sizeof(int32_t);
    ccl4j::check_disjoint(out, bytes, name, s.host, bytes, "labels");
}

void check_order(int32_t order) {
    if (order != CCL4J_ORDER_SMALLEST_MEMBER && order != CCL4J_ORDER_SIZE_DESCENDING) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown component order " + std::to_string(order));
    }
}

void check_capacity(int64_t capacity, const char* what) {
    if (capacity < 0) fail(CCL4J_INVALID_ARGUMENT, std::string(what) + " is negative: " + std::to_string(capacity));
}

int cpu_threads(const ccl4j_context_s& context) { return context.backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : 0; }

// Threads for one pass over the labels: a plain loop up to 2^16 entries.
int pass_threads(const ccl4j_context_s& context, const Source& s) {
    return s.count > (1 << 16) ? cpu_threads(context) : 1;
}

cpu::ComponentTable table(const ccl4j_context_s& context, const Source& s) {
    return cpu::analyze(s.host, s.count, cpu_threads(context));
}

#ifdef CCL4J_WITH_CUDA
bool on_gpu(const ccl4j_context_s& context) { return context.backend == CCL4J_BACKEND_CUDA; }

ccl4j::cuda::LabelSource device_source(const Source& s) { return {s.host, s.count}; }
#endif

ccl4j_label_summary summary(ccl4j_context_s& context, const Source& s) {
#ifdef CCL4J_WITH_CUDA
    if (on_gpu(context)) return ccl4j::cuda::label_summary(*context.cuda, device_source(s));
#endif
    const cpu::ComponentTable t = table(context, s);
    ccl4j_label_summary out{};
    out.count = s.count;
    out.labelled = t.labelled;
    out.components = static_cast<int64_t>(t.label.size());
    out.largest_label = -1;
    for (size_t c = 0; c < t.size.size(); ++c) {
        const int32_t size = t.size[c];
        if (size > out.largest_size || (size == out.largest_size && t.label[c] < out.largest_label)) {
            out.largest_size = size;
            out.largest_label = t.label[c];
        }
        out.smallest_size = out.smallest_size == 0 ? size : std::min(out.smallest_size, size);
    }
    return out;
}

}  // namespace

extern "C" {

ccl4j_status ccl4j_labels_summary(ccl4j_context context, const ccl4j_label_array* array, const int32_t* labels,
                                  ccl4j_label_summary* out) {
    return with_context(context, [&] {
        const Source s = check_labels(*context, array, labels);
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "summary output is NULL");
        *out = summary(*context, s);
    });
}

ccl4j_status ccl4j_labels_components(ccl4j_context context, const ccl4j_label_array* array, const int32_t* labels,
                                     int32_t order, int64_t capacity, int32_t* component_labels, int32_t* sizes,
                                     int64_t* components) {
    return with_context(context, [&] {
        const Source s = check_labels(*context, array, labels);
        check_order(order);
        check_capacity(capacity, "capacity");
        int64_t k = 0;
#ifdef CCL4J_WITH_CUDA
        if (on_gpu(*context)) {
            k = ccl4j::cuda::label_components(*context->cuda, device_source(s), order, capacity, component_labels, sizes);
            if (components) *components = k;
            return;
        }
#endif
        const cpu::ComponentTable t = table(*context, s);
        k = static_cast<int64_t>(t.label.size());
        const std::vector<int32_t> position = cpu::positions(t, order);
        for (int64_t c = 0; c < k; ++c) {
            const int64_t p = position[c];
            if (p >= capacity) continue;
            if (component_labels) component_labels[p] = t.label[c];
            if (sizes) sizes[p] = t.size[c];
        }
        if (components) *components = k;
    });
}

ccl4j_status ccl4j_labels_compact(ccl4j_context context, const ccl4j_label_array* array, const int32_t* labels,
                                  int32_t order, int32_t* out, int64_t* components) {
    return with_context(context, [&] {
        const Source s = check_labels(*context, array, labels);
        check_order(order);
        if (!out && s.count > 0) fail(CCL4J_INVALID_ARGUMENT, "compaction output is NULL");
        check_in_place_or_disjoint(s, out, "compaction output");
        int64_t k = 0;
#ifdef CCL4J_WITH_CUDA
        if (on_gpu(*context)) {
            k = ccl4j::cuda::label_compact(*context->cuda, device_source(s), order, out);
            if (components) *components = k;
            return;
        }
#endif
        cpu::ComponentTable t = table(*context, s);
        k = static_cast<int64_t>(t.label.size());
        const std::vector<int32_t> position = cpu::positions(t, order);
        // Each label's new index, then one pass that may write over the labels themselves.
        for (int32_t l = 0; l < s.count; ++l) {
            if (t.id[l] >= 0) t.id[l] = position[t.id[l]];
        }
        const int32_t* in = s.host;
        ccl4j::parallel::for_each(0, s.count, pass_threads(*context, s), [&](int32_t i) {
            const int32_t l = in[i];
            out[i] = l >= 0 ? cpu::component_of(t, i, l) : -1;
        });
        if (components) *components = k;
    });
}

ccl4j_status ccl4j_labels_histogram(ccl4j_context context, const ccl4j_label_array* array, const int32_t* labels,
                                    int32_t binning, int64_t capacity, int32_t* bin_sizes, int32_t* bin_counts,
                                    int64_t* bins) {
    return with_context(context, [&] {
        const Source s = check_labels(*context, array, labels);
        if (binning != CCL4J_HISTOGRAM_EXACT && binning != CCL4J_HISTOGRAM_LOG2) {
            fail(CCL4J_INVALID_ARGUMENT, "unknown histogram binning " + std::to_string(binning));
        }
        check_capacity(capacity, "capacity");
#ifdef CCL4J_WITH_CUDA
        if (on_gpu(*context)) {
            const int64_t b =
                ccl4j::cuda::label_histogram(*context->cuda, device_source(s), binning, capacity, bin_sizes, bin_counts);
            if (bins) *bins = b;
            return;
        }
#endif
        std::vector<int32_t> starts, counts;
        cpu::histogram(table(*context, s), binning, starts, counts);
        const int64_t b = static_cast<int64_t>(starts.size());
        for (int64_t i = 0; i < std::min(capacity, b); ++i) {
            if (bin_sizes) bin_sizes[i] = starts[i];
            if (bin_counts) bin_counts[i] = counts[i];
        }
        if (bins) *bins = b;
    });
}

ccl4j_status ccl4j_labels_members(ccl4j_context context, const ccl4j_label_array* array, const int32_t* labels,
                                  int32_t order, int64_t offsets_capacity, int32_t* offsets, int64_t members_capacity,
                                  int32_t* members) {
    return with_context(context, [&] {
        const Source s = check_labels(*context, array, labels);
        check_order(order);
        check_capacity(offsets_capacity, "offsets capacity");
        check_capacity(members_capacity, "members capacity");
        if (!offsets) fail(CCL4J_INVALID_ARGUMENT, "offsets is NULL");
        // The sizes come first, so that no buffer is written unless both are large enough.
        const ccl4j_label_summary sum = summary(*context, s);
        if (offsets_capacity < sum.components + 1) {
            fail(CCL4J_INVALID_ARGUMENT, "offsets holds " + std::to_string(offsets_capacity) + " entries; " +
                                             std::to_string(sum.components + 1) + " are needed");
        }
        if (members_capacity < sum.labelled) {
            fail(CCL4J_INVALID_ARGUMENT, "members holds " + std::to_string(members_capacity) + " entries; " +
                                             std::to_string(sum.labelled) + " are needed");
        }
        if (!members && sum.labelled > 0) fail(CCL4J_INVALID_ARGUMENT, "members is NULL");
#ifdef CCL4J_WITH_CUDA
        if (on_gpu(*context)) return ccl4j::cuda::label_members(*context->cuda, device_source(s), order, offsets, members);
#endif
        const cpu::ComponentTable t = table(*context, s);
        cpu::members(t, s.host, cpu::positions(t, order), offsets, members);
    });
}

ccl4j_status ccl4j_labels_component_members(ccl4j_context context, const ccl4j_label_array* array,
                                            const int32_t* labels, int32_t label, int64_t capacity, int32_t* members,
                                            int64_t* size) {
    return with_context(context, [&] {
        const Source s = check_labels(*context, array, labels);
        check_capacity(capacity, "capacity");
        if (!members && capacity > 0) fail(CCL4J_INVALID_ARGUMENT, "members is NULL");
        if (label < 0 || label >= s.count) {
            fail(CCL4J_INVALID_ARGUMENT, "label " + std::to_string(label) + " is outside 0 .. " +
                                             std::to_string(static_cast<int64_t>(s.count) - 1));
        }
        int64_t found = 0;
#ifdef CCL4J_WITH_CUDA
        if (on_gpu(*context)) {
            found = ccl4j::cuda::label_component_members(*context->cuda, device_source(s), label, capacity, members);
            if (size) *size = found;
            return;
        }
#endif
        found = cpu::component_members(s.host, s.count, label, capacity, members);
        if (size) *size = found;
    });
}

ccl4j_status ccl4j_labels_filter(ccl4j_context context, const ccl4j_label_array* array, const int32_t* labels,
                                 int32_t min_size, int32_t max_size, int32_t* out, int64_t* kept) {
    return with_context(context, [&] {
        const Source s = check_labels(*context, array, labels);
        if (!out && s.count > 0) fail(CCL4J_INVALID_ARGUMENT, "filter output is NULL");
        check_in_place_or_disjoint(s, out, "filter output");
        if (min_size < 0 || max_size < 0) {
            fail(CCL4J_INVALID_ARGUMENT, "size bounds must not be negative: " + std::to_string(min_size) + " .. " +
                                             std::to_string(max_size));
        }
        int64_t k = 0;
#ifdef CCL4J_WITH_CUDA
        if (on_gpu(*context)) {
            k = ccl4j::cuda::label_filter(*context->cuda, device_source(s), min_size, max_size, out);
            if (kept) *kept = k;
            return;
        }
#endif
        const cpu::ComponentTable t = table(*context, s);
        std::vector<char> keep(t.size.size());
        for (size_t c = 0; c < t.size.size(); ++c) {
            keep[c] = t.size[c] >= min_size && t.size[c] <= max_size;
            k += keep[c];
        }
        const int32_t* in = s.host;
        ccl4j::parallel::for_each(0, s.count, pass_threads(*context, s), [&](int32_t i) {
            const int32_t l = in[i];
            out[i] = l >= 0 && keep[cpu::component_of(t, i, l)] ? l : -1;
        });
        if (kept) *kept = k;
    });
}

ccl4j_status ccl4j_induced_subgraph(ccl4j_context context, const ccl4j_csr* graph, const void* graph_offsets,
                                    const int32_t* graph_neighbors, const int32_t* vertices, int64_t vertex_count,
                                    int32_t offset_width, void* offsets, int32_t* neighbors,
                                    int64_t neighbors_capacity, int64_t* arc_count) {
    return with_context(context, [&] {
        const ccl4j::Graph g = ccl4j::validate_sizes(graph, graph_offsets, graph_neighbors);
        if (vertex_count < 0 || vertex_count > g.vertex_count) {
            fail(CCL4J_INVALID_ARGUMENT, "vertex count " + std::to_string(vertex_count) + " is outside 0 .. " +
                                             std::to_string(g.vertex_count));
        }
        if (!vertices && vertex_count > 0) fail(CCL4J_INVALID_ARGUMENT, "vertices is NULL");
        if (!arc_count) fail(CCL4J_INVALID_ARGUMENT, "arc_count is NULL");
        const int32_t n = static_cast<int32_t>(vertex_count);
        const int64_t arcs = cpu::induced_arc_count(g, vertices, n);
        *arc_count = arcs;
        if (!offsets && !neighbors) return;
        if (offset_width != 4 && offset_width != 8) {
            fail(CCL4J_INVALID_ARGUMENT, "offset width must be 4 or 8, got " + std::to_string(offset_width));
        }
        if (offset_width == 4 && arcs > INT32_MAX) {
            fail(CCL4J_INVALID_ARGUMENT, std::to_string(arcs) + " arcs need 8-byte offsets");
        }
        if (!offsets) fail(CCL4J_INVALID_ARGUMENT, "offsets is NULL");
        if (!neighbors && arcs > 0) fail(CCL4J_INVALID_ARGUMENT, "neighbors is NULL");
        if (neighbors_capacity < arcs) {
            fail(CCL4J_INVALID_ARGUMENT, "neighbors holds " + std::to_string(neighbors_capacity) + " entries; " +
                                             std::to_string(arcs) + " are needed");
        }
        cpu::induced_subgraph(g, vertices, n, offset_width, offsets, neighbors);
    });
}

}  // extern "C"
