// ECL-CC on the GPU as a plan for the driver: its buffers, grids and launches (kernels:
// ecl_cc_kernels.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <cstdint>
#include <string>

#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/ecl_cc_kernels.cuh"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {

namespace {

struct Tuning {
    int block_size;
    int warp_threshold;
    int block_threshold;
};

// The options are validated by the ABI layer (api/options.cpp): block_size is 0 (the paper's 256)
// or a multiple of 32 up to 1024 (the warp tier needs whole warps), 0 <= warp_threshold <=
// block_threshold (the paper's degree tiers are LabelOptions' defaults).
Tuning resolve(const LabelOptions& options) {
    return Tuning{block_or_default(options.block_size), options.warp_threshold, options.block_threshold};
}

enum Kernel { kInit, kThreadTier, kWarpTier, kBlockTier, kPointToRoots };

// ECL-CC's buffers on a state: the double-sided worklist with its two fill counts, and the grids
// of its kernels, looked up once per block size and offset width so that no occupancy query
// runs between the timed launches.
struct EclWorkspace final : Workspace {
    DeviceBuffer worklist;
    DeviceBuffer counters;
    std::map<std::pair<int, int>, std::array<int, 5>> resident_grids;
};

// The kernels loop over their work with a grid stride and run as many blocks as are resident on
// the device at once, so that no blocks are launched in waves. Looked up once per state, block
// size and offset width.
template <class Offset>
const std::array<int, 5>& resident_grids(DeviceState& state, EclWorkspace& work, int block_size) {
    auto [entry, added] = work.resident_grids.try_emplace({block_size, static_cast<int>(sizeof(Offset))});
    if (added) {
        entry->second = {resident_grid(state, ecl::init<Offset>, block_size),
                         resident_grid(state, ecl::compute_thread_tier<Offset, ecl::SmallerNeighbours>, block_size),
                         resident_grid(state, ecl::compute_warp_tier<Offset, ecl::SmallerNeighbours>, block_size),
                         resident_grid(state, ecl::compute_block_tier<Offset, ecl::SmallerNeighbours>, block_size),
                         resident_grid(state, ecl::point_to_roots, block_size)};
    }
    return entry->second;
}

// Everything a labelling needs before its first timing mark: work buffers and grid sizes, so that
// no allocation or occupancy query falls between the timed launches.
struct Launch {
    int32_t* parent;    // the labels: the union-find parents
    int32_t* worklist;
    int32_t* counters;
    int32_t n;
    int32_t offset_width;
    int32_t worklist_entries;
    Tuning tuning;
    std::array<int, 5> grids;
};

Launch prepare(DeviceState& state, int32_t* parent, int32_t n, int64_t arcs, int32_t offset_width,
               const Tuning& tuning) {
    EclWorkspace& work = state.workspace<EclWorkspace>();
    const int32_t entries = ecl::worklist_capacity(n, arcs);
    work.worklist.reserve(static_cast<size_t>(entries) * sizeof(int32_t), "worklist");
    work.counters.reserve(2 * sizeof(int32_t), "worklist counters");
    Launch launch{parent, work.worklist.as<int32_t>(), work.counters.as<int32_t>(), n, offset_width, entries, tuning,
                  {}};
    launch.grids = offset_width == 4 ? resident_grids<int32_t>(state, work, tuning.block_size)
                                     : resident_grids<int64_t>(state, work, tuning.block_size);
    // A per-vertex kernel needs no more blocks than there are vertices to give them; the worklist
    // kernels get a full resident grid, since the worklist sizes are only known on the device.
    const int64_t vertex_blocks = (static_cast<int64_t>(n) + tuning.block_size - 1) / tuning.block_size;
    for (Kernel kernel : {kInit, kThreadTier, kPointToRoots}) {
        launch.grids[kernel] = static_cast<int>(std::min<int64_t>(launch.grids[kernel], vertex_blocks));
    }
    return launch;
}

// The five phases, each enqueueing its kernels on the state's stream. The labels are left in
// launch.parent.
template <class Offset>
PhasePlan kernel_plan(const DeviceState& state, const Launch& launch, const Offset* offsets, const int32_t* neighbors) {
    const int block = launch.tuning.block_size;
    const int32_t n = launch.n;
    int32_t* parent = launch.parent;
    int32_t* counters = launch.counters;
    const ecl::Parents parents(parent);
    const ecl::Worklist worklist{launch.worklist, launch.worklist_entries};
    const cudaStream_t stream = state.stream;
    const auto& grids = launch.grids;
    const Tuning tuning = launch.tuning;

    return {{"init",
             [=] {
                 ecl::init<Offset><<<grids[kInit], block, 0, stream>>>(offsets, neighbors, n, parent, counters);
                 check_launch("ECL-CC init");
                 ecl::point_to_roots<<<grids[kPointToRoots], block, 0, stream>>>(n, parents);
                 check_launch("ECL-CC init (pointing at roots)");
                 return 0;
             }},
            {"compute1",
             [=] {
                 ecl::compute_thread_tier<Offset><<<grids[kThreadTier], block, 0, stream>>>(
                     offsets, neighbors, n, parents, worklist, counters, tuning.warp_threshold,
                     tuning.block_threshold, ecl::SmallerNeighbours{});
                 check_launch("ECL-CC compute1");
                 return 0;
             }},
            {"compute2",
             [=] {
                 ecl::compute_warp_tier<Offset><<<grids[kWarpTier], block, 0, stream>>>(
                     offsets, neighbors, parents, worklist.entries, counters, ecl::SmallerNeighbours{});
                 check_launch("ECL-CC compute2");
                 return 0;
             }},
            {"compute3",
             [=] {
                 ecl::compute_block_tier<Offset><<<grids[kBlockTier], block, 0, stream>>>(
                     offsets, neighbors, parents, worklist, counters, ecl::SmallerNeighbours{});
                 check_launch("ECL-CC compute3");
                 return 0;
             }},
            {"finalize", [=] {
                 ecl::point_to_roots<<<grids[kPointToRoots], block, 0, stream>>>(n, parents);
                 check_launch("ECL-CC finalize");
                 return 0;
             }}};
}

PhasePlan kernel_plan(const DeviceState& state, const Launch& launch, const void* offsets, const int32_t* neighbors) {
    return launch.offset_width == 4 ? kernel_plan(state, launch, static_cast<const int32_t*>(offsets), neighbors)
                                    : kernel_plan(state, launch, static_cast<const int64_t*>(offsets), neighbors);
}

}  // namespace

PhasePlan detail::ecl_cc_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels,
                              const LabelOptions& options) {
    const Launch launch =
        prepare(state, labels, graph.vertex_count, graph.arc_count, graph.offset_width, resolve(options));
    return kernel_plan(state, launch, graph.offsets, graph.neighbors);
}

}  // namespace ccl4j::cuda
