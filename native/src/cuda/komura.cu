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
        const Offset begin = offsets[v];
        const Offset end = offsets[v + 1];
        int32_t smallest = v;
        for (Offset arc = begin; arc < end; ++arc) smallest = min(smallest, neighbors[arc]);
        Offset count = 0;
        for (Offset arc = begin; arc < end; ++arc) {
            const int32_t u = neighbors[arc];
            if (u < v && u != smallest) residual[begin + count++] = u;
        }
        label[v] = smallest;
        residual_count[v] = count;
    }
}

// Follows labels from label[v] to a root (label[r] == r). Labels only decrease, and only to
// vertices they lead to, so a walk read while others write still ends at a root.
__device__ __forceinline__ int32_t root_of(int32_t* label, int32_t v) {
    int32_t l = load_relaxed(&label[v]);
    for (int32_t next; (next = load_relaxed(&label[l])) != l;) l = next;
    return l;
}

// Steps (ii) and (iv). Only v's thread writes label[v].
__global__ void analysis(int32_t n, int32_t* label) {
    for (uint32_t i = thread_index(); i < static_cast<uint32_t>(n); i += thread_count()) {
        const int32_t v = static_cast<int32_t>(i);
        const int32_t root = root_of(label, v);
        if (root != load_relaxed(&label[v])) store_relaxed(&label[v], root);
    }
}

// The paper's Algorithm 1 for site i and j from its residual list: the larger of the two roots is
// hung below the smaller with atomicMin. When that entry already held another vertex, the pair
// moves on to that vertex and the smaller root, until an atomicMin finds the two joined.
__device__ void reduce_pair(int32_t* label, int32_t i, int32_t j) {
    int32_t label1 = root_of(label, i);
    int32_t label2 = root_of(label, j);
    if (label1 == label2) return;
    if (label1 < label2) {
        const int32_t smaller = label1;
        label1 = label2;
        label2 = smaller;
    }
    for (;;) {
        const int32_t label3 = atomicMin(&label[label1], label2);
        if (label3 == label2) return;
        if (label3 > label2) {
            label1 = label3;  // label1 hung below label3: hang label3 below label2 too
        } else {
            label1 = label2;  // label1 stays below label3 < label2: hang label2 below label3
            label2 = label3;
        }
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
            for (Offset k = 0; k < count; ++k) reduce_pair(label, static_cast<int32_t>(site), residual[begin + k]);
        }
        for (uint32_t hubs = __ballot_sync(kFullMask, long_list); hubs != 0; hubs &= hubs - 1) {
            const int owner = __ffs(hubs) - 1;
            const int32_t hub = static_cast<int32_t>(__shfl_sync(kFullMask, site, owner));
            const Offset hub_begin = __shfl_sync(kFullMask, begin, owner);
            const Offset hub_count = __shfl_sync(kFullMask, count, owner);
            for (Offset k = lane; k < hub_count; k += kWarp) reduce_pair(label, hub, residual[hub_begin + k]);
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
