// Komura 2016, the generalized GPU label-reduction algorithm (section 3) for any CSR graph: the
// adjacency lists are the paper's nearest-neighbour lists. Four launches, no fixpoint loop:
//  (i)   init: label[v] = the smallest lower neighbour of v (or v); v's residual list, its other
//        lower neighbours, is written to the front of v's own stretch of a copy of the arc array;
//  (ii)  analysis: label[v] = label[label[v]] until it no longer changes;
//  (iii) label reduction: the paper's Algorithm 1 for v and each entry of its residual list;
//  (iv)  analysis again.
// label[v] <= v holds throughout and label[v] is a vertex of v's component, so the smallest
// vertex of a component is always a root, and once every edge's trees are united (init links v
// to its smallest lower neighbour, the reduction unites the rest) the final analysis gives each
// vertex the smallest id of its component. cpu/komura.cpp takes the same steps serially.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/komura_step.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {
namespace {

using detail::DeviceCsr;
using detail::kFullMask;
using detail::kWarp;
using detail::load_relaxed;
using detail::store_relaxed;
using detail::thread_count;
using detail::thread_index;

// Residual lists longer than this are reduced by a whole warp instead of one thread.
constexpr int64_t kWarpListLength = 32;

template <class Offset>
__global__ void init_labels(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors, int32_t n,
                            int32_t* __restrict__ label, int32_t* __restrict__ residual,
                            Offset* __restrict__ residual_count) {
    for (uint32_t i = thread_index(); i < static_cast<uint32_t>(n); i += thread_count()) {
        const int32_t v = static_cast<int32_t>(i);
        komura::init_vertex(neighbors, offsets[v], offsets[v + 1], v, label, residual, residual_count);
    }
}

// Labels as the threads of a launch read and lower them, for the steps shared with the CPU: a
// relaxed load (other threads write meanwhile) and atomicMin.
struct DeviceLabels {
    __device__ static int32_t load(int32_t* p) { return load_relaxed(p); }
    __device__ static int32_t lower(int32_t* p, int32_t value) { return atomicMin(p, value); }
};

// Steps (ii) and (iv). Only v's thread writes label[v].
__global__ void analysis(int32_t n, int32_t* label) {
    for (uint32_t i = thread_index(); i < static_cast<uint32_t>(n); i += thread_count()) {
        const int32_t v = static_cast<int32_t>(i);
        const int32_t root = komura::root_of<DeviceLabels>(label, v);
        if (root != load_relaxed(&label[v])) store_relaxed(&label[v], root);
    }
}

// Step (iii), a thread per site as in the paper; the lanes of a warp take 32 consecutive sites,
// and the sites whose residual list is long (hubs) are then reduced by the whole warp together,
// so that no thread works through a hub's list alone. Every lane runs the same rounds (the warp
// collectives need all 32).
template <class Offset>
__global__ void reduce_labels(const Offset* __restrict__ offsets, const int32_t* __restrict__ residual,
                              const Offset* __restrict__ residual_count, int32_t n, int32_t* label) {
    const uint32_t lane = threadIdx.x % kWarp;
    const int64_t warps = static_cast<int64_t>(thread_count()) / kWarp;
    for (int64_t base = static_cast<int64_t>(thread_index() / kWarp) * kWarp; base < n; base += warps * kWarp) {
        const int64_t site = base + lane;
        const Offset count = site < n ? residual_count[site] : 0;
        const Offset begin = site < n ? offsets[site] : 0;
        const bool long_list = count > kWarpListLength;
        if (!long_list) {
            for (Offset k = 0; k < count; ++k) {
                komura::reduce_pair<DeviceLabels>(label, static_cast<int32_t>(site), residual[begin + k]);
            }
        }
        for (uint32_t hubs = __ballot_sync(kFullMask, long_list); hubs != 0; hubs &= hubs - 1) {
            const int owner = __ffs(hubs) - 1;
            const int32_t hub = static_cast<int32_t>(__shfl_sync(kFullMask, site, owner));
            const Offset hub_begin = __shfl_sync(kFullMask, begin, owner);
            const Offset hub_count = __shfl_sync(kFullMask, count, owner);
            for (Offset k = lane; k < hub_count; k += kWarp) {
                komura::reduce_pair<DeviceLabels>(label, hub, residual[hub_begin + k]);
            }
        }
    }
}

// The residual lists and their lengths, in one buffer carved per call.
struct KomuraWorkspace final : Workspace {
    DeviceBuffer scratch;
};

template <class Offset>
PhasePlan komura_kernels(DeviceState& state, const DeviceCsr& graph, int32_t* label, const LabelOptions& options) {
    const int32_t n = graph.vertex_count;
    const auto* offsets = static_cast<const Offset*>(graph.offsets);
    const int32_t* neighbors = graph.neighbors;
    const int block = block_or_default(options.block_size);
    const int grid = grid_size(state, block, n);
    const std::vector<void*> pieces =
        carve(state.workspace<KomuraWorkspace>().scratch,
              {static_cast<size_t>(graph.arc_count) * sizeof(int32_t), static_cast<size_t>(n) * sizeof(Offset)},
              "Komura residual lists");
    auto* residual = static_cast<int32_t*>(pieces[0]);
    auto* residual_count = static_cast<Offset*>(pieces[1]);
    const cudaStream_t stream = state.stream;

    return {{"init",
             [=] {
                 init_labels<<<grid, block, 0, stream>>>(offsets, neighbors, n, label, residual, residual_count);
                 check_launch("Komura init");
                 return 0;
             }},
            {"analysis1",
             [=] {
                 analysis<<<grid, block, 0, stream>>>(n, label);
                 check_launch("Komura analysis1");
                 return 0;
             }},
            {"reduction",
             [=] {
                 reduce_labels<<<grid, block, 0, stream>>>(offsets, residual, residual_count, n, label);
                 check_launch("Komura reduction");
                 return 0;
             }},
            {"analysis2", [=] {
                 analysis<<<grid, block, 0, stream>>>(n, label);
                 check_launch("Komura analysis2");
                 return 0;
             }}};
}

}  // namespace

PhasePlan detail::komura_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels,
                              const LabelOptions& options) {
    return graph.offset_width == 4 ? komura_kernels<int32_t>(state, graph, labels, options)
                                   : komura_kernels<int64_t>(state, graph, labels, options);
}

}  // namespace ccl4j::cuda
