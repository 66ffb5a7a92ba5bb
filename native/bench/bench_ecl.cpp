// bench_ecl: times ECL-CC on the GPU on graphs in ECL's binary CSR format (.egr: int32 n,
// int32 arcs, int32 offsets[n + 1], int32 neighbours[arcs]).
//
//   bench_ecl [--runs R] [--config BLOCK:WARP:BLOCKTHRESHOLD]... [--offsets64] NAME=FILE[:COMPONENTS[:REF_MS]]...
//
// For each graph and configuration (0 = the paper's default; default config 0:0:0):
//   kernel-only: the graph resident on the device, labels left there; CUDA-event time of init
//     through finalize; median (and min) of R runs after 2 warm-up runs; medians per phase.
//   end-to-end: graph and labels in pinned host memory; h2d + kernels + d2h by CUDA events,
//     median of R runs after a warm-up run.
// The labels are checked after the timed runs: equal across every arc, canonical (the smallest
// id of the component), and, when COMPONENTS is given, that many components. REF_MS, another
// program's kernel time, is printed beside ours as a ratio. A table of all results comes last.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "common/error.hpp"
#include "bench_support.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/graph_kernels.hpp"

#ifndef CCL4J_ECL_PARENT_ACCESS
#define CCL4J_ECL_PARENT_ACCESS 0
#endif

namespace {

namespace gpu = ccl4j::cuda;
using namespace ccl4j::bench;

const char* parent_access_name() {
    switch (CCL4J_ECL_PARENT_ACCESS) {
        case 0: return "cuda::atomic_ref relaxed (library)";
        case 1: return "volatile";
        default: return "ordinary loads and stores";
    }
}

struct GraphSpec {
    std::string name;
    std::string path;
    int64_t components = -1;  // -1: not checked
    double reference_ms = 0;  // 0: none
};

struct Config {
    int block_size = 0;
    int warp_threshold = 0;
    int block_threshold = 0;
    std::string label() const {
        return std::to_string(block_size) + ":" + std::to_string(warp_threshold) + ":" + std::to_string(block_threshold);
    }
};

struct Row {
    std::string graph;
    std::string config;
    int32_t n;
    int64_t arcs;
    int64_t components;
    double kernel_median, kernel_min;
    std::vector<double> phase_medians;  // init, compute1, compute2, compute3, finalize
    double e2e_median, h2d_median, d2h_median;
    double reference_ms;
    bool ok;
};

double phase_ms(const ccl4j_timings& t, const char* name) {
    for (int32_t i = 0; i < t.phase_count; ++i) {
        if (std::strcmp(t.phases[i].name, name) == 0) return t.phases[i].ms;
    }
    throw std::runtime_error(std::string("phase ") + name + " missing");
}

const char* const kKernelPhases[] = {"init", "compute1", "compute2", "compute3", "finalize"};

double kernel_ms(const ccl4j_timings& t) {
    double sum = 0;
    for (const char* phase : kKernelPhases) sum += phase_ms(t, phase);
    return sum;
}

Row bench(gpu::DeviceState& state, const GraphSpec& spec, const LoadedGraph& g, const gpu::DeviceGraph& resident,
          const Config& config, int runs) {
    // The variants bench_ecl_volatile and bench_ecl_plain link the ECL-CC sources and the driver
    // only, without the registry and the ABI layer that translates and validates options:
    // parse_config checked the values, and ECL-CC's plan is run by the graph driver directly.
    ccl4j::LabelOptions options;
    options.algorithm = CCL4J_ALGORITHM_ECL_CC;
    options.block_size = config.block_size;
    if (config.warp_threshold) options.warp_threshold = config.warp_threshold;
    if (config.block_threshold) options.block_threshold = config.block_threshold;
    const std::vector<std::string> phase_names(std::begin(kKernelPhases), std::end(kKernelPhases));
    const gpu::GraphPlanBuilder ecl_cc = [&options](gpu::DeviceState& s, const gpu::detail::DeviceCsr& csr,
                                                    int32_t* labels) {
        return gpu::detail::ecl_cc_plan(s, csr, labels, options);
    };
    Row row{spec.name, config.label(), g.n, g.arcs, -1, 0, 0, {}, 0, 0, 0, spec.reference_ms, false};
    ccl4j_timings t;

    std::vector<double> totals;
    std::vector<std::vector<double>> phases(std::size(kKernelPhases));
    for (int run = -2; run < runs; ++run) {
        ccl4j::PhaseLog log(&t);
        gpu::run_graph(state, resident, phase_names, ecl_cc, nullptr, log);
        if (run < 0) continue;
        totals.push_back(kernel_ms(t));
        for (size_t p = 0; p < phases.size(); ++p) phases[p].push_back(phase_ms(t, kKernelPhases[p]));
    }
    row.kernel_median = median(totals);
    row.kernel_min = *std::min_element(totals.begin(), totals.end());
    for (const auto& values : phases) row.phase_medians.push_back(median(values));

    Pinned labels(static_cast<size_t>(g.n) * sizeof(int32_t));
    std::vector<double> e2e, h2d, d2h;
    for (int run = -1; run < runs; ++run) {
        std::fill(labels.as<int32_t>(), labels.as<int32_t>() + g.n, -1);
        ccl4j::PhaseLog log(&t);
        gpu::run_graph(state, g.view(), false, phase_names, ecl_cc, labels.as<int32_t>(), log);
        if (run < 0) continue;
        h2d.push_back(phase_ms(t, "h2d"));
        d2h.push_back(phase_ms(t, "d2h"));
        e2e.push_back(h2d.back() + kernel_ms(t) + d2h.back());
    }
    row.e2e_median = median(e2e);
    row.h2d_median = median(h2d);
    row.d2h_median = median(d2h);

    row.components = verify(g, labels.as<int32_t>());
    row.ok = row.components >= 0 && (spec.components < 0 || row.components == spec.components);
    if (row.components >= 0 && !row.ok) {
        std::printf("    WRONG: %lld components, expected %lld\n", static_cast<long long>(row.components),
                    static_cast<long long>(spec.components));
    }
    return row;
}

GraphSpec parse_graph(const std::string& arg) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) throw std::runtime_error("expected NAME=FILE[:COMPONENTS[:REF_MS]], got " + arg);
    GraphSpec spec;
    spec.name = arg.substr(0, eq);
    std::string rest = arg.substr(eq + 1);
    const size_t colon = rest.find(':');
    spec.path = rest.substr(0, colon);
    if (colon != std::string::npos) {
        rest = rest.substr(colon + 1);
        const size_t second = rest.find(':');
        spec.components = std::stoll(rest.substr(0, second));
        if (second != std::string::npos) spec.reference_ms = std::stod(rest.substr(second + 1));
    }
    return spec;
}

Config parse_config(const std::string& arg) {
    Config c;
    if (std::sscanf(arg.c_str(), "%d:%d:%d", &c.block_size, &c.warp_threshold, &c.block_threshold) != 3) {
        throw std::runtime_error("expected --config BLOCK:WARP:BLOCKTHRESHOLD, got " + arg);
    }
    // What ccl4j::api::label_options accepts (0 = the default).
    const int warp = c.warp_threshold ? c.warp_threshold : ccl4j::LabelOptions::kDefaultWarpThreshold;
    const int block = c.block_threshold ? c.block_threshold : ccl4j::LabelOptions::kDefaultBlockThreshold;
    if (c.block_size < 0 || c.block_size > 1024 || c.block_size % 32 != 0 || c.warp_threshold < 0 ||
        c.block_threshold < 0 || warp > block) {
        throw std::runtime_error("--config " + arg + ": block size 0 or a multiple of 32 up to 1024, and " +
                                 "0 <= WARP <= BLOCKTHRESHOLD (0 = default)");
    }
    return c;
}

void print_table(const std::vector<Row>& rows, const std::string& device, bool offsets64) {
    std::printf("\nECL-CC on %s, parent access: %s, %d-bit offsets\n", device.c_str(), parent_access_name(),
                offsets64 ? 64 : 32);
    std::printf("kernel-only: graph resident, CUDA events init..finalize, median of runs; "
                "e2e: pinned host -> device -> pinned host\n");
    std::printf("%-18s %-11s %10s %11s %8s %8s %7s %7s %7s %7s %7s %7s %8s %7s %7s %6s %s\n", "graph", "config",
                "vertices", "arcs", "kernel", "min", "init", "comp1", "comp2", "comp3", "final", "ref", "e2e", "h2d",
                "d2h", "ok", "ref/kernel");
    for (const Row& r : rows) {
        std::printf("%-18s %-11s %10d %11lld %8.3f %8.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.2f %8.3f %7.3f %7.3f %6s",
                    r.graph.c_str(), r.config.c_str(), r.n, static_cast<long long>(r.arcs), r.kernel_median,
                    r.kernel_min, r.phase_medians[0], r.phase_medians[1], r.phase_medians[2], r.phase_medians[3],
                    r.phase_medians[4], r.reference_ms, r.e2e_median, r.h2d_median, r.d2h_median, r.ok ? "yes" : "NO");
        if (r.reference_ms > 0) std::printf(" %.2fx", r.reference_ms / r.kernel_median);
        std::printf("\n");
    }
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 9;
    bool offsets64 = false;
    std::vector<Config> configs;
    std::vector<GraphSpec> graphs;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--runs" && i + 1 < argc) {
                runs = std::max(1, std::atoi(argv[++i]));
            } else if (arg == "--config" && i + 1 < argc) {
                configs.push_back(parse_config(argv[++i]));
            } else if (arg == "--offsets64") {
                offsets64 = true;
            } else {
                graphs.push_back(parse_graph(arg));
            }
        }
        if (graphs.empty()) {
            std::fprintf(stderr,
                         "usage: bench_ecl [--runs R] [--config BLOCK:WARP:BLOCKTHRESHOLD]... [--offsets64] "
                         "NAME=FILE[:COMPONENTS[:REF_MS]]...\n");
            return 2;
        }
        if (configs.empty()) configs.push_back(Config{});
        if (gpu::device_count() == 0) {
            std::printf("SKIPPED: no CUDA device\n");
            return 0;
        }
        ccl4j_device_info info;
        gpu::device_info(0, &info);
        gpu::DeviceStatePtr state = gpu::create_state(0);

        std::vector<Row> rows;
        bool all_ok = true;
        for (const GraphSpec& spec : graphs) {
            const LoadedGraph g = load_egr(spec.path, offsets64);
            double h2d_ms = 0;
            gpu::DeviceGraphPtr resident = gpu::upload(*state, g.view(), &h2d_ms);
            for (const Config& config : configs) {
                rows.push_back(bench(*state, spec, g, *resident, config, runs));
                const Row& r = rows.back();
                all_ok = all_ok && r.ok;
                std::printf("%-18s %-11s kernel %8.3f ms (min %.3f)  e2e %8.3f ms  components %lld  %s\n",
                            r.graph.c_str(), r.config.c_str(), r.kernel_median, r.kernel_min, r.e2e_median,
                            static_cast<long long>(r.components), r.ok ? "ok" : "WRONG");
                std::fflush(stdout);
            }
        }
        print_table(rows, info.name, offsets64);
        return all_ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_ecl: %s\n", e.what());
        return 1;
    }
}
