// The C ABI's per-phase runs and transfer probes (the benchmark section of ccl4j.h): argument
// checks, the order in which phases may run, and the CPU side of the phase programs.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "api/context.hpp"
#include "api/options.hpp"
#include "api/phase_run.hpp"
#include "ccl4j.h"
#include "ccl4j/bench.h"
#include "common/csr.hpp"
#include "common/phases.hpp"
#include "common/validate.hpp"
#include "cpu/phase_program.hpp"

namespace {

using namespace ccl4j::api;
using ccl4j::fail;

ccl4j::PhaseProgramPtr cpu_program(const ccl4j_context_s& context, const ccl4j_csr* host_graph,
                                   const void* offsets, const int32_t* neighbors, const ccl4j::LabelOptions& o) {
    if (!host_graph) fail(CCL4J_INVALID_ARGUMENT, "host_graph is NULL: per-phase runs on the CPU need a host graph");
    const ccl4j::Graph g = ccl4j::validate_sizes(host_graph, offsets, neighbors);
    if (g.vertex_count == 0) fail(CCL4J_INVALID_ARGUMENT, "per-phase runs need a graph with at least one vertex");
    if (o.check_input) ccl4j::check_input(g, o.cpu_threads);
    return std::make_unique<ccl4j::cpu::PlanProgram>(
        g.vertex_count, [&](int32_t* labels, ccl4j::PhaseLog& log) { return cpu_graph_plan(context, g, o, labels, log); });
}

// The run, checked to be usable with this context.
ccl4j_phase_run_s& checked(ccl4j_context context, ccl4j_phase_run run) {
    if (!run) fail(CCL4J_INVALID_ARGUMENT, "phase run is NULL");
    if (run->context != context) fail(CCL4J_INVALID_ARGUMENT, "the phase run was created on another context");
    return *run;
}

int32_t phase_count(const ccl4j_phase_run_s& run) { return static_cast<int32_t>(run.program->plan().size()); }

void check_phase(const ccl4j_phase_run_s& run, int32_t phase, int32_t end) {
    if (phase < 0 || phase > end) {
        fail(CCL4J_INVALID_ARGUMENT, "phase " + std::to_string(phase) + " is outside 0.." + std::to_string(end) + " (" +
                                         std::to_string(phase_count(run)) + " phases)");
    }
}

}  // namespace

extern "C" {

int32_t ccl4j_noop(int32_t value) { return value; }

ccl4j_status ccl4j_copy_to_device(ccl4j_context context, const void* host, int64_t bytes, double* ms) {
    return with_context(context, [&] {
        if (bytes < 0) fail(CCL4J_INVALID_ARGUMENT, "byte count is negative: " + std::to_string(bytes));
        if (!host && bytes > 0) fail(CCL4J_INVALID_ARGUMENT, "host memory is NULL");
        require_cuda(*context, "copies to the device");
        double copy_ms = 0;
#ifdef CCL4J_WITH_CUDA
        if (bytes > 0) copy_ms = ccl4j::cuda::copy_to_device(*context->cuda, host, static_cast<size_t>(bytes));
#endif
        if (ms) *ms = copy_ms;
    });
}

ccl4j_status ccl4j_phase_run_create(ccl4j_context context, ccl4j_device_graph device_graph,
                                    const ccl4j_csr* host_graph, const void* host_offsets,
                                    const int32_t* host_neighbors, const ccl4j_label_options* options,
                                    ccl4j_phase_run* out) {
    return with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "phase run output is NULL");
        *out = nullptr;
        // AUTO: on CUDA by the resident graph's size (checked below); on the CPU whatever the size.
        const ccl4j::LabelOptions o = label_options(
            options, device_graph && context->backend == CCL4J_BACKEND_CUDA ? automatic_graph_algorithm(*context, *device_graph)
                                                                            : automatic_graph_algorithm(*context, 0, 0));
        auto run = std::make_unique<ccl4j_phase_run_s>();
        run->context = context;
        if (context->backend == CCL4J_BACKEND_CUDA) {
            if (!device_graph) fail(CCL4J_INVALID_ARGUMENT, "device_graph is NULL: per-phase runs on CUDA need a resident graph");
            if (host_graph || host_offsets || host_neighbors) {
                fail(CCL4J_INVALID_ARGUMENT, "host_graph and its arrays must be NULL on a CUDA context (give the resident graph)");
            }
#ifdef CCL4J_WITH_CUDA
            if (ccl4j::cuda::vertex_count(*device_graph->graph) == 0) {
                fail(CCL4J_INVALID_ARGUMENT, "per-phase runs need a graph with at least one vertex");
            }
            run->program = ccl4j::cuda::phase_program(*context->cuda, *device_graph->graph, o);
#endif
        } else {
            if (device_graph) fail(CCL4J_INVALID_ARGUMENT, "device_graph must be NULL on a CPU context (give the host graph)");
            run->program = cpu_program(*context, host_graph, host_offsets, host_neighbors, o);
        }
        *out = run.release();
    });
}

void ccl4j_phase_run_destroy(ccl4j_phase_run run) { delete run; }

ccl4j_status ccl4j_phase_run_count(ccl4j_context context, ccl4j_phase_run run, int32_t* count) {
    return with_context(context, [&] {
        const ccl4j_phase_run_s& r = checked(context, run);
        if (!count) fail(CCL4J_INVALID_ARGUMENT, "count output is NULL");
        *count = phase_count(r);
    });
}

ccl4j_status ccl4j_phase_run_name(ccl4j_context context, ccl4j_phase_run run, int32_t phase, char* name) {
    return with_context(context, [&] {
        const ccl4j_phase_run_s& r = checked(context, run);
        if (!name) fail(CCL4J_INVALID_ARGUMENT, "name output is NULL");
        check_phase(r, phase, phase_count(r) - 1);
        const std::string& n = r.program->plan()[static_cast<size_t>(phase)].name;
        std::memset(name, 0, CCL4J_PHASE_NAME_SIZE);
        std::memcpy(name, n.data(), std::min<size_t>(n.size(), CCL4J_PHASE_NAME_SIZE - 1));
    });
}

ccl4j_status ccl4j_phase_run_reset(ccl4j_context context, ccl4j_phase_run run, int32_t phase) {
    return with_context(context, [&] {
        ccl4j_phase_run_s& r = checked(context, run);
        check_phase(r, phase, phase_count(r));
        r.ready = -1;
        r.program->run_untimed(phase);
        r.ready = phase;
    });
}

ccl4j_status ccl4j_phase_run_phase(ccl4j_context context, ccl4j_phase_run run, int32_t phase, double* ms,
                                   int32_t* iterations) {
    return with_context(context, [&] {
        ccl4j_phase_run_s& r = checked(context, run);
        check_phase(r, phase, phase_count(r) - 1);
        if (phase != 0 && r.ready != phase) {
            fail(CCL4J_INVALID_ARGUMENT, "phase " + std::to_string(phase) + " (" + r.program->plan()[phase].name +
                                             ") needs the state that phases 0.." + std::to_string(phase - 1) +
                                             " leave: call ccl4j_phase_run_reset with " + std::to_string(phase) +
                                             " or run phase " + std::to_string(phase - 1) + " first");
        }
        r.ready = -1;
        int32_t loops = 0;
        const double phase_ms = r.program->run_timed(phase, loops);
        r.ready = phase + 1;
        if (ms) *ms = phase_ms;
        if (iterations) *iterations = loops;
    });
}

ccl4j_status ccl4j_phase_run_labels(ccl4j_context context, ccl4j_phase_run run, int32_t* labels) {
    return with_context(context, [&] {
        ccl4j_phase_run_s& r = checked(context, run);
        if (!labels) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        r.program->read_labels(labels);
    });
}

}  // extern "C"
