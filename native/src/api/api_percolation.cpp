// The C ABI of lattices, bond percolation and Swendsen-Wang (the last section of ccl4j.h).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "api/context.hpp"
#include "api/options.hpp"
#include "ccl4j.h"
#include "common/error.hpp"
#include "common/lattice.hpp"
#include "common/phase_log.hpp"
#include "common/philox.hpp"
#include "common/validate.hpp"
#include "cpu/percolation.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/percolation.hpp"
#endif

struct ccl4j_lattice_s {
    std::shared_ptr<const ccl4j::Lattice> lattice;
};

// What a percolation run and a Swendsen-Wang chain share: the lattice, the labelling and its
// buffers, set up once.
struct ClusterRun {
    ccl4j_context_s* context = nullptr;
    std::shared_ptr<const ccl4j::Lattice> lattice;
    ccl4j::LabelOptions options;
    std::vector<int32_t> masked;  // CPU: the masked arcs
    std::vector<int32_t> labels;  // CPU: the labels of the last realisation or sweep
#ifdef CCL4J_WITH_CUDA
    ccl4j::cuda::DeviceLatticePtr device;
#endif
    bool on_cuda() const { return context->backend == CCL4J_BACKEND_CUDA; }
    int threads() const { return context->backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : options.cpu_threads; }
};

struct ccl4j_percolation_s {
    ClusterRun run;
    std::vector<int32_t> touch;  // CPU: spanning marks
    int32_t tag = 0;
};

struct ccl4j_ising_s {
    ClusterRun run;
    uint64_t seed = 0;
    uint64_t sweeps_done = 0;
    std::vector<uint8_t> spins;  // CPU
};

namespace {

using namespace ccl4j::api;
using ccl4j::fail;

// Labels the masked arcs on the CPU as ccl4j_label_graph does (its checks and dispatch); returns
// the labelling time.
double label_on_host(ClusterRun& run) {
    const ccl4j::Lattice& l = *run.lattice;
    const ccl4j_csr csr{l.vertex_count, static_cast<int64_t>(l.neighbors.size()), 4, 0};
    ccl4j_timings timings;
    label_graph(*run.context, ccl4j::validate_sizes(&csr, l.offsets.data(), run.masked.data()), run.options,
                run.labels.data(), &timings);
    return timings.total_ms;
}

#ifdef CCL4J_WITH_CUDA
double phase_sum(const ccl4j_timings& t) {
    double ms = 0;
    for (int i = 0; i < t.phase_count; ++i) ms += t.phases[i].ms;
    return ms;
}
#endif

void set_up(ClusterRun& run, ccl4j_context context, ccl4j_lattice lattice, const ccl4j_label_options* options) {
    if (!lattice) fail(CCL4J_INVALID_ARGUMENT, "lattice is NULL");
    run.context = context;
    run.lattice = lattice->lattice;
    run.options = label_options(options, CCL4J_ALGORITHM_KOMURA);
    run.options.check_input = false;  // the lattice builder's graphs are well formed
    if (run.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
        run.device = ccl4j::cuda::upload_lattice(*context->cuda, *run.lattice);
#endif
    } else {
        run.masked.resize(run.lattice->neighbors.size());
        run.labels.resize(static_cast<size_t>(run.lattice->vertex_count));
    }
}

void check_probability(double p, const char* what) {
    if (!(p >= 0.0 && p <= 1.0)) fail(CCL4J_INVALID_ARGUMENT, std::string(what) + " must lie in [0, 1], got " + std::to_string(p));
}

}  // namespace

extern "C" {

ccl4j_status ccl4j_lattice_create(ccl4j_lattice_kind kind, int32_t length, int32_t periodic, uint64_t seed,
                                  ccl4j_lattice* out) {
    return guarded(thread_error(), [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "out is NULL");
        *out = nullptr;
        if (periodic != 0 && periodic != 1) fail(CCL4J_INVALID_ARGUMENT, "periodic must be 0 or 1");
        auto handle = std::make_unique<ccl4j_lattice_s>();
        handle->lattice = std::make_shared<const ccl4j::Lattice>(ccl4j::build_lattice(kind, length, periodic == 1, seed));
        *out = handle.release();
    });
}

void ccl4j_lattice_destroy(ccl4j_lattice lattice) { delete lattice; }

ccl4j_status ccl4j_lattice_get_info(ccl4j_lattice lattice, ccl4j_lattice_info* out) {
    return guarded(thread_error(), [&] {
        if (!lattice || !out) fail(CCL4J_INVALID_ARGUMENT, "lattice or out is NULL");
        const ccl4j::Lattice& l = *lattice->lattice;
        *out = ccl4j_lattice_info{};
        out->kind = l.kind;
        out->length = l.length;
        out->periodic = l.periodic ? 1 : 0;
        out->vertex_count = l.vertex_count;
        out->arc_count = static_cast<int64_t>(l.neighbors.size());
        out->bond_count = l.bond_count;
        out->side0_count = static_cast<int32_t>(l.sides[0].size());
        out->side1_count = static_cast<int32_t>(l.sides[1].size());
    });
}

ccl4j_status ccl4j_lattice_copy(ccl4j_lattice lattice, int32_t* offsets, int32_t* neighbors, int32_t* arc_bonds,
                                int32_t* side0, int32_t* side1) {
    return guarded(thread_error(), [&] {
        if (!lattice) fail(CCL4J_INVALID_ARGUMENT, "lattice is NULL");
        const ccl4j::Lattice& l = *lattice->lattice;
        auto copy = [](const std::vector<int32_t>& from, int32_t* to) {
            if (to) std::copy(from.begin(), from.end(), to);
        };
        copy(l.offsets, offsets);
        copy(l.neighbors, neighbors);
        copy(l.arc_bonds, arc_bonds);
        copy(l.sides[0], side0);
        copy(l.sides[1], side1);
    });
}

ccl4j_status ccl4j_draw_bonds(ccl4j_context context, int64_t bond_count, uint64_t seed, uint64_t realisation, double p,
                              uint8_t* open) {
    return with_context(context, [&] {
        if (bond_count < 0 || bond_count > UINT32_MAX) fail(CCL4J_INVALID_ARGUMENT, "bond_count must lie in [0, 2^32)");
        if (!open && bond_count > 0) fail(CCL4J_INVALID_ARGUMENT, "open is NULL");
        check_probability(p, "p");
        const uint64_t threshold = ccl4j::open_threshold(p);
        if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::draw_bonds(*context->cuda, bond_count, seed, realisation, threshold, open);
#endif
        } else {
            ccl4j::cpu::draw_bonds(bond_count, seed, realisation, threshold, open,
                                   context->backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : 0);
        }
    });
}

ccl4j_status ccl4j_percolation_create(ccl4j_context context, ccl4j_lattice lattice, const ccl4j_label_options* options,
                                      ccl4j_percolation* out) {
    return with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "out is NULL");
        *out = nullptr;
        auto handle = std::make_unique<ccl4j_percolation_s>();
        set_up(handle->run, context, lattice, options);
        if (!handle->run.on_cuda()) handle->touch.assign(static_cast<size_t>(handle->run.lattice->vertex_count), 0);
        *out = handle.release();
    });
}

void ccl4j_percolation_destroy(ccl4j_percolation percolation) { delete percolation; }

ccl4j_status ccl4j_percolation_run(ccl4j_percolation percolation, double p, uint64_t seed, uint64_t first_realisation,
                                   int32_t count, uint8_t* spanning, int32_t* labels, ccl4j_percolation_result* out) {
    if (!percolation) return guarded(thread_error(), [] { fail(CCL4J_INVALID_ARGUMENT, "percolation is NULL"); });
    ClusterRun& run = percolation->run;
    return with_context(run.context, [&] {
        if (count < 0) fail(CCL4J_INVALID_ARGUMENT, "count is negative: " + std::to_string(count));
        check_probability(p, "p");
        const uint64_t threshold = ccl4j::open_threshold(p);
        const ccl4j::Lattice& l = *run.lattice;
        const bool sided = !l.sides[0].empty() && !l.sides[1].empty();
        ccl4j::Stopwatch clock;
        double label_ms = 0;
        int64_t spans = 0;
        if (run.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::DeviceState& state = *run.context->cuda;
            ccl4j::cuda::begin_results(state, *run.device, count);
            for (int32_t i = 0; i < count; ++i) {
                ccl4j_timings timings;
                ccl4j::PhaseLog log(&timings);
                ccl4j::cuda::percolation_realisation(state, *run.device, run.options, seed, first_realisation + i,
                                                     threshold, i, log);
                label_ms += phase_sum(timings);
            }
            spans = ccl4j::cuda::spanning_results(state, *run.device, count, spanning, labels);
#endif
        } else {
            for (int32_t i = 0; i < count; ++i) {
                ccl4j::cpu::mask_percolation(l, seed, first_realisation + i, threshold, run.masked.data(), run.threads());
                label_ms += label_on_host(run);
                const bool spanned = sided && ccl4j::cpu::spans(l, run.labels.data(), percolation->touch, ++percolation->tag);
                if (spanning) spanning[i] = spanned;
                spans += spanned;
            }
            if (labels && count > 0) std::copy(run.labels.begin(), run.labels.end(), labels);
        }
        if (out) *out = ccl4j_percolation_result{count, spans, clock.lap(), label_ms};
    });
}

ccl4j_status ccl4j_ising_create(ccl4j_context context, ccl4j_lattice lattice, const ccl4j_label_options* options,
                                uint64_t seed, ccl4j_ising* out) {
    return with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "out is NULL");
        *out = nullptr;
        auto handle = std::make_unique<ccl4j_ising_s>();
        set_up(handle->run, context, lattice, options);
        handle->seed = seed;
        if (handle->run.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::reset_spins(*context->cuda, *handle->run.device);
#endif
        } else {
            handle->spins.assign(static_cast<size_t>(handle->run.lattice->vertex_count), 1);
        }
        *out = handle.release();
    });
}

void ccl4j_ising_destroy(ccl4j_ising ising) { delete ising; }

ccl4j_status ccl4j_ising_sweep(ccl4j_ising ising, double temperature, int32_t sweeps, double* magnetisation,
                               double* energy, double* total_ms) {
    if (!ising) return guarded(thread_error(), [] { fail(CCL4J_INVALID_ARGUMENT, "ising is NULL"); });
    ClusterRun& run = ising->run;
    return with_context(run.context, [&] {
        if (!(temperature > 0.0) || !std::isfinite(temperature)) {
            fail(CCL4J_INVALID_ARGUMENT, "temperature must be positive, got " + std::to_string(temperature));
        }
        if (sweeps < 0) fail(CCL4J_INVALID_ARGUMENT, "sweeps is negative: " + std::to_string(sweeps));
        const uint64_t threshold = ccl4j::open_threshold(1.0 - std::exp(-2.0 / temperature));
        const ccl4j::Lattice& l = *run.lattice;
        std::vector<int64_t> spin_sums(static_cast<size_t>(sweeps)), bond_sums(static_cast<size_t>(sweeps));
        ccl4j::Stopwatch clock;
        if (run.on_cuda()) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::DeviceState& state = *run.context->cuda;
            ccl4j::cuda::begin_results(state, *run.device, sweeps);
            for (int32_t i = 0; i < sweeps; ++i) {
                ccl4j::PhaseLog log(nullptr);
                ccl4j::cuda::ising_sweep(state, *run.device, run.options, ising->seed, ising->sweeps_done + i, threshold,
                                         i, log);
            }
            ccl4j::cuda::sweep_results(state, *run.device, sweeps, spin_sums.data(), bond_sums.data());
#endif
        } else {
            for (int32_t i = 0; i < sweeps; ++i) {
                const uint64_t sweep = ising->sweeps_done + i;
                ccl4j::cpu::mask_equal_spins(l, ising->spins.data(), ising->seed, sweep, threshold, run.masked.data(),
                                             run.threads());
                label_on_host(run);
                ccl4j::cpu::flip_clusters(l.vertex_count, run.labels.data(), ising->seed, sweep, ising->spins.data(),
                                          run.threads());
                ccl4j::cpu::measure(l, ising->spins.data(), spin_sums[i], bond_sums[i], run.threads());
            }
        }
        const double elapsed = clock.lap();
        ising->sweeps_done += static_cast<uint64_t>(sweeps);
        const double n = l.vertex_count;
        for (int32_t i = 0; i < sweeps; ++i) {
            if (magnetisation) magnetisation[i] = static_cast<double>(spin_sums[i]) / n;
            if (energy) energy[i] = -static_cast<double>(bond_sums[i]) / n;
        }
        if (total_ms) *total_ms = elapsed;
    });
}

}  // extern "C"
