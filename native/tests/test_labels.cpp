// The label book-keeping of the C ABI (ccl4j_labels_*, ccl4j_induced_subgraph) against a
// straightforward computation on random label arrays: canonical and arbitrary labels, -1
// entries, one huge component, all singletons, empty arrays, bad labels, outputs overlapping the
// labels. Built twice: test_labels runs the CPU backends; test_cuda_labels (CCL4J_TEST_CUDA) runs
// a CUDA context, on host labels and on labels left on the device by ccl4j_label_device_graph,
// and compares it with the CPU (it prints a notice and passes when no device is present).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"
#include "test_graphs.hpp"

namespace {

using namespace ccl4j::test;
using Labels = std::vector<int32_t>;

// ---- the straightforward computation --------------------------------------------------------

struct Component {
    int32_t label, first, size;
};

struct Expected {
    std::vector<Component> by_member;  // smallest-member order
    std::vector<Component> by_size;    // size descending, ties by label
    int64_t labelled = 0;
};

Expected expect(const Labels& labels) {
    std::map<int32_t, Component> per_label;
    Expected e;
    for (int32_t i = 0; i < static_cast<int32_t>(labels.size()); ++i) {
        if (labels[i] < 0) continue;
        auto [it, added] = per_label.try_emplace(labels[i], Component{labels[i], i, 0});
        ++it->second.size;
        ++e.labelled;
    }
    for (auto& [label, c] : per_label) e.by_member.push_back(c);
    e.by_size = e.by_member;
    std::sort(e.by_member.begin(), e.by_member.end(), [](auto& a, auto& b) { return a.first < b.first; });
    std::sort(e.by_size.begin(), e.by_size.end(),
              [](auto& a, auto& b) { return a.size != b.size ? a.size > b.size : a.label < b.label; });
    return e;
}

const std::vector<Component>& in_order(const Expected& e, int32_t order) {
    return order == CCL4J_ORDER_SMALLEST_MEMBER ? e.by_member : e.by_size;
}

// ---- label arrays -------------------------------------------------------------------------------

// Groups of random sizes scattered over n entries; some entries -1 (unlabelled_percent). With
// canonical, each label is its group's smallest member, otherwise a random unused value.
Labels random_labels(int32_t n, int32_t groups, int unlabelled_percent, bool canonical, uint64_t seed) {
    Rng rng(seed);
    std::vector<int32_t> group(n);
    for (int32_t i = 0; i < n; ++i) group[i] = rng.below(100) < static_cast<uint64_t>(unlabelled_percent)
                                                   ? -1
                                                   : static_cast<int32_t>(rng.below(std::max(groups, 1)));
    std::vector<int32_t> name(std::max(groups, 1), -1);
    if (canonical) {
        for (int32_t i = 0; i < n; ++i) {
            if (group[i] >= 0 && name[group[i]] < 0) name[group[i]] = i;
        }
    } else {
        std::vector<int32_t> values = random_permutation(n, seed + 1);
        for (int32_t g = 0; g < groups && g < n; ++g) name[g] = values[g];
    }
    Labels labels(n);
    for (int32_t i = 0; i < n; ++i) labels[i] = group[i] < 0 ? -1 : name[group[i]];
    return labels;
}

// Runs of equal labels, as meshes and grids produce them.
Labels runs(int32_t n, int32_t max_run, uint64_t seed) {
    Rng rng(seed);
    Labels labels(n);
    for (int32_t i = 0; i < n;) {
        const int32_t length = 1 + static_cast<int32_t>(rng.below(max_run));
        const int32_t label = rng.below(5) == 0 ? -1 : static_cast<int32_t>(rng.below(std::max(1, n / 8 + 1)));
        for (int32_t j = 0; j < length && i < n; ++j) labels[i++] = label;
    }
    return labels;
}

std::vector<std::pair<std::string, Labels>> cases(bool large) {
    std::vector<std::pair<std::string, Labels>> c;
    c.push_back({"empty", {}});
    c.push_back({"one entry", {0}});
    c.push_back({"one unlabelled entry", {-1}});
    c.push_back({"all unlabelled", Labels(50, -1)});
    c.push_back({"small", {3, -1, 3, 0, 6, 0, 6, 6, -1, 3}});
    for (int32_t n : {1000, 100000}) {
        Labels singletons(n), reversed(n), huge(n, 0), huge_holes(n, n / 2);
        for (int32_t i = 0; i < n; ++i) {
            singletons[i] = i;
            reversed[i] = n - 1 - i;
            if (i % 7 == 3) huge_holes[i] = -1;
        }
        const std::string size = " n=" + std::to_string(n);
        c.push_back({"singletons" + size, singletons});
        c.push_back({"reversed singletons" + size, reversed});
        c.push_back({"one huge component" + size, huge});
        c.push_back({"one huge component with holes" + size, huge_holes});
        c.push_back({"canonical" + size, random_labels(n, n / 10, 10, true, 11 + n)});
        c.push_back({"arbitrary" + size, random_labels(n, n / 3, 30, false, 12 + n)});
        c.push_back({"few large" + size, random_labels(n, 3, 0, false, 13 + n)});
        c.push_back({"runs" + size, runs(n, 20, 14 + n)});
    }
    if (large) c.push_back({"runs n=3000001", runs(3000001, 64, 99)});
    return c;
}

// ---- the checks -----------------------------------------------------------------------------------

struct Target {
    ccl4j_context context;
    std::string name;
};

// A label array as the C ABI takes it: the shape, and the labels that go beside it as an argument
// of their own (NULL for labels on the device).
struct LabelArray {
    ccl4j_label_array shape;
    const int32_t* labels;
};

LabelArray host_array(const Labels& labels) {
    return LabelArray{ccl4j_label_array{static_cast<int64_t>(labels.size()), CCL4J_LABELS_HOST, 0}, labels.data()};
}

#define OK(call, what) CHECK_MSG((call) == CCL4J_SUCCESS, (what) + std::string(": ") + ccl4j_context_error_message(t.context))

void check_operations(const Target& t, const LabelArray& array, const Labels& labels, const std::string& name) {
    const Expected e = expect(labels);
    const int64_t k = static_cast<int64_t>(e.by_member.size());
    const std::string what = t.name + ", " + name;

    ccl4j_label_summary s{};
    OK(ccl4j_labels_summary(t.context, &array.shape, array.labels, &s), what + ": summary");
    CHECK_MSG(s.count == static_cast<int64_t>(labels.size()) && s.labelled == e.labelled && s.components == k,
              what + ": summary counts");
    CHECK_MSG(k == 0 ? s.largest_size == 0 && s.largest_label == -1 && s.smallest_size == 0
                     : s.largest_size == e.by_size[0].size && s.largest_label == e.by_size[0].label &&
                           s.smallest_size == e.by_size.back().size,
              what + ": summary largest/smallest");

    for (int32_t order : {CCL4J_ORDER_SMALLEST_MEMBER, CCL4J_ORDER_SIZE_DESCENDING}) {
        const std::string w = what + (order ? " (size order)" : " (member order)");
        const std::vector<Component>& expected = in_order(e, order);
        // All components, then only the first three.
        for (int64_t capacity : {k, std::min<int64_t>(k, 3)}) {
            Labels got_labels(capacity + 1, -7), got_sizes(capacity + 1, -7);
            int64_t count = -1;
            OK(ccl4j_labels_components(t.context, &array.shape, array.labels, order, capacity, got_labels.data(),
                                       got_sizes.data(), &count),
               w + ": components");
            bool ok = count == k && got_labels[capacity] == -7 && got_sizes[capacity] == -7;
            for (int64_t p = 0; ok && p < capacity; ++p) {
                ok = got_labels[p] == expected[p].label && got_sizes[p] == expected[p].size;
            }
            CHECK_MSG(ok, w + ": components, capacity " + std::to_string(capacity));
        }
        // Compaction.
        std::vector<int32_t> position(labels.size() + 1, -1);
        for (size_t p = 0; p < expected.size(); ++p) position[expected[p].label] = static_cast<int32_t>(p);
        Labels compact(labels.size(), -7);
        int64_t count = -1;
        OK(ccl4j_labels_compact(t.context, &array.shape, array.labels, order, compact.data(), &count), w + ": compact");
        bool ok = count == k;
        for (size_t i = 0; ok && i < labels.size(); ++i) ok = compact[i] == (labels[i] < 0 ? -1 : position[labels[i]]);
        CHECK_MSG(ok, w + ": compaction");
        // Members.
        Labels offsets(k + 1, -7), members(e.labelled, -7);
        OK(ccl4j_labels_members(t.context, &array.shape, array.labels, order, k + 1, offsets.data(), e.labelled,
                                members.data()),
           w + ": members");
        ok = offsets[0] == 0;
        for (int64_t p = 0; ok && p < k; ++p) {
            ok = offsets[p + 1] - offsets[p] == expected[p].size && members[offsets[p]] == expected[p].first;
            for (int32_t j = offsets[p]; ok && j < offsets[p + 1]; ++j) {
                ok = labels[members[j]] == expected[p].label && (j == offsets[p] || members[j] > members[j - 1]);
            }
        }
        CHECK_MSG(ok, w + ": member lists");
        if (k > 0) {
            CHECK_MSG(ccl4j_labels_members(t.context, &array.shape, array.labels, order, k, offsets.data(), e.labelled,
                                           members.data()) == CCL4J_INVALID_ARGUMENT,
                      w + ": members, offsets too short");
        }
    }

    // Histograms.
    std::map<int32_t, int32_t> exact, log2;
    for (const Component& c : e.by_member) {
        ++exact[c.size];
        ++log2[1 << (31 - __builtin_clz(c.size))];
    }
    if (k > 0) {
        for (int32_t b = 1; b <= e.by_size[0].size; b *= 2) log2.try_emplace(b, 0);
    }
    for (int32_t binning : {CCL4J_HISTOGRAM_EXACT, CCL4J_HISTOGRAM_LOG2}) {
        const std::map<int32_t, int32_t>& expected = binning == CCL4J_HISTOGRAM_EXACT ? exact : log2;
        int64_t bins = -1;
        OK(ccl4j_labels_histogram(t.context, &array.shape, array.labels, binning, 0, nullptr, nullptr, &bins),
           what + ": histogram size");
        Labels sizes(bins > 0 ? bins : 1), counts(bins > 0 ? bins : 1);
        OK(ccl4j_labels_histogram(t.context, &array.shape, array.labels, binning, bins, sizes.data(), counts.data(),
                                  &bins),
           what + ": histogram");
        bool ok = bins == static_cast<int64_t>(expected.size());
        int64_t b = 0;
        for (auto it = expected.begin(); ok && it != expected.end(); ++it, ++b) {
            ok = sizes[b] == it->first && counts[b] == it->second;
        }
        CHECK_MSG(ok, what + (binning == CCL4J_HISTOGRAM_EXACT ? ": exact histogram" : ": log2 histogram"));
    }

    // One component's members: the largest, and a value no entry has.
    if (k > 0) {
        const Component& largest = e.by_size[0];
        Labels members(largest.size, -7);
        int64_t size = -1;
        OK(ccl4j_labels_component_members(t.context, &array.shape, array.labels, largest.label, largest.size,
                                          members.data(), &size),
           what + ": component members");
        bool ok = size == largest.size && members[0] == largest.first;
        for (int32_t j = 0; ok && j < largest.size; ++j) {
            ok = labels[members[j]] == largest.label && (j == 0 || members[j] > members[j - 1]);
        }
        CHECK_MSG(ok, what + ": largest component's members");
    }
    if (!labels.empty()) {
        std::vector<bool> used(labels.size(), false);
        for (int32_t l : labels) {
            if (l >= 0) used[l] = true;
        }
        const auto unused = std::find(used.begin(), used.end(), false);
        if (unused != used.end()) {
            int64_t size = -1;
            OK(ccl4j_labels_component_members(t.context, &array.shape, array.labels,
                                              static_cast<int32_t>(unused - used.begin()), 0, nullptr, &size),
               what + ": unused label");
            CHECK_MSG(size == 0, what + ": an unused label has no members");
        }
    }

    // Filter: sizes 2 .. 10 kept.
    Labels filtered(labels.size(), -7);
    int64_t kept = -1;
    OK(ccl4j_labels_filter(t.context, &array.shape, array.labels, 2, 10, filtered.data(), &kept), what + ": filter");
    std::map<int32_t, int32_t> size_of;
    for (const Component& c : e.by_member) size_of[c.label] = c.size;
    int64_t expected_kept = 0;
    for (const Component& c : e.by_member) expected_kept += c.size >= 2 && c.size <= 10;
    bool ok = kept == expected_kept;
    for (size_t i = 0; ok && i < labels.size(); ++i) {
        const bool keep = labels[i] >= 0 && size_of[labels[i]] >= 2 && size_of[labels[i]] <= 10;
        ok = filtered[i] == (keep ? labels[i] : -1);
    }
    CHECK_MSG(ok, what + ": filter 2..10");
}

void check_host(const Target& t, bool large) {
    for (const auto& [name, labels] : cases(large)) {
        const LabelArray array = host_array(labels);
        check_operations(t, array, labels, name);
        // In place: the output may be the labels themselves.
        if (!labels.empty()) {
            Labels copy = labels, expected(labels.size());
            const LabelArray a = host_array(copy);
            int64_t k = 0;
            OK(ccl4j_labels_compact(t.context, &array.shape, array.labels, CCL4J_ORDER_SIZE_DESCENDING, expected.data(),
                                    &k),
               name);
            OK(ccl4j_labels_compact(t.context, &a.shape, a.labels, CCL4J_ORDER_SIZE_DESCENDING, copy.data(), &k), name);
            CHECK_MSG(copy == expected, t.name + ", " + name + ": compaction in place");
        }
    }
}

void check_bad_input(const Target& t) {
    for (int32_t bad : {-2, 10, INT32_MIN, INT32_MAX}) {
        Labels labels(10, 1);
        labels[7] = bad;
        labels[9] = bad;
        const LabelArray array = host_array(labels);
        ccl4j_label_summary s{};
        const ccl4j_status status = ccl4j_labels_summary(t.context, &array.shape, array.labels, &s);
        const std::string message = ccl4j_context_error_message(t.context);
        CHECK_MSG(status == CCL4J_INVALID_INPUT && message.find("entry 7") != std::string::npos &&
                      message.find(std::to_string(bad)) != std::string::npos,
                  t.name + ": bad label " + std::to_string(bad) + ": " + message);
        Labels out(10, -7);
        CHECK(ccl4j_labels_compact(t.context, &array.shape, array.labels, CCL4J_ORDER_SMALLEST_MEMBER, out.data(),
                                   nullptr) == CCL4J_INVALID_INPUT);
        CHECK(ccl4j_labels_filter(t.context, &array.shape, array.labels, 0, 5, out.data(), nullptr) ==
              CCL4J_INVALID_INPUT);
    }
    Labels labels{0, 0, 1};
    const LabelArray array = host_array(labels);
    ccl4j_label_summary s{};
    CHECK(ccl4j_labels_summary(t.context, nullptr, labels.data(), &s) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_labels_summary(t.context, &array.shape, nullptr, &s) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_labels_summary(t.context, &array.shape, array.labels, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_labels_compact(t.context, &array.shape, array.labels, 2, labels.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_labels_histogram(t.context, &array.shape, array.labels, 5, 0, nullptr, nullptr, nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_labels_components(t.context, &array.shape, array.labels, 0, -1, nullptr, nullptr, nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_labels_filter(t.context, &array.shape, array.labels, -1, 5, labels.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_labels_component_members(t.context, &array.shape, array.labels, 3, 0, nullptr, nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    ccl4j_label_array shape = array.shape;
    shape.count = -1;
    CHECK(ccl4j_labels_summary(t.context, &shape, array.labels, &s) == CCL4J_INVALID_ARGUMENT);
    shape.count = 3;
    shape.location = 7;
    CHECK(ccl4j_labels_summary(t.context, &shape, array.labels, &s) == CCL4J_INVALID_ARGUMENT);
    shape.location = CCL4J_LABELS_DEVICE;
    const ccl4j_status status = ccl4j_labels_summary(t.context, &shape, nullptr, &s);
    CHECK(status == (ccl4j_context_backend(t.context) == CCL4J_BACKEND_CUDA ? CCL4J_INVALID_ARGUMENT
                                                                            : CCL4J_UNSUPPORTED));
}

// Compaction and filter write one entry per label: into the labels themselves (in place) or
// apart from them, never over part of them, where an entry would be overwritten before it is read.
void check_overlapping_output(const Target& t) {
    const Labels labels{0, 0, 2, 2, 2, -1, 6};
    const int32_t n = static_cast<int32_t>(labels.size());
    const ccl4j_label_array shape{n, CCL4J_LABELS_HOST, 0};
    // The labels in the middle of a buffer of 3n entries, so that every output below lies inside it.
    Labels buffer(3 * labels.size(), -7);
    int32_t* in = buffer.data() + n;
    auto reset = [&] { std::copy(labels.begin(), labels.end(), in); };
    auto labels_kept = [&] { return std::equal(labels.begin(), labels.end(), in); };
    for (int32_t shift : {1, -1, n - 1, -(n - 1)}) {
        int32_t* out = in + shift;
        const std::string what = t.name + ": output " + std::to_string(shift) + " entries from the labels";
        reset();
        CHECK_MSG(ccl4j_labels_compact(t.context, &shape, in, CCL4J_ORDER_SMALLEST_MEMBER, out, nullptr) ==
                      CCL4J_INVALID_ARGUMENT,
                  what + ": compact");
        const std::string message = ccl4j_context_error_message(t.context);
        CHECK_MSG(message.find("overlap the labels") != std::string::npos, what + ": compact: " + message);
        CHECK_MSG(labels_kept(), what + ": a refused compaction leaves the labels");
        CHECK_MSG(ccl4j_labels_filter(t.context, &shape, in, 1, 5, out, nullptr) == CCL4J_INVALID_ARGUMENT,
                  what + ": filter");
        CHECK_MSG(labels_kept(), what + ": a refused filter leaves the labels");
    }
    // In place is allowed, and so is an output right after the labels.
    int64_t components = -1;
    reset();
    ccl4j_status status = ccl4j_labels_compact(t.context, &shape, in, CCL4J_ORDER_SIZE_DESCENDING, in, &components);
    CHECK_MSG(status == CCL4J_SUCCESS && components == 3 &&
                  std::equal(in, in + n, Labels{1, 1, 0, 0, 0, -1, 2}.begin()),
              t.name + ": compaction in place");
    int64_t kept = -1;
    reset();
    status = ccl4j_labels_filter(t.context, &shape, in, 2, 2, in, &kept);
    CHECK_MSG(status == CCL4J_SUCCESS && kept == 1 && std::equal(in, in + n, Labels{0, 0, -1, -1, -1, -1, -1}.begin()),
              t.name + ": filter in place");
    reset();
    int32_t* after = in + n;
    status = ccl4j_labels_compact(t.context, &shape, in, CCL4J_ORDER_SMALLEST_MEMBER, after, nullptr);
    CHECK_MSG(status == CCL4J_SUCCESS && labels_kept() &&
                  std::equal(after, after + n, Labels{0, 0, 1, 1, 1, -1, 2}.begin()),
              t.name + ": compaction right after the labels");
}

// The largest component of a graph: its vertices and its induced subgraph.
void check_subgraph(const Target& t) {
    for (const HostGraph& g : {random_components(300, 40, 5), grid2d(30, 20), isolated(5), empty_graph()}) {
        const Labels labels = reference_labels(g);
        const LabelArray array = host_array(labels);
        ccl4j_label_summary s{};
        OK(ccl4j_labels_summary(t.context, &array.shape, array.labels, &s), "subgraph summary");
        Labels vertices(s.largest_size);
        int64_t size = 0;
        if (s.largest_label >= 0) {
            OK(ccl4j_labels_component_members(t.context, &array.shape, array.labels, s.largest_label, s.largest_size,
                                              vertices.data(), &size),
               "subgraph vertices");
        }
        for (int width : {4, 8}) {
            const AbiGraph csr = g.csr(8);
            int64_t arcs = -1;
            OK(ccl4j_induced_subgraph(t.context, &csr.shape, csr.offsets, csr.neighbors, vertices.data(), size, width,
                                      nullptr, nullptr, 0, &arcs),
               "subgraph size");
            int64_t expected_arcs = 0;
            for (int32_t v : vertices) expected_arcs += g.offsets[v + 1] - g.offsets[v];
            CHECK_MSG(arcs == expected_arcs, t.name + ": a component's induced subgraph keeps all its arcs");
            std::vector<int64_t> offsets(size + 1, -7);
            std::vector<int32_t> offsets32(size + 1, -7);
            Labels neighbors(arcs > 0 ? arcs : 1);
            void* out = width == 4 ? static_cast<void*>(offsets32.data()) : static_cast<void*>(offsets.data());
            OK(ccl4j_induced_subgraph(t.context, &csr.shape, csr.offsets, csr.neighbors, vertices.data(), size, width,
                                      out, neighbors.data(), arcs, &arcs),
               "subgraph");
            bool ok = true;
            for (int32_t i = 0; ok && i < size; ++i) {
                const int64_t begin = width == 4 ? offsets32[i] : offsets[i];
                const int64_t end = width == 4 ? offsets32[i + 1] : offsets[i + 1];
                const int32_t v = vertices[i];
                ok = end - begin == g.offsets[v + 1] - g.offsets[v];
                for (int64_t a = 0; ok && a < end - begin; ++a) {
                    ok = vertices[neighbors[begin + a]] == g.neighbors[g.offsets[v] + a];
                }
            }
            CHECK_MSG(ok, t.name + ": induced subgraph renumbered");
        }
    }
    const HostGraph g = path(5);
    const AbiGraph csr = g.csr(8);
    int64_t arcs = 0;
    const int32_t descending[2] = {3, 1};
    const int32_t outside[2] = {1, 5};
    CHECK(ccl4j_induced_subgraph(t.context, &csr.shape, csr.offsets, csr.neighbors, descending, 2, 4, nullptr, nullptr,
                                 0, &arcs) == CCL4J_INVALID_INPUT);
    CHECK(ccl4j_induced_subgraph(t.context, &csr.shape, csr.offsets, csr.neighbors, outside, 2, 4, nullptr, nullptr, 0,
                                 &arcs) == CCL4J_INVALID_INPUT);
    const int32_t two[2] = {1, 2};
    int32_t offsets[3], neighbors[1];
    CHECK(ccl4j_induced_subgraph(t.context, &csr.shape, csr.offsets, csr.neighbors, two, 2, 4, offsets, neighbors, 1,
                                 &arcs) == CCL4J_INVALID_ARGUMENT);
    // The graph's arrays are arguments of their own, checked like the graph.
    CHECK(ccl4j_induced_subgraph(t.context, &csr.shape, nullptr, csr.neighbors, two, 2, 4, nullptr, nullptr, 0,
                                 &arcs) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_induced_subgraph(t.context, &csr.shape, csr.offsets, nullptr, two, 2, 4, nullptr, nullptr, 0, &arcs) ==
          CCL4J_INVALID_ARGUMENT);
}

#ifdef CCL4J_TEST_CUDA
// Labels left on the device by ccl4j_label_device_graph: every operation against the
// straightforward computation, and the compactions against the CPU backend's.
void check_resident(const Target& t, const Target& cpu) {
    for (const HostGraph& g : {random_components(2000, 300, 7), grid2d(700, 500), isolated(1000), rmat(15, 4, 3)}) {
        const AbiGraph csr = g.csr(4);
        ccl4j_device_graph dg = nullptr;
        OK(ccl4j_device_graph_create(t.context, &csr.shape, csr.offsets, csr.neighbors, &dg, nullptr), "upload");
        OK(ccl4j_label_device_graph(t.context, dg, nullptr, nullptr, nullptr), "label on the device");
        // Another labelling of a host graph must not disturb the resident labels.
        const HostGraph other = path(100);
        const AbiGraph other_csr = other.csr(4);
        Labels other_labels(100);
        OK(ccl4j_label_graph(t.context, &other_csr.shape, other_csr.offsets, other_csr.neighbors, nullptr,
                             other_labels.data(), nullptr),
           "label another graph");
        const Labels labels = reference_labels(g);
        const LabelArray resident{ccl4j_label_array{g.n, CCL4J_LABELS_DEVICE, 0}, nullptr};
        check_operations(t, resident, labels, "resident labels of a " + std::to_string(g.n) + "-vertex graph");
        // The GPU's results on the resident labels equal the CPU's on the same labels in host memory.
        const LabelArray host = host_array(labels);
        for (int32_t order : {CCL4J_ORDER_SMALLEST_MEMBER, CCL4J_ORDER_SIZE_DESCENDING}) {
            Labels on_gpu(g.n, -7), on_cpu(g.n, -8);
            OK(ccl4j_labels_compact(t.context, &resident.shape, resident.labels, order, on_gpu.data(), nullptr),
               "GPU compaction");
            CHECK(ccl4j_labels_compact(cpu.context, &host.shape, host.labels, order, on_cpu.data(), nullptr) ==
                  CCL4J_SUCCESS);
            CHECK_MSG(on_gpu == on_cpu, "GPU and CPU compactions agree, order " + std::to_string(order));
        }
        ccl4j_label_array wrong = resident.shape;
        wrong.count = g.n + 1;
        ccl4j_label_summary s{};
        CHECK(ccl4j_labels_summary(t.context, &wrong, nullptr, &s) == CCL4J_INVALID_ARGUMENT);
        // Labels on the device take no host pointer.
        CHECK(ccl4j_labels_summary(t.context, &resident.shape, labels.data(), &s) == CCL4J_INVALID_ARGUMENT);
        ccl4j_device_graph_destroy(dg);
    }
}
#endif

}  // namespace

int main() {
    const auto start = std::chrono::steady_clock::now();
    std::vector<Target> targets;
#ifdef CCL4J_TEST_CUDA
    ccl4j_context cuda = nullptr;
    if (ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &cuda) != CCL4J_SUCCESS) {
        std::printf("SKIPPED: no usable CUDA device (%s): the GPU label statistics did not run\n",
                    ccl4j_context_error_message(nullptr));
        std::printf("%d passed, %d failed\n", passed, failed);
        return 0;
    }
    ccl4j_context serial = nullptr;
    ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &serial);
    const Target gpu{cuda, "CUDA"};
    check_host(gpu, true);
    check_bad_input(gpu);
    check_overlapping_output(gpu);
    check_subgraph(gpu);
    check_resident(gpu, Target{serial, "CPU_SERIAL"});
    ccl4j_context_destroy(serial);
    ccl4j_context_destroy(cuda);
#else
    for (ccl4j_backend backend : {CCL4J_BACKEND_CPU_SERIAL, CCL4J_BACKEND_CPU_PARALLEL}) {
        ccl4j_context context = nullptr;
        if (ccl4j_context_create(backend, 0, &context) != CCL4J_SUCCESS) {
            CHECK_MSG(false, "cannot create a CPU context");
            continue;
        }
        const Target t{context, backend == CCL4J_BACKEND_CPU_SERIAL ? "CPU_SERIAL" : "CPU_PARALLEL"};
        check_host(t, backend == CCL4J_BACKEND_CPU_PARALLEL);
        check_bad_input(t);
        check_overlapping_output(t);
        check_subgraph(t);
        ccl4j_context_destroy(context);
    }
#endif
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%d passed, %d failed (%.1f s)\n", passed, failed, seconds);
    return failed == 0 ? 0 : 1;
}
