// bench_edges: random edge lists through the public ABI on every backend present: labelling the
// edges directly (ccl4j_label_edges, with its phases) against building their CSR
// (ccl4j_csr_build_*) and labelling that (ccl4j_label_graph, the backend's AUTO algorithm).
//
//   bench_edges VERTICES EDGES [RUNS]
//
// EDGES uniformly random edges over VERTICES vertices (splitmix64, seed 42), in two host arrays.
// Prints, per backend, the medians of RUNS timed runs (default 5) after one warm-up: the edge
// labelling call (host to host), the CSR build, and the CSR labelling; and checks that both
// labellings agree.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "ccl4j.h"

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void check(ccl4j_status status, ccl4j_context context, const char* what) {
    if (status != CCL4J_SUCCESS) {
        std::fprintf(stderr, "%s: %s\n", what, ccl4j_context_error_message(context));
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_edges VERTICES EDGES [RUNS]\n");
        return 2;
    }
    const int64_t n = std::atoll(argv[1]), m = std::atoll(argv[2]);
    const int runs = argc > 3 ? std::atoi(argv[3]) : 5;
    std::vector<int32_t> sources(static_cast<size_t>(m)), targets(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) {
        sources[static_cast<size_t>(i)] = static_cast<int32_t>(ccl4j::bench::mix(42 + 2 * i) % static_cast<uint64_t>(n));
        targets[static_cast<size_t>(i)] = static_cast<int32_t>(ccl4j::bench::mix(43 + 2 * i) % static_cast<uint64_t>(n));
    }
    std::vector<int32_t> edge_labels(static_cast<size_t>(n)), csr_labels(static_cast<size_t>(n));
    const ccl4j_edges edges{n, m, 1, 0};
    for (ccl4j_backend backend : {CCL4J_BACKEND_CUDA, CCL4J_BACKEND_CPU_PARALLEL}) {
        ccl4j_context context = nullptr;
        if (ccl4j_context_create(backend, 0, &context) != CCL4J_SUCCESS) {
            std::printf("%s: no context (%s)\n", backend == CCL4J_BACKEND_CUDA ? "CUDA" : "CPU_PARALLEL",
                        ccl4j_context_error_message(nullptr));
            continue;
        }
        std::vector<double> label_ms, build_ms, csr_ms;
        ccl4j_timings timings{};
        for (int run = 0; run <= runs; ++run) {
            const double t0 = now_ms();
            check(ccl4j_label_edges(context, &edges, sources.data(), targets.data(), nullptr, edge_labels.data(),
                                    &timings),
                  context, "ccl4j_label_edges");
            const double t1 = now_ms();
            ccl4j_csr_build build = nullptr;
            ccl4j_csr shape{};
            check(ccl4j_csr_build_create(context, &edges, sources.data(), targets.data(), &build, &shape), context,
                  "ccl4j_csr_build_create");
            std::vector<int64_t> offsets(static_cast<size_t>(n) + 1);  // room for either width
            std::vector<int32_t> neighbors(static_cast<size_t>(shape.arc_count));
            check(ccl4j_csr_build_write(context, build, offsets.data(), neighbors.data()), context,
                  "ccl4j_csr_build_write");
            ccl4j_csr_build_destroy(build);
            const double t2 = now_ms();
            check(ccl4j_label_graph(context, &shape, offsets.data(), neighbors.data(), nullptr, csr_labels.data(),
                                    nullptr),
                  context, "ccl4j_label_graph");
            const double t3 = now_ms();
            if (run == 0) continue;
            label_ms.push_back(t1 - t0);
            build_ms.push_back(t2 - t1);
            csr_ms.push_back(t3 - t2);
        }
        int64_t components = 0;
        for (int64_t v = 0; v < n; ++v) components += edge_labels[static_cast<size_t>(v)] == v;
        std::printf("%s, %lld vertices, %lld edges: label_edges %.1f ms [", backend == CCL4J_BACKEND_CUDA ? "CUDA" : "CPU_PARALLEL",
                    static_cast<long long>(n), static_cast<long long>(m), ccl4j::bench::median(label_ms));
        for (int32_t i = 0; i < timings.phase_count; ++i) std::printf(" %s %.2f", timings.phases[i].name, timings.phases[i].ms);
        std::printf(" ], csr build %.1f ms, label_graph %.1f ms; %lld components, labellings %s\n",
                    ccl4j::bench::median(build_ms), ccl4j::bench::median(csr_ms), static_cast<long long>(components),
                    edge_labels == csr_labels ? "agree" : "DIFFER");
        ccl4j_context_destroy(context);
        if (edge_labels != csr_labels) return 1;
    }
    return 0;
}
