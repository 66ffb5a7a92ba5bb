// What the files of the C ABI share: the handles behind the opaque pointers of ccl4j.h and the
// translation of C++ failures into status codes and messages. Each api_*.cpp implements one
// section of ccl4j.h; no exception leaves any of them.
#pragma once

#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "common/csr.hpp"
#include "api/options.hpp"
#include "common/error.hpp"
#include "common/phase_log.hpp"
#include "common/phases.hpp"
#include "common/mesh.hpp"
#include "common/statistics.hpp"
#include "core/options.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

struct ccl4j_context_s {
    ccl4j_backend backend = CCL4J_BACKEND_CPU_PARALLEL;
    std::string error;
#ifdef CCL4J_WITH_CUDA
    ccl4j::cuda::DeviceStatePtr cuda;
    std::vector<int32_t> devices;  // the device of each state, the first one first
    // A context of several devices (ccl4j_context_create_devices): the states after the first.
    std::vector<ccl4j::cuda::DeviceStatePtr> more_cuda;
    // Every state, the first one first.
    std::vector<ccl4j::cuda::DeviceState*> cuda_states() const {
        std::vector<ccl4j::cuda::DeviceState*> states{cuda.get()};
        for (const auto& state : more_cuda) states.push_back(state.get());
        return states;
    }
#endif
    // The last statistics call's table (ccl4j/statistics.h); declared last so that it goes first,
    // before the device state whose memory a GPU table holds.
    ccl4j::StatisticsTablePtr statistics;
};

struct ccl4j_device_graph_s {
#ifdef CCL4J_WITH_CUDA
    ccl4j::cuda::DeviceGraphPtr graph;
#endif
};

namespace ccl4j::api {

// The calling thread's last failure of a function that has no context.
std::string& thread_error();

// CUDA devices usable now; 0 when the library was built without CUDA.
int cuda_device_count();

// The CPU plan of options.algorithm for a context on CPU_PARALLEL or CPU_SERIAL, as labelling and
// per-phase runs take it from the registry: the one place the CPU backend reads the table for
// graphs.
PhasePlan cpu_graph_plan(const ccl4j_context_s& context, const Graph& graph, const LabelOptions& options,
                         int32_t* labels, PhaseLog& log);

// Labels a validated host graph on the context's backend (the input checks first when options
// ask for them), filling timings (may be NULL) with the phases, the resolved backend and algorithm
// and the total time.
void label_graph(const ccl4j_context_s& context, const Graph& graph, const LabelOptions& options, int32_t* labels,
                 ccl4j_timings* timings);

// The internal view of a caller's mesh under options, checked against each other (extents, cell
// type, strides, connectivity; a single layer's 3D stencils become the planar ones).
// label_bytes is the width of the labels it is labelled into: 4 takes at most INT32_MAX cells.
Mesh validate_mesh(const ccl4j_mesh* mesh, const void* cells, const MeshOptions& options, int label_bytes = 4);

// The threads of a CPU context's work (0 = all available).
int cpu_threads(const ccl4j_context_s& context, int32_t requested);

// Labels a validated host mesh on a CPU context (packing a strided one first) into labels.
void label_mesh_on_cpu(const ccl4j_context_s& context, const Mesh& mesh, const MeshOptions& options, int32_t* labels,
                       PhaseLog& log);
void label_mesh_on_cpu(const ccl4j_context_s& context, const Mesh& mesh, const MeshOptions& options, int64_t* labels,
                       PhaseLog& log);

// What AUTO labels a graph of this size with on the context's backend
// (algorithms::default_graph_algorithm).
ccl4j_algorithm automatic_graph_algorithm(const ccl4j_context_s& context, int64_t vertex_count, int64_t arc_count);
// For a host graph: STREAMED on CUDA when its copy does not fit options->device_memory or the
// device's free memory.
ccl4j_algorithm automatic_graph_algorithm(const ccl4j_context_s& context, const Graph& graph,
                                          const ccl4j_label_options* options);
ccl4j_algorithm automatic_graph_algorithm(const ccl4j_context_s& context, const ccl4j_device_graph_s& graph);

// Throws CCL4J_UNSUPPORTED unless the context runs on CUDA; `what` names the operation.
void require_cuda(const ccl4j_context_s& context, const char* what);

// Runs body and turns any failure into a status code, recording its message in `message`.
template <class Body>
ccl4j_status guarded(std::string& message, Body body) {
    try {
        body();
        message.clear();
        return CCL4J_SUCCESS;
    } catch (const Error& e) {
        message = e.what();
        return e.status();
    } catch (const std::bad_alloc&) {
        message = "out of host memory";
        return CCL4J_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        message = std::string("internal error: ") + e.what();
        return CCL4J_INTERNAL_ERROR;
    } catch (...) {
        message = "internal error: unknown exception";
        return CCL4J_INTERNAL_ERROR;
    }
}

// guarded() for functions that take a context: a NULL context is reported per thread.
template <class Body>
ccl4j_status with_context(ccl4j_context_s* context, Body body) {
    if (!context) return guarded(thread_error(), [] { fail(CCL4J_INVALID_ARGUMENT, "context is NULL"); });
    return guarded(context->error, body);
}

}  // namespace ccl4j::api
