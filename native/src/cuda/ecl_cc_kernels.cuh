// ECL-CC on the GPU (Jaiganesh & Burtscher, HPDC 2018): the kernels.
//
// parent[] is a union-find forest over the vertices. Every store into it puts a smaller id at a
// larger index: init points a vertex at a smaller neighbour, hooking points a representative at a
// smaller representative, pointer jumping points a vertex at one of its ancestors (all smaller).
// So parent[x] <= x throughout, the representatives are exactly the x with parent[x] == x, and
// each tree's root is its smallest vertex: once every edge is hooked, the root of a component's
// tree is the smallest vertex id of the component, which makes the labels canonical.
//
// Phases: init (parent = first smaller neighbour, then every vertex pointed at its root), three
// compute kernels that hook every edge {v, u} with u < v once (thread per vertex up to
// warp_threshold, warp per vertex up to block_threshold, block per chunk of arcs above, fed by
// one double-sided worklist), and finalize (every vertex pointed at its representative, which is
// then its label). native/bench/NOTES.md has the measurements behind the departures from the
// paper: the pointing-at-roots pass after init and its use as finalize, the last-root cache of
// the finds, and the chunked block tier.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>
#include <cuda/atomic>
#include <string>

#include "common/error.hpp"

namespace ccl4j::cuda::ecl {

// How the parent array is read and written. The library uses 0: relaxed device-scope atomics,
// which make the concurrent accesses race-free in the CUDA memory model while each remains one
// load or store (they are served by L2, not L1). The benchmark build also compiles 1 (volatile)
// and 2 (ordinary loads and stores, as the original ECL-CC code has them) to measure what the
// atomics cost.
#ifndef CCL4J_ECL_PARENT_ACCESS
#define CCL4J_ECL_PARENT_ACCESS 0
#endif

class Parents {
public:
    explicit Parents(int32_t* parent) : parent_(parent) {}

#if CCL4J_ECL_PARENT_ACCESS == 0
    __device__ int32_t load(int32_t v) const { return ref(v).load(::cuda::std::memory_order_relaxed); }
    __device__ void store(int32_t v, int32_t value) const { ref(v).store(value, ::cuda::std::memory_order_relaxed); }
    // parent[v] = min(parent[v], value)
    __device__ void lower(int32_t v, int32_t value) const {
        ref(v).fetch_min(value, ::cuda::std::memory_order_relaxed);
    }
    // Stores desired if parent[v] == expected; returns the value found.
    __device__ int32_t compare_exchange(int32_t v, int32_t expected, int32_t desired) const {
        ref(v).compare_exchange_strong(expected, desired, ::cuda::std::memory_order_relaxed);
        return expected;
    }

private:
    __device__ ::cuda::atomic_ref<int32_t, ::cuda::thread_scope_device> ref(int32_t v) const {
        return ::cuda::atomic_ref<int32_t, ::cuda::thread_scope_device>(parent_[v]);
    }
#else
#if CCL4J_ECL_PARENT_ACCESS == 1
    __device__ int32_t load(int32_t v) const { return static_cast<volatile int32_t*>(parent_)[v]; }
    __device__ void store(int32_t v, int32_t value) const { static_cast<volatile int32_t*>(parent_)[v] = value; }
#else
    __device__ int32_t load(int32_t v) const { return parent_[v]; }
    __device__ void store(int32_t v, int32_t value) const { parent_[v] = value; }
#endif
    __device__ void lower(int32_t v, int32_t value) const { atomicMin(&parent_[v], value); }
    __device__ int32_t compare_exchange(int32_t v, int32_t expected, int32_t desired) const {
        return atomicCAS(&parent_[v], expected, desired);
    }
#endif

private:
    int32_t* parent_;
};

// The graph is not written while the kernels run: read it through the read-only data path.
__device__ __forceinline__ int32_t read_only(const int32_t* p) { return __ldg(p); }
__device__ __forceinline__ int64_t read_only(const int64_t* p) {
    return __ldg(reinterpret_cast<const long long*>(p));
}

// Intermediate pointer jumping (paper, Fig. 5): one walk to the representative in which every
// visited vertex is made to skip its parent (by fetch_min, so that a slow thread cannot undo a
// longer skip made meanwhile), halving the path.
//
// known_root is the last vertex this thread saw to be a representative; the walk stops there
// instead of loading its parent again. In a large component nearly every find ends at the same
// root, and without the stop every one of them would load that one word, all from one L2 slice
// (atomic loads bypass L1). If the vertex has been hooked since, the result is merely one of
// the ancestors: unite's CAS then fails on it and climbs on, as for any representative that
// changes while it is used.
__device__ __forceinline__ int32_t find_representative(const Parents& parents, int32_t v, int32_t& known_root) {
    int32_t par = parents.load(v);
    if (par == v) return v;
    int32_t prev = v;
    while (par != known_root) {
        const int32_t next = parents.load(par);
        if (next == par) {
            known_root = par;
            break;
        }
        parents.lower(prev, next);
        prev = par;
        par = next;
    }
    return par;
}

// Hooking (paper, Fig. 6): the larger representative is made a child of the smaller by a CAS
// that only succeeds while it is still a representative. A failed CAS returns the parent it was
// given meanwhile, from which the loop goes on. Returns a vertex of the merged tree at or above
// both inputs (the smaller representative), so the caller's next hook starts near the root.
__device__ __forceinline__ int32_t unite(const Parents& parents, int32_t v_rep, int32_t u_rep) {
    while (v_rep != u_rep) {
        if (v_rep < u_rep) {
            const int32_t seen = parents.compare_exchange(u_rep, u_rep, v_rep);
            if (seen == u_rep) return v_rep;
            u_rep = seen;
        } else {
            const int32_t seen = parents.compare_exchange(v_rep, v_rep, u_rep);
            if (seen == v_rep) return u_rep;
            v_rep = seen;
        }
    }
    return v_rep;
}

// Worklist fill counts: medium-degree vertices fill the worklist from the front; the arcs of
// high-degree vertices, in chunks, from the back.
enum Counter { kMedium = 0, kHigh = 1 };

// The block tier takes a high-degree vertex's arcs in chunks of this many, so that the arcs of
// one hub are spread over many blocks instead of keeping one block busy while the others idle.
constexpr int32_t kHighChunk = 1024;

// Every vertex takes at most one worklist entry, except the high-degree ones, which take one per
// chunk of arcs: n + ceil(arcs / chunk) entries always suffice.
inline int32_t worklist_capacity(int32_t n, int64_t arcs) {
    const int64_t capacity = static_cast<int64_t>(n) + (arcs + kHighChunk - 1) / kHighChunk;
    if (capacity > INT32_MAX) {
        fail(CCL4J_UNSUPPORTED, "graph too large for the ECL-CC worklist: " + std::to_string(n) + " vertices, " +
                                    std::to_string(arcs) + " arcs");
    }
    return static_cast<int32_t>(capacity);
}

// Worklist layout (capacity entries): the medium side is entries [0, count), the high side
// entries capacity - 1 - h for h in [0, count). A high-degree vertex v with k chunks takes k
// consecutive high-side places h0..h0+k-1 holding v, ~1, ..., ~(k-1): a negative entry ~j is
// chunk j of the vertex j places before it.
struct Worklist {
    int32_t* entries;
    int32_t capacity;
    __device__ int32_t& high(int32_t h) const { return entries[capacity - 1 - h]; }
};

// A slot of a worklist side for each calling thread, with one atomic per warp instead of one
// per thread: the vertices that go to the same side in one step share a single atomicAdd.
__device__ __forceinline__ int32_t claim_slot(int32_t* counter) {
    namespace cg = cooperative_groups;
    const cg::coalesced_group group = cg::coalesced_threads();
    int32_t first = 0;
    if (group.thread_rank() == 0) first = atomicAdd(counter, static_cast<int32_t>(group.size()));
    return group.shfl(first, 0) + static_cast<int32_t>(group.thread_rank());
}

__device__ __forceinline__ uint32_t thread_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ uint32_t thread_count() { return gridDim.x * blockDim.x; }

// A grid-stride loop over the vertices [0, n) that keeps the lanes of a warp in step: they meet
// again after each vertex before loading the next. Without the meeting, independent thread
// scheduling lets lanes whose finds took longer fall whole iterations behind, and the warp's loads
// of offsets, neighbours and parents, coalesced while the lanes hold consecutive vertices, split
// into one transaction per lane or few. (Block sizes are multiples of 32, so every lane of a warp
// runs the same number of iterations.)
template <class Body>
__device__ __forceinline__ void for_each_vertex_in_step(int32_t n, Body body) {
    const uint32_t lane = threadIdx.x % 32;
    // Unsigned indices: base + stride stays below 2^32 for any n < 2^31.
    for (uint32_t base = thread_index() - lane; base < static_cast<uint32_t>(n); base += thread_count()) {
        const uint32_t i = base + lane;
        if (i < static_cast<uint32_t>(n)) body(static_cast<int32_t>(i));
        __syncwarp();
    }
}

// Init (the paper's Init3): parent = the first neighbour with a smaller id, else the vertex
// itself. Also empties the worklist for this run.
template <class Offset>
__global__ void init(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors, int32_t n,
                     int32_t* __restrict__ parent, int32_t* __restrict__ counters) {
    if (thread_index() == 0) {
        counters[kMedium] = 0;
        counters[kHigh] = 0;
    }
    // Unsigned indices: v + stride stays below 2^32 for any n < 2^31.
    for (uint32_t v = thread_index(); v < static_cast<uint32_t>(n); v += thread_count()) {
        const Offset end = read_only(offsets + v + 1);
        int32_t first_smaller = static_cast<int32_t>(v);
        for (Offset arc = read_only(offsets + v); arc < end; ++arc) {
            const int32_t u = read_only(neighbors + arc);
            if (u < static_cast<int32_t>(v)) {
                first_smaller = u;
                break;
            }
        }
        parent[v] = first_smaller;
    }
}

// Points every vertex at the root of its tree: run once after init, whose trees can be deep (an
// ordered line is one chain of n parents, a grid one chain per column), so that the compute
// kernels find short paths; and as finalize. Each thread moves its own vertex's pointer up one
// parent at a time, reading pointers that their own threads are moving up at the same time, so
// the jumps double and a path of length L costs about log L dependent loads, where halving walks
// cost L. Only the thread of v writes parent[v], and no representative changes meanwhile.
// static: each file that includes this header gets its own copy of this (non-template) kernel.
static __global__ void point_to_roots(int32_t n, Parents parents) {
    int32_t known_root = -1;  // as in find_representative; exact here, as no hooking happens
    for_each_vertex_in_step(n, [&](int32_t v) {
        int32_t par = parents.load(v);
        while (par != v && par != known_root) {
            const int32_t next = parents.load(par);
            if (next == par) {
                known_root = par;
                break;
            }
            parents.store(v, next);
            par = next;
        }
    });
}

// Which arcs the compute kernels hook: ECL-CC's, every arc {v, u} with u < v from v's side.
// Afforest (afforest.cu) hooks fewer with the same kernels: `skips(v)` leaves out all of v's arcs
// (and v is put on no worklist), `hooks(v, u, position)` decides for the arc at `position` in v's
// list.
struct SmallerNeighbours {
    __device__ bool skips(int32_t) const { return false; }
    __device__ bool hooks(int32_t v, int32_t u, int64_t) const { return u < v; }
};

// Compute, thread granularity: each thread hooks the selected arcs of its vertices of degree <=
// warp_threshold, and puts the others on the worklist. The arc init followed is skipped (v
// already lies in that neighbour's tree), and v's representative is only looked up once an edge
// needs it.
template <class Offset, class Arcs>
__global__ void compute_thread_tier(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                                    int32_t n, Parents parents, Worklist worklist, int32_t* __restrict__ counters,
                                    int32_t warp_threshold, int32_t block_threshold, Arcs arcs) {
    int32_t known_root = -1;
    for_each_vertex_in_step(n, [&](int32_t v) {
        if (arcs.skips(v)) return;
        const Offset begin = read_only(offsets + v);
        const Offset end = read_only(offsets + v + 1);
        const int64_t degree = static_cast<int64_t>(end - begin);
        if (degree > block_threshold) {
            const int32_t chunks = static_cast<int32_t>((degree + kHighChunk - 1) / kHighChunk);
            const int32_t first = atomicAdd(&counters[kHigh], chunks);
            worklist.high(first) = v;
            for (int32_t j = 1; j < chunks; ++j) worklist.high(first + j) = ~j;
            return;
        }
        if (degree > warp_threshold) {
            worklist.entries[claim_slot(&counters[kMedium])] = v;
            return;
        }
        bool init_arc_seen = false;
        int32_t v_rep = -1;
        for (Offset arc = begin; arc < end; ++arc) {
            const int32_t u = read_only(neighbors + arc);
            if (u < v && !init_arc_seen) {
                init_arc_seen = true;
                continue;
            }
            if (!arcs.hooks(v, u, arc - begin)) continue;
            if (v_rep < 0) v_rep = find_representative(parents, v, known_root);
            v_rep = unite(parents, v_rep, find_representative(parents, u, known_root));
        }
    });
}

// Compute, warp granularity: one warp per medium-degree vertex, its lanes striding over the
// arcs. Lane 0 finds v's representative once for the warp.
template <class Offset, class Arcs>
__global__ void compute_warp_tier(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                                  Parents parents, const int32_t* __restrict__ worklist,
                                  const int32_t* __restrict__ counters, Arcs arcs) {
    constexpr uint32_t kWarp = 32;
    int32_t known_root = -1;
    const uint32_t lane = threadIdx.x % kWarp;
    const uint32_t count = static_cast<uint32_t>(counters[kMedium]);
    for (uint32_t item = thread_index() / kWarp; item < count; item += thread_count() / kWarp) {
        const int32_t v = worklist[item];
        int32_t v_rep = lane == 0 ? find_representative(parents, v, known_root) : 0;
        v_rep = __shfl_sync(0xffffffffu, v_rep, 0);
        const Offset begin = read_only(offsets + v);
        const Offset end = read_only(offsets + v + 1);
        for (Offset arc = begin + lane; arc < end; arc += kWarp) {
            const int32_t u = read_only(neighbors + arc);
            if (arcs.hooks(v, u, arc - begin)) v_rep = unite(parents, v_rep, find_representative(parents, u, known_root));
        }
    }
}

// Compute, block granularity: one block per chunk of a high-degree vertex's arcs (taken from the
// back of the worklist), its threads striding over the chunk.
template <class Offset, class Arcs>
__global__ void compute_block_tier(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                                   Parents parents, Worklist worklist, const int32_t* __restrict__ counters,
                                   Arcs arcs) {
    __shared__ int32_t block_rep;
    int32_t known_root = -1;
    const uint32_t count = static_cast<uint32_t>(counters[kHigh]);
    for (uint32_t h = blockIdx.x; h < count; h += gridDim.x) {
        const int32_t entry = worklist.high(static_cast<int32_t>(h));
        const int32_t chunk = entry < 0 ? ~entry : 0;
        const int32_t v = entry < 0 ? worklist.high(static_cast<int32_t>(h) - chunk) : entry;
        if (threadIdx.x == 0) block_rep = find_representative(parents, v, known_root);
        __syncthreads();
        int32_t v_rep = block_rep;
        __syncthreads();  // every thread has read block_rep before thread 0 writes the next one
        const Offset first = read_only(offsets + v);
        const Offset begin = first + static_cast<Offset>(chunk) * kHighChunk;
        const Offset stop = read_only(offsets + v + 1);
        const Offset end = stop - begin > kHighChunk ? begin + kHighChunk : stop;
        for (Offset arc = begin + threadIdx.x; arc < end; arc += blockDim.x) {
            const int32_t u = read_only(neighbors + arc);
            if (arcs.hooks(v, u, arc - first)) v_rep = unite(parents, v_rep, find_representative(parents, u, known_root));
        }
    }
}

}  // namespace ccl4j::cuda::ecl
