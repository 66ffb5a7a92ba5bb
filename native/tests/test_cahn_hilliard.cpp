// The Cahn-Hilliard field through the C ABI: argument checks, the quench, mass conservation with
// both boundaries, the growth and decay rates of small sinusoidal perturbations against the
// linearised equation, the domains against ccl4j_label_mesh, and, when a device is present, both
// GPU kernels against the CPU over 1000 steps (a notice otherwise).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"

using namespace ccl4j::test;

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Setup {
    int32_t width, height, depth;
    int32_t boundary;
    double dt = 0, mobility = 0, gradient = 0, spacing = 0;
    int32_t kernel = CCL4J_CH_KERNEL_AUTO;
};

std::string name(const Setup& s) {
    return std::to_string(s.width) + "x" + std::to_string(s.height) + "x" + std::to_string(s.depth) +
           (s.boundary == CCL4J_CH_PERIODIC ? " periodic" : " no-flux") +
           (s.kernel == CCL4J_CH_KERNEL_GLOBAL ? " global" : s.kernel == CCL4J_CH_KERNEL_SHARED ? " shared" : "");
}

ccl4j_cahn_hilliard create(ccl4j_context context, const Setup& s) {
    ccl4j_cahn_hilliard_params p{};
    p.width = s.width;
    p.height = s.height;
    p.depth = s.depth;
    p.boundary = s.boundary;
    p.kernel = s.kernel;
    p.dt = s.dt;
    p.mobility = s.mobility;
    p.gradient = s.gradient;
    p.spacing = s.spacing;
    ccl4j_cahn_hilliard field = nullptr;
    const ccl4j_status status = ccl4j_cahn_hilliard_create(context, &p, &field);
    CHECK_MSG(status == CCL4J_SUCCESS, name(s) + ": " + ccl4j_context_error_message(context));
    return field;
}

int64_t cells(const Setup& s) { return int64_t(s.width) * s.height * s.depth; }

std::vector<float> read(ccl4j_cahn_hilliard field, const Setup& s) {
    std::vector<float> c(static_cast<size_t>(cells(s)));
    CHECK(ccl4j_cahn_hilliard_copy_field(field, c.data()) == CCL4J_SUCCESS);
    return c;
}

double sum(const std::vector<float>& c) {
    double total = 0;
    for (float v : c) total += v;
    return total;
}

double variance(const std::vector<float>& c) {
    const double mean = sum(c) / static_cast<double>(c.size());
    double v = 0;
    for (float x : c) v += (x - mean) * (x - mean);
    return v / static_cast<double>(c.size());
}

ccl4j_context context_for(ccl4j_backend backend) {
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(backend, 0, &context) == CCL4J_SUCCESS);
    return context;
}

void test_arguments() {
    ccl4j_context context = context_for(CCL4J_BACKEND_CPU_PARALLEL);
    ccl4j_cahn_hilliard field = nullptr;
    CHECK(ccl4j_cahn_hilliard_create(context, nullptr, &field) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_create(nullptr, nullptr, &field) == CCL4J_INVALID_ARGUMENT);
    ccl4j_cahn_hilliard_params p{};
    p.width = 8;
    p.height = 0;
    p.depth = 1;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_INVALID_ARGUMENT);
    CHECK(std::string(ccl4j_context_error_message(context)).find("8x0x1") != std::string::npos);
    p.height = 8;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, nullptr) == CCL4J_INVALID_ARGUMENT);
    p.width = 65536;
    p.height = 65536;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_INVALID_ARGUMENT);  // 2^32 cells
    p.width = p.height = 8;
    p.boundary = 2;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_INVALID_ARGUMENT);
    p.boundary = CCL4J_CH_NO_FLUX;
    p.kernel = 3;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_INVALID_ARGUMENT);
    p.kernel = CCL4J_CH_KERNEL_AUTO;
    p.gradient = -1;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_INVALID_ARGUMENT);
    p.gradient = NAN;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_INVALID_ARGUMENT);
    p.gradient = 0;
    // 2D defaults: the limit is 2 / (8 (2 + 8)) = 0.025
    p.dt = 0.026;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_INVALID_ARGUMENT);
    CHECK(std::string(ccl4j_context_error_message(context)).find("stability") != std::string::npos);
    p.dt = 0.024;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_SUCCESS);
    ccl4j_cahn_hilliard_destroy(field);
    p.depth = 4;  // 3D: 2 / (12 (2 + 12)) = 0.0119
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_INVALID_ARGUMENT);
    p.dt = 0;
    CHECK(ccl4j_cahn_hilliard_create(context, &p, &field) == CCL4J_SUCCESS);
    ccl4j_cahn_hilliard_info info{};
    CHECK(ccl4j_cahn_hilliard_get_info(field, &info) == CCL4J_SUCCESS);
    CHECK(info.params.dt == 0.01 && info.params.mobility == 1 && info.params.gradient == 1 &&
          info.params.spacing == 1 && info.steps == 0 && info.params.depth == 4);
    CHECK(ccl4j_cahn_hilliard_get_info(field, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_init(field, 1.5, 0.1, 1) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_init(field, 0.0, -0.1, 1) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_init(field, NAN, 0.1, 1) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_step(field, -1, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_copy_field(field, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_set_field(field, nullptr) == CCL4J_INVALID_ARGUMENT);
    std::vector<float> values(8 * 8 * 4, 0.5f);
    values[77] = INFINITY;
    CHECK(ccl4j_cahn_hilliard_set_field(field, values.data()) == CCL4J_INVALID_ARGUMENT);
    CHECK(std::string(ccl4j_context_error_message(context)).find("values[77]") != std::string::npos);
    CHECK(ccl4j_cahn_hilliard_threshold(field, NAN, reinterpret_cast<uint8_t*>(values.data())) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_threshold(field, 0, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_label(field, NAN, nullptr, nullptr, nullptr, nullptr) == CCL4J_INVALID_ARGUMENT);
    ccl4j_mesh_options bad{};
    bad.connectivity = 8;  // a 3D field
    CHECK(ccl4j_cahn_hilliard_label(field, 0, &bad, nullptr, nullptr, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_cahn_hilliard_step(nullptr, 1, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(std::string(ccl4j_context_error_message(nullptr)).find("NULL") != std::string::npos);
    ccl4j_cahn_hilliard_destroy(field);
    ccl4j_cahn_hilliard_destroy(nullptr);
    ccl4j_context_destroy(context);
}

void test_quench() {
    ccl4j_context parallel = context_for(CCL4J_BACKEND_CPU_PARALLEL);
    ccl4j_context serial = context_for(CCL4J_BACKEND_CPU_SERIAL);
    const Setup s{100, 70, 3, CCL4J_CH_PERIODIC};
    ccl4j_cahn_hilliard a = create(parallel, s), b = create(serial, s);
    CHECK(ccl4j_cahn_hilliard_init(a, -0.25, 0.1, 42) == CCL4J_SUCCESS);
    CHECK(ccl4j_cahn_hilliard_init(b, -0.25, 0.1, 42) == CCL4J_SUCCESS);
    const std::vector<float> ca = read(a, s), cb = read(b, s);
    CHECK(ca == cb);
    const auto [low, high] = std::minmax_element(ca.begin(), ca.end());
    CHECK_MSG(*low >= -0.35f && *low < -0.34f && *high < -0.15f && *high > -0.16f,
              std::to_string(*low) + " " + std::to_string(*high));
    CHECK(std::abs(sum(ca) / ca.size() + 0.25) < 0.002);
    CHECK(std::abs(variance(ca) - 0.01 / 3) < 0.0003);  // uniform in [-0.1, 0.1)
    CHECK(ccl4j_cahn_hilliard_init(b, -0.25, 0.1, 43) == CCL4J_SUCCESS);
    CHECK(read(b, s) != ca);
    // the threads split the rows differently, the bits are the same
    CHECK(ccl4j_cahn_hilliard_init(b, -0.25, 0.1, 42) == CCL4J_SUCCESS);
    CHECK(ccl4j_cahn_hilliard_step(a, 150, nullptr) == CCL4J_SUCCESS);
    CHECK(ccl4j_cahn_hilliard_step(b, 150, nullptr) == CCL4J_SUCCESS);
    CHECK(read(a, s) == read(b, s));
    ccl4j_cahn_hilliard_info info{};
    CHECK(ccl4j_cahn_hilliard_get_info(a, &info) == CCL4J_SUCCESS);
    CHECK(info.steps == 150 && std::abs(info.time - 1.5) < 1e-12);
    ccl4j_cahn_hilliard_destroy(a);
    ccl4j_cahn_hilliard_destroy(b);
    ccl4j_context_destroy(parallel);
    ccl4j_context_destroy(serial);
}

// The sum of c after 1000 steps (4000 in 3D, whose smaller dt needs them to separate) is the sum
// at the start to 1e-6 (relative), while the field has separated (its variance grew well beyond
// the noise's).
void test_mass_conservation() {
    ccl4j_context context = context_for(CCL4J_BACKEND_CPU_PARALLEL);
    for (const Setup& s : {Setup{64, 48, 1, CCL4J_CH_PERIODIC, 0.02}, Setup{64, 48, 1, CCL4J_CH_NO_FLUX, 0.02},
                           Setup{20, 16, 12, CCL4J_CH_PERIODIC, 0.01}, Setup{20, 16, 12, CCL4J_CH_NO_FLUX, 0.01}}) {
        ccl4j_cahn_hilliard field = create(context, s);
        CHECK(ccl4j_cahn_hilliard_init(field, -0.3, 0.1, 7) == CCL4J_SUCCESS);
        const std::vector<float> before = read(field, s);
        CHECK(ccl4j_cahn_hilliard_step(field, s.depth > 1 ? 4000 : 1000, nullptr) == CCL4J_SUCCESS);
        const std::vector<float> after = read(field, s);
        const double drift = std::abs(sum(after) - sum(before)) / std::abs(sum(before));
        CHECK_MSG(drift < 1e-6, name(s) + ": relative drift " + std::to_string(drift));
        CHECK_MSG(variance(after) > 5 * variance(before),
                  name(s) + ": variance " + std::to_string(variance(before)) + " -> " + std::to_string(variance(after)));
        ccl4j_cahn_hilliard_destroy(field);
    }
    ccl4j_context_destroy(context);
}

// A perturbation c0 + eps * mode, mode an eigenvector of the discrete Laplacian along `axis`
// (cos(2 pi n (i) / L) periodic, cos(pi n (i + 1/2) / L) no-flux, eigenvalue -lambda), grows or
// decays as exp(sigma t) with sigma = -m lambda (3 c0^2 - 1 + K lambda) under the linearised
// equation. The measured rate (projection on the mode) matches it to 1%.
void check_linear_rate(ccl4j_context context, const Setup& s, int axis, int n, double c0, int64_t steps) {
    const int32_t extent[] = {s.width, s.height, s.depth};
    const int32_t length = extent[axis];
    const bool periodic = s.boundary == CCL4J_CH_PERIODIC;
    const double h = s.spacing == 0 ? 1 : s.spacing, m = s.mobility == 0 ? 1 : s.mobility;
    const double K = s.gradient == 0 ? 1 : s.gradient, dt = s.dt == 0 ? 0.01 : s.dt;
    const double angle = periodic ? 2 * kPi * n / length : kPi * n / length;
    const double lambda = 4 / (h * h) * std::pow(std::sin(angle / 2), 2);
    const double sigma = -m * lambda * (3 * c0 * c0 - 1 + K * lambda);
    std::vector<double> mode(static_cast<size_t>(cells(s)));
    std::vector<float> values(mode.size());
    const double eps = 1e-3;
    for (int32_t z = 0; z < s.depth; ++z) {
        for (int32_t y = 0; y < s.height; ++y) {
            for (int32_t x = 0; x < s.width; ++x) {
                const int32_t at[] = {x, y, z};
                const size_t i = static_cast<size_t>(x + int64_t(s.width) * (y + int64_t(s.height) * z));
                mode[i] = std::cos(angle * (at[axis] + (periodic ? 0.0 : 0.5)));
                values[i] = static_cast<float>(c0 + eps * mode[i]);
            }
        }
    }
    auto amplitude = [&](const std::vector<float>& c) {
        double dot = 0, norm = 0;
        for (size_t i = 0; i < c.size(); ++i) {
            dot += (c[i] - c0) * mode[i];
            norm += mode[i] * mode[i];
        }
        return dot / norm;
    };
    ccl4j_cahn_hilliard field = create(context, s);
    CHECK(ccl4j_cahn_hilliard_set_field(field, values.data()) == CCL4J_SUCCESS);
    const double a0 = amplitude(read(field, s));
    CHECK(ccl4j_cahn_hilliard_step(field, steps, nullptr) == CCL4J_SUCCESS);
    const double a1 = amplitude(read(field, s));
    const double measured = std::log(a1 / a0) / (steps * dt);
    const std::string what = name(s) + " axis " + std::to_string(axis) + " n " + std::to_string(n) + ": sigma " +
                             std::to_string(measured) + ", linearised " + std::to_string(sigma);
    CHECK_MSG(std::abs(measured - sigma) < 0.01 * std::abs(sigma), what);
    CHECK_MSG(std::abs(sigma * steps * dt) > 0.5, what + ": too little change to tell");  // the test can fail
    ccl4j_cahn_hilliard_destroy(field);
}

void test_linear_stability() {
    ccl4j_context context = context_for(CCL4J_BACKEND_CPU_PARALLEL);
    // growing long waves and decaying short ones, 2D and 3D, both boundaries, c0 = 0 and off it
    check_linear_rate(context, Setup{64, 8, 1, CCL4J_CH_PERIODIC, 0.02}, 0, 4, 0.0, 800);
    check_linear_rate(context, Setup{64, 8, 1, CCL4J_CH_PERIODIC, 0.02}, 0, 20, 0.0, 20);
    check_linear_rate(context, Setup{6, 48, 1, CCL4J_CH_NO_FLUX, 0.02}, 1, 5, 0.2, 1000);
    check_linear_rate(context, Setup{6, 48, 1, CCL4J_CH_NO_FLUX, 0.02}, 1, 30, 0.2, 20);
    check_linear_rate(context, Setup{4, 4, 32, CCL4J_CH_PERIODIC, 0.01}, 2, 2, 0.0, 1500);
    check_linear_rate(context, Setup{32, 4, 6, CCL4J_CH_NO_FLUX, 0.01}, 0, 24, -0.1, 40);
    // other parameters: h = 0.5, K = 0.25, m = 2 (dt limit 2 / (2 * 32 * (2 + 8)) = 0.003125 in 2D)
    check_linear_rate(context, Setup{48, 4, 1, CCL4J_CH_PERIODIC, 0.003, 2.0, 0.25, 0.5}, 0, 3, 0.0, 500);
    check_linear_rate(context, Setup{48, 4, 1, CCL4J_CH_PERIODIC, 0.003, 2.0, 0.25, 0.5}, 0, 14, 0.0, 30);
    ccl4j_context_destroy(context);
}

struct Domains {
    ccl4j_cahn_hilliard_domains d{};
    std::vector<int32_t> labels;
};

Domains domains(ccl4j_cahn_hilliard field, const Setup& s, double threshold) {
    Domains r;
    r.labels.resize(static_cast<size_t>(cells(s)));
    ccl4j_timings timings{};
    CHECK(ccl4j_cahn_hilliard_label(field, threshold, nullptr, r.labels.data(), &r.d, &timings) == CCL4J_SUCCESS);
    CHECK(timings.phase_count >= 3 && std::string(timings.phases[0].name) == "threshold" &&
          std::string(timings.phases[timings.phase_count - 1].name) != "threshold");
    return r;
}

// The domains of a coarsened field against ccl4j_label_mesh on its thresholded cells and counts
// taken here.
void test_domains() {
    ccl4j_context context = context_for(CCL4J_BACKEND_CPU_PARALLEL);
    for (const Setup& s : {Setup{96, 80, 1, CCL4J_CH_PERIODIC, 0.02}, Setup{96, 80, 1, CCL4J_CH_NO_FLUX, 0.02},
                           Setup{24, 20, 16, CCL4J_CH_PERIODIC, 0.01}}) {
        ccl4j_cahn_hilliard field = create(context, s);
        CHECK(ccl4j_cahn_hilliard_init(field, -0.3, 0.05, 3) == CCL4J_SUCCESS);
        CHECK(ccl4j_cahn_hilliard_step(field, 3000, nullptr) == CCL4J_SUCCESS);
        const Domains got = domains(field, s, 0.0);
        std::vector<uint8_t> cells(static_cast<size_t>(::cells(s)));
        CHECK(ccl4j_cahn_hilliard_threshold(field, 0.0, cells.data()) == CCL4J_SUCCESS);
        const std::vector<float> c = read(field, s);
        bool thresholded = true;
        for (size_t i = 0; i < c.size(); ++i) thresholded &= cells[i] == (c[i] > 0 ? 1 : 0);
        CHECK(thresholded);
        ccl4j_mesh mesh{s.width, s.height, s.depth, CCL4J_CELL_U8, 0, 0};
        ccl4j_mesh_options options{};
        if (s.boundary == CCL4J_CH_PERIODIC) options.periodic = CCL4J_PERIODIC_X | CCL4J_PERIODIC_Y | CCL4J_PERIODIC_Z;
        std::vector<int32_t> expected(cells.size());
        CHECK(ccl4j_label_mesh(context, &mesh, cells.data(), &options, expected.data(), nullptr) == CCL4J_SUCCESS);
        check_labels(got.labels, expected, name(s) + ": labels");
        int64_t roots = 0, foreground = 0;
        std::vector<int64_t> size(cells.size(), 0);
        for (size_t i = 0; i < expected.size(); ++i) {
            if (expected[i] < 0) continue;
            ++foreground;
            roots += expected[i] == static_cast<int32_t>(i);
            ++size[expected[i]];
        }
        const int64_t largest = *std::max_element(size.begin(), size.end());
        CHECK_MSG(got.d.domains == roots && got.d.foreground == foreground && got.d.largest == largest,
                  name(s) + ": " + std::to_string(got.d.domains) + " domains of " + std::to_string(got.d.foreground) +
                      " cells, largest " + std::to_string(got.d.largest));
        CHECK(roots > 3 && std::abs(got.d.mean_size - double(foreground) / roots) < 1e-9);
        ccl4j_cahn_hilliard_domains only{};
        CHECK(ccl4j_cahn_hilliard_label(field, 0.0, nullptr, nullptr, &only, nullptr) == CCL4J_SUCCESS);
        CHECK(only.domains == roots && only.largest == largest);
        ccl4j_cahn_hilliard_destroy(field);
    }
    ccl4j_context_destroy(context);
}

// Steps of the GPU comparison: 1000, or fewer from the command line for compute-sanitizer runs.
int64_t gpu_steps = 1000;

// Both GPU kernels against the CPU over 1000 steps from the same quench: the fields to float
// tolerance (the arithmetic is the same, so the difference is expected to be zero), the domains
// exactly when the fields are.
void test_cuda_matches_cpu() {
    ccl4j_capabilities caps{};
    ccl4j_get_capabilities(&caps);
    if (!(caps.backends & (1u << CCL4J_BACKEND_CUDA))) {
        std::printf("NOTICE: no CUDA device, the GPU Cahn-Hilliard checks are skipped\n");
        return;
    }
    ccl4j_context cpu = context_for(CCL4J_BACKEND_CPU_PARALLEL);
    ccl4j_context gpu = context_for(CCL4J_BACKEND_CUDA);
    for (Setup s : {Setup{130, 98, 1, CCL4J_CH_PERIODIC, 0.02}, Setup{130, 98, 1, CCL4J_CH_NO_FLUX, 0.02},
                    Setup{37, 29, 21, CCL4J_CH_PERIODIC, 0.01}, Setup{37, 29, 21, CCL4J_CH_NO_FLUX, 0.01},
                    Setup{3, 1, 1, CCL4J_CH_PERIODIC, 0.02}, Setup{1, 5, 3, CCL4J_CH_NO_FLUX, 0.01}}) {
        ccl4j_cahn_hilliard reference = create(cpu, s);
        CHECK(ccl4j_cahn_hilliard_init(reference, -0.2, 0.1, 11) == CCL4J_SUCCESS);
        const std::vector<float> start = read(reference, s);
        CHECK(ccl4j_cahn_hilliard_step(reference, gpu_steps, nullptr) == CCL4J_SUCCESS);
        const std::vector<float> expected = read(reference, s);
        const Domains expected_domains = domains(reference, s, 0.0);
        for (int32_t kernel : {CCL4J_CH_KERNEL_GLOBAL, CCL4J_CH_KERNEL_SHARED}) {
            s.kernel = kernel;
            ccl4j_cahn_hilliard field = create(gpu, s);
            CHECK(ccl4j_cahn_hilliard_init(field, -0.2, 0.1, 11) == CCL4J_SUCCESS);
            CHECK_MSG(read(field, s) == start, name(s) + ": the quench");
            double ms = -1;
            CHECK(ccl4j_cahn_hilliard_step(field, gpu_steps, &ms) == CCL4J_SUCCESS);
            CHECK(ms >= 0);
            const std::vector<float> got = read(field, s);
            double worst = 0;
            for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, double(std::abs(got[i] - expected[i])));
            std::printf("  %-34s %lld steps, largest |GPU - CPU| = %g\n", name(s).c_str(),
                        static_cast<long long>(gpu_steps), worst);
            CHECK_MSG(worst <= 1e-5, name(s) + ": " + std::to_string(worst));
            if (got == expected) {
                const Domains d = domains(field, s, 0.0);
                check_labels(d.labels, expected_domains.labels, name(s) + ": labels");
                CHECK(d.d.domains == expected_domains.d.domains && d.d.largest == expected_domains.d.largest &&
                      d.d.foreground == expected_domains.d.foreground);
                ccl4j_cahn_hilliard_domains only{};
                CHECK(ccl4j_cahn_hilliard_label(field, 0.0, nullptr, nullptr, &only, nullptr) == CCL4J_SUCCESS);
                CHECK(only.domains == expected_domains.d.domains);
                std::vector<uint8_t> a(got.size()), b(got.size());
                CHECK(ccl4j_cahn_hilliard_threshold(field, 0.1, a.data()) == CCL4J_SUCCESS);
                CHECK(ccl4j_cahn_hilliard_threshold(reference, 0.1, b.data()) == CCL4J_SUCCESS);
                CHECK(a == b);
            }
            ccl4j_cahn_hilliard_destroy(field);
        }
        ccl4j_cahn_hilliard_destroy(reference);
    }
    ccl4j_context_destroy(cpu);
    ccl4j_context_destroy(gpu);
}

}  // namespace

// test_cahn_hilliard [GPU steps]: the GPU checks alone with fewer steps (for compute-sanitizer).
int main(int argc, char** argv) {
    if (argc > 1) {
        gpu_steps = std::atoll(argv[1]);
        run("CUDA against CPU", test_cuda_matches_cpu);
        std::printf("%d passed, %d failed\n", passed, failed);
        return failed == 0 ? 0 : 1;
    }
    run("arguments", test_arguments);
    run("quench and threads", test_quench);
    run("mass conservation", test_mass_conservation);
    run("linear stability", test_linear_stability);
    run("domains", test_domains);
    run("CUDA against CPU", test_cuda_matches_cpu);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
