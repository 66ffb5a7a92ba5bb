// Tests of STREAMED (cuda/graph_stream.cu) against the union-find oracle of test_graphs.hpp: the
// generated graphs with both offset widths, under budgets from the free device memory down to a
// ring of two staging buffers of a few hundred bytes (so that a graph crosses in many blocks and a
// row in several), with one gathering thread and with all; repeatability on larger graphs; AUTO
// streaming what does not fit a budget through the ABI; the refusals (a budget below the parent
// array, an in-memory algorithm under a budget it does not fit, a resident graph, ids out of range,
// offsets out of order); the progress listener. Without a CUDA device it prints "SKIPPED: no CUDA
// device" and passes.
// With --quick, a small set of graphs (for compute-sanitizer).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "common/error.hpp"
#include "cuda/cuda_backend.hpp"
#include "check.hpp"
#include "test_graphs.hpp"
#include "test_streamed.hpp"

namespace {

using ccl4j::PhaseLog;
using namespace ccl4j::test;
namespace gpu = ccl4j::cuda;

// Gathered into staging buffers, and read in place from page-locked memory.
const std::vector<std::string> kGatherPhases = {"init", "sample", "compress", "link", "finalize", "d2h"};
const std::vector<std::string> kInPlacePhases = {"h2d", "init", "sample", "compress", "link", "finalize", "d2h"};

// A graph's arrays copied into page-locked memory, which the GPU reads in place.
class PinnedCopy {
public:
    PinnedCopy(const ccl4j::Graph& g)
        : offsets_(gpu::pinned_alloc((static_cast<size_t>(g.vertex_count) + 1) * g.offset_width)),
          neighbors_(gpu::pinned_alloc(std::max<size_t>(1, static_cast<size_t>(g.arc_count) * 4))),
          graph_{g.vertex_count, g.arc_count, g.offset_width, offsets_, static_cast<const int32_t*>(neighbors_)} {
        std::memcpy(offsets_, g.offsets, (static_cast<size_t>(g.vertex_count) + 1) * g.offset_width);
        if (g.arc_count > 0) std::memcpy(neighbors_, g.neighbors, static_cast<size_t>(g.arc_count) * 4);
    }
    PinnedCopy(const PinnedCopy&) = delete;
    PinnedCopy& operator=(const PinnedCopy&) = delete;
    ~PinnedCopy() {
        gpu::pinned_free(offsets_);
        gpu::pinned_free(neighbors_);
    }
    const ccl4j::Graph& graph() const { return graph_; }

private:
    void* offsets_;
    void* neighbors_;
    ccl4j::Graph graph_;
};

// Budgets: the free memory, a ring of 64 KiB slots, and two slots of a few hundred bytes.
std::vector<int64_t> budgets(int32_t n) { return {0, fixed_bytes(n) + (1 << 20), fixed_bytes(n) + 700}; }

void check_streamed(gpu::DeviceState& state, const HostGraph& g, const std::string& name) {
    const std::vector<int32_t> expected = reference_labels(g);
    for (int width : {4, 8}) {
        const PinnedCopy pinned(g.view(width));
        for (bool in_page_locked_memory : {false, true}) {
        for (int64_t budget : budgets(g.n)) {
            for (int32_t threads : {1, 0}) {
                const std::string what = "STREAMED on " + name + " (" + std::to_string(width * 8) + "-bit offsets, " +
                                         (in_page_locked_memory ? "page-locked" : "pageable") + ", budget " +
                                         std::to_string(budget) + ", threads " + std::to_string(threads) + ")";
                std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
                ccl4j_timings timings;
                PhaseLog log(&timings);
                try {
                    gpu::label(state, in_page_locked_memory ? pinned.graph() : g.view(width), streamed(budget, threads),
                               labels.data(), log);
                } catch (const ccl4j::Error& e) {
                    CHECK_MSG(false, what + ": " + e.what());
                    continue;
                }
                check_labels(labels, expected, what);
                // In place when the memory allows it; an empty graph logs the gathering phases.
                const int64_t in_place_bytes = 4LL * g.n + (g.n + 1LL) * width + 4 * (g.n + g.arc_count() / 1024 + 1) +
                                               g.n / 8 + 4096;
                const bool in_place = in_page_locked_memory && g.n > 0 &&
                                      (budget == 0 || in_place_bytes <= budget);
                check_phases(timings, in_place ? kInPlacePhases : kGatherPhases, what);
                if (g.n > 0 && !in_place) CHECK_MSG(timings.iterations >= 1, what + ": blocks sent");
            }
        }
        }
    }
}

void test_graphs(gpu::DeviceState& state, bool quick) {
    for (const KnownGraph& known : known_graphs()) check_streamed(state, known.graph, known.name);
    check_streamed(state, empty_graph(), "empty graph");
    check_streamed(state, isolated(1000), "1000 isolated vertices");
    check_streamed(state, grid2d(37, 53), "grid 37x53");
    check_streamed(state, rmat(10, 8, 1), "rmat 10/8");
    check_streamed(state, stars(3, 2000, 1), "stars of 2000");
    check_streamed(state, random_multigraph(2000, 1500, 1), "random multigraph");
    if (quick) return;
    for (uint64_t seed : {1, 2}) {
        const std::string s = " seed " + std::to_string(seed);
        check_streamed(state, permuted(grid2d(300, 300), seed), "permuted grid 300x300" + s);
        check_streamed(state, rmat(14, 8, seed), "rmat 14/8" + s);
        check_streamed(state, power_law(30000, 8, 2.5, seed), "power law 30000/8/2.5" + s);
        check_streamed(state, shuffled_path(20000, seed), "shuffled path 20000" + s);
        check_streamed(state, random_components(5000, 5, seed), "5000 tiny components" + s);
        check_streamed(state, random_components(3, 30000, seed), "3 large components" + s);
        check_streamed(state, hubs(20000, 10, 1000, seed), "hubs of degree 1000" + s);
        check_streamed(state, random_sparse(100000, 400000, seed), "sparse random, giant component" + s);
        check_streamed(state, random_sparse(20000, 6000, seed), "sparse random, many components" + s);
    }
    check_streamed(state, path(20000), "path 20000");
    check_streamed(state, cliques(10, 20), "10 cliques of 20");
}

// A race shows as a result that changes between runs.
void test_repeatability(gpu::DeviceState& state) {
    for (const auto& [g, name] : {std::pair{rmat(18, 8, 9), "rmat 18/8"}, {permuted(grid2d(512, 512), 3), "permuted grid"},
                                  {hubs(300000, 50, 20000, 5), "hubs of degree 20000"}}) {
        const std::vector<int32_t> expected = reference_labels(g);
        for (int run = 0; run < 3; ++run) {
            for (int64_t budget : {int64_t{0}, fixed_bytes(g.n) + (256 << 10)}) {
                std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
                PhaseLog log(nullptr);
                gpu::label(state, g.view32(), streamed(budget, 0), labels.data(), log);
                check_labels(labels, expected, "STREAMED on " + std::string(name) + ", run " + std::to_string(run) +
                                                   ", budget " + std::to_string(budget));
            }
        }
    }
}

// AUTO through the ABI: in memory without a budget, STREAMED under one the graph does not fit.
void test_auto() {
    const HostGraph g = rmat(14, 8, 4);
    const std::vector<int32_t> expected = reference_labels(g);
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &context) == CCL4J_SUCCESS);
    const ccl4j_csr shape{g.n, g.arc_count(), 4, 0};
    for (int64_t budget : {int64_t{0}, fixed_bytes(g.n) + (64 << 10)}) {
        ccl4j_label_options options{};
        options.device_memory = budget;
        std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
        ccl4j_timings timings;
        CHECK(ccl4j_label_graph(context, &shape, g.offsets32.data(), g.neighbors.data(), &options, labels.data(),
                                &timings) == CCL4J_SUCCESS);
        check_labels(labels, expected, "AUTO with budget " + std::to_string(budget));
        CHECK_MSG((timings.algorithm == CCL4J_ALGORITHM_STREAMED) == (budget > 0),
                  "AUTO with budget " + std::to_string(budget) + " ran algorithm " + std::to_string(timings.algorithm));
    }
    // An in-memory algorithm under a budget it does not fit is refused, naming both sizes.
    ccl4j_label_options ecl{};
    ecl.algorithm = CCL4J_ALGORITHM_ECL_CC;
    ecl.device_memory = fixed_bytes(g.n) + (64 << 10);
    std::vector<int32_t> labels(static_cast<size_t>(g.n));
    CHECK(ccl4j_label_graph(context, &shape, g.offsets32.data(), g.neighbors.data(), &ecl, labels.data(), nullptr) ==
          CCL4J_OUT_OF_MEMORY);
    const std::string message = ccl4j_context_error_message(context);
    CHECK_MSG(message.find("ECL_CC") != std::string::npos && message.find("STREAMED") != std::string::npos, message);
    // STREAMED is a CUDA algorithm: the CPU backends refuse it.
    ccl4j_context cpu = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &cpu) == CCL4J_SUCCESS);
    ccl4j_label_options stream{};
    stream.algorithm = CCL4J_ALGORITHM_STREAMED;
    CHECK(ccl4j_label_graph(cpu, &shape, g.offsets32.data(), g.neighbors.data(), &stream, labels.data(), nullptr) ==
          CCL4J_UNSUPPORTED);
    ccl4j_context_destroy(cpu);
    ccl4j_context_destroy(context);
}

// The progress listener through the ABI: the passes as they go when streamed, one "done" otherwise.
void test_progress() {
    const HostGraph g = rmat(14, 8, 6);
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &context) == CCL4J_SUCCESS);
    const ccl4j_csr shape{g.n, g.arc_count(), 4, 0};
    for (int64_t budget : {int64_t{0}, fixed_bytes(g.n) + (64 << 10)}) {
        ProgressCalls heard;
        ccl4j_label_options options{};
        options.device_memory = budget;
        options.progress = ProgressCalls::listen;
        options.progress_user = &heard;
        std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
        CHECK(ccl4j_label_graph(context, &shape, g.offsets32.data(), g.neighbors.data(), &options, labels.data(),
                                nullptr) == CCL4J_SUCCESS);
        check_labels(labels, reference_labels(g), "progress, budget " + std::to_string(budget));
        const std::string broken = heard.broken(g.arc_count(), budget > 0);
        CHECK_MSG(broken.empty(), "progress with budget " + std::to_string(budget) + ": " + broken);
        CHECK_MSG(budget == 0 || heard.calls.size() > 3,
                  "streamed in blocks of 64 KiB, heard only " + std::to_string(heard.calls.size()) + " calls");
    }
    ccl4j_context_destroy(context);
}

void test_refusals(gpu::DeviceState& state) {
    const HostGraph g = rmat(12, 8, 2);
    std::vector<int32_t> labels(static_cast<size_t>(g.n));
    PhaseLog log(nullptr);
    check_fails([&] { gpu::label(state, g.view32(), streamed(fixed_bytes(g.n) - 1, 0), labels.data(), log); },
                CCL4J_OUT_OF_MEMORY, "a budget below the parent array");
    gpu::DeviceGraphPtr resident = gpu::upload(state, g.view32(), nullptr);
    check_fails([&] { gpu::label(state, *resident, streamed(0, 0), labels.data(), log); }, CCL4J_UNSUPPORTED,
                "STREAMED on a resident graph");
    // Ids out of range, refused with the arc named: with checkInput by the host's checks, anywhere
    // (here past the sampled arcs of a hub inside the giant component, a row that is never sent);
    // without, when the arc is sent: among the sampled arcs (checked on the host) and past them in a
    // row outside the giant component (checked on the device).
    const HostGraph hub = stars(1, 100, 1);
    const HostGraph tiny = cliques(400, 6);  // no giant component; degree 5
    const auto with_bad_id = [](HostGraph g, int32_t v, int64_t position) {
        g.neighbors[static_cast<size_t>(g.offsets[static_cast<size_t>(v)] + position)] = g.n + 5;
        return from_csr(g.n, g.offsets, g.neighbors);
    };
    int32_t hub_vertex = 0;
    for (int32_t v = 0; v < hub.n; ++v) {
        if (hub.offsets[v + 1] - hub.offsets[v] > hub.offsets[hub_vertex + 1] - hub.offsets[hub_vertex]) hub_vertex = v;
    }
    struct Case {
        std::string name;
        HostGraph graph;
        bool check;
    };
    const std::vector<Case> cases = {{"checked, in a row never sent", with_bad_id(hub, hub_vertex, 50), true},
                                     {"unchecked, among the sampled arcs", with_bad_id(hub, hub_vertex, 1), false},
                                     {"unchecked, past the sampled arcs", with_bad_id(tiny, 7, 3), false}};
    for (const Case& c : cases) {
        for (int64_t budget : {int64_t{0}, fixed_bytes(c.graph.n) + 700}) {
            ccl4j::LabelOptions options = streamed(budget, 0);
            options.check_input = c.check;
            std::vector<int32_t> out(static_cast<size_t>(c.graph.n));
            try {
                gpu::label(state, c.graph.view32(), options, out.data(), log);
                CHECK_MSG(false, "an id out of range, " + c.name + ": accepted");
            } catch (const ccl4j::Error& e) {
                const std::string message = e.what();
                CHECK_MSG(e.status() == CCL4J_INVALID_INPUT && message.find(std::to_string(c.graph.n + 5)) != std::string::npos,
                          c.name + ": " + message);
            }
        }
    }
    check_fails([&] { gpu::label(state, from_csr(3, {0, 3, 1, 3}, {1, 0, 2}).view32(), streamed(0, 0), labels.data(), log); },
                CCL4J_INVALID_INPUT, "offsets out of order");
    // The state stays usable.
    std::vector<int32_t> after(static_cast<size_t>(g.n), kPoison);
    gpu::label(state, g.view32(), streamed(0, 0), after.data(), log);
    check_labels(after, reference_labels(g), "STREAMED after refusals");
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
        gpu::DeviceStatePtr state = gpu::create_state(0);
        run("streamed graphs", [&] { test_graphs(*state, quick); });
        if (!quick) run("repeatability", [&] { test_repeatability(*state); });
        run("AUTO and the ABI", [&] { test_auto(); });
        run("progress", [&] { test_progress(); });
        run("refusals", [&] { test_refusals(*state); });
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, std::string("unexpected error, remaining tests abandoned: ") + e.what());
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
