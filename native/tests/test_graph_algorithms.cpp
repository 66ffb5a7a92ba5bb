// Tests of the CPU versions of Hawick's graph Kernels 1-3 and Komura's label reduction against the
// union-find oracle of test_graphs.hpp, with both offset widths; their iteration counts and
// iteration limits; an ordered path of 2^20 vertices and stars of 2^20 leaves; and the C ABI's
// dispatch of these algorithms (through libccl4j.so) on the CPU backends and, when a device is
// present, on CUDA. Prints every failure and "N passed, M failed".
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "common/error.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "check.hpp"
#include "test_graphs.hpp"

namespace {

using ccl4j::Graph;
using ccl4j::PhaseLog;
using namespace ccl4j::test;

struct Algorithm {
    std::string name;
    ccl4j_algorithm id;
    std::vector<std::string> phases;
    bool iterative;  // has a fixpoint loop and honours max_iterations
    std::function<void(const Graph&, int32_t*, int32_t, PhaseLog&)> run;  // (graph, labels, max_iterations, log)
};

const std::vector<Algorithm>& algorithms() {
    static const std::vector<Algorithm> all = {
        {"hawick_edge", CCL4J_ALGORITHM_HAWICK_EDGE, {"init", "propagate"}, true,
         [](const Graph& g, int32_t* labels, int32_t limit, PhaseLog& log) {
             ccl4j::cpu::hawick_edge(g, labels, limit, log);
         }},
        {"hawick_vertex", CCL4J_ALGORITHM_HAWICK_VERTEX, {"init", "propagate"}, true,
         [](const Graph& g, int32_t* labels, int32_t limit, PhaseLog& log) {
             ccl4j::cpu::hawick_vertex(g, labels, limit, log);
         }},
        {"hawick_bfs", CCL4J_ALGORITHM_HAWICK_BFS, {"init", "search"}, true,
         [](const Graph& g, int32_t* labels, int32_t limit, PhaseLog& log) {
             ccl4j::cpu::hawick_bfs(g, labels, limit, log);
         }},
        {"komura", CCL4J_ALGORITHM_KOMURA, {"init", "analysis1", "reduction", "analysis2"}, false,
         [](const Graph& g, int32_t* labels, int32_t, PhaseLog& log) { ccl4j::cpu::komura(g, labels, log); }},
        {"afforest", CCL4J_ALGORITHM_AFFOREST, {"init", "sample", "compress", "link", "finalize"}, false,
         [](const Graph& g, int32_t* labels, int32_t, PhaseLog& log) {
             for (const ccl4j::Phase& phase : ccl4j::cpu::afforest_plan(g, labels, 0)) {
                 ccl4j::Stopwatch watch;
                 phase.run();
                 log.add(phase.name.c_str(), watch.lap());
             }
         }},
    };
    return all;
}

// Runs one algorithm on g with one offset width; checks the labels, that nothing past the n labels
// is written, the phases, and the iteration count (positive for the iterative algorithms, at
// most the default limit n + 2; 0 for Komura). Returns the iterations.
int32_t check_algorithm(const Algorithm& algorithm, const HostGraph& g, int width, const std::vector<int32_t>& expected,
                        const std::string& graph_name) {
    const std::string what = algorithm.name + " on " + graph_name + " (" + std::to_string(width * 8) + "-bit offsets)";
    const int32_t sentinel = -12345;
    std::vector<int32_t> labels(static_cast<size_t>(g.n) + 1, sentinel);
    ccl4j_timings timings;
    PhaseLog log(&timings);
    try {
        algorithm.run(g.view(width), labels.data(), 0, log);
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, what + ": " + e.what());
        return -1;
    }
    CHECK_MSG(labels.back() == sentinel, what + ": wrote past the last label");
    labels.pop_back();
    check_labels(labels, expected, what);

    bool phases_ok = timings.phase_count == static_cast<int32_t>(algorithm.phases.size());
    for (int32_t i = 0; phases_ok && i < timings.phase_count; ++i) {
        phases_ok = algorithm.phases[i] == timings.phases[i].name && timings.phases[i].ms >= 0;
    }
    CHECK_MSG(phases_ok, what + ": phases");
    if (algorithm.iterative) {
        CHECK_MSG(timings.iterations >= 1 && timings.iterations <= static_cast<int64_t>(g.n) + 2,
                  what + ": " + std::to_string(timings.iterations) + " iterations");
    } else {
        CHECK_MSG(timings.iterations == 0, what + ": iterations");
    }
    return timings.iterations;
}

// The length of the long shuffled path in the generated graphs: a shuffled path is the worst case of Kernels 1 and 2: about one edge per iteration.
constexpr int32_t kLongShuffledPath = 20000;

void check_all_algorithms(const HostGraph& g, const std::string& graph_name) {
    const std::vector<int32_t> expected = reference_labels(g);
    for (const Algorithm& algorithm : algorithms()) {
        const int32_t iterations32 = check_algorithm(algorithm, g, 4, expected, graph_name);
        const int32_t iterations64 = check_algorithm(algorithm, g, 8, expected, graph_name);
        CHECK_MSG(iterations32 == iterations64, algorithm.name + " on " + graph_name + ": iterations differ by offset width");
    }
}

void test_known_graphs() {
    for (const KnownGraph& known : known_graphs()) {
        CHECK_MSG(reference_labels(known.graph) == known.labels, "oracle on " + known.name);
        check_all_algorithms(known.graph, known.name);
    }
    // The nearest-neighbour lists of Komura's Fig. 1: 22 sites in three clusters (Fig. 4).
    const std::vector<std::vector<int32_t>> fig1 = {
        {3, 10},  {4, 5, 15}, {17, 18},     {0, 8, 9, 21}, {1, 11},  {1, 13, 20}, {8, 9},    {20},
        {3, 6},   {3, 6, 10}, {0, 9},       {4, 20},       {16, 19, 21}, {5, 15}, {19, 21}, {1, 13},
        {12, 21}, {2, 18},    {2, 17},      {12, 14},      {5, 7, 11},   {3, 12, 14, 16}};
    std::vector<Edge> edges;
    for (int32_t v = 0; v < static_cast<int32_t>(fig1.size()); ++v) {
        for (int32_t u : fig1[v]) {
            if (u < v) edges.emplace_back(v, u);
        }
    }
    const HostGraph network = from_edges(22, edges);
    CHECK(network.arc_count() == 2 * static_cast<int64_t>(edges.size()));
    CHECK(reference_labels(network) ==
          (std::vector<int32_t>{0, 1, 2, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 2, 2, 0, 1, 0}));
    check_all_algorithms(network, "Komura's Fig. 1 network");
}

// Runs an algorithm with the given limit; returns its iterations, or -1 after CCL4J_NOT_CONVERGED.
int32_t run_with_limit(const Algorithm& algorithm, const HostGraph& g, int32_t max_iterations) {
    std::vector<int32_t> labels(static_cast<size_t>(g.n));
    ccl4j_timings timings;
    PhaseLog log(&timings);
    try {
        algorithm.run(g.view32(), labels.data(), max_iterations, log);
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(e.status() == CCL4J_NOT_CONVERGED, algorithm.name + ": " + e.what());
        CHECK_MSG(std::string(e.what()).find(std::to_string(max_iterations) + " iterations") != std::string::npos,
                  algorithm.name + ": message \"" + e.what() + "\" names no limit");
        return -1;
    }
    check_labels(labels, reference_labels(g), algorithm.name + " with max_iterations " + std::to_string(max_iterations));
    return timings.iterations;
}

// Iteration counts that follow from the algorithms, and the iteration limit: a run that needs k
// iterations succeeds with max_iterations = k and stops with CCL4J_NOT_CONVERGED at k - 1.
void test_iterations() {
    const Algorithm& edge = algorithms()[0];
    const Algorithm& vertex = algorithms()[1];
    const Algorithm& bfs = algorithms()[2];
    // Kernel 3 takes one iteration per level of each search (the source's level included) and
    // one to find that no uncoloured vertex is left: an ordered path, n + 1; isolated vertices, n + 1.
    CHECK(run_with_limit(bfs, path(1000), 0) == 1001);
    CHECK(run_with_limit(bfs, isolated(50), 0) == 51);
    CHECK(run_with_limit(bfs, empty_graph(), 0) == 1);
    CHECK(run_with_limit(bfs, grid2d(30, 20), 0) == 30 + 20 - 1 + 1);  // levels from corner 0: 0..48
    // Kernels 1 and 2 with the chain analysis: one propagating iteration and one that changes
    // nothing on graphs numbered along their structure.
    for (const Algorithm* a : {&edge, &vertex}) {
        CHECK_MSG(run_with_limit(*a, path(1000), 0) == 2, a->name + " on an ordered path");
        CHECK_MSG(run_with_limit(*a, grid2d(64, 48), 0) == 2, a->name + " on a grid");
        CHECK_MSG(run_with_limit(*a, isolated(10), 0) == 1, a->name + " on isolated vertices");
    }

    const std::vector<std::pair<std::string, HostGraph>> graphs = {
        {"path 300", path(300)},
        {"shuffled path 300", shuffled_path(300, 5)},
        {"permuted grid 20x20", permuted(grid2d(20, 20), 6)},
        {"rmat 10/4", rmat(10, 4, 7)},
        {"200 components", random_components(200, 10, 8)},
    };
    for (const Algorithm* a : {&edge, &vertex, &bfs}) {
        for (const auto& [name, g] : graphs) {
            const int32_t needed = run_with_limit(*a, g, 0);
            CHECK_MSG(needed >= 1, a->name + " on " + name);
            CHECK_MSG(run_with_limit(*a, g, needed) == needed, a->name + " on " + name + " at its own limit");
            if (needed > 1) CHECK_MSG(run_with_limit(*a, g, needed - 1) == -1, a->name + " on " + name + " one short");
            CHECK_MSG(run_with_limit(*a, g, 1) == (needed == 1 ? 1 : -1), a->name + " on " + name + " with limit 1");
            std::printf("  %-14s %-22s %6d iterations\n", a->name.c_str(), name.c_str(), needed);
        }
    }
    CHECK(ccl4j::cpu::iteration_limit(0, 10) == 12);
    CHECK(ccl4j::cpu::iteration_limit(5, 10) == 5);
    CHECK(ccl4j::cpu::iteration_limit(0, INT32_MAX) == INT32_MAX - 1);
}

// An ordered path of 2^20 vertices and stars of 2^20 leaves (hub first, hub last, ids shuffled):
// every algorithm must finish them quickly. Prints times and iterations.
void test_long_path_and_stars() {
    const int32_t n = int32_t{1} << 20;
    const std::vector<std::pair<std::string, HostGraph>> graphs = {
        {"path 2^20", path(n)},
        {"star 2^20, hub 0", star(n, true)},
        {"star 2^20, hub last", star(n, false)},
        {"star 2^20, shuffled", stars(1, n, 3)},
    };
    for (const auto& [name, g] : graphs) {
        const std::vector<int32_t> expected = reference_labels(g);
        for (const Algorithm& algorithm : algorithms()) {
            std::vector<int32_t> labels(static_cast<size_t>(g.n), -1);
            ccl4j_timings timings;
            PhaseLog log(&timings);
            const auto start = std::chrono::steady_clock::now();
            algorithm.run(g.view32(), labels.data(), 0, log);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            check_labels(labels, expected, algorithm.name + " on " + name);
            std::printf("  %-22s %-14s %8.1f ms %8d iterations\n", name.c_str(), algorithm.name.c_str(), ms,
                        timings.iterations);
        }
    }
}

// ---- the C ABI --------------------------------------------------------------------------------

ccl4j_label_options options_for(ccl4j_algorithm algorithm, int32_t max_iterations) {
    ccl4j_label_options options{};
    options.algorithm = algorithm;
    options.max_iterations = max_iterations;
    return options;
}

// Every new algorithm through ccl4j_label_graph on both CPU backends; the iteration limit and
// invalid options as status codes.
void test_abi() {
    const HostGraph g = random_components(300, 40, 9);
    const std::vector<int32_t> expected = reference_labels(g);
    for (ccl4j_backend backend : {CCL4J_BACKEND_CPU_SERIAL, CCL4J_BACKEND_CPU_PARALLEL}) {
        ccl4j_context context = nullptr;
        CHECK(ccl4j_context_create(backend, 0, &context) == CCL4J_SUCCESS);
        if (!context) continue;
        const std::string b = backend == CCL4J_BACKEND_CPU_SERIAL ? "CPU_SERIAL" : "CPU_PARALLEL";
        for (const Algorithm& algorithm : algorithms()) {
            for (int width : {4, 8}) {
                const std::string what = "ABI " + b + " " + algorithm.name + " (" + std::to_string(width * 8) + "-bit)";
                const AbiGraph csr = g.csr(width);
                const ccl4j_label_options options = options_for(algorithm.id, 0);
                std::vector<int32_t> labels(static_cast<size_t>(g.n), -1);
                ccl4j_timings timings;
                const ccl4j_status status = ccl4j_label_graph(context, &csr.shape, csr.offsets, csr.neighbors,
                                                              &options, labels.data(), &timings);
                CHECK_MSG(status == CCL4J_SUCCESS, what + ": " + ccl4j_context_error_message(context));
                check_labels(labels, expected, what);
                CHECK_MSG(timings.algorithm == algorithm.id && timings.backend == backend, what + ": resolved");
                CHECK_MSG(timings.phase_count == static_cast<int32_t>(algorithm.phases.size()), what + ": phases");
                CHECK_MSG(algorithm.iterative ? timings.iterations >= 1 : timings.iterations == 0, what + ": iterations");
            }
        }
        // A shuffled path needs many iterations of Kernels 1-3; a limit of 2 stops each of them.
        const HostGraph long_path = shuffled_path(5000, 10);
        const AbiGraph csr = long_path.csr(4);
        std::vector<int32_t> labels(static_cast<size_t>(long_path.n));
        for (const Algorithm& algorithm : algorithms()) {
            if (!algorithm.iterative) continue;
            const ccl4j_label_options options = options_for(algorithm.id, 2);
            const ccl4j_status status =
                ccl4j_label_graph(context, &csr.shape, csr.offsets, csr.neighbors, &options, labels.data(), nullptr);
            CHECK_MSG(status == CCL4J_NOT_CONVERGED, "ABI " + b + " " + algorithm.name + " with max_iterations 2");
            CHECK_MSG(std::string(ccl4j_context_error_message(context)).find("converge") != std::string::npos,
                      "ABI " + b + " " + algorithm.name + ": message " + ccl4j_context_error_message(context));
        }
        const AbiGraph small = g.csr(8);
        const ccl4j_label_options negative = options_for(CCL4J_ALGORITHM_HAWICK_EDGE, -1);
        CHECK(ccl4j_label_graph(context, &small.shape, small.offsets, small.neighbors, &negative, labels.data(),
                                nullptr) == CCL4J_INVALID_ARGUMENT);
        const ccl4j_label_options unknown = options_for(CCL4J_ALGORITHM_STREAMED + 1, 0);
        CHECK(ccl4j_label_graph(context, &small.shape, small.offsets, small.neighbors, &unknown, labels.data(),
                                nullptr) == CCL4J_INVALID_ARGUMENT);
        ccl4j_context_destroy(context);
    }
}

// With a CUDA device: every algorithm through a CUDA context, from host memory and as a resident
// graph, and the iteration limit there; Hawick's CPU reference has no GPU version.
void test_abi_cuda() {
    ccl4j_capabilities capabilities;
    CHECK(ccl4j_get_capabilities(&capabilities) == CCL4J_SUCCESS);
    if (!(capabilities.backends & (1u << CCL4J_BACKEND_CUDA))) {
        std::printf("  no CUDA device: the CUDA dispatch is not checked here\n");
        return;
    }
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &context) == CCL4J_SUCCESS);
    if (!context) return;
    const HostGraph g = random_components(300, 40, 9);
    const std::vector<int32_t> expected = reference_labels(g);
    const AbiGraph csr = g.csr(4);
    ccl4j_device_graph resident = nullptr;
    CHECK(ccl4j_device_graph_create(context, &csr.shape, csr.offsets, csr.neighbors, &resident, nullptr) ==
          CCL4J_SUCCESS);
    std::vector<ccl4j_algorithm> ids = {CCL4J_ALGORITHM_ECL_CC};
    for (const Algorithm& algorithm : algorithms()) ids.push_back(algorithm.id);
    for (ccl4j_algorithm id : ids) {
        const std::string what = "ABI CUDA algorithm " + std::to_string(id);
        const ccl4j_label_options options = options_for(id, 0);
        std::vector<int32_t> labels(static_cast<size_t>(g.n), -1);
        ccl4j_timings timings;
        CHECK_MSG(ccl4j_label_graph(context, &csr.shape, csr.offsets, csr.neighbors, &options, labels.data(),
                                    &timings) == CCL4J_SUCCESS,
                  what + ": " + ccl4j_context_error_message(context));
        check_labels(labels, expected, what);
        CHECK_MSG(timings.algorithm == id && timings.backend == CCL4J_BACKEND_CUDA, what + ": resolved");
        std::fill(labels.begin(), labels.end(), -1);
        CHECK_MSG(ccl4j_label_device_graph(context, resident, &options, labels.data(), &timings) == CCL4J_SUCCESS,
                  what + " resident: " + ccl4j_context_error_message(context));
        check_labels(labels, expected, what + " resident");
    }
    std::vector<int32_t> labels(static_cast<size_t>(g.n));
    // AUTO picks by the average degree: Afforest on a dense rmat graph, ECL-CC on a path, on host
    // and resident graphs alike.
    for (const auto& [h, picked] : {std::pair{rmat(10, 8, 1), CCL4J_ALGORITHM_AFFOREST},
                                    std::pair{path(1000), CCL4J_ALGORITHM_ECL_CC}}) {
        const std::string what = "ABI CUDA AUTO on " + std::to_string(h.n) + " vertices, " +
                                 std::to_string(h.neighbors.size()) + " arcs";
        const AbiGraph h_csr = h.csr(4);
        const ccl4j_label_options automatic = options_for(CCL4J_ALGORITHM_AUTO, 0);
        std::vector<int32_t> h_labels(static_cast<size_t>(h.n), -1);
        ccl4j_timings timings;
        CHECK_MSG(ccl4j_label_graph(context, &h_csr.shape, h_csr.offsets, h_csr.neighbors, &automatic,
                                    h_labels.data(), &timings) == CCL4J_SUCCESS,
                  what + ": " + ccl4j_context_error_message(context));
        check_labels(h_labels, reference_labels(h), what);
        CHECK_MSG(timings.algorithm == picked, what + ": ran " + std::to_string(timings.algorithm));
        ccl4j_device_graph h_resident = nullptr;
        CHECK(ccl4j_device_graph_create(context, &h_csr.shape, h_csr.offsets, h_csr.neighbors, &h_resident, nullptr) ==
              CCL4J_SUCCESS);
        std::fill(h_labels.begin(), h_labels.end(), -1);
        CHECK(ccl4j_label_device_graph(context, h_resident, &automatic, h_labels.data(), &timings) == CCL4J_SUCCESS);
        check_labels(h_labels, reference_labels(h), what + " resident");
        CHECK_MSG(timings.algorithm == picked, what + " resident: ran " + std::to_string(timings.algorithm));
        ccl4j_device_graph_destroy(h_resident);
    }
    const ccl4j_label_options cpu_only = options_for(CCL4J_ALGORITHM_CPU_REFERENCE, 0);
    CHECK(ccl4j_label_graph(context, &csr.shape, csr.offsets, csr.neighbors, &cpu_only, labels.data(), nullptr) ==
          CCL4J_UNSUPPORTED);
    CHECK(ccl4j_label_device_graph(context, resident, &cpu_only, labels.data(), nullptr) == CCL4J_UNSUPPORTED);
    const HostGraph long_path = shuffled_path(5000, 10);
    const AbiGraph path_csr = long_path.csr(8);
    std::vector<int32_t> path_labels(static_cast<size_t>(long_path.n));
    for (const Algorithm& algorithm : algorithms()) {
        if (!algorithm.iterative) continue;
        const ccl4j_label_options options = options_for(algorithm.id, 2);
        CHECK_MSG(ccl4j_label_graph(context, &path_csr.shape, path_csr.offsets, path_csr.neighbors, &options,
                                    path_labels.data(), nullptr) == CCL4J_NOT_CONVERGED,
                  "ABI CUDA " + algorithm.name + " with max_iterations 2");
    }
    ccl4j_device_graph_destroy(resident);
    ccl4j_context_destroy(context);
}

}  // namespace

int main() {
    run("known graphs", test_known_graphs);
    run("generated graphs", [] { for_each_generated_graph(kLongShuffledPath, check_all_algorithms); });
    run("iterations and limits", test_iterations);
    run("2^20 path and stars", test_long_path_and_stars);
    run("C ABI", test_abi);
    run("C ABI on CUDA", test_abi_cuda);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
