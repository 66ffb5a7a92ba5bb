// Cahn-Hilliard on the GPU through the C ABI:
//  1. time per RK2 step of the global-memory and the shared-memory kernel (medians of `runs` timings
//     of `steps` steps each, CUDA events), 2D N x N and 3D M^3, with the CPU backend for scale;
//  2. a coarsening run on N x N (periodic), labelled on the device every `every` steps: time, domains,
//     mean size, L = sqrt(mean size), and the growth exponent of L fitted by least squares in
//     log-log over the later half of the run's logarithmic time range.
//
//   bench_cahn_hilliard [N=1024] [M=128] [steps=200] [runs=7] [coarsening steps=100000] [every=1000]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ccl4j.h"

namespace {

void check(ccl4j_status status, ccl4j_context context, const char* what) {
    if (status == CCL4J_SUCCESS) return;
    std::fprintf(stderr, "%s failed: %s\n", what, ccl4j_context_error_message(context));
    std::exit(1);
}

ccl4j_cahn_hilliard create(ccl4j_context context, int32_t w, int32_t h, int32_t d, int32_t kernel, double dt) {
    ccl4j_cahn_hilliard_params p{};
    p.width = w;
    p.height = h;
    p.depth = d;
    p.boundary = CCL4J_CH_PERIODIC;
    p.kernel = kernel;
    p.dt = dt;
    ccl4j_cahn_hilliard field = nullptr;
    check(ccl4j_cahn_hilliard_create(context, &p, &field), context, "create");
    return field;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

void time_kernels(ccl4j_context gpu, ccl4j_context cpu, int32_t w, int32_t h, int32_t d, int steps, int runs) {
    const double cells = double(w) * h * d;
    const double dt = d > 1 ? 0.01 : 0.02;
    for (int32_t kernel : {CCL4J_CH_KERNEL_GLOBAL, CCL4J_CH_KERNEL_SHARED}) {
        ccl4j_cahn_hilliard field = create(gpu, w, h, d, kernel, dt);
        check(ccl4j_cahn_hilliard_init(field, 0.0, 0.05, 1), gpu, "init");
        check(ccl4j_cahn_hilliard_step(field, 20, nullptr), gpu, "warm-up");
        std::vector<double> per_step;
        for (int r = 0; r < runs; ++r) {
            double ms = 0;
            check(ccl4j_cahn_hilliard_step(field, steps, &ms), gpu, "step");
            per_step.push_back(ms / steps);
        }
        const double ms = median(per_step);
        std::printf("%dx%dx%d %-6s  %9.4f ms/step (median of %d x %d steps, min %.4f, max %.4f)  %7.3f ns/cell-step\n", w,
                    h, d, kernel == CCL4J_CH_KERNEL_GLOBAL ? "global" : "shared", ms, runs, steps,
                    *std::min_element(per_step.begin(), per_step.end()),
                    *std::max_element(per_step.begin(), per_step.end()), ms * 1e6 / cells);
        ccl4j_cahn_hilliard_destroy(field);
    }
    ccl4j_cahn_hilliard field = create(cpu, w, h, d, CCL4J_CH_KERNEL_AUTO, dt);
    check(ccl4j_cahn_hilliard_init(field, 0.0, 0.05, 1), cpu, "init");
    double ms = 0;
    check(ccl4j_cahn_hilliard_step(field, 5, &ms), cpu, "step");
    std::printf("%dx%dx%d cpu     %9.4f ms/step (5 steps)  %7.3f ns/cell-step\n", w, h, d, ms / 5, ms / 5 * 1e6 / cells);
    ccl4j_cahn_hilliard_destroy(field);
}

void coarsen(ccl4j_context gpu, int32_t n, int64_t steps, int64_t every) {
    const double dt = 0.02;
    ccl4j_cahn_hilliard field = create(gpu, n, n, 1, CCL4J_CH_KERNEL_AUTO, dt);
    check(ccl4j_cahn_hilliard_init(field, -0.4, 0.05, 1), gpu, "init");
    std::vector<double> t, length;
    double step_ms = 0, label_ms = 0;
    std::printf("coarsening %dx%d periodic, c0 = -0.4, noise 0.05, dt %.3f, labelled every %lld steps\n", n, n, dt,
                static_cast<long long>(every));
    std::printf("%10s %10s %12s %10s\n", "t", "domains", "mean size", "L");
    for (int64_t done = 0; done < steps; done += every) {
        double ms = 0;
        check(ccl4j_cahn_hilliard_step(field, every, &ms), gpu, "step");
        step_ms += ms;
        ccl4j_cahn_hilliard_domains d{};
        ccl4j_timings timings{};
        check(ccl4j_cahn_hilliard_label(field, 0.0, nullptr, nullptr, &d, &timings), gpu, "label");
        label_ms += timings.total_ms;
        const double time = (done + every) * dt, l = std::sqrt(d.mean_size);
        if (d.domains > 0) {
            t.push_back(time);
            length.push_back(l);
        }
        if ((done / every) % std::max<int64_t>(1, steps / every / 20) == 0 || done + every >= steps) {
            std::printf("%10.1f %10lld %12.2f %10.3f\n", time, static_cast<long long>(d.domains), d.mean_size, l);
        }
    }
    // the later half of the logarithmic time range
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int count = 0;
    const double middle = (std::log(t.front()) + std::log(t.back())) / 2;
    for (size_t i = 0; i < t.size(); ++i) {
        const double x = std::log(t[i]), y = std::log(length[i]);
        if (x < middle) continue;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        ++count;
    }
    const double slope = (count * sxy - sx * sy) / (count * sxx - sx * sx);
    std::printf("growth exponent of L (log-log least squares, t in [%.1f, %.1f], %d points): %.4f (Lifshitz-Slyozov 1/3)\n",
                std::exp(middle), t.back(), count, slope);
    std::printf("steps %.1f ms in all (%.4f ms/step), %zu labellings %.1f ms in all (%.3f ms each)\n", step_ms,
                step_ms / steps, t.size(), label_ms, label_ms / std::max<size_t>(1, t.size()));
    ccl4j_cahn_hilliard_destroy(field);
}

}  // namespace

int main(int argc, char** argv) {
    auto arg = [&](int i, long long fallback) { return argc > i ? std::atoll(argv[i]) : fallback; };
    const int32_t n = static_cast<int32_t>(arg(1, 1024)), m = static_cast<int32_t>(arg(2, 128));
    const int steps = static_cast<int>(arg(3, 200)), runs = static_cast<int>(arg(4, 7));
    const int64_t coarsening = arg(5, 100000), every = arg(6, 1000);
    ccl4j_capabilities caps{};
    ccl4j_get_capabilities(&caps);
    if (!(caps.backends & (1u << CCL4J_BACKEND_CUDA))) {
        std::printf("NOTICE: no CUDA device, nothing to measure\n");
        return 0;
    }
    ccl4j_device_info info{};
    ccl4j_get_device_info(0, &info);
    std::printf("device: %s (sm_%d%d, %d SMs)\n", info.name, info.compute_major, info.compute_minor,
                info.multiprocessors);
    ccl4j_context gpu = nullptr, cpu = nullptr;
    check(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &gpu), nullptr, "CUDA context");
    check(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &cpu), nullptr, "CPU context");
    std::printf("CPU threads: %d\n", caps.cpu_threads);
    time_kernels(gpu, cpu, n, n, 1, steps, runs);
    time_kernels(gpu, cpu, m, m, m, steps, runs);
    coarsen(gpu, n, coarsening, every);
    ccl4j_context_destroy(gpu);
    ccl4j_context_destroy(cpu);
    return 0;
}
