// bench_algorithms: kernel-only times and iteration counts of every GPU graph algorithm (ECL-CC,
// Hawick's Kernels 1-3, Komura's label reduction, Afforest) on graphs in ECL's binary CSR format (.egr:
// int32 n, int32 arcs, int32 offsets[n + 1], int32 neighbours[arcs]).
//
//   bench_algorithms [--runs R] [--budget-s S] [--algorithms NAME,...] [--block B] [--offsets64]
//                    NAME=FILE[:COMPONENTS]...
//
// Algorithms: ecl, edge, vertex, bfs, komura, afforest (default: all). For each graph (resident on the
// device) and algorithm: kernel time = the CUDA-event time of every phase but d2h (the labels
// are copied back to pinned memory after the kernels). Hawick's kernels can need a launch per
// level or edge of distance (Kernel 3 on a path of 2^24 vertices: 2^24 + 1 launches), so each
// pair gets a time budget of S seconds (default 10):
//   1. a probe run with max_iterations 64; if it converges it is the warm-up;
//   2. otherwise a run whose iteration limit the probe's time per iteration fits in the budget;
//      if that does not converge either, the pair is reported as "gave up" with its limit;
//   3. up to R timed runs (default 9) while the budget lasts, at least one.
// The labels of the last run are checked: equal across every arc, canonical, and, when
// COMPONENTS is given, that many components. A table of all results comes last.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/options.hpp"
#include "common/error.hpp"
#include "bench_support.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/graph_kernels.hpp"

namespace {

namespace gpu = ccl4j::cuda;
using namespace ccl4j::bench;

struct GraphSpec {
    std::string name;
    std::string path;
    int64_t components = -1;  // -1: not checked
};

struct AlgorithmSpec {
    const char* name;
    ccl4j_algorithm id;
};

const AlgorithmSpec kAlgorithms[] = {
    {"ecl", CCL4J_ALGORITHM_ECL_CC},
    {"edge", CCL4J_ALGORITHM_HAWICK_EDGE},
    {"vertex", CCL4J_ALGORITHM_HAWICK_VERTEX},
    {"bfs", CCL4J_ALGORITHM_HAWICK_BFS},
    {"komura", CCL4J_ALGORITHM_KOMURA},
    {"afforest", CCL4J_ALGORITHM_AFFOREST},
};


struct Row {
    std::string graph;
    std::string algorithm;
    int32_t n = 0;
    int64_t arcs = 0;
    bool converged = false;
    int runs = 0;
    double kernel_median = 0;
    double kernel_min = 0;
    int32_t iterations_min = 0;
    int32_t iterations_max = 0;
    int32_t gave_up_at = 0;  // the iteration limit of a run that did not converge
    std::string phases;      // "name median, ..." over the timed runs
    int64_t components = -1;
    bool ok = false;
};

class Bench {
public:
    Bench(gpu::DeviceState& state, int runs, double budget_ms, int block)
        : state_(state), runs_(runs), budget_ms_(budget_ms), block_(block) {}

    Row run(const GraphSpec& spec, const LoadedGraph& g, const gpu::DeviceGraph& resident, const AlgorithmSpec& a) {
        Row row;
        row.graph = spec.name;
        row.algorithm = a.name;
        row.n = g.n;
        row.arcs = g.arcs;
        Pinned labels(static_cast<size_t>(g.n) * sizeof(int32_t));
        ccl4j_timings t;

        constexpr int32_t kProbeIterations = 64;
        double spent = 0;
        const auto probe_start = std::chrono::steady_clock::now();
        if (!attempt(resident, a, kProbeIterations, labels, t)) {
            // A run stopped by its iteration limit reports no phase times: time it on the host.
            const double probe_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - probe_start).count();
            spent += probe_ms;
            const double per_iteration = std::max(probe_ms, 1e-3) / kProbeIterations;
            const double fit = std::max(0.0, budget_ms_ - spent) / per_iteration;
            const int32_t limit = static_cast<int32_t>(std::clamp(fit, kProbeIterations + 1.0, 2e9));
            std::printf("  %-18s %-7s probe: no fixpoint in %d iterations (%.2f ms each); trying %d\n",
                        spec.name.c_str(), a.name, kProbeIterations, per_iteration, limit);
            std::fflush(stdout);
            if (!attempt(resident, a, limit, labels, t)) {
                row.gave_up_at = limit;
                row.kernel_median = row.kernel_min = kernel_ms(t);
                return row;
            }
        }
        spent += kernel_ms(t);
        // Timed runs while the budget lasts.
        std::vector<double> totals;
        std::vector<std::vector<double>> phases(static_cast<size_t>(t.phase_count));
        ccl4j_timings last = t;
        row.iterations_min = row.iterations_max = t.iterations;
        for (int r = 0; r < runs_ && spent < budget_ms_; ++r) {
            if (!attempt(resident, a, 0, labels, t)) throw std::runtime_error("no fixpoint within the default limit");
            last = t;
            spent += kernel_ms(t);
            totals.push_back(kernel_ms(t));
            for (int32_t p = 0; p < t.phase_count; ++p) phases[p].push_back(t.phases[p].ms);
            row.iterations_min = std::min(row.iterations_min, t.iterations);
            row.iterations_max = std::max(row.iterations_max, t.iterations);
        }
        if (totals.empty()) {  // the warm-up alone used the budget: it is the result
            totals.push_back(kernel_ms(last));
            for (int32_t p = 0; p < last.phase_count; ++p) phases[p].push_back(last.phases[p].ms);
        }
        row.converged = true;
        row.runs = static_cast<int>(totals.size());
        row.kernel_median = median(totals);
        row.kernel_min = *std::min_element(totals.begin(), totals.end());
        std::ostringstream detail;
        for (int32_t p = 0; p < last.phase_count; ++p) {
            if (std::strcmp(last.phases[p].name, "d2h") == 0) continue;
            char text[64];
            std::snprintf(text, sizeof(text), "%s%s %.3f", p ? ", " : "", last.phases[p].name, median(phases[p]));
            detail << text;
        }
        row.phases = detail.str();
        row.components = verify(g, labels.as<int32_t>());
        row.ok = row.components >= 0 && (spec.components < 0 || row.components == spec.components);
        if (row.components >= 0 && !row.ok) {
            std::printf("    WRONG: %lld components, expected %lld\n", static_cast<long long>(row.components),
                        static_cast<long long>(spec.components));
        }
        return row;
    }

private:
    // One run with labels copied back; false when it stopped at its iteration limit.
    bool attempt(const gpu::DeviceGraph& resident, const AlgorithmSpec& a, int32_t max_iterations, const Pinned& labels,
                 ccl4j_timings& t) {
        ccl4j_label_options options{};
        options.algorithm = a.id;
        options.block_size = block_;
        options.max_iterations = max_iterations;
        const ccl4j::LabelOptions checked = ccl4j::api::label_options(&options);
        ccl4j::PhaseLog log(&t);
        try {
            gpu::label(state_, resident, checked, labels.as<int32_t>(), log);
            return true;
        } catch (const ccl4j::Error& e) {
            if (e.status() != CCL4J_NOT_CONVERGED) throw;
            return false;
        }
    }

    gpu::DeviceState& state_;
    int runs_;
    double budget_ms_;
    int block_;
};

GraphSpec parse_graph(const std::string& arg) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) throw std::runtime_error("expected NAME=FILE[:COMPONENTS], got " + arg);
    GraphSpec spec;
    spec.name = arg.substr(0, eq);
    const std::string rest = arg.substr(eq + 1);
    const size_t colon = rest.find(':');
    spec.path = rest.substr(0, colon);
    if (colon != std::string::npos) spec.components = std::stoll(rest.substr(colon + 1));
    return spec;
}

std::vector<AlgorithmSpec> parse_algorithms(const std::string& list) {
    std::vector<AlgorithmSpec> chosen;
    std::stringstream names(list);
    for (std::string name; std::getline(names, name, ',');) {
        const auto* found = std::find_if(std::begin(kAlgorithms), std::end(kAlgorithms),
                                         [&](const AlgorithmSpec& a) { return name == a.name; });
        if (found == std::end(kAlgorithms)) throw std::runtime_error("unknown algorithm " + name);
        chosen.push_back(*found);
    }
    return chosen;
}

void print_table(const std::vector<Row>& rows, const std::string& device, bool offsets64, int block, double budget_s) {
    std::printf("\nGraph algorithms on %s, %d-bit offsets, block size %s, budget %.0f s per pair\n", device.c_str(),
                offsets64 ? 64 : 32, block ? std::to_string(block).c_str() : "default", budget_s);
    std::printf("kernel: graph resident, CUDA events over every phase but d2h, median of runs; "
                "iterations: fixpoint-loop launches (min-max over the runs)\n");
    std::printf("%-18s %-7s %10s %11s %10s %10s %4s %17s %12s %s\n", "graph", "algo", "vertices", "arcs", "kernel ms",
                "min ms", "runs", "iterations", "components", "ok");
    for (const Row& r : rows) {
        if (!r.converged) {
            std::printf("%-18s %-7s %10d %11lld %10s %10s %4s %17s %12s %s (%.1f ms, no fixpoint in %d iterations)\n",
                        r.graph.c_str(), r.algorithm.c_str(), r.n, static_cast<long long>(r.arcs), "-", "-", "-", "-",
                        "-", "gave up", r.kernel_median, r.gave_up_at);
            continue;
        }
        const std::string iterations = r.iterations_min == r.iterations_max
                                           ? std::to_string(r.iterations_min)
                                           : std::to_string(r.iterations_min) + "-" + std::to_string(r.iterations_max);
        std::printf("%-18s %-7s %10d %11lld %10.3f %10.3f %4d %17s %12lld %s\n", r.graph.c_str(), r.algorithm.c_str(),
                    r.n, static_cast<long long>(r.arcs), r.kernel_median, r.kernel_min, r.runs, iterations.c_str(),
                    static_cast<long long>(r.components), r.ok ? "yes" : "NO");
    }
    std::printf("\nphase medians (ms)\n");
    for (const Row& r : rows) {
        if (r.converged) std::printf("%-18s %-7s %s\n", r.graph.c_str(), r.algorithm.c_str(), r.phases.c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 9;
    double budget_s = 10;
    int block = 0;
    bool offsets64 = false;
    std::vector<AlgorithmSpec> algorithms(std::begin(kAlgorithms), std::end(kAlgorithms));
    std::vector<GraphSpec> graphs;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--runs" && i + 1 < argc) {
                runs = std::max(1, std::atoi(argv[++i]));
            } else if (arg == "--budget-s" && i + 1 < argc) {
                budget_s = std::max(0.0, std::atof(argv[++i]));
            } else if (arg == "--algorithms" && i + 1 < argc) {
                algorithms = parse_algorithms(argv[++i]);
            } else if (arg == "--block" && i + 1 < argc) {
                block = std::atoi(argv[++i]);
            } else if (arg == "--offsets64") {
                offsets64 = true;
            } else {
                graphs.push_back(parse_graph(arg));
            }
        }
        if (graphs.empty()) {
            std::fprintf(stderr,
                         "usage: bench_algorithms [--runs R] [--budget-s S] [--algorithms ecl,edge,vertex,bfs,komura,afforest] "
                         "[--block B] [--offsets64] NAME=FILE[:COMPONENTS]...\n");
            return 2;
        }
        if (gpu::device_count() == 0) {
            std::printf("SKIPPED: no CUDA device\n");
            return 0;
        }
        ccl4j_device_info info;
        gpu::device_info(0, &info);
        gpu::DeviceStatePtr state = gpu::create_state(0);
        Bench bench(*state, runs, budget_s * 1000, block);

        std::vector<Row> rows;
        bool all_ok = true;
        for (const GraphSpec& spec : graphs) {
            const LoadedGraph g = load_egr(spec.path, offsets64);
            gpu::DeviceGraphPtr resident = gpu::upload(*state, g.view(), nullptr);
            for (const AlgorithmSpec& a : algorithms) {
                rows.push_back(bench.run(spec, g, *resident, a));
                const Row& r = rows.back();
                all_ok = all_ok && (r.ok || !r.converged);
                if (r.converged) {
                    std::printf("%-18s %-7s kernel %10.3f ms (min %.3f, %d runs)  iterations %d-%d  components %lld  %s\n",
                                r.graph.c_str(), r.algorithm.c_str(), r.kernel_median, r.kernel_min, r.runs,
                                r.iterations_min, r.iterations_max, static_cast<long long>(r.components),
                                r.ok ? "ok" : "WRONG");
                } else {
                    std::printf("%-18s %-7s gave up: no fixpoint within %d iterations (%.1f ms)\n", r.graph.c_str(),
                                r.algorithm.c_str(), r.gave_up_at, r.kernel_median);
                }
                std::fflush(stdout);
            }
        }
        print_table(rows, info.name, offsets64, block, budget_s);
        return all_ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_algorithms: %s\n", e.what());
        return 1;
    }
}
