// Hawick, Leist & Playne 2010, graph Kernels 1-3 (section 4.3) on the GPU, as plans for the
// driver (driver.hpp). cpu/hawick_kernels.cpp takes the same steps serially; the reasoning about
// colours is written there.
//
// Colours are vertex ids; they only decrease, each stays the id of a vertex of the same component
// no larger than the vertex itself (colour[v] <= v), and the smallest vertex of a component keeps
// its own id. So when the colours agree across every edge they are the canonical labels.
//
// Iterations (launches of the fixpoint loops):
//  - Kernels 1 and 2 propagate a colour one edge per launch in the worst case; the paper bounds
//    their launches by the diameter (an ordered path: up to n). After each propagation launch the
//    colours go through the analysis of the paper's Kernel D (section 5.2.4): every vertex takes
//    the colour at the end of its chain colour[colour[...]]. With it an ordered path of 2^20
//    vertices, a grid numbered by rows and a star take 2 or 3 launches; a graph whose numbering
//    does not follow its structure still needs launches in proportion to its diameter (a
//    shuffled path of n vertices: of the order of n / 4).
//  - Kernel 3 takes, per component, a launch per level of the search from its smallest vertex
//    (the source's own level included), and one last launch that finds no uncoloured vertex:
//    an ordered path of 2^20 vertices takes 2^20 + 1 launches, n isolated vertices n + 1. The
//    frontiers are lists of vertices, so a launch costs what its frontier holds, not n.
// The driver launches the loops in growing batches and reads the loop's state between batches
// (iterate); a launch after the one that ended the loop returns at once, so launches need not
// wait for the host to learn the outcome of the previous one.
#include <cuda_runtime.h>

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <string>

#include "cpu/cpu_algorithms.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/loop_device.cuh"

namespace ccl4j::cuda {

namespace {

using detail::DeviceCsr;
using detail::kFullMask;
using detail::kWarp;
using detail::load_relaxed;
using detail::store_relaxed;
using detail::thread_count;
using detail::thread_index;

// The host waits for the device once per batch of up to this many launches (driver.hpp: iterate).
constexpr int64_t kMaxBatch = 1024;

// Hawick's kernels keep their work arrays (edge list, frontiers, scan storage) in one buffer
// carved per call.
struct HawickWorkspace final : Workspace {
    DeviceBuffer scratch;
};

std::vector<void*> scratch(DeviceState& state, std::initializer_list<size_t> bytes) {
    return carve(state.workspace<HawickWorkspace>().scratch, bytes, "Hawick kernel work arrays");
}

// ---- Kernels 1 and 2: the analysis step ---------------------------------------------------------

// Kernel D's analysis on the colours after propagation launch t, when it changed something: every
// vertex takes the colour at the end of its chain. Only v's thread writes colour[v], always a
// smaller colour of the same component, so chains read meanwhile stay valid and end at a vertex
// that is its own colour. Kernel 2 flags each vertex whose colour changed in the next frontier.
__global__ void resolve_chains(int32_t n, int32_t* colour, uint8_t* next_frontier, LoopLaunch loop) {
    if (!loop.active() || load_relaxed(loop.output()) == 0) return;
    for (uint32_t i = thread_index(); i < static_cast<uint32_t>(n); i += thread_count()) {
        const int32_t v = static_cast<int32_t>(i);
        const int32_t current = load_relaxed(&colour[v]);
        int32_t root = current;
        for (int32_t next; (next = load_relaxed(&colour[root])) != root;) root = next;
        if (root != current) {
            store_relaxed(&colour[v], root);
            if (next_frontier) next_frontier[v] = 1;
        }
    }
}

__global__ void set_identity(int32_t n, int32_t* colour) {
    for (uint32_t v = thread_index(); v < static_cast<uint32_t>(n); v += thread_count()) {
        colour[v] = static_cast<int32_t>(v);
    }
}

// ---- Kernel 1: edge-parallel --------------------------------------------------------------------

// The edge list of the paper's Fig. 5(c), built from the CSR: each edge {v, u} once as (v, u),
// v < u, in CSR order (self loops carry no connection and are left out). counts[v] = v's arcs to
// larger ids; an exclusive scan turns counts into the positions of v's edges, and positions[n]
// into the edge count.
template <class Offset>
__global__ void count_upper_arcs(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors, int32_t n,
                                 Offset* __restrict__ counts) {
    if (thread_index() == 0) counts[n] = 0;
    for (uint32_t i = thread_index(); i < static_cast<uint32_t>(n); i += thread_count()) {
        const int32_t v = static_cast<int32_t>(i);
        Offset count = 0;
        for (Offset arc = offsets[v]; arc < offsets[v + 1]; ++arc) count += neighbors[arc] > v;
        counts[v] = count;
    }
}

template <class Offset>
__global__ void fill_edges(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors, int32_t n,
                           const Offset* __restrict__ positions, int2* __restrict__ edges) {
    for (uint32_t i = thread_index(); i < static_cast<uint32_t>(n); i += thread_count()) {
        const int32_t v = static_cast<int32_t>(i);
        Offset position = positions[v];
        for (Offset arc = offsets[v]; arc < offsets[v + 1]; ++arc) {
            const int32_t u = neighbors[arc];
            if (u > v) edges[position++] = make_int2(v, u);
        }
    }
}

// The paper's Algorithm 2, one thread per edge (grid-stride): the larger colour of the edge's ends
// is lowered to the smaller with atomicMin; the change flag is gathered in shared memory and set
// in global memory once per block.
template <class Offset>
__global__ void propagate_edges(const int2* __restrict__ edges, const Offset* __restrict__ edge_count,
                                int32_t* colour, LoopLaunch loop) {
    if (!loop.begin()) return;
    __shared__ int32_t block_changed;
    if (threadIdx.x == 0) block_changed = 0;
    __syncthreads();
    const int64_t count = *edge_count;
    for (int64_t e = thread_index(); e < count; e += thread_count()) {
        const int2 edge = edges[e];
        const int32_t ci = load_relaxed(&colour[edge.x]);
        const int32_t cj = load_relaxed(&colour[edge.y]);
        if (ci < cj) {
            atomicMin(&colour[edge.y], ci);
            block_changed = 1;
        } else if (cj < ci) {
            atomicMin(&colour[edge.x], cj);
            block_changed = 1;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0 && block_changed) store_relaxed(loop.output(), 1);
}

template <class Offset>
PhasePlan edge_plan(DeviceState& state, const DeviceCsr& graph, int32_t* colour, const LabelOptions& options) {
    const int32_t n = graph.vertex_count;
    const auto* offsets = static_cast<const Offset*>(graph.offsets);
    const int32_t* neighbors = graph.neighbors;
    const int block = block_or_default(options.block_size);
    const int vertex_grid = grid_size(state, block, n);
    const int edge_grid = grid_size(state, block, graph.arc_count / 2);
    size_t scan_bytes = 0;
    CCL4J_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<Offset*>(nullptr),
                                                   static_cast<Offset*>(nullptr), static_cast<int64_t>(n) + 1,
                                                   state.stream));
    // Room for an edge per arc, so that even an unchecked asymmetric graph stays in bounds.
    const std::vector<void*> pieces =
        scratch(state, {(static_cast<size_t>(n) + 1) * sizeof(Offset), scan_bytes,
                        static_cast<size_t>(graph.arc_count) * sizeof(int2)});
    LoopControl* control = loop_control(state);
    auto* positions = static_cast<Offset*>(pieces[0]);
    void* scan_storage = pieces[1];
    auto* edges = static_cast<int2*>(pieces[2]);
    const int32_t limit = cpu::iteration_limit(options.max_iterations, n);
    DeviceState* s = &state;

    return {{"init",
             [=] {
                 set_identity<<<vertex_grid, block, 0, s->stream>>>(n, colour);
                 check_launch("Hawick kernel 1 init");
                 count_upper_arcs<<<vertex_grid, block, 0, s->stream>>>(offsets, neighbors, n, positions);
                 check_launch("Hawick kernel 1 edge count");
                 size_t bytes = scan_bytes;
                 CCL4J_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_storage, bytes, positions, positions,
                                                                static_cast<int64_t>(n) + 1, s->stream));
                 fill_edges<<<vertex_grid, block, 0, s->stream>>>(offsets, neighbors, n, positions, edges);
                 check_launch("Hawick kernel 1 edge list");
                 return 0;
             }},
            {"propagate", [=] {
                 return iterate(*s, control, limit, kMaxBatch, "Hawick kernel 1", [&](int32_t t) {
                     const LoopLaunch loop{control, t, limit};
                     propagate_edges<<<edge_grid, block, 0, s->stream>>>(edges, positions + n, colour, loop);
                     check_launch("Hawick kernel 1 propagate");
                     resolve_chains<<<vertex_grid, block, 0, s->stream>>>(n, colour, nullptr, loop);
                     check_launch("Hawick kernel 1 analysis");
                 });
             }}};
}

// ---- Kernel 2: vertex-parallel with two frontier arrays ---------------------------------------

__global__ void init_vertex_kernel(int32_t n, int32_t* colour, uint8_t* frontier, uint8_t* next_frontier) {
    for (uint32_t v = thread_index(); v < static_cast<uint32_t>(n); v += thread_count()) {
        colour[v] = static_cast<int32_t>(v);
        frontier[v] = 1;
        next_frontier[v] = 0;
    }
}

// The paper's Algorithm 3 with the optimisations of its Algorithm 4: each block first caches the
// adjacency start indices of its vertices in shared memory (blockDim.x + 1 of them, so that every
// thread finds its end there too), then each thread whose vertex is flagged in `frontier` clears
// the flag and compares its colour with its neighbours': a larger neighbour colour is lowered
// (atomicMin) and that neighbour flagged in `next_frontier`; a smaller one lowers the vertex's
// own colour, written once at the end. Flags are only ever set to 1 by concurrent threads and are
// read in the next launch.
template <class Offset>
__global__ void propagate_vertices(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                                   int32_t n, int32_t* colour, uint8_t* frontier, uint8_t* next_frontier, LoopLaunch loop) {
    extern __shared__ __align__(16) unsigned char shared_memory[];
    Offset* starts = reinterpret_cast<Offset*>(shared_memory);
    if (!loop.begin()) return;
    __shared__ int32_t block_changed;
    if (threadIdx.x == 0) block_changed = 0;
    // Every thread of the block runs the same rounds: the barriers need all of them.
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t base = static_cast<int64_t>(blockIdx.x) * blockDim.x; base < n; base += stride) {
        const int64_t v = base + threadIdx.x;
        const int64_t end_vertex = base + blockDim.x < n ? base + blockDim.x : n;  // one past the block's last
        if (v < end_vertex) starts[threadIdx.x] = offsets[v];
        if (threadIdx.x == 0) starts[end_vertex - base] = offsets[end_vertex];
        __syncthreads();
        if (v < n && frontier[v]) {
            frontier[v] = 0;
            int32_t cv = load_relaxed(&colour[v]);
            bool lowered = false;
            for (Offset arc = starts[threadIdx.x]; arc < starts[threadIdx.x + 1]; ++arc) {
                const int32_t u = neighbors[arc];
                const int32_t cu = load_relaxed(&colour[u]);
                if (cv < cu) {
                    atomicMin(&colour[u], cv);
                    next_frontier[u] = 1;
                    block_changed = 1;
                } else if (cu < cv) {
                    cv = cu;
                    lowered = true;
                }
            }
            if (lowered) {
                atomicMin(&colour[v], cv);
                next_frontier[v] = 1;
                block_changed = 1;
            }
        }
        __syncthreads();  // before the next round overwrites the cached starts
    }
    if (threadIdx.x == 0 && block_changed) store_relaxed(loop.output(), 1);
}

template <class Offset>
PhasePlan vertex_plan(DeviceState& state, const DeviceCsr& graph, int32_t* colour, const LabelOptions& options) {
    const int32_t n = graph.vertex_count;
    const auto* offsets = static_cast<const Offset*>(graph.offsets);
    const int32_t* neighbors = graph.neighbors;
    const int block = block_or_default(options.block_size);
    const int grid = grid_size(state, block, n);
    const size_t shared_bytes = (static_cast<size_t>(block) + 1) * sizeof(Offset);
    const std::vector<void*> pieces = scratch(state, {static_cast<size_t>(n), static_cast<size_t>(n)});
    LoopControl* control = loop_control(state);
    auto* frontier0 = static_cast<uint8_t*>(pieces[0]);
    auto* frontier1 = static_cast<uint8_t*>(pieces[1]);
    const int32_t limit = cpu::iteration_limit(options.max_iterations, n);
    DeviceState* s = &state;

    return {{"init",
             [=] {
                 init_vertex_kernel<<<grid, block, 0, s->stream>>>(n, colour, frontier0, frontier1);
                 check_launch("Hawick kernel 2 init");
                 return 0;
             }},
            // Launch t reads frontiers[t % 2] and fills frontiers[(t + 1) % 2]: the arrays swap roles.
            {"propagate", [=] {
                 uint8_t* frontiers[2] = {frontier0, frontier1};
                 return iterate(*s, control, limit, kMaxBatch, "Hawick kernel 2", [&](int32_t t) {
                     const LoopLaunch loop{control, t, limit};
                     uint8_t* frontier = frontiers[t % 2];
                     uint8_t* next_frontier = frontiers[(t + 1) % 2];
                     propagate_vertices<<<grid, block, shared_bytes, s->stream>>>(offsets, neighbors, n, colour,
                                                                                  frontier, next_frontier, loop);
                     check_launch("Hawick kernel 2 propagate");
                     resolve_chains<<<grid, block, 0, s->stream>>>(n, colour, next_frontier, loop);
                     check_launch("Hawick kernel 2 analysis");
                 });
             }}};
}

// ---- Kernel 3: one breadth-first search per component -----------------------------------------

constexpr int32_t kUncoloured = -1;  // all bits set: what cudaMemset with 0xff writes

// A slot in the next frontier for each calling thread, with one atomicAdd per group of threads
// of a warp that append together.
__device__ __forceinline__ int32_t claim_slot(int32_t* size) {
    namespace cg = cooperative_groups;
    const cg::coalesced_group group = cg::coalesced_threads();
    int32_t first = 0;
    if (group.thread_rank() == 0) first = atomicAdd(size, static_cast<int32_t>(group.size()));
    return group.shfl(first, 0) + static_cast<int32_t>(group.thread_rank());
}

// Colours u, if it is still uncoloured, and appends it to the next frontier. The compare-and-swap
// lets exactly one thread colour u, so u enters the next frontier once (Harish and Narayanan's
// race, which the paper avoids with separate frontier arrays, would add it twice here); every
// vertex is appended once in the whole run, so no frontier exceeds n entries.
__device__ __forceinline__ void colour_and_append(int32_t* colour, int32_t u, int32_t c, int32_t* next_frontier,
                                                  int32_t* next_size) {
    if (load_relaxed(&colour[u]) == kUncoloured && atomicCAS(&colour[u], kUncoloured, c) == kUncoloured) {
        next_frontier[claim_slot(next_size)] = u;
    }
}

// One launch of the search loop. With a frontier (the vertices the previous launch coloured),
// each thread expands a frontier vertex: its uncoloured neighbours take its colour and form the
// next frontier. The lanes of a warp take 32 consecutive frontier entries; a vertex with more
// than 32 neighbours (a hub) is then expanded by the whole warp together, so that no thread
// walks a hub's list alone (every lane runs the same rounds: the warp collectives need all 32).
// Without a frontier the previous search is complete: block 0 finds the smallest uncoloured
// vertex s (every vertex below the cursor is coloured), gives it colour s, the smallest id of its
// component, and expands it; when there is none, the loop is finished.
template <class Offset>
__global__ void search_step(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors, int32_t n,
                            int32_t* colour, const int32_t* __restrict__ frontier, int32_t* __restrict__ next_frontier,
                            LoopLaunch loop) {
    if (loop.finished() || !loop.start()) return;
    const int32_t size = loop.previous();
    int32_t* next_size = loop.output();
    if (size > 0) {
        const uint32_t lane = threadIdx.x % kWarp;
        const int64_t warps = static_cast<int64_t>(thread_count()) / kWarp;
        for (int64_t base = static_cast<int64_t>(thread_index() / kWarp) * kWarp; base < size; base += warps * kWarp) {
            const int64_t i = base + lane;
            Offset begin = 0;
            Offset end = 0;
            int32_t c = 0;
            if (i < size) {
                const int32_t v = frontier[i];
                begin = offsets[v];
                end = offsets[v + 1];
                c = load_relaxed(&colour[v]);
            }
            const bool hub = end - begin > static_cast<Offset>(kWarp);
            if (!hub) {
                for (Offset arc = begin; arc < end; ++arc) {
                    colour_and_append(colour, neighbors[arc], c, next_frontier, next_size);
                }
            }
            for (uint32_t hubs = __ballot_sync(kFullMask, hub); hubs != 0; hubs &= hubs - 1) {
                const int owner = __ffs(hubs) - 1;
                const Offset hub_end = __shfl_sync(kFullMask, end, owner);
                const int32_t hub_colour = __shfl_sync(kFullMask, c, owner);
                for (Offset arc = __shfl_sync(kFullMask, begin, owner) + lane; arc < hub_end; arc += kWarp) {
                    colour_and_append(colour, neighbors[arc], hub_colour, next_frontier, next_size);
                }
            }
        }
        return;
    }
    if (blockIdx.x != 0) return;

    __shared__ int32_t source;
    if (threadIdx.x == 0) source = n;
    __syncthreads();
    for (int64_t base = load_relaxed(&loop.control->cursor); base < n; base += blockDim.x) {
        const int64_t candidate = base + threadIdx.x;
        const bool uncoloured = candidate < n && load_relaxed(&colour[candidate]) == kUncoloured;
        if (__syncthreads_or(uncoloured)) {  // the same answer in every thread: they leave together
            if (uncoloured) atomicMin(&source, static_cast<int32_t>(candidate));
            break;
        }
    }
    __syncthreads();
    const int32_t s = source;
    if (s == n) {
        loop.finish();  // (only block 0 is left: its thread 0 is the grid's)
        return;
    }
    if (threadIdx.x == 0) {
        store_relaxed(&colour[s], s);
        store_relaxed(&loop.control->cursor, s + 1);
    }
    __syncthreads();  // colour[s] is set before its neighbours (a self loop included) are tried
    for (Offset arc = offsets[s] + threadIdx.x; arc < offsets[s + 1]; arc += blockDim.x) {
        colour_and_append(colour, neighbors[arc], s, next_frontier, next_size);
    }
}

template <class Offset>
PhasePlan bfs_plan(DeviceState& state, const DeviceCsr& graph, int32_t* colour, const LabelOptions& options) {
    const int32_t n = graph.vertex_count;
    const auto* offsets = static_cast<const Offset*>(graph.offsets);
    const int32_t* neighbors = graph.neighbors;
    const int block = block_or_default(options.block_size);
    const int grid = grid_size(state, block, n);
    const size_t frontier_bytes = static_cast<size_t>(n) * sizeof(int32_t);
    const std::vector<void*> pieces = scratch(state, {frontier_bytes, frontier_bytes});
    LoopControl* control = loop_control(state);
    auto* frontier0 = static_cast<int32_t*>(pieces[0]);
    auto* frontier1 = static_cast<int32_t*>(pieces[1]);
    const int32_t limit = cpu::iteration_limit(options.max_iterations, n);
    DeviceState* s = &state;

    return {{"init",
             [=] {
                 CCL4J_CUDA_CHECK(cudaMemsetAsync(colour, 0xff, static_cast<size_t>(n) * sizeof(int32_t), s->stream));
                 return 0;
             }},
            // Launch t expands frontiers[(t + 1) % 2], which launch t - 1 filled, into frontiers[t % 2].
            {"search", [=] {
                 int32_t* frontiers[2] = {frontier0, frontier1};
                 return iterate(*s, control, limit, kMaxBatch, "Hawick kernel 3", [&](int32_t t) {
                     search_step<<<grid, block, 0, s->stream>>>(offsets, neighbors, n, colour, frontiers[(t + 1) % 2],
                                                                 frontiers[t % 2], LoopLaunch{control, t, limit});
                     check_launch("Hawick kernel 3 search");
                 });
             }}};
}

}  // namespace

namespace detail {

PhasePlan hawick_edge_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels, const LabelOptions& options) {
    return graph.offset_width == 4 ? edge_plan<int32_t>(state, graph, labels, options)
                                   : edge_plan<int64_t>(state, graph, labels, options);
}

PhasePlan hawick_vertex_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels,
                             const LabelOptions& options) {
    return graph.offset_width == 4 ? vertex_plan<int32_t>(state, graph, labels, options)
                                   : vertex_plan<int64_t>(state, graph, labels, options);
}

PhasePlan hawick_bfs_plan(DeviceState& state, const DeviceCsr& graph, int32_t* labels, const LabelOptions& options) {
    return graph.offset_width == 4 ? bfs_plan<int32_t>(state, graph, labels, options)
                                   : bfs_plan<int64_t>(state, graph, labels, options);
}

}  // namespace detail

}  // namespace ccl4j::cuda
