// Afforest on the GPU (Sutton, Ben-Nun & Barak, IPDPS 2018) as a plan for the driver, on the
// union-find of ECL-CC (ecl_cc_kernels.cuh), whose invariant makes the roots the canonical labels.
//
// Phases:
//   init     ECL-CC's: parent = the first smaller neighbour, then every vertex pointed at its
//            root; and the early giant tree: the one at least half of kSamples vertices are in
//            already, if any (init alone joins a grid or a path into one tree);
//   sample   each vertex outside the early giant tree hooked with the smaller ones of its first
//            kSampledArcs neighbours (the one init followed excepted);
//   compress the giant component's root: the early giant tree's, else the most frequent root
//            among kSamples vertices if at least 1 / kGiantShare of them have it; every vertex
//            pointed at its root, and a bitmap of those whose root is the giant one (neither
//            without a giant component);
//   link     ECL-CC's three compute kernels (thread, warp, block per vertex by degree) over the
//            vertices outside the giant component, hooking the arcs sample did not: a smaller
//            neighbour past the sampled ones, a larger neighbour in the giant component;
//   finalize every vertex pointed at its root.
// Every edge {u, v}, u < v, is hooked: from v by init, sample or link when v is outside the giant
// component (which also holds every vertex that skipped sample), from u by link when only v is
// inside, not at all when both are (joined already). The bitmap, not the parent array, says who
// is inside: it does not change while link runs, so both ends of an edge agree on who hooks it.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <utility>

#include "common/afforest_sampling.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/ecl_cc_kernels.cuh"
#include "cuda/giant_component.cuh"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {

namespace {

using afforest::kSampledArcs;
using afforest_device::most_frequent_root;
using afforest_device::point_to_roots_and_mark;
using afforest_device::root_of;
using afforest::kSamples;  // one block's threads draw them
constexpr int kGiantShare = 8;  // a giant component holds at least 1 / kGiantShare of the samples

// The places of counters[] (a workspace buffer): the worklist's two counts (ecl::Counter, which
// init clears), the giant root found after init (or -1), and the giant root link works with.
enum Place { kEarlyGiant = 2, kGiant = 3, kPlaces = 4 };

// After init: the root that at least half of the samples already share, else -1. Init alone
// joins every vertex of a grid or a path into one tree (each takes its first smaller neighbour);
// sample then leaves that tree's vertices alone.
__global__ void find_early_giant(int32_t n, ecl::Parents parents, int32_t* __restrict__ counters) {
    int32_t root;
    uint32_t count;
    most_frequent_root(n, parents, root, count);
    if (threadIdx.x == 0) counters[kEarlyGiant] = afforest::is_early_giant(count) ? root : -1;
}

// Sample: v hooked with its smaller neighbours among the first kSampledArcs, but the first
// smaller one, which init made its parent; not when v is in the early giant tree (checked on
// v's parent, which is its root after init unless a hook has moved it since: then v merely
// samples too).
template <class Offset>
__global__ void sample(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors, int32_t n,
                       ecl::Parents parents, const int32_t* __restrict__ counters) {
    const int32_t early_giant = counters[kEarlyGiant];
    int32_t known_root = -1;
    ecl::for_each_vertex_in_step(n, [&](int32_t v) {
        if (early_giant >= 0 && parents.load(v) == early_giant) return;
        const Offset begin = ecl::read_only(offsets + v);
        const Offset stop = ecl::read_only(offsets + v + 1);
        const Offset end = stop - begin > kSampledArcs ? begin + kSampledArcs : stop;
        bool init_arc_seen = false;
        int32_t v_rep = -1;
        for (Offset arc = begin; arc < end; ++arc) {
            const int32_t u = ecl::read_only(neighbors + arc);
            if (u >= v) continue;
            if (!init_arc_seen) {
                init_arc_seen = true;
                continue;
            }
            if (v_rep < 0) v_rep = ecl::find_representative(parents, v, known_root);
            v_rep = ecl::unite(parents, v_rep, ecl::find_representative(parents, u, known_root));
        }
    });
}

// The giant component's root for link: the early giant tree's, whose vertices sample skipped and
// which must therefore be inside; else the root most samples share now, if at least one in
// kGiantShare does; else -1: no giant component, and link links every arc.
__global__ void find_giant(int32_t n, ecl::Parents parents, int32_t* __restrict__ counters) {
    const int32_t early_giant = counters[kEarlyGiant];
    if (early_giant >= 0) {
        if (threadIdx.x == 0) counters[kGiant] = root_of(parents, early_giant);
        return;
    }
    int32_t root;
    uint32_t count;
    most_frequent_root(n, parents, root, count);
    if (threadIdx.x == 0) counters[kGiant] = count * kGiantShare >= kSamples ? root : -1;
}

// The arcs link hooks (ecl::SmallerNeighbours says what the policy is): none of a vertex in the
// giant component; of the others, a smaller neighbour that sample did not see, and a larger one
// in the giant component (which hooks none of its own).
struct OutsideGiant {
    const uint32_t* bitmap;
    const int32_t* giant;  // the giant root, or -1 (then the bitmap is not written)
    __device__ bool inside(int32_t v) const {
        return __ldg(giant) >= 0 && ((__ldg(bitmap + (v >> 5)) >> (v & 31)) & 1u);
    }
    __device__ bool skips(int32_t v) const { return inside(v); }
    __device__ bool hooks(int32_t v, int32_t u, int64_t position) const {
        return u < v ? position >= kSampledArcs : inside(u);
    }
};

enum Kernel { kInit, kPointToRoots, kSample, kCompress, kThreadTier, kWarpTier, kBlockTier, kKernels };

// Afforest's buffers on a state: ECL-CC's worklist and its two counts, the giant roots, the bitmap,
// and the resident grids of its kernels per block size and offset width, looked up once so that
// no occupancy query runs between the timed launches.
struct AfforestWorkspace final : Workspace {
    DeviceBuffer worklist;
    DeviceBuffer counters;  // the places of enum Place
    DeviceBuffer bitmap;
    std::map<std::pair<int, int>, std::array<int, kKernels>> resident_grids;
};

template <class Offset>
std::array<int, kKernels> grids_of(DeviceState& state, int block) {
    return {resident_grid(state, ecl::init<Offset>, block),
            resident_grid(state, ecl::point_to_roots, block),
            resident_grid(state, sample<Offset>, block),
            resident_grid(state, point_to_roots_and_mark, block),
            resident_grid(state, ecl::compute_thread_tier<Offset, OutsideGiant>, block),
            resident_grid(state, ecl::compute_warp_tier<Offset, OutsideGiant>, block),
            resident_grid(state, ecl::compute_block_tier<Offset, OutsideGiant>, block)};
}

template <class Offset>
PhasePlan kernel_plan(DeviceState& state, const detail::DeviceCsr& graph, int32_t* parent,
                      const LabelOptions& options) {
    AfforestWorkspace& work = state.workspace<AfforestWorkspace>();
    const int32_t n = graph.vertex_count;
    const int32_t entries = ecl::worklist_capacity(n, graph.arc_count);
    work.worklist.reserve(static_cast<size_t>(entries) * sizeof(int32_t), "worklist");
    work.counters.reserve(kPlaces * sizeof(int32_t), "worklist counters and giant roots");
    work.bitmap.reserve((static_cast<size_t>(n) / 32 + 1) * sizeof(uint32_t), "giant-component bitmap");

    // Validated by the ABI layer (api/options.cpp), as for ECL-CC.
    const int block = block_or_default(options.block_size);
    const int32_t warp_threshold = options.warp_threshold;
    const int32_t block_threshold = options.block_threshold;
    auto [entry, added] = work.resident_grids.try_emplace({block, static_cast<int>(sizeof(Offset))});
    if (added) entry->second = grids_of<Offset>(state, block);
    std::array<int, kKernels> grids = entry->second;
    // A per-vertex kernel needs no more blocks than there are vertices; the worklist tiers get a
    // full resident grid, since the worklist sizes are only known on the device.
    const int64_t vertex_blocks = (static_cast<int64_t>(n) + block - 1) / block;
    for (Kernel kernel : {kInit, kPointToRoots, kSample, kCompress, kThreadTier}) {
        grids[kernel] = static_cast<int>(std::min<int64_t>(grids[kernel], vertex_blocks));
    }

    const auto* offsets = static_cast<const Offset*>(graph.offsets);
    const int32_t* neighbors = graph.neighbors;
    int32_t* counters = work.counters.as<int32_t>();
    uint32_t* bitmap = work.bitmap.as<uint32_t>();
    const ecl::Parents parents(parent);
    const ecl::Worklist worklist{work.worklist.as<int32_t>(), entries};
    const OutsideGiant outside{bitmap, counters + kGiant};
    const cudaStream_t stream = state.stream;

    return {{"init",
             [=] {
                 ecl::init<Offset><<<grids[kInit], block, 0, stream>>>(offsets, neighbors, n, parent, counters);
                 check_launch("Afforest init");
                 ecl::point_to_roots<<<grids[kPointToRoots], block, 0, stream>>>(n, parents);
                 check_launch("Afforest init (pointing at roots)");
                 find_early_giant<<<1, kSamples, 0, stream>>>(n, parents, counters);
                 check_launch("Afforest init (early giant component)");
                 return 0;
             }},
            {"sample",
             [=] {
                 sample<Offset><<<grids[kSample], block, 0, stream>>>(offsets, neighbors, n, parents, counters);
                 check_launch("Afforest sample");
                 return 0;
             }},
            {"compress",
             [=] {
                 find_giant<<<1, kSamples, 0, stream>>>(n, parents, counters);
                 check_launch("Afforest compress (giant component)");
                 point_to_roots_and_mark<<<grids[kCompress], block, 0, stream>>>(n, parents, counters + kGiant, bitmap);
                 check_launch("Afforest compress");
                 return 0;
             }},
            {"link",
             [=] {
                 ecl::compute_thread_tier<Offset><<<grids[kThreadTier], block, 0, stream>>>(
                     offsets, neighbors, n, parents, worklist, counters, warp_threshold, block_threshold, outside);
                 check_launch("Afforest link (thread tier)");
                 ecl::compute_warp_tier<Offset><<<grids[kWarpTier], block, 0, stream>>>(
                     offsets, neighbors, parents, worklist.entries, counters, outside);
                 check_launch("Afforest link (warp tier)");
                 ecl::compute_block_tier<Offset><<<grids[kBlockTier], block, 0, stream>>>(
                     offsets, neighbors, parents, worklist, counters, outside);
                 check_launch("Afforest link (block tier)");
                 return 0;
             }},
            {"finalize", [=] {
                 ecl::point_to_roots<<<grids[kPointToRoots], block, 0, stream>>>(n, parents);
                 check_launch("Afforest finalize");
                 return 0;
             }}};
}

}  // namespace

PhasePlan detail::afforest_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels,
                                const LabelOptions& options) {
    return graph.offset_width == 4 ? kernel_plan<int32_t>(state, graph, labels, options)
                                   : kernel_plan<int64_t>(state, graph, labels, options);
}

}  // namespace ccl4j::cuda
