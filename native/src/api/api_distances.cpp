// The C ABI of distances within components (ccl4j/distances.h): argument checks, the graph
// checked in full, the components labelled on the host (ECL-CC, O(n + m), nothing next to the
// searches), then the CPU engine (cpu/distances) or the GPU one (cuda/distances); the rows are
// reduced in canonical order (common/distances.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "api/context.hpp"
#include "api/options.hpp"
#include "ccl4j.h"
#include "common/distances.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cpu/distances.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/distances.hpp"
#endif

namespace {

using namespace ccl4j::api;
using ccl4j::DistanceOptions;
using ccl4j::DistanceRows;
using ccl4j::fail;
using ccl4j::Graph;

// A call's graph (sizes validated, then checked in full: the searches follow every arc, and
// distances are only defined on a symmetric graph), its options and its CPU team.
struct Call {
    Graph graph;
    DistanceOptions options;
    int threads;
};

Call prepare(ccl4j_context_s& context, const ccl4j_csr* csr, const void* offsets, const int32_t* neighbors,
             const ccl4j_distance_options* options, ccl4j::PhaseLog& log) {
    Call call{ccl4j::validate_sizes(csr, offsets, neighbors), distance_options(options, context.backend), 1};
    call.threads = context.backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : ccl4j::parallel::team_size(call.options.cpu_threads);
    ccl4j::Stopwatch check;
    ccl4j::check_input(call.graph, call.threads);
    log.add("check", check.lap());
    return call;
}

// Refuses an output that overlaps the graph's arrays.
void check_output(const Graph& g, const void* out, size_t bytes, const char* name) {
    if (!out || bytes == 0) return;
    ccl4j::check_disjoint(out, bytes, name, g.offsets, (static_cast<size_t>(g.vertex_count) + 1) * g.offset_width,
                          "graph offsets");
    ccl4j::check_disjoint(out, bytes, name, g.neighbors, static_cast<size_t>(g.arc_count) * sizeof(int32_t),
                          "graph neighbours");
}

void check_matrix_size(const Graph& g, const char* why) {
    if (g.vertex_count > CCL4J_DISTANCE_MATRIX_MAX_VERTICES) {
        fail(CCL4J_INVALID_ARGUMENT, std::string(why) + " takes at most CCL4J_DISTANCE_MATRIX_MAX_VERTICES = " +
                                         std::to_string(CCL4J_DISTANCE_MATRIX_MAX_VERTICES) + " vertices; this graph has " +
                                         std::to_string(g.vertex_count));
    }
}

// The components of a checked graph (phase "label", timed by `pass`): their rows, and each
// vertex's row in `row` (n entries).
DistanceRows component_rows(const Call& call, std::vector<int32_t>& row, ccl4j::Stopwatch& pass, ccl4j::PhaseLog& log) {
    const int32_t n = call.graph.vertex_count;
    std::vector<int32_t> labels(static_cast<size_t>(n));
    row.resize(static_cast<size_t>(n));
    ccl4j::PhaseLog quiet(nullptr);
    ccl4j::cpu::ecl_cc_parallel(call.graph, labels.data(), call.threads, quiet);
    DistanceRows rows = ccl4j::rows_of(labels.data(), n, row.data());
    log.add("label", pass.lap());
    return rows;
}

// The rows of a checked graph on the context's backend.
DistanceRows distance_rows(ccl4j_context_s& context, const Call& call, ccl4j::PhaseLog& log) {
    const Graph& g = call.graph;
    const int32_t n = g.vertex_count;
    ccl4j::Stopwatch pass;
    std::vector<int32_t> row;
    DistanceRows rows = component_rows(call, row, pass, log);
    if (context.backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
        ccl4j::cuda::graph_distances(*context.cuda, g, row.data(), static_cast<int32_t>(rows.size()),
                                     rows.path_sum.data(), rows.diameter.data(), nullptr, log);
#endif
        return rows;
    }
    std::vector<int64_t> sums(static_cast<size_t>(n));
    std::vector<int32_t> eccentricities(static_cast<size_t>(n));
    if (call.options.algorithm == CCL4J_DISTANCES_FLOYD_WARSHALL) {
        std::vector<int32_t> matrix(static_cast<size_t>(n) * n);
        ccl4j::cpu::floyd_warshall(g, matrix.data(), call.threads);
        ccl4j::cpu::matrix_sources(matrix.data(), n, sums.data(), eccentricities.data(), call.threads);
        log.add("floyd-warshall", pass.lap());
    } else {
        ccl4j::cpu::bfs_distances(g, row.data(), static_cast<int32_t>(rows.size()), sums.data(), eccentricities.data(),
                                  nullptr, call.threads);
        log.add("bfs", pass.lap());
    }
    ccl4j::add_sources(rows, row.data(), n, sums.data(), eccentricities.data());
    log.add("reduce", pass.lap());
    return rows;
}

}  // namespace

extern "C" {

ccl4j_status ccl4j_graph_distances(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                   const int32_t* neighbors, const ccl4j_distance_options* options, int64_t capacity,
                                   int32_t* first, int64_t* vertices, int64_t* path_sums, int32_t* diameters,
                                   double* mean_lengths, int64_t* components, ccl4j_timings* timings) {
    return with_context(context, [&] {
        ccl4j::Stopwatch total;
        ccl4j::PhaseLog log(timings);
        if (capacity < 0) fail(CCL4J_INVALID_ARGUMENT, "capacity is negative: " + std::to_string(capacity));
        const Graph shape = ccl4j::validate_sizes(graph, offsets, neighbors);
        const size_t room = static_cast<size_t>(std::min<int64_t>(capacity, shape.vertex_count));
        check_output(shape, first, room * sizeof(int32_t), "first");
        check_output(shape, vertices, room * sizeof(int64_t), "vertices");
        check_output(shape, path_sums, room * sizeof(int64_t), "path_sums");
        check_output(shape, diameters, room * sizeof(int32_t), "diameters");
        check_output(shape, mean_lengths, room * sizeof(double), "mean_lengths");
        const Call call = prepare(*context, graph, offsets, neighbors, options, log);
        if (call.options.algorithm == CCL4J_DISTANCES_FLOYD_WARSHALL) check_matrix_size(call.graph, "Floyd-Warshall");
        const DistanceRows rows = distance_rows(*context, call, log);
        const size_t written = std::min(room, rows.size());
        for (size_t r = 0; r < written; ++r) {
            if (first) first[r] = rows.first[r];
            if (vertices) vertices[r] = rows.vertices[r];
            if (path_sums) path_sums[r] = rows.path_sum[r];
            if (diameters) diameters[r] = rows.diameter[r];
            if (mean_lengths) mean_lengths[r] = ccl4j::mean_path_length(rows.path_sum[r], rows.vertices[r]);
        }
        if (components) *components = static_cast<int64_t>(rows.size());
        log.set_resolved(context->backend, call.options.algorithm);
        log.set_total(total.lap());
    });
}

ccl4j_status ccl4j_graph_distance_matrix(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                         const int32_t* neighbors, const ccl4j_distance_options* options,
                                         int64_t capacity, int32_t* matrix, ccl4j_timings* timings) {
    return with_context(context, [&] {
        ccl4j::Stopwatch total;
        ccl4j::PhaseLog log(timings);
        const Graph shape = ccl4j::validate_sizes(graph, offsets, neighbors);
        check_matrix_size(shape, "a distance matrix");
        const int64_t n = shape.vertex_count;
        if (capacity < n * n) {
            fail(CCL4J_INVALID_ARGUMENT, "the matrix holds " + std::to_string(capacity) + " entries; " +
                                             std::to_string(n) + " vertices need " + std::to_string(n * n));
        }
        if (!matrix && n > 0) fail(CCL4J_INVALID_ARGUMENT, "matrix is NULL");
        check_output(shape, matrix, static_cast<size_t>(n * n) * sizeof(int32_t), "matrix");
        const Call call = prepare(*context, graph, offsets, neighbors, options, log);
        if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::graph_distances(*context->cuda, call.graph, nullptr, 0, nullptr, nullptr, matrix, log);
#endif
        } else {
            ccl4j::Stopwatch pass;
            if (call.options.algorithm == CCL4J_DISTANCES_FLOYD_WARSHALL) {
                ccl4j::cpu::floyd_warshall(call.graph, matrix, call.threads);
                log.add("floyd-warshall", pass.lap());
            } else {
                std::vector<int32_t> row;
                const DistanceRows rows = component_rows(call, row, pass, log);
                std::vector<int64_t> sums(static_cast<size_t>(n));
                std::vector<int32_t> eccentricities(static_cast<size_t>(n));
                ccl4j::cpu::bfs_distances(call.graph, row.data(), static_cast<int32_t>(rows.size()), sums.data(),
                                          eccentricities.data(), matrix, call.threads);
                log.add("bfs", pass.lap());
            }
        }
        log.set_resolved(context->backend, call.options.algorithm);
        log.set_total(total.lap());
    });
}

}  // extern "C"
