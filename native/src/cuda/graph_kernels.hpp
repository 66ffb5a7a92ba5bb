// Hawick's graph Kernels 1-3 (hawick_kernels.cu) and Komura's label reduction (komura.cu) on the
// GPU, with the same signatures as ecl_cc in cuda_backend.hpp: for a host graph (copied to the
// device, labels copied back) and for a resident graph (labels may be nullptr to leave them on
// the device). Labels are canonical. Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "common/csr.hpp"
#include "common/error.hpp"
#include "common/phase_log.hpp"
#include "common/phases.hpp"
#include "cuda/cuda_backend.hpp"

#ifdef __CUDACC__
#include <cuda/atomic>
#endif

namespace ccl4j::cuda {

// Kernel 1 (section 4.3.1): edge-parallel atomicMin on the colours, to a fixpoint.
// Phases: [h2d,] init, propagate[, d2h]; iterations: propagation launches.
void hawick_edge(DeviceState& state, const Graph& graph, const ccl4j_label_options& options, int32_t* labels,
                 PhaseLog& log);
void hawick_edge(DeviceState& state, const DeviceGraph& graph, const ccl4j_label_options& options, int32_t* labels,
                 PhaseLog& log);

// Kernel 2 (section 4.3.2): vertex-parallel over the adjacency lists, with two frontier arrays.
// Phases: [h2d,] init, propagate[, d2h]; iterations: propagation launches.
void hawick_vertex(DeviceState& state, const Graph& graph, const ccl4j_label_options& options, int32_t* labels,
                   PhaseLog& log);
void hawick_vertex(DeviceState& state, const DeviceGraph& graph, const ccl4j_label_options& options,
                   int32_t* labels, PhaseLog& log);

// Kernel 3 (section 4.3.3): one breadth-first search per component, a launch per level.
// Phases: [h2d,] init, search[, d2h]; iterations: search launches (levels and search starts).
void hawick_bfs(DeviceState& state, const Graph& graph, const ccl4j_label_options& options, int32_t* labels,
                PhaseLog& log);
void hawick_bfs(DeviceState& state, const DeviceGraph& graph, const ccl4j_label_options& options, int32_t* labels,
                PhaseLog& log);

// Komura 2016 (section 3): residual lists, analysis, label reduction (Algorithm 1), analysis.
// Phases: [h2d,] init, analysis1, reduction, analysis2[, d2h]; no iterations.
void komura(DeviceState& state, const Graph& graph, const ccl4j_label_options& options, int32_t* labels,
            PhaseLog& log);
void komura(DeviceState& state, const DeviceGraph& graph, const ccl4j_label_options& options, int32_t* labels,
            PhaseLog& log);

// Runs options.algorithm (resolved, not AUTO) on the GPU: ECL-CC or any of the above. Hawick's CPU
// reference has no GPU version: Error(CCL4J_UNSUPPORTED).
template <class AnyGraph>
void label(DeviceState& state, const AnyGraph& graph, const ccl4j_label_options& options, int32_t* labels,
           PhaseLog& log) {
    switch (options.algorithm) {
        case CCL4J_ALGORITHM_ECL_CC: return ecl_cc(state, graph, options, labels, log);
        case CCL4J_ALGORITHM_HAWICK_EDGE: return hawick_edge(state, graph, options, labels, log);
        case CCL4J_ALGORITHM_HAWICK_VERTEX: return hawick_vertex(state, graph, options, labels, log);
        case CCL4J_ALGORITHM_HAWICK_BFS: return hawick_bfs(state, graph, options, labels, log);
        case CCL4J_ALGORITHM_KOMURA: return komura(state, graph, options, labels, log);
        default:
            fail(CCL4J_UNSUPPORTED, "algorithm " + std::to_string(options.algorithm) + " has no CUDA implementation");
    }
}

// ---- shared by hawick_kernels.cu and komura.cu ------------------------------------------------

namespace detail {

// A graph's arrays on the device, as the kernels read them.
struct DeviceCsr {
    int32_t vertex_count;
    int64_t arc_count;
    int32_t offset_width;  // 4 or 8
    const void* offsets;
    const int32_t* neighbors;
};

// Builds an algorithm's plan for a non-empty graph on the device: its phases enqueue their work
// on state.stream and leave the canonical labels in state.parent after the last one. The
// phases capture the state (which must outlive the plan) and the buffers they use.
using PlanBuilder = std::function<PhasePlan(const DeviceCsr& graph)>;

// One labelling call around the plan that `build` makes, whose phases are named `phases`: checks
// the launch options, copies a host graph in (phase h2d), runs the phases, copies the labels out
// (phase d2h; skipped when labels is nullptr for a resident graph), waits, and logs the phases
// and iterations. An empty graph launches nothing and logs every phase as 0 ms.
void run(DeviceState& state, const Graph& graph, const ccl4j_label_options& options, int32_t* labels, PhaseLog& log,
         std::initializer_list<const char*> phases, const PlanBuilder& build);
void run(DeviceState& state, const DeviceGraph& graph, const ccl4j_label_options& options, int32_t* labels,
         PhaseLog& log, std::initializer_list<const char*> phases, const PlanBuilder& build);

// The plan of options.algorithm (resolved, not AUTO: ECL-CC or any algorithm above) for a
// non-empty graph on `state`, as the labelling calls run it. Hawick's CPU reference has no GPU
// version: Error(CCL4J_UNSUPPORTED).
PhasePlan plan(DeviceState& state, const DeviceCsr& graph, const ccl4j_label_options& options);
PhasePlan ecl_cc_plan(DeviceState& state, const DeviceCsr& graph, const ccl4j_label_options& options);
PhasePlan hawick_edge_plan(DeviceState& state, const DeviceCsr& graph, const ccl4j_label_options& options);
PhasePlan hawick_vertex_plan(DeviceState& state, const DeviceCsr& graph, const ccl4j_label_options& options);
PhasePlan hawick_bfs_plan(DeviceState& state, const DeviceCsr& graph, const ccl4j_label_options& options);
PhasePlan komura_plan(DeviceState& state, const DeviceCsr& graph, const ccl4j_label_options& options);

// The PlanBuilder of one of the plans above for a labelling call (state and options outlive it).
inline PlanBuilder bind(DeviceState& state, const ccl4j_label_options& options,
                        PhasePlan (*plan)(DeviceState&, const DeviceCsr&, const ccl4j_label_options&)) {
    return [&state, &options, plan](const DeviceCsr& graph) { return plan(state, graph, options); };
}

// Threads per block: options.block_size, or 256. Throws Error(CCL4J_INVALID_ARGUMENT) unless it
// is a multiple of 32 up to 1024 (the kernels work on whole warps).
int block_size(const ccl4j_label_options& options);

// Blocks for a grid-stride kernel over `items` items: enough to cover them once, at most as many
// as the device holds at once.
int grid_size(const DeviceState& state, int block, int64_t items);

// Carves `bytes` (each piece aligned to 256 bytes) out of one scratch allocation that is reused
// across calls and algorithms (state.worklist); returns the start of each piece.
std::vector<void*> scratch(DeviceState& state, std::initializer_list<size_t> bytes);

#ifdef __CUDACC__
// Colours and labels are read and written by many threads of one launch: relaxed device-scope
// atomics make those accesses race-free in the CUDA memory model while each stays one load or
// store (updates use atomicMin and atomicCAS).
__device__ __forceinline__ int32_t load_relaxed(int32_t* p) {
    return ::cuda::atomic_ref<int32_t, ::cuda::thread_scope_device>(*p).load(::cuda::std::memory_order_relaxed);
}
__device__ __forceinline__ void store_relaxed(int32_t* p, int32_t value) {
    ::cuda::atomic_ref<int32_t, ::cuda::thread_scope_device>(*p).store(value, ::cuda::std::memory_order_relaxed);
}

constexpr uint32_t kWarp = 32;
constexpr uint32_t kFullMask = 0xffffffffu;  // all lanes of a warp

__device__ __forceinline__ uint32_t thread_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ uint32_t thread_count() { return gridDim.x * blockDim.x; }
#endif

}  // namespace detail
}  // namespace ccl4j::cuda
