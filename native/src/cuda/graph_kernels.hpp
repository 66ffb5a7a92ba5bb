// The GPU graph algorithms behind one entry point, label(): ECL-CC (cuda_backend.hpp), Hawick's
// graph Kernels 1-3 (hawick_kernels.cu) and Komura's label reduction (komura.cu), each a plan of
// phases run by one labelling call (hawick_kernels.cu). Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "algorithms/registry.hpp"
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

// ---- the plans and what they share ------------------------------------------------------------

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

// One labelling call around the plan that `build` makes, whose phases are named `phases`: copies
// a host graph in (phase h2d), runs the phases, copies the labels out
// (phase d2h; skipped when labels is nullptr for a resident graph), waits, and logs the phases
// and iterations. An empty graph launches nothing and logs every phase as 0 ms.
void run(DeviceState& state, const Graph& graph, int32_t* labels, PhaseLog& log,
         const std::vector<std::string>& phases, const PlanBuilder& build);
void run(DeviceState& state, const DeviceGraph& graph, int32_t* labels, PhaseLog& log,
         const std::vector<std::string>& phases, const PlanBuilder& build);

// The plan of options.algorithm (resolved, not AUTO: any algorithm label() below runs) for a
// non-empty graph on `state`, as the labelling calls run it: the registry's CUDA plan, read here
// and nowhere else. Hawick's CPU reference has no GPU version: Error(CCL4J_UNSUPPORTED).
PhasePlan plan(DeviceState& state, const DeviceCsr& graph, const LabelOptions& options);
PhasePlan ecl_cc_plan(DeviceState& state, const DeviceCsr& graph, const LabelOptions& options);
PhasePlan hawick_edge_plan(DeviceState& state, const DeviceCsr& graph, const LabelOptions& options);
PhasePlan hawick_vertex_plan(DeviceState& state, const DeviceCsr& graph, const LabelOptions& options);
PhasePlan hawick_bfs_plan(DeviceState& state, const DeviceCsr& graph, const LabelOptions& options);
PhasePlan komura_plan(DeviceState& state, const DeviceCsr& graph, const LabelOptions& options);

}  // namespace detail

// Runs options.algorithm (resolved, not AUTO) on the GPU as its registry entry says
// (algorithms/registry.cpp), for a host graph (copied to the device, labels copied back) or a
// resident graph (labels may be nullptr to leave them on the device):
//  ECL-CC (cuda_backend.hpp);
//  Hawick's Kernel 1 (section 4.3.1): edge-parallel atomicMin on the colours, to a fixpoint;
//    phases init, propagate; iterations: propagation launches;
//  Kernel 2 (section 4.3.2): vertex-parallel over the adjacency lists, with two frontier arrays;
//    phases init, propagate; iterations: propagation launches;
//  Kernel 3 (section 4.3.3): one breadth-first search per component, a launch per level;
//    phases init, search; iterations: search launches (levels and search starts);
//  Komura 2016 (section 3): residual lists, analysis, label reduction (Algorithm 1), analysis;
//    phases init, analysis1, reduction, analysis2; no iterations.
// Each also has the phases h2d (host graphs) and d2h. Labels are canonical. Hawick's CPU
// reference has no GPU version: Error(CCL4J_UNSUPPORTED).
template <class AnyGraph>
void label(DeviceState& state, const AnyGraph& graph, const LabelOptions& options, int32_t* labels,
           PhaseLog& log) {
    const algorithms::Algorithm& algorithm = algorithms::cuda_graph_algorithm(options.algorithm);
    // An algorithm with a host driver of its own (ECL-CC) runs it; the others run their plan
    // (detail::plan) through detail::run.
    if constexpr (std::is_same_v<AnyGraph, Graph>) {
        if (algorithm.graph_cuda_label_host) return algorithm.graph_cuda_label_host(state, graph, options, labels, log);
    } else {
        if (algorithm.graph_cuda_label_resident) {
            return algorithm.graph_cuda_label_resident(state, graph, options, labels, log);
        }
    }
    detail::run(state, graph, labels, log, algorithm.cuda_phases,
                [&](const detail::DeviceCsr& csr) { return detail::plan(state, csr, options); });
}

namespace detail {

// Threads per block: options.block_size (validated by the ABI layer), or 256.
int block_size(const LabelOptions& options);

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
