// The C ABI of the Cahn-Hilliard field (the last section of ccl4j/physics.h): validation of the
// parameters, the field on the context's backend, and its domains labelled where it lies.
#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "api/context.hpp"
#include "api/options.hpp"
#include "ccl4j.h"
#include "common/cahn_hilliard.hpp"
#include "common/error.hpp"
#include "common/memory.hpp"
#include "common/parallel.hpp"
#include "common/phase_log.hpp"
#include "cpu/cahn_hilliard.hpp"
#include "cpu/label_stats.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/cahn_hilliard.hpp"
#endif

struct ccl4j_cahn_hilliard_s {
    ccl4j_context_s* context = nullptr;
    ccl4j_cahn_hilliard_params params{};  // resolved
    ccl4j::ch::Shape shape{};
    ccl4j::ch::Coefficients coefficients{};
    int64_t steps = 0;
    // CPU: the field, the Runge-Kutta midpoint, the potentials; the thresholded cells and labels
    // of a labelling.
    std::vector<float> c, half, mu;
    std::vector<uint8_t> cells;
    std::vector<int32_t> labels;
#ifdef CCL4J_WITH_CUDA
    ccl4j::cuda::DeviceFieldPtr device;
#endif
    bool on_cuda() const { return context->backend == CCL4J_BACKEND_CUDA; }
    int threads() const { return context->backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : params.cpu_threads; }
};

namespace {

using namespace ccl4j::api;
using ccl4j::fail;

constexpr double kDefaultDt = 0.01;

// "1024x1024x1", for messages.
std::string dims(const ccl4j::ch::Shape& s) {
    return std::to_string(s.width) + "x" + std::to_string(s.height) + "x" + std::to_string(s.depth);
}

// A zero double is its default; anything else must be finite and positive.
double positive_or_default(double value, double fallback, const char* name) {
    if (value == 0.0) return fallback;
    if (!(value > 0.0) || !std::isfinite(value)) {
        fail(CCL4J_INVALID_ARGUMENT, std::string(name) + " must be positive and finite (0 for its default), got " +
                                         std::to_string(value));
    }
    return value;
}

ccl4j_cahn_hilliard_params resolve(const ccl4j_cahn_hilliard_params* given, ccl4j_backend backend) {
    if (!given) fail(CCL4J_INVALID_ARGUMENT, "params is NULL");
    ccl4j_cahn_hilliard_params p = *given;
    const std::string dims =
        std::to_string(p.width) + "x" + std::to_string(p.height) + "x" + std::to_string(p.depth);
    if (p.width < 1 || p.height < 1 || p.depth < 1) {
        fail(CCL4J_INVALID_ARGUMENT, "field extents must be positive, got " + dims);
    }
    if (int64_t(p.width) * p.height * p.depth > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "a field holds at most 2^31 - 1 cells (int32 labels), got " + dims);
    }
    if (p.boundary != CCL4J_CH_PERIODIC && p.boundary != CCL4J_CH_NO_FLUX) {
        fail(CCL4J_INVALID_ARGUMENT, "boundary must be CCL4J_CH_PERIODIC (0) or CCL4J_CH_NO_FLUX (1), got " +
                                         std::to_string(p.boundary));
    }
    if (p.kernel < CCL4J_CH_KERNEL_AUTO || p.kernel > CCL4J_CH_KERNEL_SHARED) {
        fail(CCL4J_INVALID_ARGUMENT, "kernel must be CCL4J_CH_KERNEL_AUTO, GLOBAL or SHARED (0..2), got " +
                                         std::to_string(p.kernel));
    }
    if (p.cpu_threads < 0) fail(CCL4J_INVALID_ARGUMENT, "cpu_threads is negative: " + std::to_string(p.cpu_threads));
    if (backend == CCL4J_BACKEND_CUDA && p.kernel == CCL4J_CH_KERNEL_AUTO) p.kernel = CCL4J_CH_KERNEL_GLOBAL;
    p.dt = positive_or_default(p.dt, kDefaultDt, "dt");
    p.mobility = positive_or_default(p.mobility, 1.0, "mobility");
    p.gradient = positive_or_default(p.gradient, 1.0, "gradient");
    p.spacing = positive_or_default(p.spacing, 1.0, "spacing");
    // Explicit RK2 is stable for a real eigenvalue -s when s dt <= 2; the linearised operator's
    // largest s is m lambda (2 + K lambda) for |c| <= 1, lambda = 4 d / h^2.
    const int d = p.depth > 1 ? 3 : 2;
    const double lambda = 4.0 * d / (p.spacing * p.spacing);
    const double stiffest = p.mobility * lambda * (2.0 + p.gradient * lambda);
    if (p.dt * stiffest > 2.0) {
        fail(CCL4J_INVALID_ARGUMENT, "dt " + std::to_string(p.dt) + " exceeds the stability limit " +
                                         std::to_string(2.0 / stiffest) + " of RK2 for mobility " +
                                         std::to_string(p.mobility) + ", gradient " + std::to_string(p.gradient) +
                                         ", spacing " + std::to_string(p.spacing) + " in " + std::to_string(d) + "D");
    }
    return p;
}

ccl4j::ch::Coefficients coefficients(const ccl4j_cahn_hilliard_params& p) {
    const double h2 = p.spacing * p.spacing;
    return ccl4j::ch::Coefficients{static_cast<float>(p.gradient / h2), static_cast<float>(p.mobility / h2),
                                   p.depth > 1 ? 6.0f : 4.0f, static_cast<float>(p.dt / 2), static_cast<float>(p.dt)};
}

void check_finite(double value, const char* name) {
    if (!std::isfinite(value)) fail(CCL4J_INVALID_ARGUMENT, std::string(name) + " must be finite");
}

// The field's own operations: a NULL handle is reported per thread, the rest on its context.
template <class Body>
ccl4j_status with_field(ccl4j_cahn_hilliard field, Body body) {
    if (!field) return guarded(thread_error(), [] { fail(CCL4J_INVALID_ARGUMENT, "Cahn-Hilliard field is NULL"); });
    return with_context(field->context, [&] { body(*field); });
}

// The mesh options of a labelling: the caller's, or periodic exactly when the field is.
ccl4j::MeshOptions labelling_options(const ccl4j_cahn_hilliard_s& f, const ccl4j_mesh_options* given) {
    ccl4j_mesh_options o{};
    if (given) {
        o = *given;
    } else if (f.shape.periodic) {
        o.periodic = CCL4J_PERIODIC_X | CCL4J_PERIODIC_Y | (f.shape.three_d() ? CCL4J_PERIODIC_Z : 0u);
    }
    return mesh_options(&o, f.context->backend);
}

// Counts the domains of canonical labels on the host, by the labels' book-keeping (cpu::analyze,
// as ccl4j_labels_summary).
ccl4j_cahn_hilliard_domains count_on_host(const ccl4j_cahn_hilliard_s& f, const int32_t* labels) {
    const ccl4j::cpu::ComponentTable t = ccl4j::cpu::analyze(labels, static_cast<int32_t>(f.shape.cells()), f.threads());
    ccl4j_cahn_hilliard_domains d{};
    d.domains = static_cast<int64_t>(t.label.size());
    d.foreground = t.labelled;
    d.largest = t.size.empty() ? 0 : *std::max_element(t.size.begin(), t.size.end());
    return d;
}

}  // namespace

extern "C" {

ccl4j_status ccl4j_cahn_hilliard_create(ccl4j_context context, const ccl4j_cahn_hilliard_params* params,
                                        ccl4j_cahn_hilliard* out) {
    return with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "out is NULL");
        *out = nullptr;
        auto f = std::make_unique<ccl4j_cahn_hilliard_s>();
        f->context = context;
        f->params = resolve(params, context->backend);
        f->shape = ccl4j::ch::Shape{f->params.width, f->params.height, f->params.depth,
                                    f->params.boundary == CCL4J_CH_PERIODIC};
        f->coefficients = coefficients(f->params);
        const size_t n = static_cast<size_t>(f->shape.cells());
        if (f->on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            f->device = ccl4j::cuda::create_field(*context->cuda, f->shape);
#endif
        } else {
            // checked before the three fields are touched: Linux would grant them and then end the
            // process once their pages run out
            ccl4j::check_memory(static_cast<int64_t>(3 * n * sizeof(float)), ccl4j::host_memory_available(),
                                "a " + dims(f->shape) + " Cahn-Hilliard field (three arrays of floats)", "host");
            f->c.assign(n, 0.0f);
            f->half.resize(n);
            f->mu.resize(n);
        }
        *out = f.release();
    });
}

void ccl4j_cahn_hilliard_destroy(ccl4j_cahn_hilliard field) { delete field; }

ccl4j_status ccl4j_cahn_hilliard_get_info(ccl4j_cahn_hilliard field, ccl4j_cahn_hilliard_info* out) {
    return with_field(field, [&](ccl4j_cahn_hilliard_s& f) {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "out is NULL");
        *out = ccl4j_cahn_hilliard_info{};
        out->params = f.params;
        out->steps = f.steps;
        out->time = static_cast<double>(f.steps) * f.params.dt;
    });
}

ccl4j_status ccl4j_cahn_hilliard_init(ccl4j_cahn_hilliard field, double concentration, double noise, uint64_t seed) {
    return with_field(field, [&](ccl4j_cahn_hilliard_s& f) {
        if (!(concentration >= -1.0 && concentration <= 1.0)) {
            fail(CCL4J_INVALID_ARGUMENT, "concentration must lie in [-1, 1], got " + std::to_string(concentration));
        }
        if (!(noise >= 0.0 && noise <= 1.0)) {
            fail(CCL4J_INVALID_ARGUMENT, "noise must lie in [0, 1], got " + std::to_string(noise));
        }
        const float c0 = static_cast<float>(concentration), amplitude = static_cast<float>(noise);
        if (f.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::field_initial(*f.context->cuda, *f.device, c0, amplitude, seed);
#endif
        } else {
            ccl4j::cpu::ch_initial(f.shape, c0, amplitude, seed, f.c.data(), f.threads());
        }
        f.steps = 0;
    });
}

ccl4j_status ccl4j_cahn_hilliard_set_field(ccl4j_cahn_hilliard field, const float* values) {
    return with_field(field, [&](ccl4j_cahn_hilliard_s& f) {
        if (!values) fail(CCL4J_INVALID_ARGUMENT, "values is NULL");
        const int64_t n = f.shape.cells();
        for (int64_t i = 0; i < n; ++i) {
            if (!std::isfinite(values[i])) {
                fail(CCL4J_INVALID_ARGUMENT, "values[" + std::to_string(i) + "] is not finite");
            }
        }
        if (f.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::field_set(*f.context->cuda, *f.device, values);
#endif
        } else {
            std::copy(values, values + n, f.c.begin());
        }
        f.steps = 0;
    });
}

namespace {

// A field that left the floats (started far outside [-1, 1]: the cubic term overflows) is NaN
// for good; the call that got there says so, rather than leave it to be thresholded.
void check_finite(ccl4j_cahn_hilliard_s& f, int64_t steps) {
    int64_t bad = -1;
    if (f.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
        bad = ccl4j::cuda::field_first_non_finite(*f.context->cuda, *f.device);
#endif
    } else {
        const auto it = std::find_if(f.c.begin(), f.c.end(), [](float v) { return !std::isfinite(v); });
        if (it != f.c.end()) bad = it - f.c.begin();
    }
    if (bad < 0) return;
    const int64_t x = bad % f.shape.width, y = bad / f.shape.width % f.shape.height,
                  z = bad / f.shape.width / f.shape.height;
    fail(CCL4J_NOT_CONVERGED, "the field diverged: after step " + std::to_string(f.steps) + " (this call ran " +
                                  std::to_string(steps) + ") cell " + std::to_string(bad) + " (x " +
                                  std::to_string(x) + ", y " + std::to_string(y) + ", z " + std::to_string(z) +
                                  ") is not finite; the explicit scheme stays finite for fields within about "
                                  "[-1, 1]: init or set the field again");
}

}  // namespace

ccl4j_status ccl4j_cahn_hilliard_step(ccl4j_cahn_hilliard field, int64_t steps, double* total_ms) {
    return with_field(field, [&](ccl4j_cahn_hilliard_s& f) {
        if (steps < 0) fail(CCL4J_INVALID_ARGUMENT, "steps is negative: " + std::to_string(steps));
        double ms = 0;
        if (f.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            ms = ccl4j::cuda::field_steps(*f.context->cuda, *f.device, f.coefficients,
                                          f.params.kernel == CCL4J_CH_KERNEL_SHARED, steps);
#endif
        } else {
            ccl4j::Stopwatch clock;
            const int threads = ccl4j::parallel::team_size(f.threads());
            for (int64_t i = 0; i < steps; ++i) {
                ccl4j::cpu::ch_step(f.shape, f.coefficients, f.c.data(), f.half.data(), f.mu.data(), threads);
            }
            ms = clock.lap();
        }
        f.steps += steps;
        if (total_ms) *total_ms = ms;
        check_finite(f, steps);
    });
}

ccl4j_status ccl4j_cahn_hilliard_copy_field(ccl4j_cahn_hilliard field, float* values) {
    return with_field(field, [&](ccl4j_cahn_hilliard_s& f) {
        if (!values) fail(CCL4J_INVALID_ARGUMENT, "values is NULL");
        if (f.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::field_copy(*f.context->cuda, *f.device, values);
#endif
        } else {
            std::copy(f.c.begin(), f.c.end(), values);
        }
    });
}

ccl4j_status ccl4j_cahn_hilliard_threshold(ccl4j_cahn_hilliard field, double threshold, uint8_t* cells) {
    return with_field(field, [&](ccl4j_cahn_hilliard_s& f) {
        check_finite(threshold, "threshold");
        if (!cells) fail(CCL4J_INVALID_ARGUMENT, "cells is NULL");
        if (f.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::field_threshold(*f.context->cuda, *f.device, static_cast<float>(threshold), cells);
#endif
        } else {
            ccl4j::cpu::ch_threshold(f.shape.cells(), f.c.data(), static_cast<float>(threshold), cells, f.threads());
        }
    });
}

ccl4j_status ccl4j_cahn_hilliard_label(ccl4j_cahn_hilliard field, double threshold, const ccl4j_mesh_options* options,
                                       int32_t* labels, ccl4j_cahn_hilliard_domains* out, ccl4j_timings* timings) {
    return with_field(field, [&](ccl4j_cahn_hilliard_s& f) {
        ccl4j::Stopwatch total;
        ccl4j::PhaseLog log(timings);
        check_finite(threshold, "threshold");
        const ccl4j::MeshOptions o = labelling_options(f, options);
        const ccl4j_mesh shape{f.shape.width, f.shape.height, f.shape.depth, CCL4J_CELL_U8, 0, 0};
        const float level = static_cast<float>(threshold);
        ccl4j_cahn_hilliard_domains d{};
        if (f.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            // The cells are made on the device: the shape stands in for their pointer.
            const ccl4j::Mesh m = validate_mesh(&shape, &shape, o);
            const ccl4j::cuda::DomainCounts counts =
                ccl4j::cuda::field_domains(*f.context->cuda, *f.device, level, m, o.algorithm, o.tuning, labels, log);
            d.domains = counts.domains;
            d.foreground = counts.foreground;
            d.largest = counts.largest;
#endif
        } else {
            const size_t n = static_cast<size_t>(f.shape.cells());
            const size_t growth = (f.cells.size() < n ? n : 0) + (!labels && f.labels.size() < n ? n * sizeof(int32_t) : 0);
            ccl4j::check_memory(static_cast<int64_t>(growth), ccl4j::host_memory_available(),
                                "labelling the domains of a " + dims(f.shape) + " field", "host");
            ccl4j::Stopwatch phase;
            f.cells.resize(n);
            ccl4j::cpu::ch_threshold(f.shape.cells(), f.c.data(), level, f.cells.data(), f.threads());
            log.add("threshold", phase.lap());
            const ccl4j::Mesh m = validate_mesh(&shape, f.cells.data(), o);
            int32_t* into = labels;
            if (!into) {
                f.labels.resize(n);
                into = f.labels.data();
            }
            label_mesh_on_cpu(*f.context, m, o, into, log);
            phase.lap();
            d = count_on_host(f, into);
            log.add("domains", phase.lap());
        }
        d.mean_size = d.domains > 0 ? static_cast<double>(d.foreground) / static_cast<double>(d.domains) : 0.0;
        if (out) *out = d;
        log.set_resolved(f.context->backend, o.algorithm);
        log.set_total(total.lap());
    });
}

}  // extern "C"
