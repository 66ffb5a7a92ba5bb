// The book-keeping of label arrays on the CPU. The serial analysis numbers components as it
// meets them; the parallel one (for large arrays) counts sizes and first members per label with
// one atomic per run of equal labels, then numbers the first members with a prefix sum.
#include "cpu/label_stats.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "common/error.hpp"
#include "common/label_arrays.hpp"
#include "common/parallel.hpp"

namespace ccl4j::cpu {

namespace {

[[noreturn]] void fail_changed(int64_t index) {
    fail(CCL4J_INVALID_INPUT, "label array: entry " + std::to_string(index) +
                                  " changed during the call (labels must not change while a function reads them)");
}

// Below this many entries the parallel analysis costs more than it saves.
constexpr int32_t kParallelThreshold = 1 << 16;

ComponentTable analyze_serial(const int32_t* labels, int32_t count) {
    ComponentTable t;
    t.count = count;
    t.id.assign(count, -1);
    for (int32_t i = 0; i < count; ++i) {
        const int32_t l = labels[i];
        if (l == -1) continue;
        if (l < -1 || l >= count) fail_bad_label(i, l, count);
        int32_t& id = t.id[l];
        if (id < 0) {
            id = static_cast<int32_t>(t.label.size());
            t.label.push_back(l);
            t.size.push_back(0);
        }
        ++t.size[id];
        ++t.labelled;
    }
    return t;
}

void atomic_min(int32_t& target, int32_t value) {
    int32_t seen = __atomic_load_n(&target, __ATOMIC_RELAXED);
    while (value < seen &&
           !__atomic_compare_exchange_n(&target, &seen, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

ComponentTable analyze_parallel(const int32_t* labels, int32_t count, int threads) {
    // Every pass cuts the entries into the same `parts` contiguous blocks.
    const int parts = parallel::thread_count(threads);
    // The first bad entry, found before any table is indexed with a label.
    std::vector<int32_t> bad(parts, INT32_MAX);  // per block
    parallel::for_blocks(0, count, parts, [&](int part, int32_t begin, int32_t end) {
        for (int32_t i = begin; i < end; ++i) {
            if (labels[i] < -1 || labels[i] >= count) {
                bad[part] = i;
                return;
            }
        }
    });
    const int32_t first_bad = *std::min_element(bad.begin(), bad.end());
    if (first_bad != INT32_MAX) fail_bad_label(first_bad, labels[first_bad], count);

    ComponentTable t;
    t.count = count;
    std::vector<int32_t> size(count), first(count);
    t.id.resize(count);
    parallel::for_each(0, count, parts, [&](int32_t l) {
        size[l] = 0;
        first[l] = INT32_MAX;
    });
    // Each block sums its runs of equal labels: one atomic per run.
    std::vector<int64_t> labelled(parts, 0);
    parallel::for_blocks(0, count, parts, [&](int part, int32_t begin, int32_t end) {
        int64_t block_labelled = 0;  // a local sum: the per-block slots share cache lines
        int32_t i = begin;
        while (i < end) {
            const int32_t l = labels[i];
            int32_t j = i + 1;
            while (j < end && labels[j] == l) ++j;
            if (l >= count) fail_changed(i);  // checked above, changed since
            if (l >= 0) {
                __atomic_fetch_add(&size[l], j - i, __ATOMIC_RELAXED);
                atomic_min(first[l], i);
                block_labelled += j - i;
            }
            i = j;
        }
        labelled[part] = block_labelled;
    });
    for (int64_t l : labelled) t.labelled += l;
    // Components are numbered in the order of their first members: a prefix sum over blocks.
    std::vector<int32_t> block_firsts(parts + 1, 0);
    parallel::for_blocks(0, count, parts, [&](int part, int32_t begin, int32_t end) {
        int32_t firsts = 0;
        for (int32_t i = begin; i < end; ++i) {
            const int32_t l = labels[i];
            if (l >= count) fail_changed(i);
            firsts += l >= 0 && first[l] == i;
        }
        block_firsts[part + 1] = firsts;
    });
    for (int p = 0; p < parts; ++p) block_firsts[p + 1] += block_firsts[p];
    t.label.resize(block_firsts[parts]);
    t.size.resize(block_firsts[parts]);
    parallel::for_blocks(0, count, parts, [&](int part, int32_t begin, int32_t end) {
        int32_t next = block_firsts[part];
        for (int32_t i = begin; i < end; ++i) {
            const int32_t l = labels[i];
            if (l >= count) fail_changed(i);
            if (l >= 0 && first[l] == i) {
                if (next >= block_firsts[part + 1]) fail_changed(i);
                t.label[next] = l;
                t.size[next] = size[l];
                ++next;
            }
        }
    });
    parallel::for_each(0, count, parts, [&](int32_t l) { t.id[l] = -1; });
    parallel::for_each(0, static_cast<int32_t>(t.label.size()), parts, [&](int32_t c) { t.id[t.label[c]] = c; });
    return t;
}

}  // namespace

int32_t component_of(const ComponentTable& t, int64_t index, int32_t label) {
    if (label >= t.count || t.id[label] < 0) fail_changed(index);
    return t.id[label];
}

ComponentTable analyze(const int32_t* labels, int32_t count, int threads) {
    if (threads == 1 || count < kParallelThreshold) return analyze_serial(labels, count);
    return analyze_parallel(labels, count, threads);
}

std::vector<int32_t> positions(const ComponentTable& t, int32_t order) {
    const int32_t k = static_cast<int32_t>(t.label.size());
    std::vector<int32_t> position(k);
    if (order == CCL4J_ORDER_SMALLEST_MEMBER) {
        for (int32_t c = 0; c < k; ++c) position[c] = c;
        return position;
    }
    // Size descending, ties by label: a counting sort by size of the components taken in label order.
    int32_t largest = 0;
    for (int32_t s : t.size) largest = std::max(largest, s);
    std::vector<int32_t> start(static_cast<size_t>(largest) + 2, 0);
    for (int32_t s : t.size) ++start[largest - s + 1];
    for (int32_t b = 0; b <= largest; ++b) start[b + 1] += start[b];
    for (int32_t l = 0; l < t.count; ++l) {
        const int32_t c = t.id[l];
        if (c >= 0) position[c] = start[largest - t.size[c]]++;
    }
    return position;
}

void histogram(const ComponentTable& t, int32_t binning, std::vector<int32_t>& bin_sizes,
               std::vector<int32_t>& bin_counts) {
    bin_sizes.clear();
    bin_counts.clear();
    int32_t largest = 0;
    for (int32_t s : t.size) largest = std::max(largest, s);
    if (largest == 0) return;
    if (binning == CCL4J_HISTOGRAM_LOG2) {
        bin_counts.assign(log2_bin(largest) + 1, 0);
        for (int32_t s : t.size) ++bin_counts[log2_bin(s)];
        for (size_t b = 0; b < bin_counts.size(); ++b) bin_sizes.push_back(static_cast<int32_t>(1u << b));
        return;
    }
    std::vector<int32_t> per_size(static_cast<size_t>(largest) + 1, 0);
    for (int32_t s : t.size) ++per_size[s];
    for (int32_t s = 1; s <= largest; ++s) {
        if (per_size[s] > 0) {
            bin_sizes.push_back(s);
            bin_counts.push_back(per_size[s]);
        }
    }
}

void members(const ComponentTable& t, const int32_t* labels, const std::vector<int32_t>& position, int32_t* offsets,
             int32_t* out) {
    const int32_t k = static_cast<int32_t>(t.label.size());
    offsets[0] = 0;
    std::vector<int32_t> size_at(k);
    for (int32_t c = 0; c < k; ++c) size_at[position[c]] = t.size[c];
    for (int32_t p = 0; p < k; ++p) offsets[p + 1] = offsets[p] + size_at[p];
    // Scanning the entries in order fills every component's list in ascending order.
    std::vector<int32_t> cursor(offsets, offsets + k);
    for (int32_t i = 0; i < t.count; ++i) {
        const int32_t l = labels[i];
        if (l < 0) continue;
        const int32_t p = position[component_of(t, i, l)];
        if (cursor[p] == offsets[p + 1]) fail_changed(i);  // more members than were counted
        out[cursor[p]++] = i;
    }
}

int64_t component_members(const int32_t* labels, int32_t count, int32_t label, int64_t capacity, int32_t* out) {
    int64_t size = 0;
    for (int32_t i = 0; i < count; ++i) {
        const int32_t l = labels[i];
        if (l < -1 || l >= count) fail_bad_label(i, l, count);
        if (l == label) {
            if (size < capacity) out[size] = i;
            ++size;
        }
    }
    return size;
}

namespace {

void check_vertex_set(const Graph& g, const int32_t* vertices, int32_t vertex_count) {
    for (int32_t i = 0; i < vertex_count; ++i) {
        const int32_t v = vertices[i];
        if (v < 0 || v >= g.vertex_count) {
            fail(CCL4J_INVALID_INPUT, "vertex list: entry " + std::to_string(i) + " is " + std::to_string(v) +
                                          ", outside 0 .. " + std::to_string(g.vertex_count - 1));
        }
        if (i > 0 && v <= vertices[i - 1]) {
            fail(CCL4J_INVALID_INPUT, "vertex list: entry " + std::to_string(i) + " (" + std::to_string(v) +
                                          ") does not exceed entry " + std::to_string(i - 1) + " (" +
                                          std::to_string(vertices[i - 1]) + "); the list must ascend");
        }
    }
}

}  // namespace

int64_t induced_arc_count(const Graph& graph, const int32_t* vertices, int32_t vertex_count) {
    check_vertex_set(graph, vertices, vertex_count);
    std::vector<bool> inside(graph.vertex_count, false);
    for (int32_t i = 0; i < vertex_count; ++i) inside[vertices[i]] = true;
    return graph.visit([&](auto csr) {
        int64_t arcs = 0;
        for (int32_t i = 0; i < vertex_count; ++i) {
            for (auto a = csr.begin(vertices[i]); a < csr.end(vertices[i]); ++a) arcs += inside[csr.neighbors[a]];
        }
        return arcs;
    });
}

void induced_subgraph(const Graph& graph, const int32_t* vertices, int32_t vertex_count, int32_t offset_width,
                      void* offsets, int32_t* neighbors) {
    check_vertex_set(graph, vertices, vertex_count);
    std::vector<int32_t> renumbered(graph.vertex_count, -1);
    for (int32_t i = 0; i < vertex_count; ++i) renumbered[vertices[i]] = i;
    graph.visit([&](auto csr) {
        int64_t arcs = 0;
        auto set_offset = [&](int32_t i, int64_t value) {
            if (offset_width == 4) {
                static_cast<int32_t*>(offsets)[i] = static_cast<int32_t>(value);
            } else {
                static_cast<int64_t*>(offsets)[i] = value;
            }
        };
        set_offset(0, 0);
        for (int32_t i = 0; i < vertex_count; ++i) {
            for (auto a = csr.begin(vertices[i]); a < csr.end(vertices[i]); ++a) {
                const int32_t w = renumbered[csr.neighbors[a]];
                if (w >= 0) neighbors[arcs++] = w;
            }
            set_offset(i + 1, arcs);
        }
    });
}

}  // namespace ccl4j::cpu
