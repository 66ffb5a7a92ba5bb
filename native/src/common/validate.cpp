#include "common/validate.hpp"

#include <sys/random.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "common/arc_hash.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"

namespace ccl4j {
namespace {

int64_t offset_at(const void* offsets, int32_t width, int64_t i) {
    return width == 4 ? static_cast<const int32_t*>(offsets)[i] : static_cast<const int64_t*>(offsets)[i];
}

// Lowest index i in [0, count) for which bad(i) holds, or -1; parallel but deterministic.
template <class Bad>
int64_t first_violation(int64_t count, int threads, Bad bad) {
    std::atomic<int64_t> first{count};
    parallel::for_each(int64_t{0}, count, threads, [&](int64_t i) {
        if (i < first.load(std::memory_order_relaxed) && bad(i)) {
            int64_t seen = first.load(std::memory_order_relaxed);
            while (i < seen && !first.compare_exchange_weak(seen, i)) {
            }
        }
    });
    int64_t f = first.load();
    return f == count ? -1 : f;
}

template <class Offset>
void fail_on_decreasing_offset(const CsrView<Offset>& g, int threads) {
    const int64_t v = first_violation(g.vertex_count, threads, [&](int64_t i) { return g.offsets[i] > g.offsets[i + 1]; });
    if (v >= 0) {
        fail(CCL4J_INVALID_INPUT, "offsets decrease at vertex " + std::to_string(v) + ": offsets[" + std::to_string(v) +
                                      "] = " + std::to_string(g.offsets[v]) + " > offsets[" + std::to_string(v + 1) +
                                      "] = " + std::to_string(g.offsets[v + 1]));
    }
}

template <class Offset>
void fail_on_id_out_of_range(const CsrView<Offset>& g, int threads) {
    const int64_t a = first_violation(g.arc_count, threads, [&](int64_t i) {
        const int32_t u = g.neighbors[i];
        return u < 0 || u >= g.vertex_count;
    });
    if (a >= 0) {
        fail(CCL4J_INVALID_INPUT, "neighbour id " + std::to_string(g.neighbors[a]) + " at arc " + std::to_string(a) +
                                      " is outside 0.." + std::to_string(int64_t(g.vertex_count) - 1));
    }
}

// One pass over the arcs of a graph with monotone offsets: whether every neighbour id is in
// range, and the multiset hash difference of the arcs and their reverses (0 when symmetric).
struct ArcScan {
    bool ids_in_range = true;
    uint64_t difference = 0;

    void add(const ArcScan& other) {
        ids_in_range = ids_in_range && other.ids_in_range;
        difference = add_mod(difference, other.difference);
    }
};

// The scan of the arcs of vertices [first, last). The key and the vertex count are local values
// here, held in registers: read through a closure they were loaded again for every arc.
template <class Offset>
ArcScan scan_vertices(const CsrView<Offset>& g, uint64_t key, int32_t first, int32_t last) {
    const int32_t n = g.vertex_count;
    ArcScan scan;
    for (int32_t u = first; u < last; ++u) {
        for (Offset a = g.begin(u); a < g.end(u); ++a) {
            const int32_t v = g.neighbors[a];
            if (v < 0 || v >= n) {
                scan.ids_in_range = false;
                continue;
            }
            scan.difference = add_mod(scan.difference, arc_difference(key, uint32_t(u), uint32_t(v)));
        }
    }
    return scan;
}

template <class Offset>
ArcScan scan_arcs(const CsrView<Offset>& g, int threads) {
    const uint64_t key = arc_hash_key();
    std::vector<ArcScan> parts(static_cast<size_t>(parallel::thread_count(threads)));
    parallel::for_chunks(0, g.vertex_count, 1024, threads, [&](int part, int32_t first, int32_t last) {
        parts[part].add(scan_vertices(g, key, first, last));
    });
    ArcScan all;
    for (const ArcScan& p : parts) all.add(p);
    return all;
}

// The exact symmetry test, which names the first vertex or arcs at fault: every arc (u, v) needs a
// reverse (v, u) with the same multiplicity. The transposed graph built by counting sort has each
// in-list sorted by source, so it must equal the sorted out-list.
template <class Offset>
void fail_on_asymmetry(const CsrView<Offset>& g) {
    const int32_t n = g.vertex_count;
    std::vector<int64_t> in_start(static_cast<size_t>(n) + 1, 0);
    for (int64_t a = 0; a < g.arc_count; ++a) ++in_start[static_cast<size_t>(g.neighbors[a]) + 1];
    for (int32_t v = 0; v < n; ++v) in_start[v + 1] += in_start[v];
    for (int32_t v = 0; v < n; ++v) {
        int64_t in = in_start[v + 1] - in_start[v];
        if (in != g.degree(v)) {
            fail(CCL4J_INVALID_INPUT, "graph is not symmetric: vertex " + std::to_string(v) + " has " +
                                          std::to_string(g.degree(v)) + " outgoing arcs but " + std::to_string(in) +
                                          " incoming arcs");
        }
    }
    std::vector<int32_t> in_sources(static_cast<size_t>(g.arc_count));
    std::vector<int64_t> fill(in_start.begin(), in_start.end() - 1);
    for (int32_t u = 0; u < n; ++u) {
        for (int64_t a = g.begin(u); a < g.end(u); ++a) in_sources[fill[g.neighbors[a]]++] = u;
    }
    std::vector<int32_t> out;
    for (int32_t v = 0; v < n; ++v) {
        out.assign(g.neighbors + g.begin(v), g.neighbors + g.end(v));
        std::sort(out.begin(), out.end());
        for (size_t i = 0; i < out.size(); ++i) {
            int32_t in = in_sources[in_start[v] + static_cast<int64_t>(i)];
            if (in != out[i]) {
                int32_t w = std::min(in, out[i]);
                fail(CCL4J_INVALID_INPUT, "graph is not symmetric: arcs " + std::to_string(v) + " -> " +
                                              std::to_string(w) + " and " + std::to_string(w) + " -> " +
                                              std::to_string(v) + " occur a different number of times");
            }
        }
    }
}

}  // namespace

uint64_t arc_hash_key() {
    // getrandom (glibc 2.25) rather than std::random_device, whose libstdc++ build needs arc4random
    // (glibc 2.36). Without kernel randomness the clock still varies the key between processes.
    static const uint64_t key = [] {
        uint64_t k = 0;
        if (getrandom(&k, sizeof k, 0) != static_cast<ssize_t>(sizeof k)) {
            k = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) *
                0x9E3779B97F4A7C15ull;
        }
        return k;
    }();
    return key;
}

Graph validate_sizes(const ccl4j_csr* graph, const void* offsets, const int32_t* neighbors) {
    if (!graph) fail(CCL4J_INVALID_ARGUMENT, "graph is NULL");
    const ccl4j_csr& g = *graph;
    if (g.vertex_count < 0) fail(CCL4J_INVALID_ARGUMENT, "vertex_count is negative: " + std::to_string(g.vertex_count));
    if (g.vertex_count > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "vertex_count " + std::to_string(g.vertex_count) + " exceeds the 32-bit id range");
    }
    if (g.arc_count < 0) fail(CCL4J_INVALID_ARGUMENT, "arc_count is negative: " + std::to_string(g.arc_count));
    if (g.offset_width != 4 && g.offset_width != 8) {
        fail(CCL4J_INVALID_ARGUMENT, "offset_width must be 4 or 8, got " + std::to_string(g.offset_width));
    }
    if (g.offset_width == 4 && g.arc_count > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "arc_count " + std::to_string(g.arc_count) + " needs 64-bit offsets");
    }
    if (!offsets) fail(CCL4J_INVALID_ARGUMENT, "offsets is NULL");
    if (!neighbors && g.arc_count > 0) {
        fail(CCL4J_INVALID_ARGUMENT, "neighbors is NULL but arc_count is " + std::to_string(g.arc_count));
    }
    const int64_t first = offset_at(offsets, g.offset_width, 0);
    if (first != 0) fail(CCL4J_INVALID_INPUT, "offsets[0] must be 0, got " + std::to_string(first));
    const int64_t last = offset_at(offsets, g.offset_width, g.vertex_count);
    if (last != g.arc_count) {
        fail(CCL4J_INVALID_INPUT, "offsets[" + std::to_string(g.vertex_count) + "] = " + std::to_string(last) +
                                      " but arc_count is " + std::to_string(g.arc_count));
    }
    return Graph{static_cast<int32_t>(g.vertex_count), g.arc_count, g.offset_width, offsets, neighbors};
}

void check_input(const Graph& graph, int threads) {
    const int t = parallel::thread_count(threads);
    graph.visit([&](const auto& view) {
        // Monotone offsets first: only then do the arcs of every vertex lie within the arrays.
        fail_on_decreasing_offset(view, t);
        const ArcScan scan = scan_arcs(view, t);
        if (!scan.ids_in_range) fail_on_id_out_of_range(view, t);
        if (scan.difference != 0) fail_on_asymmetry(view);
    });
}

void check_offsets(const Graph& graph, int threads) {
    const int t = parallel::thread_count(threads);
    graph.visit([&](const auto& view) { fail_on_decreasing_offset(view, t); });
}

void check_strides(int32_t width, int32_t height, int32_t depth, int32_t cell_bytes, int64_t row_stride,
                   int64_t layer_stride) {
    if (row_stride < 0) fail(CCL4J_INVALID_ARGUMENT, "mesh row_stride " + std::to_string(row_stride) + " is negative");
    if (layer_stride < 0) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh layer_stride " + std::to_string(layer_stride) + " is negative");
    }
    const int64_t rows = row_stride ? row_stride : width;
    if (rows < width) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh row_stride " + std::to_string(rows) + " is less than the width " +
                                         std::to_string(width) + ": rows would overlap");
    }
    int64_t layer = 0;  // the least layer stride
    if (__builtin_mul_overflow(rows, int64_t(height), &layer)) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh row_stride " + std::to_string(rows) + " times the height " +
                                         std::to_string(height) + " does not fit int64");
    }
    const int64_t layers = layer_stride ? layer_stride : layer;
    if (layers < layer) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh layer_stride " + std::to_string(layers) + " is less than row stride " +
                                         std::to_string(rows) + " * height " + std::to_string(height) + " = " +
                                         std::to_string(layer) + ": layers would overlap");
    }
    // span = (depth - 1) * layer stride + (height - 1) * row stride + width cells
    int64_t span = 0, in_layer = 0;
    uint64_t bytes = 0;
    const bool too_far = __builtin_mul_overflow(int64_t(depth - 1), layers, &span) ||
                         __builtin_mul_overflow(int64_t(height - 1), rows, &in_layer) ||
                         __builtin_add_overflow(span, in_layer, &span) ||
                         __builtin_add_overflow(span, int64_t(width), &span) ||
                         __builtin_mul_overflow(uint64_t(span), uint64_t(cell_bytes), &bytes) || bytes > SIZE_MAX;
    if (too_far) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh strides reach beyond what memory can address: " + std::to_string(width) +
                                         "x" + std::to_string(height) + "x" + std::to_string(depth) +
                                         " with row_stride " + std::to_string(rows) + " and layer_stride " +
                                         std::to_string(layers) + " cells");
    }
}

void check_disjoint(const void* output, size_t output_bytes, const char* output_name, const void* input,
                    size_t input_bytes, const char* input_name) {
    if (output_bytes == 0 || input_bytes == 0 || !output || !input) return;
    const auto out = reinterpret_cast<uintptr_t>(output);
    const auto in = reinterpret_cast<uintptr_t>(input);
    if (out < in + input_bytes && in < out + output_bytes) {
        fail(CCL4J_INVALID_ARGUMENT, std::string(output_name) + " overlap the " + input_name +
                                         ": the output must not share memory with the input");
    }
}

}  // namespace ccl4j
