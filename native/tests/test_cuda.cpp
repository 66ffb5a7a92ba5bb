// Tests of the CUDA backend: ECL-CC and Afforest on the GPU against the union-find oracle of
// test_graphs.hpp and the CPU ECL-CC, on generated graphs that reach every degree tier, with both offset widths,
// host and resident graphs, and non-default launch settings; plus the device queries, pinned
// memory and the error paths. Without a CUDA device only the no-device behaviour is checked and
// the GPU tests are reported as SKIPPED. Prints every failure and "N passed, M failed".
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "api/options.hpp"
#include "common/error.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cuda/cuda_backend.hpp"
#include "check.hpp"
#include "test_gpu_runs.hpp"
#include "test_graphs.hpp"

namespace {

using ccl4j::Graph;
using ccl4j::PhaseLog;
using namespace ccl4j::test;
namespace gpu = ccl4j::cuda;

// ---- labelling against the oracle -------------------------------------------------------------

ccl4j_label_options abi_ecl_options(int32_t block_size, int32_t warp_threshold, int32_t block_threshold) {
    ccl4j_label_options options{};
    options.algorithm = CCL4J_ALGORITHM_ECL_CC;
    options.block_size = block_size;
    options.warp_threshold = warp_threshold;
    options.block_threshold = block_threshold;
    return options;
}

// The options as the ABI layer translates and validates them.
ccl4j::LabelOptions ecl_options(int32_t block_size, int32_t warp_threshold, int32_t block_threshold) {
    const ccl4j_label_options options = abi_ecl_options(block_size, warp_threshold, block_threshold);
    return ccl4j::api::label_options(&options);
}

struct Setting {
    std::string name;
    ccl4j::LabelOptions options;
};

// The paper's defaults and settings that move vertices between the tiers and vary the blocks.
const std::vector<Setting>& settings() {
    static const std::vector<Setting> all = {
        {"defaults", ecl_options(0, 0, 0)},
        {"block 64, tiers 2/40", ecl_options(64, 2, 40)},
        {"block 1024, thread tier only", ecl_options(1024, 1 << 30, 1 << 30)},
        {"block 32, warp tier from degree 2", ecl_options(32, 1, 1 << 30)},
        {"block 128, block tier from degree 2", ecl_options(128, 1, 1)},
    };
    return all;
}

// The two GPU algorithms that run ECL-CC's compute kernels, which the settings above move
// vertices between: ECL-CC itself and Afforest (its link phase).
struct TieredAlgorithm {
    ccl4j_algorithm id;
    const char* name;
    std::vector<std::string> phases;
};
const std::vector<TieredAlgorithm> kTieredAlgorithms = {
    {CCL4J_ALGORITHM_ECL_CC, "ECL-CC", {"init", "compute1", "compute2", "compute3", "finalize"}},
    {CCL4J_ALGORITHM_AFFOREST, "Afforest", {"init", "sample", "compress", "link", "finalize"}},
};

// Labels g from host memory and as a resident graph (also once with the labels left on the
// device), with each offset width, algorithm and setting; every result must be the oracle's.
void check_graph(gpu::DeviceState& state, const HostGraph& g, const std::string& graph_name) {
    const std::vector<int32_t> expected = reference_labels(g);
    std::vector<int32_t> cpu_labels(static_cast<size_t>(g.n), kPoison);
    PhaseLog cpu_log(nullptr);
    ccl4j::cpu::ecl_cc_serial(g.view64(), cpu_labels.data(), cpu_log);
    check_labels(cpu_labels, expected, "CPU ECL-CC on " + graph_name);

    for (int width : {4, 8}) {
        double h2d_ms = -1;
        gpu::DeviceGraphPtr resident = gpu::upload(state, g.view(width), &h2d_ms);
        CHECK(gpu::vertex_count(*resident) == g.n && h2d_ms >= 0);
        for (const TieredAlgorithm& algorithm : kTieredAlgorithms) {
            for (const Setting& setting : settings()) {
                ccl4j::LabelOptions options = setting.options;
                options.algorithm = algorithm.id;
                check_gpu_runs(state, g, width, *resident, options, expected, algorithm.phases,
                               std::string(algorithm.name) + " on " + graph_name + " (" + std::to_string(width * 8) +
                                   "-bit offsets, " + setting.name + ")");
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

    for (auto [w, h] : {std::pair{1, 100}, {100, 1}, {37, 53}, {517, 389}}) {
        check_graph(state, grid2d(w, h), "grid " + std::to_string(w) + "x" + std::to_string(h));
    }
    check_graph(state, permuted(grid2d(300, 300), 7), "permuted grid 300x300");

    for (uint64_t seed : {1, 2}) {
        const std::string s = " seed " + std::to_string(seed);
        check_graph(state, rmat(14, 8, seed), "rmat 14/8" + s);
        check_graph(state, permuted(rmat(12, 8, seed), seed), "permuted rmat 12/8" + s);
        check_graph(state, power_law(30000, 8, 2.5, seed), "power law 30000/8/2.5" + s);
        check_graph(state, shuffled_path(200000, seed), "shuffled path 200000" + s);
        check_graph(state, random_components(5000, 5, seed), "5000 tiny components" + s);
        check_graph(state, random_components(200, 60, seed), "200 components" + s);
        check_graph(state, random_components(3, 30000, seed), "3 large components" + s);
        // Hubs just below, at and above each tier boundary, and far above.
        for (int32_t leaves : {16, 17, 352, 353, 2000, 50000}) {
            check_graph(state, stars(5, leaves, seed), "stars of " + std::to_string(leaves) + s);
        }
        check_graph(state, hubs(20000, 10, 1000, seed), "hubs above 352" + s);
        check_graph(state, hubs(20000, 100, 100, seed), "hubs in 17..352" + s);
        check_graph(state, random_sparse(100000, 30000, seed), "sparse random, many components" + s);
        check_graph(state, random_sparse(100000, 400000, seed), "sparse random, giant component" + s);

        HostGraph shuffled_grid = grid2d(128, 96);
        shuffle_adjacency(shuffled_grid, seed);
        check_graph(state, shuffled_grid, "grid with shuffled adjacency" + s);
        HostGraph shuffled_rmat = rmat(12, 8, seed);
        shuffle_adjacency(shuffled_rmat, seed);
        check_graph(state, shuffled_rmat, "rmat with shuffled adjacency" + s);

        // A multigraph: every edge drawn three times over, with self loops, lists unsorted.
        Rng rng(seed);
        std::vector<Edge> edges;
        for (int i = 0; i < 20000; ++i) {
            const Edge e(static_cast<int32_t>(rng.below(30000)), static_cast<int32_t>(rng.below(30000)));
            edges.insert(edges.end(), {e, e, Edge(e.second, e.first), Edge(e.first, e.first)});
        }
        check_graph(state, from_edges(30000, edges, false), "random multigraph" + s);
    }
    check_graph(state, power_law(200000, 16, 2.1, 3), "power law 200000/16/2.1");
    check_graph(state, hubs(200000, 20, 5000, 4), "all three tiers");
    for (int32_t n : {2, 3, 1000, 1 << 20}) check_graph(state, path(n), "path " + std::to_string(n));
    check_graph(state, shuffled_path(1 << 20, 5), "shuffled path 2^20");
    check_graph(state, cliques(10, 20), "10 cliques of 20");
    check_graph(state, cliques(1, 400), "clique of 400");
}

// A race shows as a result that changes between runs: label the same larger graphs repeatedly.
void test_repeatability(gpu::DeviceState& state) {
    for (const auto& [g, name] : {std::pair{rmat(20, 8, 9), "rmat 20/8"}, {permuted(grid2d(1024, 1024), 3), "permuted grid 1024^2"}}) {
        const std::vector<int32_t> expected = reference_labels(g);
        std::vector<int32_t> labels(static_cast<size_t>(g.n));
        for (int run = 0; run < 5; ++run) {
            std::fill(labels.begin(), labels.end(), kPoison);
            PhaseLog log(nullptr);
            gpu::label(state, g.view32(), settings().front().options, labels.data(), log);
            check_labels(labels, expected, std::string(name) + ", run " + std::to_string(run));
        }
    }
    // An ordered path of 4M vertices: init leaves one chain of 4M parents.
    const HostGraph line = path(1 << 22);
    std::vector<int32_t> labels(static_cast<size_t>(line.n), kPoison);
    PhaseLog log(nullptr);
    gpu::label(state, line.view32(), settings().front().options, labels.data(), log);
    check_labels(labels, std::vector<int32_t>(labels.size(), 0), "ordered path of 2^22 vertices");
}

// Buffers grow and are reused across graphs of different sizes; a resident graph may be labelled
// through another state of its device; pinned host memory works as input and output.
void test_buffers_and_memory(gpu::DeviceState& state) {
    const HostGraph large = rmat(16, 8, 11);
    const HostGraph small = grid2d(10, 10);
    for (const HostGraph* g : {&large, &small, &large}) {
        std::vector<int32_t> labels(static_cast<size_t>(g->n), kPoison);
        PhaseLog log(nullptr);
        gpu::label(state, g->view64(), settings().front().options, labels.data(), log);
        check_labels(labels, reference_labels(*g), "reused buffers, n = " + std::to_string(g->n));
    }

    gpu::DeviceStatePtr other = gpu::create_state(0);
    gpu::DeviceGraphPtr resident = gpu::upload(state, large.view32(), nullptr);
    std::vector<int32_t> labels(static_cast<size_t>(large.n), kPoison);
    PhaseLog log(nullptr);
    gpu::label(*other, *resident, settings().front().options, labels.data(), log);
    check_labels(labels, reference_labels(large), "resident graph labelled through a second state");

    // The graph and the labels in pinned memory.
    const size_t offset_bytes = large.offsets32.size() * sizeof(int32_t);
    const size_t neighbor_bytes = large.neighbors.size() * sizeof(int32_t);
    auto* offsets = static_cast<int32_t*>(gpu::pinned_alloc(offset_bytes));
    auto* neighbors = static_cast<int32_t*>(gpu::pinned_alloc(neighbor_bytes));
    auto* pinned_labels = static_cast<int32_t*>(gpu::pinned_alloc(static_cast<size_t>(large.n) * sizeof(int32_t)));
    CHECK(offsets && neighbors && pinned_labels);
    if (offsets && neighbors && pinned_labels) {
        std::memcpy(offsets, large.offsets32.data(), offset_bytes);
        std::memcpy(neighbors, large.neighbors.data(), neighbor_bytes);
        std::fill(pinned_labels, pinned_labels + large.n, kPoison);
        PhaseLog pinned_log(nullptr);
        gpu::label(state, Graph{large.n, large.arc_count(), 4, offsets, neighbors}, settings().front().options,
                    pinned_labels, pinned_log);
        check_labels(std::vector<int32_t>(pinned_labels, pinned_labels + large.n), reference_labels(large),
                     "graph and labels in pinned memory");
    }
    for (void* p : {static_cast<void*>(offsets), static_cast<void*>(neighbors), static_cast<void*>(pinned_labels)}) {
        CHECK(gpu::pinned_free(p));
        CHECK(!gpu::pinned_free(p));  // already freed: no longer known
    }
    int32_t not_pinned = 0;
    CHECK(!gpu::pinned_free(&not_pinned));
}

void test_invalid_options(gpu::DeviceState& state) {
    const HostGraph g = grid2d(8, 8);
    std::vector<int32_t> labels(static_cast<size_t>(g.n));
    // The options are validated once, where the ABI layer translates them.
    auto label_with = [&](ccl4j_label_options options) {
        return [&, options] {
            PhaseLog log(nullptr);
            gpu::label(state, g.view32(), ccl4j::api::label_options(&options), labels.data(), log);
        };
    };
    for (int32_t block_size : {-32, 16, 48, 2048}) {
        check_fails(label_with(abi_ecl_options(block_size, 0, 0)), CCL4J_INVALID_ARGUMENT,
                    "block size " + std::to_string(block_size));
    }
    check_fails(label_with(abi_ecl_options(0, 100, 50)), CCL4J_INVALID_ARGUMENT,
                "warp threshold above block threshold");
    check_fails(label_with(abi_ecl_options(0, -1, 0)), CCL4J_INVALID_ARGUMENT,
                "negative warp threshold");
}

void test_device_queries(int count) {
    CHECK(gpu::runtime_version() > 0);
    CHECK(gpu::driver_version() > 0);
    for (int device = 0; device < count; ++device) {
        ccl4j_device_info info;
        gpu::device_info(device, &info);
        CHECK(info.index == device && info.name[0] != '\0' && info.multiprocessors > 0 && info.total_memory > 0 &&
              info.compute_major >= 1);
        std::printf("  device %d: %s, compute %d.%d, %d multiprocessors, %.1f GiB; runtime %d, driver %d\n", device,
                    info.name, info.compute_major, info.compute_minor, info.multiprocessors,
                    static_cast<double>(info.total_memory) / (1 << 30), gpu::runtime_version(), gpu::driver_version());
    }
    ccl4j_device_info info;
    check_fails([&] { gpu::device_info(count, &info); }, CCL4J_INVALID_ARGUMENT, "device_info past the last device");
    check_fails([&] { gpu::device_info(-1, &info); }, CCL4J_INVALID_ARGUMENT, "device_info(-1)");
    check_fails([&] { gpu::create_state(count); }, CCL4J_BACKEND_UNAVAILABLE, "create_state past the last device");
    check_fails([] { gpu::create_state(-1); }, CCL4J_BACKEND_UNAVAILABLE, "create_state(-1)");
}

// Without a device (or driver) nothing may throw but create_state and device_info, and neither
// may crash.
void test_without_device() {
    CHECK(gpu::device_count() == 0);
    CHECK(gpu::runtime_version() > 0);  // the runtime is linked in; it needs no driver to say so
    CHECK(gpu::driver_version() >= 0);
    check_fails([] { gpu::create_state(0); }, CCL4J_BACKEND_UNAVAILABLE, "create_state without a device");
    ccl4j_device_info info;
    check_fails([&] { gpu::device_info(0, &info); }, CCL4J_INVALID_ARGUMENT, "device_info without a device");
    void* p = gpu::pinned_alloc(4096);
    if (p) CHECK(gpu::pinned_free(p));
    int32_t not_pinned = 0;
    CHECK(!gpu::pinned_free(&not_pinned));
}

}  // namespace

int main() {
    const auto start = std::chrono::steady_clock::now();
    const int count = gpu::device_count();
    if (count == 0) {
        test_without_device();
        std::printf("SKIPPED: no CUDA device (driver version %d): the GPU tests did not run; "
                    "only the no-device behaviour was checked\n",
                    gpu::driver_version());
    } else {
        try {
            test_device_queries(count);
            gpu::DeviceStatePtr state = gpu::create_state(0);
            test_known_graphs(*state);
            test_generated_graphs(*state);
            test_repeatability(*state);
            test_buffers_and_memory(*state);
            test_invalid_options(*state);
        } catch (const ccl4j::Error& e) {
            CHECK_MSG(false, std::string("unexpected error, remaining tests abandoned: ") + e.what());
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%d passed, %d failed (%.1f s)\n", passed, failed, seconds);
    return failed == 0 ? 0 : 1;
}
