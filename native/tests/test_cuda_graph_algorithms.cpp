// Tests of the GPU versions of Hawick's graph Kernels 1-3, Komura's label reduction and Afforest
// against their CPU versions (and the union-find oracle of test_graphs.hpp), on the generated graphs of
// test_graph_algorithms, with both offset widths, host and resident graphs (labels downloaded or
// left on the device), and several block sizes; their iteration counts and limits; an ordered
// path of 2^20 vertices and stars of 2^20 leaves; the dispatch of every algorithm by
// ccl4j::cuda::label. Without a CUDA device it prints "SKIPPED: no CUDA device" and passes.
// With --quick, a small set of graphs (for compute-sanitizer). Prints every failure and
// "N passed, M failed" last.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "api/options.hpp"
#include "common/error.hpp"
#include "common/validate.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/graph_kernels.hpp"
#include "check.hpp"
#include "test_gpu_runs.hpp"
#include "test_graphs.hpp"

namespace {

using ccl4j::Graph;
using ccl4j::PhaseLog;
using namespace ccl4j::test;
namespace gpu = ccl4j::cuda;

struct Algorithm {
    std::string name;
    ccl4j_algorithm id;
    std::vector<std::string> phases;
    bool iterative;
    std::function<void(const Graph&, int32_t*, int32_t, PhaseLog&)> cpu;  // (graph, labels, max_iterations, log)
};

const std::vector<Algorithm>& algorithms() {
    static const std::vector<Algorithm> all = {
        {"hawick_edge", CCL4J_ALGORITHM_HAWICK_EDGE, {"init", "propagate"}, true,
         [](const Graph& g, int32_t* l, int32_t m, PhaseLog& log) { ccl4j::cpu::hawick_edge(g, l, m, log); }},
        {"hawick_vertex", CCL4J_ALGORITHM_HAWICK_VERTEX, {"init", "propagate"}, true,
         [](const Graph& g, int32_t* l, int32_t m, PhaseLog& log) { ccl4j::cpu::hawick_vertex(g, l, m, log); }},
        {"hawick_bfs", CCL4J_ALGORITHM_HAWICK_BFS, {"init", "search"}, true,
         [](const Graph& g, int32_t* l, int32_t m, PhaseLog& log) { ccl4j::cpu::hawick_bfs(g, l, m, log); }},
        {"komura", CCL4J_ALGORITHM_KOMURA, {"init", "analysis1", "reduction", "analysis2"}, false,
         [](const Graph& g, int32_t* l, int32_t, PhaseLog& log) { ccl4j::cpu::komura(g, l, log); }},
        {"afforest", CCL4J_ALGORITHM_AFFOREST, {"init", "sample", "compress", "link", "finalize"}, false,
         [](const Graph& g, int32_t* l, int32_t, PhaseLog& log) {
             for (const ccl4j::Phase& phase : ccl4j::cpu::afforest_plan(g, l, 1)) {
                 ccl4j::Stopwatch watch;
                 phase.run();
                 log.add(phase.name.c_str(), watch.lap());
             }
         }},
    };
    return all;
}

// The options as the ABI layer translates and validates them (which throws for invalid ones).
ccl4j::LabelOptions options_for(ccl4j_algorithm algorithm, int32_t block_size = 0, int32_t max_iterations = 0) {
    ccl4j_label_options options{};
    options.algorithm = algorithm;
    options.block_size = block_size;
    options.max_iterations = max_iterations;
    return ccl4j::api::label_options(&options);
}

// The iterations a GPU run may report, given the CPU version's: Kernel 3 takes the same steps
// (a level or a search start per launch); Kernels 1 and 2 depend on the order in which the GPU
// runs their threads, within the paper's bound; Komura has no loop.
void check_iterations(const Algorithm& algorithm, int32_t gpu, int32_t cpu, int32_t n, const std::string& what) {
    if (algorithm.id == CCL4J_ALGORITHM_HAWICK_BFS) {
        CHECK_MSG(gpu == cpu, what + ": " + std::to_string(gpu) + " iterations, CPU " + std::to_string(cpu));
    } else if (algorithm.iterative) {
        CHECK_MSG(gpu >= 1 && gpu <= static_cast<int64_t>(n) + 2, what + ": " + std::to_string(gpu) + " iterations");
    } else {
        CHECK_MSG(gpu == 0, what + ": iterations");
    }
}

// Every algorithm on g: the CPU version (checked against the oracle), then on the GPU from host
// memory and as a resident graph (labels downloaded, and left on the device), with each offset
// width and each block size given; every GPU result must equal the CPU version's.
void check_graph(gpu::DeviceState& state, const HostGraph& g, const std::string& graph_name,
                 const std::vector<int32_t>& block_sizes = {0}) {
    const std::vector<int32_t> expected = reference_labels(g);
    for (const Algorithm& algorithm : algorithms()) {
        std::vector<int32_t> cpu_labels(static_cast<size_t>(g.n), kPoison);
        ccl4j_timings cpu_timings;
        PhaseLog cpu_log(&cpu_timings);
        algorithm.cpu(g.view64(), cpu_labels.data(), 0, cpu_log);
        check_labels(cpu_labels, expected, "CPU " + algorithm.name + " on " + graph_name);

        for (int width : {4, 8}) {
            gpu::DeviceGraphPtr resident = gpu::upload(state, g.view(width), nullptr);
            for (int32_t block : block_sizes) {
                const std::string what = algorithm.name + " on " + graph_name + " (" + std::to_string(width * 8) +
                                         "-bit offsets, block " + std::to_string(block) + ")";
                check_gpu_runs(state, g, width, *resident, options_for(algorithm.id, block), cpu_labels,
                               algorithm.phases, what, [&](const ccl4j_timings& timings, const std::string& run) {
                                   if (g.n > 0) {
                                       check_iterations(algorithm, timings.iterations, cpu_timings.iterations, g.n, run);
                                   }
                               });
            }
        }
    }
}

void test_known_graphs(gpu::DeviceState& state) {
    for (const KnownGraph& known : known_graphs()) {
        CHECK_MSG(reference_labels(known.graph) == known.labels, "oracle on " + known.name);
        check_graph(state, known.graph, known.name);
    }
}

void test_generated_graphs(gpu::DeviceState& state) {
    check_graph(state, empty_graph(), "empty graph");
    check_graph(state, isolated(1), "one vertex");
    check_graph(state, isolated(1000), "1000 isolated vertices");
    check_graph(state, from_edges(2, {{1, 0}}), "one edge");

    // Block sizes from one warp to the largest, with partial blocks at the end of the grid.
    const std::vector<int32_t> blocks = {0, 32, 96, 1024};
    for (auto [w, h] : {std::pair{1, 100}, {100, 1}, {37, 53}, {517, 389}}) {
        check_graph(state, grid2d(w, h), "grid " + std::to_string(w) + "x" + std::to_string(h), blocks);
    }
    check_graph(state, permuted(grid2d(300, 300), 7), "permuted grid 300x300", blocks);

    for (uint64_t seed : {1, 2}) {
        const std::string s = " seed " + std::to_string(seed);
        check_graph(state, rmat(14, 8, seed), "rmat 14/8" + s, blocks);
        check_graph(state, permuted(rmat(12, 8, seed), seed), "permuted rmat 12/8" + s);
        check_graph(state, power_law(30000, 8, 2.5, seed), "power law 30000/8/2.5" + s);
        check_graph(state, shuffled_path(1000, seed), "shuffled path 1000" + s);
        check_graph(state, shuffled_path(20000, seed), "shuffled path 20000" + s);
        check_graph(state, random_components(5000, 5, seed), "5000 tiny components" + s, blocks);
        check_graph(state, random_components(200, 60, seed), "200 components" + s);
        check_graph(state, random_components(3, 30000, seed), "3 large components" + s);
        // Residual lists and adjacency lists around and far above the warp width.
        for (int32_t leaves : {16, 31, 32, 33, 352, 2000, 50000}) {
            check_graph(state, stars(5, leaves, seed), "stars of " + std::to_string(leaves) + s);
        }
        check_graph(state, hubs(20000, 10, 1000, seed), "hubs of degree 1000" + s, blocks);
        check_graph(state, hubs(20000, 100, 100, seed), "hubs of degree 100" + s);
        check_graph(state, random_sparse(20000, 6000, seed), "sparse random, many components" + s);
        check_graph(state, random_sparse(100000, 400000, seed), "sparse random, giant component" + s);

        HostGraph shuffled_grid = grid2d(128, 96);
        shuffle_adjacency(shuffled_grid, seed);
        check_graph(state, shuffled_grid, "grid with shuffled adjacency" + s);
        HostGraph shuffled_rmat = rmat(12, 8, seed);
        shuffle_adjacency(shuffled_rmat, seed);
        check_graph(state, shuffled_rmat, "rmat with shuffled adjacency" + s);
        check_graph(state, random_multigraph(30000, 20000, seed), "random multigraph" + s);
    }
    for (int32_t n : {2, 3, 1000, 20000}) check_graph(state, path(n), "path " + std::to_string(n));
    check_graph(state, cliques(10, 20), "10 cliques of 20");
    check_graph(state, cliques(1, 400), "clique of 400");
}

// A race shows as a result that changes between runs: label larger graphs repeatedly.
void test_repeatability(gpu::DeviceState& state) {
    for (const auto& [g, name] : {std::pair{rmat(18, 8, 9), "rmat 18/8"},
                                  {permuted(grid2d(512, 512), 3), "permuted grid 512^2"},
                                  {hubs(300000, 50, 20000, 5), "hubs of degree 20000"}}) {
        const std::vector<int32_t> expected = reference_labels(g);
        std::vector<int32_t> labels(static_cast<size_t>(g.n));
        for (const Algorithm& algorithm : algorithms()) {
            for (int run = 0; run < 3; ++run) {
                std::fill(labels.begin(), labels.end(), kPoison);
                PhaseLog log(nullptr);
                gpu::label(state, g.view32(), options_for(algorithm.id), labels.data(), log);
                check_labels(labels, expected, algorithm.name + " on " + name + ", run " + std::to_string(run));
            }
        }
    }
}

// An ordered path of 2^20 vertices and stars of 2^20 leaves finish; prints times and iterations.
void test_long_path_and_stars(gpu::DeviceState& state) {
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
            std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
            ccl4j_timings timings;
            PhaseLog log(&timings);
            const auto start = std::chrono::steady_clock::now();
            gpu::label(state, g.view32(), options_for(algorithm.id), labels.data(), log);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            check_labels(labels, expected, "GPU " + algorithm.name + " on " + name);
            if (algorithm.id == CCL4J_ALGORITHM_HAWICK_BFS && name == "path 2^20") {
                CHECK_MSG(timings.iterations == n + 1, "GPU hawick_bfs on the 2^20 path: iterations");
            }
            std::printf("  %-22s %-14s %9.1f ms %8d iterations\n", name.c_str(), algorithm.name.c_str(), ms,
                        timings.iterations);
        }
    }
}

// The iteration limit: CCL4J_NOT_CONVERGED once a loop would exceed max_iterations; Kernel 3,
// whose count is deterministic, succeeds at exactly its count and stops one short of it.
// The input checks on the device agree with the host's: a well-formed multigraph passes (timed as
// the phase "check"), and each fault (an arc without its reverse, a surplus duplicate, ids out of
// range, offsets out of order) is refused with the host's status and message, before any
// labelling kernel reads the arrays.
void test_input_check(gpu::DeviceState& state) {
    const HostGraph multigraph = from_edges(6, {{0, 1}, {0, 1}, {2, 2}, {3, 4}, {4, 5}, {5, 3}}, false);
    struct Case {
        std::string name;
        HostGraph graph;
    };
    std::vector<Case> faults = {
        {"an arc without its reverse", from_csr(4, {0, 1, 2, 2, 3}, {1, 2, 2})},
        {"a surplus duplicate", from_csr(2, {0, 2, 3}, {1, 1, 0})},
        {"a negative id", from_csr(2, {0, 1, 2}, {1, -100000000})},
        {"an id past the last vertex", from_csr(2, {0, 1, 2}, {1, 2})},
        {"offsets out of order", from_csr(3, {0, 3, 1, 3}, {1, 0, 2})},
    };
    // A hub of 100 leaves (its list is read by a whole warp), with one leaf's arc back missing.
    std::vector<Edge> spokes;
    for (int32_t leaf = 1; leaf <= 100; ++leaf) spokes.push_back({0, leaf});
    const HostGraph star = from_edges(101, spokes);
    std::vector<int64_t> offsets = star.offsets;
    std::vector<int32_t> neighbors = star.neighbors;
    neighbors.erase(neighbors.begin() + offsets[37]);  // leaf 37's only arc, to the hub
    for (size_t v = 38; v < offsets.size(); ++v) --offsets[v];
    faults.push_back({"a hub's arc without its reverse", from_csr(101, offsets, neighbors)});
    for (int width : {4, 8}) {
        for (ccl4j_algorithm algorithm : {CCL4J_ALGORITHM_ECL_CC, CCL4J_ALGORITHM_KOMURA}) {
            ccl4j::LabelOptions options = options_for(algorithm, 0, 0);
            options.check_input = true;
            std::vector<int32_t> labels(static_cast<size_t>(multigraph.n), kPoison);
            ccl4j_timings timings;
            PhaseLog log(&timings);
            gpu::label(state, multigraph.view(width), options, labels.data(), log);
            check_labels(labels, {0, 0, 2, 3, 3, 3}, "checked multigraph");
            CHECK(std::string(timings.phases[1].name) == "check");
            std::vector<int32_t> star_labels(static_cast<size_t>(star.n), kPoison);
            PhaseLog star_log(nullptr);
            gpu::label(state, star.view(width), options, star_labels.data(), star_log);
            check_labels(star_labels, std::vector<int32_t>(static_cast<size_t>(star.n), 0), "checked star");
            for (const Case& c : faults) {
                std::string host_message;
                try {
                    ccl4j::check_input(c.graph.view(width), 0);
                } catch (const ccl4j::Error& e) {
                    host_message = e.what();
                }
                CHECK(!host_message.empty());
                std::vector<int32_t> out(static_cast<size_t>(c.graph.n), kPoison);
                try {
                    PhaseLog fault_log(nullptr);
                    gpu::label(state, c.graph.view(width), options, out.data(), fault_log);
                    CHECK_MSG(false, "device check of " + c.name + ": accepted");
                } catch (const ccl4j::Error& e) {
                    CHECK_MSG(e.status() == CCL4J_INVALID_INPUT && e.what() == host_message,
                              "device check of " + c.name + ": " + e.what() + " (host: " + host_message + ")");
                }
            }
        }
    }
}

void test_iteration_limit(gpu::DeviceState& state) {
    const HostGraph g = shuffled_path(5000, 10);
    std::vector<int32_t> labels(static_cast<size_t>(g.n));
    for (const Algorithm& algorithm : algorithms()) {
        if (!algorithm.iterative) continue;
        for (int width : {4, 8}) {
            check_fails(
                [&] {
                    PhaseLog log(nullptr);
                    gpu::label(state, g.view(width), options_for(algorithm.id, 0, 2), labels.data(), log);
                },
                CCL4J_NOT_CONVERGED, "GPU " + algorithm.name + " with max_iterations 2");
        }
    }
    const Algorithm& bfs = algorithms()[2];
    for (const HostGraph& h : {path(3000), random_components(300, 20, 4), grid2d(60, 50)}) {
        ccl4j_timings cpu_timings;
        PhaseLog cpu_log(&cpu_timings);
        std::vector<int32_t> cpu_labels(static_cast<size_t>(h.n));
        bfs.cpu(h.view32(), cpu_labels.data(), 0, cpu_log);
        const int32_t needed = cpu_timings.iterations;
        std::vector<int32_t> gpu_labels(static_cast<size_t>(h.n), kPoison);
        ccl4j_timings timings;
        PhaseLog log(&timings);
        gpu::label(state, h.view32(), options_for(bfs.id, 0, needed), gpu_labels.data(), log);
        check_labels(gpu_labels, cpu_labels, "GPU hawick_bfs at its own iteration limit");
        CHECK(timings.iterations == needed);
        check_fails(
            [&] {
                PhaseLog short_log(nullptr);
                gpu::label(state, h.view32(), options_for(bfs.id, 0, needed - 1), gpu_labels.data(), short_log);
            },
            CCL4J_NOT_CONVERGED, "GPU hawick_bfs one iteration short");
    }
    // The state stays usable after a loop gave up.
    std::vector<int32_t> after(static_cast<size_t>(g.n), kPoison);
    PhaseLog log(nullptr);
    gpu::label(state, g.view32(), options_for(CCL4J_ALGORITHM_KOMURA), after.data(), log);
    check_labels(after, reference_labels(g), "Komura after a loop gave up");
}

void test_dispatch_and_options(gpu::DeviceState& state) {
    const HostGraph g = rmat(12, 4, 3);
    const std::vector<int32_t> expected = reference_labels(g);
    std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
    PhaseLog log(nullptr);
    gpu::label(state, g.view32(), options_for(CCL4J_ALGORITHM_ECL_CC), labels.data(), log);
    check_labels(labels, expected, "ECL-CC through label()");
    check_fails([&] { gpu::label(state, g.view32(), options_for(CCL4J_ALGORITHM_CPU_REFERENCE), labels.data(), log); },
                CCL4J_UNSUPPORTED, "CPU reference on the GPU");
    for (const Algorithm& algorithm : algorithms()) {
        for (int32_t block : {-32, 16, 48, 2048}) {
            check_fails([&] { gpu::label(state, g.view32(), options_for(algorithm.id, block), labels.data(), log); },
                        CCL4J_INVALID_ARGUMENT, algorithm.name + " with block size " + std::to_string(block));
        }
        check_fails([&] { gpu::label(state, g.view32(), options_for(algorithm.id, 0, -1), labels.data(), log); },
                    CCL4J_INVALID_ARGUMENT, algorithm.name + " with max_iterations -1");
    }
}

void run(const char* name, void (*test)(gpu::DeviceState&), gpu::DeviceState& state) {
    const auto start = std::chrono::steady_clock::now();
    test(state);
    std::printf("%-28s %6.2f s\n", name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

// --quick: a small set of graphs for runs under compute-sanitizer, whose slowdown would make the
// long loops (the 2^20 path, the repeated large graphs) take far too long.
void test_quick(gpu::DeviceState& state) {
    test_known_graphs(state);
    check_graph(state, empty_graph(), "empty graph");
    check_graph(state, isolated(100), "100 isolated vertices");
    check_graph(state, grid2d(37, 53), "grid 37x53", {0, 32, 96, 1024});
    check_graph(state, rmat(10, 8, 1), "rmat 10/8", {0, 96});
    check_graph(state, shuffled_path(300, 1), "shuffled path 300");
    check_graph(state, random_components(300, 5, 1), "300 tiny components", {0, 96});
    check_graph(state, stars(3, 100, 1), "stars of 100");
    check_graph(state, hubs(3000, 5, 500, 1), "hubs of degree 500");
    check_graph(state, random_multigraph(2000, 1500, 1), "random multigraph");
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
    if (gpu::device_count() == 0) {
        std::printf("SKIPPED: no CUDA device\n");
        std::printf("%d passed, %d failed\n", passed, failed);
        return 0;
    }
    try {
        ccl4j_device_info info;
        gpu::device_info(0, &info);
        std::printf("device 0: %s\n", info.name);
        gpu::DeviceStatePtr state = gpu::create_state(0);
        if (quick) {
            run("quick set of graphs", test_quick, *state);
        } else {
            run("known graphs", test_known_graphs, *state);
            run("generated graphs", test_generated_graphs, *state);
            run("repeatability", test_repeatability, *state);
            run("2^20 path and stars", test_long_path_and_stars, *state);
        }
        run("iteration limit", test_iteration_limit, *state);
        run("input checks on the device", test_input_check, *state);
        run("dispatch and options", test_dispatch_and_options, *state);
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, std::string("unexpected error, remaining tests abandoned: ") + e.what());
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
