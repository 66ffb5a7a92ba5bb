// Tests of STREAMED across several devices (cuda/graph_multi_gpu.cu) against the union-find oracle
// of test_graphs.hpp: contexts of two to five partitions of device 0 (so that one GPU runs the
// merge), and where there are several GPUs every device, pairs in both orders and repeats of
// them; both offset widths, budgets down to a ring of two slots of a few hundred bytes, one
// gathering thread and all. Through the ABI: ccl4j_context_create_devices and its refusals,
// ccl4j_context_get_devices, AUTO on the first device for a graph that does not fit, ids out of range
// found on any device; the progress of every device's passes. Without a CUDA device it prints
// "SKIPPED: no CUDA device" and passes.
// With --quick, a small set of graphs (for compute-sanitizer).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"
#include "common/error.hpp"
#include "cuda/cuda_backend.hpp"
#include "test_graphs.hpp"
#include "test_streamed.hpp"

namespace {

using ccl4j::PhaseLog;
using namespace ccl4j::test;
namespace gpu = ccl4j::cuda;

// The device lists a context is made of: partitions of device 0, and the real devices.
std::vector<std::vector<int32_t>> device_lists() {
    std::vector<std::vector<int32_t>> lists = {{0, 0}, {0, 0, 0}, {0, 0, 0, 0, 0}};
    const int count = gpu::device_count();
    if (count > 1) {
        std::vector<int32_t> all;
        for (int d = 0; d < count; ++d) all.push_back(d);
        lists.push_back(all);
        lists.push_back({1, 0});
        lists.push_back({0, 1, 0, 1});
    }
    return lists;
}

std::string describe(const std::vector<int32_t>& devices) {
    std::string text = "devices";
    for (int32_t d : devices) text += " " + std::to_string(d);
    return text;
}

// The phases of STREAMED gathering on one device: init, sample, compress, link, finalize, d2h.
constexpr size_t kOneDevicePhases = 6;

// The phases of a labelling across `count` devices.
std::vector<std::string> phases(size_t count) {
    std::vector<std::string> names = {"init", "sample", "merge samples", "compress", "broadcast",
                                      "link", "merge forests", "finalize", "d2h"};
    for (const char* pass : {"sample ", "link "}) {
        for (size_t g = 0; g < count; ++g) names.push_back(pass + std::to_string(g));
    }
    return names;
}

// The states of a context of these devices, with peer access as the ABI's contexts get it.
struct States {
    std::vector<gpu::DeviceStatePtr> owned;
    std::vector<gpu::DeviceState*> states;

    explicit States(const std::vector<int32_t>& devices) {
        for (int32_t d : devices) {
            owned.push_back(gpu::create_state(d));
            states.push_back(owned.back().get());
        }
        gpu::enable_peer_access(states);
    }
};

void check_across(States& s, const std::vector<int32_t>& devices, const HostGraph& g, const std::string& name) {
    const std::vector<int32_t> expected = reference_labels(g);
    for (int width : {4, 8}) {
        for (int64_t budget : {int64_t{0}, fixed_bytes(g.n) * 2 + (1 << 20), fixed_bytes(g.n) * 2 + 700}) {
            for (int32_t threads : {1, 0}) {
                const std::string what = "STREAMED across " + describe(devices) + " on " + name + " (" +
                                         std::to_string(width * 8) + "-bit offsets, budget " + std::to_string(budget) +
                                         ", threads " + std::to_string(threads) + ")";
                std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
                ccl4j_timings timings;
                PhaseLog log(&timings);
                try {
                    gpu::label_streamed_across(s.states, g.view(width), streamed(budget, threads), labels.data(), log);
                } catch (const ccl4j::Error& e) {
                    CHECK_MSG(false, what + ": " + e.what());
                    continue;
                }
                check_labels(labels, expected, what);
                if (g.n > 0) {
                    check_phases(timings, phases(devices.size()), what);
                    CHECK_MSG(timings.iterations >= 1, what + ": blocks sent");
                }
            }
        }
    }
}

void test_graphs(bool quick) {
    for (const std::vector<int32_t>& devices : device_lists()) {
        States s(devices);
        for (const KnownGraph& known : known_graphs()) check_across(s, devices, known.graph, known.name);
        check_across(s, devices, empty_graph(), "empty graph");
        check_across(s, devices, isolated(1000), "1000 isolated vertices");
        check_across(s, devices, grid2d(37, 53), "grid 37x53");
        check_across(s, devices, rmat(10, 8, 1), "rmat 10/8");
        check_across(s, devices, stars(3, 2000, 1), "stars of 2000");
        check_across(s, devices, path(3), "path of 3 (fewer rows than devices)");
        if (quick) continue;
        check_across(s, devices, permuted(grid2d(300, 300), 1), "permuted grid 300x300");
        check_across(s, devices, rmat(14, 8, 2), "rmat 14/8");
        check_across(s, devices, power_law(30000, 8, 2.5, 3), "power law 30000/8/2.5");
        check_across(s, devices, shuffled_path(20000, 4), "shuffled path 20000");
        check_across(s, devices, random_components(5000, 5, 5), "5000 tiny components");
        check_across(s, devices, hubs(20000, 10, 1000, 6), "hubs of degree 1000");
        check_across(s, devices, random_sparse(100000, 400000, 7), "sparse random, giant component");
        check_across(s, devices, random_sparse(20000, 6000, 8), "sparse random, many components");
        check_across(s, devices, cliques(10, 20), "10 cliques of 20");
    }
}

// A race shows as a result that changes between runs.
void test_repeatability() {
    States s(device_lists().back());
    for (const auto& [g, name] : {std::pair{rmat(18, 8, 9), "rmat 18/8"}, {permuted(grid2d(512, 512), 3), "permuted grid"},
                                  {hubs(300000, 50, 20000, 5), "hubs of degree 20000"}}) {
        const std::vector<int32_t> expected = reference_labels(g);
        for (int run = 0; run < 3; ++run) {
            std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
            PhaseLog log(nullptr);
            gpu::label_streamed_across(s.states, g.view32(), streamed(0, 0), labels.data(), log);
            check_labels(labels, expected, "STREAMED across on " + std::string(name) + ", run " + std::to_string(run));
        }
    }
}

// Through the ABI: a context of several devices, AUTO streaming a graph that does not fit on the
// first device alone, STREAMED by name across them, another algorithm on the first device, ids out
// of range, the refusals.
void test_abi() {
    const HostGraph g = rmat(14, 8, 4);
    const std::vector<int32_t> expected = reference_labels(g);
    const ccl4j_csr shape{g.n, g.arc_count(), 4, 0};
    const std::vector<int32_t> devices = device_lists().back();
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create_devices(devices.data(), static_cast<int32_t>(devices.size()), &context) ==
          CCL4J_SUCCESS);
    if (!context) return;
    std::vector<int32_t> listed(8, -1);
    int32_t count = 0;
    CHECK(ccl4j_context_get_devices(context, listed.data(), static_cast<int32_t>(listed.size()), &count) ==
          CCL4J_SUCCESS);
    CHECK_MSG(count == static_cast<int32_t>(devices.size()) &&
                  std::equal(devices.begin(), devices.end(), listed.begin()),
              "ccl4j_context_get_devices gave " + std::to_string(count) + " devices");
    CHECK(ccl4j_context_backend(context) == CCL4J_BACKEND_CUDA);
    struct Run {
        ccl4j_algorithm algorithm;
        int64_t budget;
        ccl4j_algorithm expected;
        size_t phase_count;
    };
    for (const Run& r : {Run{CCL4J_ALGORITHM_AUTO, 0, CCL4J_ALGORITHM_AFFOREST, 0},
                         Run{CCL4J_ALGORITHM_AUTO, fixed_bytes(g.n) * 2 + (64 << 10), CCL4J_ALGORITHM_STREAMED,
                             kOneDevicePhases},
                         Run{CCL4J_ALGORITHM_STREAMED, 0, CCL4J_ALGORITHM_STREAMED, phases(devices.size()).size()},
                         Run{CCL4J_ALGORITHM_ECL_CC, 0, CCL4J_ALGORITHM_ECL_CC, 0}}) {
        ProgressCalls heard;
        ccl4j_label_options options{};
        options.algorithm = r.algorithm;
        options.device_memory = r.budget;
        options.progress = ProgressCalls::listen;
        options.progress_user = &heard;
        std::vector<int32_t> labels(static_cast<size_t>(g.n), kPoison);
        ccl4j_timings timings;
        const std::string what = "algorithm " + std::to_string(r.algorithm) + ", budget " + std::to_string(r.budget);
        CHECK_MSG(ccl4j_label_graph(context, &shape, g.offsets32.data(), g.neighbors.data(), &options, labels.data(),
                                    &timings) == CCL4J_SUCCESS,
                  what + ": " + ccl4j_context_error_message(context));
        check_labels(labels, expected, what);
        CHECK_MSG(timings.algorithm == r.expected, what + " ran algorithm " + std::to_string(timings.algorithm));
        // Every device's passes report to the one listener.
        const std::string broken = heard.broken(g.arc_count(), r.expected == CCL4J_ALGORITHM_STREAMED);
        CHECK_MSG(broken.empty(), what + ", progress: " + broken);
        if (r.phase_count > 0) {
            CHECK_MSG(timings.phase_count == static_cast<int32_t>(r.phase_count),
                      what + ": " + std::to_string(timings.phase_count) + " phases");
        }
    }
    // An id out of range past the sampled arcs, in a row of the last device's share, without the
    // host's checks: found on that device and named.
    HostGraph bad = cliques(400, 6);
    bad.neighbors[static_cast<size_t>(bad.offsets[static_cast<size_t>(bad.n - 3)] + 4)] = bad.n + 5;
    const HostGraph broken = from_csr(bad.n, bad.offsets, bad.neighbors);
    const ccl4j_csr broken_shape{broken.n, broken.arc_count(), 4, 0};
    ccl4j_label_options unchecked{};  // flags 0: no input checks
    unchecked.algorithm = CCL4J_ALGORITHM_STREAMED;
    std::vector<int32_t> labels(static_cast<size_t>(broken.n));
    CHECK(ccl4j_label_graph(context, &broken_shape, broken.offsets32.data(), broken.neighbors.data(), &unchecked,
                            labels.data(), nullptr) == CCL4J_INVALID_INPUT);
    const std::string message = ccl4j_context_error_message(context);
    CHECK_MSG(message.find(std::to_string(broken.n + 5)) != std::string::npos, message);
    // The context stays usable.
    std::vector<int32_t> after(static_cast<size_t>(g.n), kPoison);
    ccl4j_label_options stream{};
    stream.algorithm = CCL4J_ALGORITHM_STREAMED;
    CHECK(ccl4j_label_graph(context, &shape, g.offsets32.data(), g.neighbors.data(), &stream, after.data(), nullptr) ==
          CCL4J_SUCCESS);
    check_labels(after, expected, "STREAMED across after a refusal");
    ccl4j_context_destroy(context);

    // Refusals: a device that does not exist (named), no devices, a negative index, NULL.
    ccl4j_context none = nullptr;
    const int32_t missing[] = {0, gpu::device_count()};
    CHECK(ccl4j_context_create_devices(missing, 2, &none) == CCL4J_BACKEND_UNAVAILABLE && none == nullptr);
    const std::string missing_message = ccl4j_context_error_message(nullptr);
    CHECK_MSG(missing_message.find("device " + std::to_string(gpu::device_count()) + " does not exist") !=
                  std::string::npos,
              missing_message);
    const int32_t negative[] = {0, -1};
    CHECK(ccl4j_context_create_devices(negative, 2, &none) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_context_create_devices(negative, 0, &none) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_context_create_devices(nullptr, 1, &none) == CCL4J_INVALID_ARGUMENT);
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
    if (gpu::device_count() == 0) {
        std::printf("SKIPPED: no CUDA device\n");
        std::printf("%d passed, %d failed\n", passed, failed);
        return 0;
    }
    std::printf("%d CUDA devices\n", gpu::device_count());
    try {
        run("streamed across devices", [&] { test_graphs(quick); });
        if (!quick) run("repeatability", [&] { test_repeatability(); });
        run("the ABI", [&] { test_abi(); });
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, std::string("unexpected error, remaining tests abandoned: ") + e.what());
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
