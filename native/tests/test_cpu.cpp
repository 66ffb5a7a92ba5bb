// Tests of the CPU algorithms, canonicalisation and graph validation against the union-find
// oracle of test_graphs.hpp. Prints every failure and "N passed, M failed"; exits non-zero on failure.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "common/canonical.hpp"
#include "common/error.hpp"
#include "common/validate.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "check.hpp"
#include "test_graphs.hpp"

namespace {

using ccl4j::Graph;
using ccl4j::PhaseLog;
using namespace ccl4j::test;

// ---- the algorithms against the oracle ------------------------------------------------------

struct Algorithm {
    std::string name;
    std::vector<std::string> phases;
    std::function<void(const Graph&, int32_t*, PhaseLog&)> run;
};

// Runs a plan's phases in order, logging each one's time.
void run_plan(const ccl4j::PhasePlan& plan, PhaseLog& log) {
    for (const ccl4j::Phase& phase : plan) {
        ccl4j::Stopwatch watch;
        phase.run();
        log.add(phase.name.c_str(), watch.lap());
    }
}

Algorithm afforest(int threads) {
    return {"afforest(" + std::to_string(threads) + ")",
            {"init", "sample", "compress", "link", "finalize"},
            [threads](const Graph& g, int32_t* labels, PhaseLog& log) {
                run_plan(ccl4j::cpu::afforest_plan(g, labels, threads), log);
            }};
}

const std::vector<Algorithm>& algorithms() {
    static const std::vector<Algorithm> all = {
        afforest(1), afforest(2), afforest(3), afforest(0),
        {"ecl_cc_serial", {"init", "compute", "finalize"},
         [](const Graph& g, int32_t* labels, PhaseLog& log) { ccl4j::cpu::ecl_cc_serial(g, labels, log); }},
        {"ecl_cc_parallel(1)", {"init", "compute", "finalize"},
         [](const Graph& g, int32_t* labels, PhaseLog& log) { ccl4j::cpu::ecl_cc_parallel(g, labels, 1, log); }},
        {"ecl_cc_parallel(2)", {"init", "compute", "finalize"},
         [](const Graph& g, int32_t* labels, PhaseLog& log) { ccl4j::cpu::ecl_cc_parallel(g, labels, 2, log); }},
        {"ecl_cc_parallel(4)", {"init", "compute", "finalize"},
         [](const Graph& g, int32_t* labels, PhaseLog& log) { ccl4j::cpu::ecl_cc_parallel(g, labels, 4, log); }},
        {"ecl_cc_parallel(all)", {"init", "compute", "finalize"},
         [](const Graph& g, int32_t* labels, PhaseLog& log) { ccl4j::cpu::ecl_cc_parallel(g, labels, 0, log); }},
        {"hawick_reference", {"label"},
         [](const Graph& g, int32_t* labels, PhaseLog& log) { ccl4j::cpu::hawick_reference(g, labels, log); }},
    };
    return all;
}

// Runs one algorithm with one offset width; checks the labels, that nothing past the n labels
// is written, and the phases recorded.
void check_algorithm(const Algorithm& algorithm, const HostGraph& g, int width, const std::vector<int32_t>& expected,
                     const std::string& graph_name) {
    const std::string what = algorithm.name + " on " + graph_name + " (" + std::to_string(width * 8) + "-bit offsets)";
    const int32_t sentinel = -12345;
    std::vector<int32_t> labels(static_cast<size_t>(g.n) + 1, sentinel);
    ccl4j_timings timings;
    PhaseLog log(&timings);
    algorithm.run(g.view(width), labels.data(), log);
    CHECK_MSG(labels.back() == sentinel, what + ": wrote past the last label");
    labels.pop_back();
    check_labels(labels, expected, what);

    bool phases_ok = timings.phase_count == static_cast<int32_t>(algorithm.phases.size());
    for (int32_t i = 0; phases_ok && i < timings.phase_count; ++i) {
        phases_ok = algorithm.phases[i] == timings.phases[i].name && timings.phases[i].ms >= 0;
    }
    CHECK_MSG(phases_ok, what + ": phases");
}

// The length of the long shuffled path in the generated graphs: ECL-CC handles long paths in a single pass.
constexpr int32_t kLongShuffledPath = 200000;

void check_all_algorithms(const HostGraph& g, const std::string& graph_name) {
    const std::vector<int32_t> expected = reference_labels(g);
    for (const Algorithm& algorithm : algorithms()) {
        for (int width : {4, 8}) check_algorithm(algorithm, g, width, expected, graph_name);
    }
}

// Hand-made graphs with known answers, so the oracle itself is checked too.
void test_known_graphs() {
    for (const KnownGraph& known : known_graphs()) {
        CHECK_MSG(reference_labels(known.graph) == known.labels, "oracle on " + known.name);
        check_all_algorithms(known.graph, known.name);
    }
    CHECK(component_count(known_graphs()[0].labels) == 3);
    CHECK(known_graphs()[2].graph.arc_count() == 2 * 6 + 2);  // duplicates and self loops kept
}

// A grid at the low ids beside paths through the other vertices in random order, 30 of them
// joined to the grid: after init the grid is one tree of over half the vertices (Afforest's early
// giant tree, whose vertices skip sampling), and the paths' vertices sample, some into that tree.
// A path's edges are all bridges, so a missed one changes the components.
HostGraph grid_beside_random(uint64_t seed) {
    const HostGraph grid = grid2d(200, 200);
    std::vector<Edge> edges;
    for (int32_t v = 0; v < grid.n; ++v) {
        for (int64_t arc = grid.offsets[v]; arc < grid.offsets[v + 1]; ++arc) {
            if (grid.neighbors[arc] > v) edges.emplace_back(v, grid.neighbors[arc]);
        }
    }
    constexpr int32_t kOthers = 30000;
    constexpr int32_t kPathLength = 500;
    std::vector<int32_t> order(kOthers);
    for (int32_t i = 0; i < kOthers; ++i) order[static_cast<size_t>(i)] = grid.n + i;
    Rng rng(seed);
    for (int32_t i = kOthers - 1; i > 0; --i) std::swap(order[static_cast<size_t>(i)], order[rng.below(i + 1)]);
    for (int32_t i = 0; i + 1 < kOthers; ++i) {
        if ((i + 1) % kPathLength != 0) edges.emplace_back(order[static_cast<size_t>(i)], order[static_cast<size_t>(i) + 1]);
    }
    for (int32_t i = 0; i < kOthers; i += 2 * kPathLength) {
        edges.emplace_back(static_cast<int32_t>(rng.below(grid.n)), order[static_cast<size_t>(i)]);
    }
    return from_edges(grid.n + kOthers, edges);
}

// Repeats the parallel runs on graphs with many concurrent hooks, where a lost CAS race would show.
void test_parallel_repeatedly() {
    const std::vector<std::pair<std::string, HostGraph>> graphs = {
        {"grid beside random vertices", grid_beside_random(16)},
        {"sparse random at the threshold", random_sparse(100000, 50000, 11)},
        {"permuted rmat 15/4", permuted(rmat(15, 4, 12), 13)},
        {"shuffled path", shuffled_path(100000, 14)},
        {"hubs", hubs(50000, 20, 2000, 15)},
    };
    for (const auto& [name, g] : graphs) {
        const std::vector<int32_t> expected = reference_labels(g);
        for (int repetition = 0; repetition < 10; ++repetition) {
            for (int threads : {1, 2, 3, 4}) {
                std::vector<int32_t> labels(static_cast<size_t>(g.n));
                PhaseLog log(nullptr);
                ccl4j::cpu::ecl_cc_parallel(g.view(repetition % 2 ? 8 : 4), labels.data(), threads, log);
                check_labels(labels, expected, "ecl_cc_parallel(" + std::to_string(threads) + ") on " + name +
                                                   ", repetition " + std::to_string(repetition));
                std::fill(labels.begin(), labels.end(), -1);
                run_plan(ccl4j::cpu::afforest_plan(g.view(repetition % 2 ? 4 : 8), labels.data(), threads), log);
                check_labels(labels, expected, "afforest(" + std::to_string(threads) + ") on " + name +
                                                   ", repetition " + std::to_string(repetition));
            }
        }
    }
}

// A 16M-vertex ordered path: one chain of 16M parents for ECL-CC and a 16M-deep search for a
// recursive DFS. Checked directly (every label 0) to keep the test fast.
void test_long_path() {
    const int32_t n = int32_t{1} << 24;
    const HostGraph g = path(n);
    std::vector<int32_t> labels(static_cast<size_t>(n));
    for (const Algorithm& algorithm : algorithms()) {
        std::fill(labels.begin(), labels.end(), -1);
        ccl4j_timings timings;
        PhaseLog log(&timings);
        auto start = std::chrono::steady_clock::now();
        algorithm.run(g.view32(), labels.data(), log);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        size_t v = 0;
        while (v < labels.size() && labels[v] == 0) ++v;
        CHECK_MSG(v == labels.size(), algorithm.name + " on the 16M path: vertex " + std::to_string(v) + " is not labelled 0");
        std::printf("  16M-vertex path, %-22s %8.1f ms\n", algorithm.name.c_str(), ms);
    }
}

// ---- canonicalize ---------------------------------------------------------------------------

// Assigns the n vertices to groups at random, gives each group a distinct random id in [0, n),
// and checks that canonicalize() rewrites every id to the group's smallest vertex.
void check_canonicalize(int32_t n, int32_t groups, uint64_t seed) {
    Rng rng(seed);
    const std::vector<int32_t> group_id = random_permutation(n, seed + 1000);
    std::vector<int32_t> group(static_cast<size_t>(n));
    std::vector<int32_t> smallest(static_cast<size_t>(groups), -1);
    std::vector<int32_t> labels(static_cast<size_t>(n));
    for (int32_t v = 0; v < n; ++v) {
        group[v] = static_cast<int32_t>(rng.below(static_cast<uint64_t>(groups)));
        if (smallest[group[v]] < 0) smallest[group[v]] = v;
        labels[v] = group_id[group[v]];
    }
    ccl4j::canonicalize(labels.data(), n);
    size_t v = 0;
    while (v < labels.size() && labels[v] == smallest[group[v]]) ++v;
    CHECK_MSG(v == labels.size(), "canonicalize n=" + std::to_string(n) + " groups=" + std::to_string(groups) +
                                      " seed=" + std::to_string(seed) + ": wrong at vertex " + std::to_string(v));
}

void test_canonicalize() {
    ccl4j::canonicalize(nullptr, 0);
    for (uint64_t seed : {1, 2, 3}) {
        check_canonicalize(1, 1, seed);
        check_canonicalize(100, 1, seed);
        check_canonicalize(100, 100, seed);
        check_canonicalize(1000, 7, seed);
        check_canonicalize(100000, 3000, seed);
    }
    // A permutation of ids: every vertex alone.
    std::vector<int32_t> labels = random_permutation(1000, 9);
    ccl4j::canonicalize(labels.data(), 1000);
    std::vector<int32_t> identity(1000);
    std::iota(identity.begin(), identity.end(), 0);
    CHECK(labels == identity);
    // Canonical labels stay as they are.
    const HostGraph g = rmat(12, 4, 5);
    labels = reference_labels(g);
    ccl4j::canonicalize(labels.data(), g.n);
    CHECK(labels == reference_labels(g));
}

// ---- validation -----------------------------------------------------------------------------

// Runs f, which must throw ccl4j::Error with `status` and a message containing `needle`.
void check_fails(const std::function<void()>& f, ccl4j_status status, const std::string& needle, const std::string& what) {
    try {
        f();
        CHECK_MSG(false, what + ": accepted");
    } catch (const ccl4j::Error& e) {
        const std::string message = e.what();
        CHECK_MSG(e.status() == status, what + ": status " + std::to_string(e.status()) + " (" + message + ")");
        CHECK_MSG(message.find(needle) != std::string::npos, what + ": message \"" + message + "\" lacks \"" + needle + "\"");
    }
}

void check_passes(const std::function<void()>& f, const std::string& what) {
    try {
        f();
        CHECK_MSG(true, what);
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, what + ": rejected: " + e.what());
    }
}

void test_validate_sizes() {
    const HostGraph g = from_edges(4, {{0, 1}, {1, 2}});  // 4 arcs
    // validate_sizes on a shape with the arrays of `arrays`.
    auto sizes = [](ccl4j_csr shape, const AbiGraph& arrays) {
        return [shape, arrays] { ccl4j::validate_sizes(&shape, arrays.offsets, arrays.neighbors); };
    };
    const ccl4j_status argument = CCL4J_INVALID_ARGUMENT;
    const ccl4j_status input = CCL4J_INVALID_INPUT;

    for (int width : {4, 8}) {
        const std::string w = " (" + std::to_string(width * 8) + "-bit)";
        const AbiGraph good = g.csr(width);
        Graph view = ccl4j::validate_sizes(&good.shape, good.offsets, good.neighbors);
        CHECK(view.vertex_count == 4 && view.arc_count == 4 && view.offset_width == width);
        CHECK(view.offsets == good.offsets && view.neighbors == good.neighbors);

        ccl4j_csr bad = good.shape;
        bad.vertex_count = -1;
        check_fails(sizes(bad, good), argument, "vertex_count", "negative vertex count" + w);
        bad = good.shape;
        bad.vertex_count = int64_t{1} << 31;
        check_fails(sizes(bad, good), argument, "vertex_count", "vertex count beyond 32-bit ids" + w);
        bad = good.shape;
        bad.arc_count = -4;
        check_fails(sizes(bad, good), argument, "arc_count", "negative arc count" + w);
        check_fails([&] { ccl4j::validate_sizes(&good.shape, nullptr, good.neighbors); }, argument, "offsets",
                    "null offsets" + w);
        check_fails([&] { ccl4j::validate_sizes(&good.shape, good.offsets, nullptr); }, argument, "neighbors",
                    "null neighbours" + w);
        bad = good.shape;
        bad.arc_count = 3;
        check_fails(sizes(bad, good), input, "offsets[4]", "last offset != arc count" + w);
    }
    check_fails([&] { ccl4j::validate_sizes(nullptr, g.offsets.data(), g.neighbors.data()); }, argument, "graph",
                "null graph");
    for (int width : {0, 2, 16, -8}) {
        const AbiGraph good = g.csr(8);
        ccl4j_csr bad = good.shape;
        bad.offset_width = width;
        check_fails(sizes(bad, good), argument, "offset_width", "offset width " + std::to_string(width));
    }
    const AbiGraph narrow = g.csr(4);
    ccl4j_csr wide = narrow.shape;
    wide.arc_count = int64_t{1} << 32;
    check_fails(sizes(wide, narrow), argument, "64-bit offsets", "32-bit offsets with 2^32 arcs");

    // offsets[0] != 0, in both widths.
    const std::vector<int64_t> shifted64 = {1, 2, 3, 4, 4};
    const std::vector<int32_t> shifted32 = {1, 2, 3, 4, 4};
    const ccl4j_csr shape64 = g.csr(8).shape;
    const ccl4j_csr shape32 = g.csr(4).shape;
    check_fails([&] { ccl4j::validate_sizes(&shape64, shifted64.data(), g.neighbors.data()); }, input, "offsets[0]",
                "offsets[0] != 0 (64-bit)");
    check_fails([&] { ccl4j::validate_sizes(&shape32, shifted32.data(), g.neighbors.data()); }, input, "offsets[0]",
                "offsets[0] != 0 (32-bit)");

    // An empty graph needs only offsets[0] and may have no neighbour array.
    const HostGraph empty_host = empty_graph();
    const AbiGraph empty = empty_host.csr(8);
    check_passes([&] { ccl4j::validate_sizes(&empty.shape, empty.offsets, nullptr); }, "empty graph without neighbours");
}

// A graph given by explicit 64-bit offsets and neighbour ids, so that it can be malformed.
struct RawGraph {
    std::vector<int64_t> offsets;
    std::vector<int32_t> neighbors;
    std::vector<int32_t> offsets32;

    RawGraph(std::vector<int64_t> o, std::vector<int32_t> nb)
        : offsets(std::move(o)), neighbors(std::move(nb)), offsets32(offsets.begin(), offsets.end()) {}
    Graph view(int width) const {
        const void* o = width == 4 ? static_cast<const void*>(offsets32.data()) : offsets.data();
        return Graph{static_cast<int32_t>(offsets.size() - 1), static_cast<int64_t>(neighbors.size()), width, o,
                     neighbors.data()};
    }
};

void test_check_input() {
    const ccl4j_status input = CCL4J_INVALID_INPUT;
    const HostGraph valid_rmat = rmat(12, 8, 3);
    const HostGraph valid_grid = grid2d(40, 30);
    const HostGraph valid_multigraph = random_multigraph(2000, 3000, 5);
    const HostGraph valid_empty = empty_graph();
    for (int width : {4, 8}) {
        for (int threads : {1, 2, 0}) {
            const std::string w = " (" + std::to_string(width * 8) + "-bit, " + std::to_string(threads) + " threads)";
            auto check = [threads](Graph g) { return [g, threads] { ccl4j::check_input(g, threads); }; };

            // Vertex 3's list ends before it starts.
            RawGraph decreasing({0, 1, 2, 5, 4, 6}, {1, 0, 3, 2, 4, 4});
            check_fails(check(decreasing.view(width)), input, "vertex 3", "non-monotone offsets" + w);

            // Arc 4 (of vertex 2) points at vertex 9 of a 4-vertex graph; also a negative id.
            RawGraph out_of_range({0, 1, 3, 5, 6}, {1, 0, 2, 1, 9, 2});
            check_fails(check(out_of_range.view(width)), input, "arc 4", "neighbour id too large" + w);
            RawGraph negative({0, 1, 2}, {1, -1});
            check_fails(check(negative.view(width)), input, "arc 1", "negative neighbour id" + w);

            // 2 -> 1 has no reverse (1's only neighbour is 0).
            RawGraph asymmetric({0, 1, 2, 3}, {1, 0, 1});
            check_fails(check(asymmetric.view(width)), input, "vertex 1", "arc without reverse" + w);
            // A directed triangle: in- and out-degrees agree, but no arc has its reverse.
            RawGraph directed({0, 1, 2, 3}, {1, 2, 0});
            check_fails(check(directed.view(width)), input, "0 -> 1", "directed cycle" + w);
            // 0 -> 1 twice but 1 -> 0 once.
            RawGraph multiplicity({0, 2, 3}, {1, 1, 0});
            check_fails(check(multiplicity.view(width)), input, "vertex 0", "arc multiplicities differ" + w);

            // Valid: generated graphs, multigraphs with self loops, the empty graph.
            check_passes(check(valid_rmat.view(width)), "rmat" + w);
            check_passes(check(valid_grid.view(width)), "grid" + w);
            check_passes(check(valid_multigraph.view(width)), "multigraph with self loops" + w);
            check_passes(check(valid_empty.view(width)), "empty graph" + w);
        }
    }
}

}  // namespace

int main() {
    run("known graphs", test_known_graphs);
    run("generated graphs", [] { for_each_generated_graph(kLongShuffledPath, check_all_algorithms); });
    run("parallel, repeatedly", test_parallel_repeatedly);
    run("16M-vertex path", test_long_path);
    run("canonicalize", test_canonicalize);
    run("validate_sizes", test_validate_sizes);
    run("check_input", test_check_input);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
