// Tests of edge lists (ccl4j/graph.h) through libccl4j.so on every backend present: labelling
// (ccl4j_label_edges) against an independent union-find on every generated graph shape, given as
// separate arrays and as interleaved pairs, in shuffled order with repeats, reversed edges and
// self loops; the CSR build (ccl4j_csr_build_*) against the canonical CSR made here; and the
// argument checks (ids out of range naming the first bad edge, NULL arrays, overlaps, strides,
// algorithms); on CUDA, edge lists past the device's room (a budget) streamed from ordinary memory
// in blocks of a few edges and read in place from page-locked memory, with their refusals. The GPU
// part prints a notice and is skipped when no CUDA device is present.
// Prints every failure and "N passed, M failed".
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"
#include "test_graphs.hpp"

namespace {

using namespace ccl4j::test;

// A graph's edges as a caller might hold them: each edge once in a random direction, every fifth
// repeated reversed, a self loop every 97 edges, in shuffled order.
std::vector<Edge> messy_edges(const HostGraph& g, uint64_t seed) {
    Rng rng(seed);
    std::vector<Edge> edges;
    for (int32_t v = 0; v < g.n; ++v) {
        for (int64_t a = g.offsets[v]; a < g.offsets[v + 1]; ++a) {
            const int32_t u = g.neighbors[a];
            if (u < v) continue;
            edges.push_back(rng.below(2) ? Edge{v, u} : Edge{u, v});
            if (edges.size() % 5 == 0) edges.emplace_back(u, v);
            if (edges.size() % 97 == 0) edges.emplace_back(v, v);
        }
    }
    for (size_t i = edges.size(); i > 1; --i) std::swap(edges[i - 1], edges[rng.below(i)]);
    return edges;
}

struct Arrays {
    std::vector<int32_t> sources, targets, pairs;
    explicit Arrays(const std::vector<Edge>& edges) {
        for (const Edge& e : edges) {
            sources.push_back(e.first);
            targets.push_back(e.second);
            pairs.push_back(e.first);
            pairs.push_back(e.second);
        }
    }
};

ccl4j_edges shape(int64_t n, int64_t m, int32_t stride) { return ccl4j_edges{n, m, stride, 0}; }

std::string message(ccl4j_context context) { return ccl4j_context_error_message(context); }

void check_labelling(ccl4j_context context, const std::string& backend) {
    for_each_generated_graph(20000, [&](const HostGraph& g, const std::string& name) {
        const std::vector<int32_t> expected = reference_labels(g);
        const std::vector<Edge> edges = messy_edges(g, 11);
        const Arrays arrays(edges);
        const int64_t m = static_cast<int64_t>(edges.size());
        std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
        ccl4j_timings timings{};
        ccl4j_edges separate = shape(g.n, m, 1);
        ccl4j_status status = ccl4j_label_edges(context, &separate, arrays.sources.data(), arrays.targets.data(),
                                                nullptr, labels.data(), &timings);
        CHECK_MSG(status == CCL4J_SUCCESS, backend + " " + name + ": " + message(context));
        check_labels(labels, expected, backend + " " + name + ", separate arrays");

        std::fill(labels.begin(), labels.end(), kPoison);
        ccl4j_edges interleaved = shape(g.n, m, 2);
        ccl4j_label_options threads{};
        threads.cpu_threads = 3;
        status = ccl4j_label_edges(context, &interleaved, arrays.pairs.data(), arrays.pairs.data() + 1, &threads,
                                   labels.data(), nullptr);
        CHECK_MSG(status == CCL4J_SUCCESS, backend + " " + name + ": " + message(context));
        check_labels(labels, expected, backend + " " + name + ", interleaved pairs");
    });
}

void check_phases_named(ccl4j_context context, bool cuda) {
    const HostGraph g = rmat(12, 8, 5);
    const Arrays arrays(messy_edges(g, 3));
    std::vector<int32_t> labels(static_cast<size_t>(g.n));
    ccl4j_timings timings{};
    ccl4j_edges e = shape(g.n, static_cast<int64_t>(arrays.sources.size()), 1);
    CHECK(ccl4j_label_edges(context, &e, arrays.sources.data(), arrays.targets.data(), nullptr, labels.data(),
                            &timings) == CCL4J_SUCCESS);
    check_phases(timings,
                 cuda ? std::vector<std::string>{"h2d", "init", "link", "finalize", "d2h"}
                      : std::vector<std::string>{"init", "link", "finalize"},
                 "edge phases");
    CHECK(timings.algorithm == CCL4J_ALGORITHM_AUTO);
}

// A copy of an array in memory from ccl4j_host_alloc: page-locked where a GPU is, which the GPU
// reads in place.
class HostCopy {
public:
    explicit HostCopy(const std::vector<int32_t>& values) {
        CHECK(ccl4j_host_alloc(static_cast<int64_t>(values.size() * 4), &data_, nullptr) == CCL4J_SUCCESS);
        if (data_) std::memcpy(data_, values.data(), values.size() * 4);
    }
    HostCopy(const HostCopy&) = delete;
    HostCopy& operator=(const HostCopy&) = delete;
    ~HostCopy() { ccl4j_host_free(data_); }
    const int32_t* data() const { return static_cast<const int32_t*>(data_); }

private:
    void* data_ = nullptr;
};

// CUDA: an edge list that does not fit the budget is streamed, from ordinary memory through two
// staging buffers (down to a few hundred bytes, so that a list crosses in many blocks) and from
// page-locked memory in place; labels as the union-find's, ids out of range named in any block,
// and a budget below the parent array refused with both sizes.
void check_streamed(ccl4j_context context) {
    const std::vector<std::string> phases = {"init", "link", "finalize", "d2h"};
    for_each_generated_graph(20000, [&](const HostGraph& g, const std::string& name) {
        const std::vector<int32_t> expected = reference_labels(g);
        const std::vector<Edge> edges = messy_edges(g, 7);
        const Arrays arrays(edges);
        const int64_t m = static_cast<int64_t>(edges.size());
        const int64_t parent = 4LL * g.n + 8;
        for (int64_t budget : {parent + 700, parent + (64 << 10)}) {
            if (parent + 8 * m <= budget) continue;  // fits: copied whole
            ccl4j_label_options options{};
            options.device_memory = budget;
            const std::string what = name + ", budget " + std::to_string(budget);
            for (int32_t stride : {1, 2}) {
                std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
                ccl4j_timings timings{};
                ccl4j_edges e = shape(g.n, m, stride);
                const int32_t* sources = stride == 1 ? arrays.sources.data() : arrays.pairs.data();
                const int32_t* targets = stride == 1 ? arrays.targets.data() : arrays.pairs.data() + 1;
                CHECK_MSG(ccl4j_label_edges(context, &e, sources, targets, &options, labels.data(), &timings) ==
                              CCL4J_SUCCESS,
                          what + ": " + message(context));
                check_labels(labels, expected, what + ", streamed, stride " + std::to_string(stride));
                check_phases(timings, phases, what + ", streamed phases");
            }
            const HostCopy pinned_sources(arrays.sources), pinned_targets(arrays.targets);
            std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
            ccl4j_edges e = shape(g.n, m, 1);
            CHECK_MSG(ccl4j_label_edges(context, &e, pinned_sources.data(), pinned_targets.data(), &options,
                                        labels.data(), nullptr) == CCL4J_SUCCESS,
                      what + ", page-locked: " + message(context));
            check_labels(labels, expected, what + ", read in place");
        }
    });
    // An id out of range in a later block, and a budget below the parent array.
    const int32_t n = 1000;
    std::vector<int32_t> sources(50000), targets(50000);
    for (size_t i = 0; i < sources.size(); ++i) {
        sources[i] = static_cast<int32_t>(i % n);
        targets[i] = static_cast<int32_t>((i * 13 + 5) % n);
    }
    targets[40000] = -1;
    std::vector<int32_t> labels(n);
    ccl4j_edges e = shape(n, static_cast<int64_t>(sources.size()), 1);
    ccl4j_label_options options{};
    options.device_memory = 4 * n + 8 + 4096;
    CHECK(ccl4j_label_edges(context, &e, sources.data(), targets.data(), &options, labels.data(), nullptr) ==
          CCL4J_INVALID_INPUT);
    CHECK_MSG(message(context).find("edge 40000 ") == 0, message(context));
    options.device_memory = 4 * n;
    CHECK(ccl4j_label_edges(context, &e, sources.data(), targets.data(), &options, labels.data(), nullptr) ==
          CCL4J_OUT_OF_MEMORY);
    CHECK_MSG(message(context).find("parent array") != std::string::npos, message(context));
}

// Every refusal, on one context; none may write outside the labels or crash.
void check_errors(ccl4j_context context, const std::string& backend) {
    const int32_t n = 100;
    std::vector<int32_t> sources(2000), targets(2000);
    for (size_t i = 0; i < sources.size(); ++i) {
        sources[i] = static_cast<int32_t>(i % n);
        targets[i] = static_cast<int32_t>((i * 7 + 1) % n);
    }
    targets[1500] = n;    // out of range, later edge
    sources[700] = -3;    // out of range, first bad edge
    std::vector<int32_t> labels(n);
    ccl4j_edges e = shape(n, static_cast<int64_t>(sources.size()), 1);
    ccl4j_status status = ccl4j_label_edges(context, &e, sources.data(), targets.data(), nullptr, labels.data(), nullptr);
    CHECK_MSG(status == CCL4J_INVALID_INPUT, backend + ": bad id accepted");
    CHECK_MSG(message(context).find("edge 700 (-3, ") == 0 && message(context).find("id -3 is outside [0, 100)") !=
                                                                  std::string::npos,
              backend + ": " + message(context));
    sources[700] = 0;
    status = ccl4j_label_edges(context, &e, sources.data(), targets.data(), nullptr, labels.data(), nullptr);
    CHECK_MSG(status == CCL4J_INVALID_INPUT && message(context).find("edge 1500 ") == 0 &&
                  message(context).find("id 100 is outside") != std::string::npos,
              backend + ": " + message(context));
    targets[1500] = 0;
    CHECK(ccl4j_label_edges(context, &e, sources.data(), targets.data(), nullptr, labels.data(), nullptr) ==
          CCL4J_SUCCESS);

    CHECK(ccl4j_label_edges(context, nullptr, sources.data(), targets.data(), nullptr, labels.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_label_edges(context, &e, nullptr, targets.data(), nullptr, labels.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_label_edges(context, &e, sources.data(), targets.data(), nullptr, nullptr, nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    ccl4j_edges zero_stride = shape(n, 10, 0);
    CHECK(ccl4j_label_edges(context, &zero_stride, sources.data(), targets.data(), nullptr, labels.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    ccl4j_edges too_many_vertices = shape(int64_t{INT32_MAX} + 1, 10, 1);
    CHECK(ccl4j_label_edges(context, &too_many_vertices, sources.data(), targets.data(), nullptr, labels.data(),
                            nullptr) == CCL4J_INVALID_ARGUMENT);
    ccl4j_edges huge_span = shape(n, INT64_MAX / 8, 16);
    CHECK(ccl4j_label_edges(context, &huge_span, sources.data(), targets.data(), nullptr, labels.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    ccl4j_edges no_vertices = shape(0, 10, 1);
    CHECK(ccl4j_label_edges(context, &no_vertices, sources.data(), targets.data(), nullptr, labels.data(), nullptr) ==
          CCL4J_INVALID_INPUT);
    ccl4j_label_options ecl{};
    ecl.algorithm = CCL4J_ALGORITHM_ECL_CC;
    status = ccl4j_label_edges(context, &e, sources.data(), targets.data(), &ecl, labels.data(), nullptr);
    CHECK_MSG(status == CCL4J_INVALID_ARGUMENT && message(context).find("AUTO") != std::string::npos, message(context));
    // Labels written over the sources would change the edges being read.
    ccl4j_edges overlapping = shape(n, 50, 1);
    CHECK(ccl4j_label_edges(context, &overlapping, sources.data(), targets.data(), nullptr, sources.data() + 10,
                            nullptr) == CCL4J_INVALID_ARGUMENT);

    // No edges, no vertices: nothing to do.
    ccl4j_edges empty = shape(0, 0, 1);
    CHECK(ccl4j_label_edges(context, &empty, nullptr, nullptr, nullptr, nullptr, nullptr) == CCL4J_SUCCESS);
    ccl4j_edges isolated_only = shape(3, 0, 1);
    std::vector<int32_t> three(3, kPoison);
    CHECK(ccl4j_label_edges(context, &isolated_only, nullptr, nullptr, nullptr, three.data(), nullptr) ==
          CCL4J_SUCCESS);
    CHECK((three == std::vector<int32_t>{0, 1, 2}));
}

// The build's CSR equals the canonical one of the same edges, offsets and neighbours alike: on
// every generated shape, and on graphs large enough to be split into several parts of the edge
// list and several buckets of vertices.
void check_csr_build(ccl4j_context context) {
    auto each_graph = [](const auto& check) {
        for_each_generated_graph(20000, check);
        check(random_sparse(300000, 600000, 3), "sparse random 300000/600000");
        check(rmat(17, 8, 4), "rmat 17/8");
    };
    each_graph([&](const HostGraph& g, const std::string& name) {
        const std::vector<Edge> edges = messy_edges(g, 5);
        const HostGraph expected = from_edges(g.n, edges);
        const Arrays arrays(edges);
        ccl4j_edges e = shape(g.n, static_cast<int64_t>(edges.size()), 2);
        ccl4j_csr_build build = nullptr;
        ccl4j_csr csr{};
        if (ccl4j_csr_build_create(context, &e, arrays.pairs.data(), arrays.pairs.data() + 1, &build, &csr) !=
            CCL4J_SUCCESS) {
            CHECK_MSG(false, name + ": " + message(context));
            return;
        }
        CHECK_MSG(csr.vertex_count == g.n && csr.arc_count == expected.arc_count() && csr.offset_width == 4, name);
        std::vector<int32_t> offsets(static_cast<size_t>(g.n) + 1, kPoison);
        std::vector<int32_t> neighbors(static_cast<size_t>(csr.arc_count), kPoison);
        CHECK(ccl4j_csr_build_write(context, build, offsets.data(), neighbors.data()) == CCL4J_SUCCESS);
        ccl4j_csr_build_destroy(build);
        CHECK_MSG(offsets == expected.offsets32, name + ": offsets");
        CHECK_MSG(neighbors == expected.neighbors, name + ": neighbours");
    });

    std::vector<int32_t> sources{0, 1, 2, 9}, targets{1, 2, 3, 1};
    ccl4j_edges e = shape(5, 4, 1);
    ccl4j_csr_build build = nullptr;
    ccl4j_csr csr{};
    CHECK(ccl4j_csr_build_create(context, &e, sources.data(), targets.data(), &build, &csr) == CCL4J_INVALID_INPUT);
    CHECK_MSG(build == nullptr && message(context).find("edge 3 (9, 1): id 9 is outside [0, 5)") == 0,
              message(context));
    CHECK(ccl4j_csr_build_create(context, &e, sources.data(), targets.data(), nullptr, &csr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_csr_build_write(context, nullptr, nullptr, nullptr) == CCL4J_INVALID_ARGUMENT);
    ccl4j_csr_build_destroy(nullptr);
}

}  // namespace

int main() {
    for (ccl4j_backend backend : {CCL4J_BACKEND_CPU_SERIAL, CCL4J_BACKEND_CPU_PARALLEL, CCL4J_BACKEND_CUDA}) {
        const char* name = backend == CCL4J_BACKEND_CUDA ? "CUDA" : backend == CCL4J_BACKEND_CPU_SERIAL ? "CPU_SERIAL"
                                                                                                         : "CPU_PARALLEL";
        ccl4j_context context = nullptr;
        if (ccl4j_context_create(backend, 0, &context) != CCL4J_SUCCESS) {
            std::printf("NOTICE: %s skipped, no context: %s\n", name, ccl4j_context_error_message(nullptr));
            continue;
        }
        run((std::string("label edges, ") + name).c_str(), [&] { check_labelling(context, name); });
        run((std::string("edge phases, ") + name).c_str(), [&] { check_phases_named(context, backend == CCL4J_BACKEND_CUDA); });
        run((std::string("edge errors, ") + name).c_str(), [&] { check_errors(context, name); });
        if (backend != CCL4J_BACKEND_CUDA) run((std::string("csr build, ") + name).c_str(), [&] { check_csr_build(context); });
        if (backend == CCL4J_BACKEND_CUDA) run("streamed edges, CUDA", [&] { check_streamed(context); });
        ccl4j_context_destroy(context);
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
