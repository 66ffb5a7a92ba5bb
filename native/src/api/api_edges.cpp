// The edge-list section of ccl4j.h (ccl4j/graph.h): labelling an edge list, and building its CSR.
#include <memory>
#include <string>

#include "api/context.hpp"
#include "common/edges.hpp"
#include "common/validate.hpp"
#include "cpu/edge_algorithms.hpp"

struct ccl4j_csr_build_s {
    std::unique_ptr<ccl4j::cpu::CsrBuild> build;
};

namespace {

using namespace ccl4j::api;
using ccl4j::fail;

// The threads a CPU pass over an edge list gets on a context: one on CPU_SERIAL, else all.
int host_threads(const ccl4j_context_s& context, int32_t requested) {
    return context.backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : requested;
}

}  // namespace

extern "C" {

ccl4j_status ccl4j_label_edges(ccl4j_context context, const ccl4j_edges* edges, const int32_t* sources,
                               const int32_t* targets, const ccl4j_label_options* options, int32_t* labels,
                               ccl4j_timings* timings) {
    return with_context(context, [&] {
        ccl4j::Stopwatch total;
        ccl4j::PhaseLog log(timings);
        const ccl4j::EdgeList e = ccl4j::validate_edges(edges, sources, targets);
        if (options && options->algorithm != CCL4J_ALGORITHM_AUTO) {
            fail(CCL4J_INVALID_ARGUMENT, "algorithm " + std::to_string(options->algorithm) +
                                             ": edge lists are labelled by their one union-find; pass AUTO (0)");
        }
        const ccl4j::LabelOptions o = label_options(options);
        if (!labels && e.vertex_count > 0) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        const size_t label_bytes = static_cast<size_t>(e.vertex_count) * sizeof(int32_t);
        ccl4j::check_disjoint(labels, label_bytes, "labels", e.sources, e.span_bytes(), "edge sources");
        ccl4j::check_disjoint(labels, label_bytes, "labels", e.targets, e.span_bytes(), "edge targets");
        if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::label_edges(*context->cuda, e, o, labels, log);
#endif
        } else {
            for (const ccl4j::Phase& phase :
                 ccl4j::cpu::edge_union_find_plan(e, labels, host_threads(*context, o.cpu_threads))) {
                ccl4j::Stopwatch watch;
                phase.run();
                log.add(phase.name.c_str(), watch.lap());
            }
        }
        log.set_resolved(context->backend, CCL4J_ALGORITHM_AUTO);
        log.set_total(total.lap());
    });
}

ccl4j_status ccl4j_csr_build_create(ccl4j_context context, const ccl4j_edges* edges, const int32_t* sources,
                                    const int32_t* targets, ccl4j_csr_build* out, ccl4j_csr* shape) {
    return with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "build output is NULL");
        *out = nullptr;
        if (!shape) fail(CCL4J_INVALID_ARGUMENT, "shape output is NULL");
        const ccl4j::EdgeList e = ccl4j::validate_edges(edges, sources, targets);
        auto handle = std::make_unique<ccl4j_csr_build_s>();
        handle->build = std::make_unique<ccl4j::cpu::CsrBuild>(e, host_threads(*context, 0));
        *shape = ccl4j_csr{handle->build->vertex_count(), handle->build->arc_count(), handle->build->offset_width(), 0};
        *out = handle.release();
    });
}

ccl4j_status ccl4j_csr_build_write(ccl4j_context context, ccl4j_csr_build build, void* offsets, int32_t* neighbors) {
    return with_context(context, [&] {
        if (!build) fail(CCL4J_INVALID_ARGUMENT, "build is NULL");
        if (!offsets) fail(CCL4J_INVALID_ARGUMENT, "offsets is NULL");
        const ccl4j::cpu::CsrBuild& b = *build->build;
        if (!neighbors && b.arc_count() > 0) fail(CCL4J_INVALID_ARGUMENT, "neighbors is NULL");
        ccl4j::check_disjoint(offsets, (static_cast<size_t>(b.vertex_count()) + 1) * b.offset_width(), "offsets",
                              neighbors, static_cast<size_t>(b.arc_count()) * sizeof(int32_t), "neighbours");
        b.write(offsets, neighbors);
    });
}

void ccl4j_csr_build_destroy(ccl4j_csr_build build) { delete build; }

}  // extern "C"
