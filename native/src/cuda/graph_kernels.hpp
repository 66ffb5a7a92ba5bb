// The GPU graph algorithms behind one entry point, label(): ECL-CC (ecl_cc.cu), Hawick's graph
// Kernels 1-3 (hawick_kernels.cu), Komura's label reduction (komura.cu) and Afforest
// (afforest.cu), each a plan of phases that the driver (driver.hpp) runs as one labelling call
// (graph_label.cu). Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cstdint>
#include <functional>
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

// ---- the plans and what they share ------------------------------------------------------------

class DeviceBuffer;  // cuda/driver.hpp

namespace detail {

// A graph's arrays on the device, as the kernels read them.
struct DeviceCsr {
    int32_t vertex_count;
    int64_t arc_count;
    int32_t offset_width;  // 4 or 8
    const void* offsets;
    const int32_t* neighbors;
};

// The GPU plans of the registry (algorithms/registry.cpp) for a non-empty graph on the device:
// their phases enqueue their work on state.stream and leave the canonical labels in `labels`
// (device, vertex_count entries) after the last one. The phases capture the state (which must
// outlive the plan) and the buffers of the algorithm's own workspace on it.
//  ECL-CC (ecl_cc.cu): init, compute1, compute2, compute3, finalize;
//  Hawick's Kernel 1 (section 4.3.1, hawick_kernels.cu): edge-parallel atomicMin on the colours,
//    to a fixpoint; phases init, propagate; iterations: propagation launches;
//  Kernel 2 (section 4.3.2): vertex-parallel over the adjacency lists, with two frontier arrays;
//    phases init, propagate; iterations: propagation launches;
//  Kernel 3 (section 4.3.3): one breadth-first search per component, a launch per level;
//    phases init, search; iterations: search launches (levels and search starts);
//  Komura 2016 (section 3, komura.cu): residual lists, analysis, label reduction (Algorithm 1),
//    analysis; phases init, analysis1, reduction, analysis2; no iterations;
//  Afforest (afforest.cu): ECL-CC's union-find with neighbour sampling, the giant component's
//    edges skipped; phases init, sample, compress, link, finalize.
PhasePlan ecl_cc_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels, const LabelOptions& options);
PhasePlan hawick_edge_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels, const LabelOptions& options);
PhasePlan hawick_vertex_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels, const LabelOptions& options);
PhasePlan hawick_bfs_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels, const LabelOptions& options);
PhasePlan komura_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels, const LabelOptions& options);
PhasePlan afforest_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels, const LabelOptions& options);

}  // namespace detail

// The graph driver (driver.cu): `build` makes the plan for a non-empty graph on the device, whose
// phases leave the labels in `labels` (device); run_graph copies a host graph in (phase h2d), runs
// the plan and copies the labels out (phase d2h; not for a resident graph whose labels is
// nullptr). With check_input, a host graph is checked on the device after its copy (phase check,
// input_check.hpp). An empty graph launches nothing and logs h2d, `phases` and d2h as 0 ms.
using GraphPlanBuilder = std::function<PhasePlan(DeviceState& state, const detail::DeviceCsr& graph, int32_t* labels)>;
void run_graph(DeviceState& state, const Graph& graph, bool check_input, const std::vector<std::string>& phases,
               const GraphPlanBuilder& build, int32_t* labels, PhaseLog& log);
void run_graph(DeviceState& state, const DeviceGraph& graph, const std::vector<std::string>& phases,
               const GraphPlanBuilder& build, int32_t* labels, PhaseLog& log);
detail::DeviceCsr csr_of(const DeviceGraph& graph);
// Error(CCL4J_INVALID_ARGUMENT) when the graph lives on another device than the state.
void check_same_device(const DeviceState& state, const DeviceGraph& graph);

// The labels the last graph labelling on the state left on the device (vertex_count entries),
// until the next labelling on it; keep_resident_labels (label_stats.hpp) takes them over.
DeviceBuffer& device_labels(DeviceState& state);
// Frees the device copy of the last host graph labelled in memory (the streamed path needs the room).
void release_graph_copy(DeviceState& state);

namespace detail {

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
