// The GPU graph tests' common check: one algorithm with one setting on one graph, run the three
// ways a caller can run it. Only compiled with CUDA.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "common/phase_log.hpp"
#include "core/options.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/graph_kernels.hpp"
#include "check.hpp"
#include "test_graphs.hpp"

namespace ccl4j::test {

// Labels g (with `width`-byte offsets) by `options` on the GPU from host memory, then `resident`
// (the same graph on the device) with its labels left there, then `resident` with its labels
// copied back. The labels copied back must equal `expected` with nothing written past them; the
// phases must be `kernel_phases`, after h2d for the host graph and before d2h where labels come
// back. `check_timings`, when given, sees each run's timings and what it was.
inline void check_gpu_runs(cuda::DeviceState& state, const HostGraph& g, int width, const cuda::DeviceGraph& resident,
                           const ccl4j::LabelOptions& options, const std::vector<int32_t>& expected,
                           const std::vector<std::string>& kernel_phases, const std::string& what,
                           const std::function<void(const ccl4j_timings&, const std::string&)>& check_timings = {}) {
    std::vector<std::string> host_phases = {"h2d"};
    host_phases.insert(host_phases.end(), kernel_phases.begin(), kernel_phases.end());
    host_phases.push_back("d2h");
    const std::vector<std::string> resident_phases(host_phases.begin() + 1, host_phases.end());
    std::vector<int32_t> labels(static_cast<size_t>(g.n) + 1);
    ccl4j_timings timings;
    const auto check_run = [&](const std::vector<std::string>& phases, const std::string& run) {
        check_phases(timings, phases, run);
        if (check_timings) check_timings(timings, run);
    };
    const auto check_downloaded = [&](const std::string& run) {
        CHECK_MSG(labels.back() == kPoison, run + ": wrote past the last label");
        check_labels(std::vector<int32_t>(labels.begin(), labels.end() - 1), expected, run);
    };

    std::fill(labels.begin(), labels.end(), kPoison);
    PhaseLog host_log(&timings);
    cuda::label(state, g.view(width), options, labels.data(), host_log);
    check_downloaded("GPU " + what);
    check_run(host_phases, "GPU " + what);

    PhaseLog kernel_log(&timings);
    cuda::label(state, resident, options, nullptr, kernel_log);
    check_run(kernel_phases, "GPU resident, labels kept on the device, " + what);

    std::fill(labels.begin(), labels.end(), kPoison);
    PhaseLog resident_log(&timings);
    cuda::label(state, resident, options, labels.data(), resident_log);
    check_downloaded("GPU resident " + what);
    check_run(resident_phases, "GPU resident " + what);
}

}  // namespace ccl4j::test
