// bench_labels: times the book-keeping of labels on the GPU, kernel-only: the labels ECL-CC left
// on the device are analysed (sizes and first members per label, components numbered in
// smallest-member order) and compacted to 0 .. k-1, with the component sizes left on the device.
//
//   bench_labels [--runs R] NAME=FILE...     (FILE: .egr, int32 n, int32 arcs, offsets, neighbours)
//
// CUDA-event time from just before the first launch to the end of the last, median and min of R runs after 2 warm-up
// runs. Also the host wall time of ccl4j's summary call (count, largest) on the resident labels,
// which includes its launches and one wait. The compacted labels and sizes are checked against
// the CPU version afterwards.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "cpu/label_stats.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/label_stats.hpp"

namespace {

namespace gpu = ccl4j::cuda;
using namespace ccl4j::bench;

struct Row {
    std::string graph;
    int32_t n;
    int64_t components;
    double median_ms, min_ms, summary_ms;
    bool ok;
};

Row bench(gpu::DeviceState& state, const std::string& name, const LoadedGraph& g, int runs) {
    double h2d = 0;
    gpu::DeviceGraphPtr resident = gpu::upload(state, g.view(), &h2d);
    ccl4j_timings t;
    ccl4j::PhaseLog log(&t);
    gpu::label(state, *resident, ccl4j::LabelOptions{}, nullptr, log);
    const int32_t* labels = gpu::device_labels(state).as<int32_t>();

    int32_t* out = nullptr;
    CCL4J_CUDA_CHECK(cudaMalloc(&out, static_cast<size_t>(g.n) * sizeof(int32_t)));
    cudaEvent_t start, stop;
    CCL4J_CUDA_CHECK(cudaEventCreate(&start));
    CCL4J_CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<double> times;
    const int32_t* sizes = nullptr;
    for (int run = -2; run < runs; ++run) {
        sizes = gpu::enqueue_compaction(state, labels, g.n, out, start);
        CCL4J_CUDA_CHECK(cudaEventRecord(stop, state.stream));
        CCL4J_CUDA_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CCL4J_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (run >= 0) times.push_back(ms);
    }
    Row row{name, g.n, 0, median(times), *std::min_element(times.begin(), times.end()), 0, false};

    // Check against the CPU version.
    std::vector<int32_t> host_labels(g.n), compact(g.n), host_sizes(g.n);
    CCL4J_CUDA_CHECK(cudaMemcpy(host_labels.data(), labels, g.n * sizeof(int32_t), cudaMemcpyDeviceToHost));
    CCL4J_CUDA_CHECK(cudaMemcpy(compact.data(), out, g.n * sizeof(int32_t), cudaMemcpyDeviceToHost));
    CCL4J_CUDA_CHECK(cudaMemcpy(host_sizes.data(), sizes, g.n * sizeof(int32_t), cudaMemcpyDeviceToHost));
    const ccl4j::cpu::ComponentTable table = ccl4j::cpu::analyze(host_labels.data(), g.n, 0);
    row.components = static_cast<int64_t>(table.label.size());
    row.ok = verify(g, host_labels.data()) == row.components;
    for (int32_t i = 0; row.ok && i < g.n; ++i) row.ok = compact[i] == table.id[host_labels[i]];
    for (int64_t c = 0; row.ok && c < row.components; ++c) row.ok = host_sizes[c] == table.size[c];

    std::vector<double> summaries;
    for (int run = -1; run < runs; ++run) {
        const auto begin = std::chrono::steady_clock::now();
        const ccl4j_label_summary s = gpu::label_summary(state, gpu::LabelSource{nullptr, g.n});
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        if (run >= 0) summaries.push_back(ms);
        row.ok = row.ok && s.components == row.components;
    }
    row.summary_ms = median(summaries);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(out);
    return row;
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 21;
    std::vector<std::pair<std::string, std::string>> graphs;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const size_t eq = arg.find('=');
        if (arg == "--runs" && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (eq != std::string::npos) {
            graphs.push_back({arg.substr(0, eq), arg.substr(eq + 1)});
        } else {
            std::fprintf(stderr, "usage: bench_labels [--runs R] NAME=FILE...\n");
            return 2;
        }
    }
    if (graphs.empty()) {
        std::fprintf(stderr, "usage: bench_labels [--runs R] NAME=FILE...\n");
        return 2;
    }
    if (gpu::device_count() == 0) {
        std::printf("SKIPPED: no CUDA device\n");
        return 0;
    }
    try {
        ccl4j_device_info info;
        gpu::device_info(0, &info);
        gpu::DeviceStatePtr state = gpu::create_state(0);
        std::vector<Row> rows;
        bool all_ok = true;
        for (const auto& [name, path] : graphs) {
            rows.push_back(bench(*state, name, load_egr(path, false), runs));
            all_ok = all_ok && rows.back().ok;
        }
        std::printf("Label book-keeping on %s, kernel-only (compaction in smallest-member order + sizes), "
                    "%d runs\n",
                    info.name, runs);
        std::printf("| graph | entries | components | median ms | min ms | summary call ms (host wall) | check |\n");
        std::printf("|---|---:|---:|---:|---:|---:|---|\n");
        for (const Row& r : rows) {
            std::printf("| %s | %d | %lld | %.3f | %.3f | %.3f | %s |\n", r.graph.c_str(), r.n,
                        static_cast<long long>(r.components), r.median_ms, r.min_ms, r.summary_ms,
                        r.ok ? "ok" : "WRONG");
        }
        return all_ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_labels: %s\n", e.what());
        return 1;
    }
}
