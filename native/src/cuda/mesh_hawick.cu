// Hawick, Leist & Playne 2010, section 5.2: the mesh kernels A-D on the GPU, for 2D and 3D meshes,
// every connectivity, periodic axes, foreground and same-value modes.
//
// Labels start as the cell's own index (-1 for background) and only decrease, always to the
// index of a cell of the same cluster; so when no labelled cell has a connected neighbour with a
// smaller label, every cluster carries the index of its smallest cell: the canonical labels.
// A pass moves the smallest label at least one cell further along any path of its cluster
// (B and C further, D follows whole chains of labels), so the loop ends within n + 1 passes.
//  A: every cell takes the smallest label among itself and its connected neighbours.
//  B: the same, then in shared memory within a tile until the tile is settled (Algorithm 6).
//  C: one thread per line of cells along an axis carries labels down the line; a pass is one
//     launch per direction of each axis (Algorithm 7). With 8 or 26 connectivity a cell also
//     takes the labels of its diagonal neighbours in the layer it comes from.
//  D: scanning records, for each label in use, the smallest label next to it (atomicMin into an
//     equivalence array R); analysis lets each label follow R to the end of its chain;
//     labelling replaces every cell's label by that end (Algorithm 8).
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/error.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/loop_device.cuh"
#include "cuda/mesh_device.cuh"

namespace ccl4j::cuda::mesh {
namespace {

template <class Cell>
__global__ void init_labels(Geometry g, const Cell* __restrict__ cells, int32_t* __restrict__ labels,
                            int32_t* __restrict__ equivalence) {
    const int32_t n = g.cells();
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        const int32_t i = static_cast<int32_t>(u);
        labels[i] = labelled(g, cells[i]) ? i : -1;
        if (equivalence) equivalence[i] = i;
    }
}

// The smallest label among the connected neighbours of labelled cell i (value v) whose offset k
// passes `use(k)`; INT32_MAX when there is none.
template <class Cell, class Use>
__device__ __forceinline__ int32_t neighbour_minimum(const Geometry& g, const Cell* __restrict__ cells, int32_t* labels,
                                                     int32_t i, Cell v, Use use) {
    int32_t x, y, z;
    coordinates(g, i, x, y, z);
    int32_t smallest = INT32_MAX;
#pragma unroll
    for (int k = 0; k < 27; ++k) {
        int32_t nx, ny, nz;
        if (!in_stencil(g.connectivity, k) || !use(k) || !neighbour(g, x, y, z, k, nx, ny, nz)) continue;
        const int32_t j = index_of(g, nx, ny, nz);
        if (connected(g, v, cells[j])) smallest = min(smallest, load_relaxed(&labels[j]));
    }
    return smallest;
}

__device__ __forceinline__ bool all_offsets(int) { return true; }

// Kernels A and C: lowers labelled cell i's label to the smallest label of its connected
// neighbours at the offsets `use` admits; returns whether it changed.
template <class Cell, class Use>
__device__ __forceinline__ bool take_neighbour_minimum(const Geometry& g, const Cell* __restrict__ cells,
                                                       int32_t* labels, int32_t i, Use use) {
    const Cell v = cells[i];
    if (!labelled(g, v)) return false;
    const int32_t own = load_relaxed(&labels[i]);
    const int32_t smallest = neighbour_minimum(g, cells, labels, i, v, use);
    if (smallest >= own) return false;
    store_relaxed(&labels[i], smallest);
    return true;
}

// Sets the pass's change flag when any thread of the block saw a change (every thread calls it).
__device__ __forceinline__ void report_change(const LoopLaunch& pass, bool changed) {
    if (__syncthreads_or(changed) && threadIdx.x + threadIdx.y + threadIdx.z == 0) pass.changed();
}

// ---- kernel A -----------------------------------------------------------------------------------

template <class Cell>
__global__ void propagate_neighbours(Geometry g, const Cell* __restrict__ cells, int32_t* labels, LoopLaunch pass) {
    if (!pass.begin()) return;
    const int32_t n = g.cells();
    bool changed = false;
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        changed |= take_neighbour_minimum(g, cells, labels, static_cast<int32_t>(u), all_offsets);
    }
    report_change(pass, changed);
}

// ---- kernel B -----------------------------------------------------------------------------------

// A block is a tile of tile x tile (x tile_z) cells, one thread per cell. The cell first takes the
// smallest label around it from global memory (kernel A's step), then the tile's labels are
// relaxed in shared memory over the connected neighbours inside the tile until none changes.
template <class Cell>
__global__ void propagate_tiles(Geometry g, const Cell* __restrict__ cells, int32_t* labels, LoopLaunch pass, int32_t tile,
                                int32_t tile_z) {
    extern __shared__ int32_t tile_labels[];
    if (!pass.begin()) return;
    const int32_t tiles_x = (g.width + tile - 1) / tile;
    const int32_t tiles_y = (g.height + tile - 1) / tile;
    const int32_t x0 = static_cast<int32_t>(blockIdx.x % tiles_x) * tile;
    const int32_t y0 = static_cast<int32_t>(blockIdx.x / tiles_x % tiles_y) * tile;
    const int32_t z0 = static_cast<int32_t>(blockIdx.x / tiles_x / tiles_y) * tile_z;
    const int32_t x = x0 + threadIdx.x, y = y0 + threadIdx.y, z = z0 + threadIdx.z;
    const int32_t local = threadIdx.x + tile * (threadIdx.y + tile * threadIdx.z);
    const bool inside = x < g.width && y < g.height && z < g.depth;
    const int32_t i = inside ? index_of(g, x, y, z) : 0;
    const Cell v = inside ? cells[i] : Cell(0);
    const bool is_labelled = inside && labelled(g, v);
    int32_t own = -1;
    int32_t label = -1;
    uint32_t in_tile = 0;  // bit k: the neighbour at offset k is connected and inside this tile
    if (is_labelled) {
        own = load_relaxed(&labels[i]);
        label = own;
        for (int k = 0; k < 27; ++k) {
            int32_t nx, ny, nz;
            if (!in_stencil(g.connectivity, k) || !neighbour(g, x, y, z, k, nx, ny, nz)) continue;
            const int32_t j = index_of(g, nx, ny, nz);
            if (!connected(g, v, cells[j])) continue;
            label = min(label, load_relaxed(&labels[j]));
            if (nx >= x0 && nx < x0 + tile && ny >= y0 && ny < y0 + tile && nz >= z0 && nz < z0 + tile_z) {
                in_tile |= 1u << k;
            }
        }
    }
    tile_labels[local] = label;
    for (;;) {
        __syncthreads();
        int32_t best = label;
        for (uint32_t bits = in_tile; bits != 0; bits &= bits - 1) {
            const int k = __ffs(bits) - 1;
            int32_t nx, ny, nz;
            neighbour(g, x, y, z, k, nx, ny, nz);
            best = min(best, tile_labels[(nx - x0) + tile * ((ny - y0) + tile * (nz - z0))]);
        }
        if (!__syncthreads_or(best < label)) break;
        label = best;
        tile_labels[local] = label;
    }
    const bool changed = is_labelled && label < own;
    if (changed) store_relaxed(&labels[i], label);
    report_change(pass, changed);
}

// ---- kernel C -----------------------------------------------------------------------------------

// One thread per line of cells along `axis`, walking it in `direction` (+1 or -1): each cell takes
// the smallest label of its connected neighbours in the layer behind it (the previous cell of the
// line, and with 8 or 26 connectivity the diagonal ones), which the walk has just lowered.
template <class Cell>
__global__ void propagate_lines(Geometry g, const Cell* __restrict__ cells, int32_t* labels, LoopLaunch pass, int axis,
                                int direction, bool first) {
    if (first ? !pass.begin() : !pass.active()) return;
    const int32_t length = axis == 0 ? g.width : axis == 1 ? g.height : g.depth;
    const int32_t stride = axis == 0 ? 1 : axis == 1 ? g.width : g.width * g.height;
    const int32_t lines = g.cells() / length;
    auto behind = [axis, direction](int k) {
        return (axis == 0 ? dx_of(k) : axis == 1 ? dy_of(k) : dz_of(k)) == -direction;
    };
    bool changed = false;
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(lines); u += thread_count()) {
        const int32_t line = static_cast<int32_t>(u);
        // The first cell of the line: lines along x are rows; along y, (x, z); along z, (x, y).
        const int32_t start = axis == 0   ? line * g.width
                              : axis == 1 ? line % g.width + g.width * g.height * (line / g.width)
                                          : line;
        for (int32_t s = 0; s < length; ++s) {
            const int32_t i = start + (direction > 0 ? s : length - 1 - s) * stride;
            changed |= take_neighbour_minimum(g, cells, labels, i, behind);
        }
    }
    report_change(pass, changed);
}

// ---- kernel D -----------------------------------------------------------------------------------

template <class Cell>
__global__ void scan_equivalences(Geometry g, const Cell* __restrict__ cells, int32_t* labels,
                                  int32_t* equivalence, LoopLaunch pass) {
    if (!pass.begin()) return;
    const int32_t n = g.cells();
    bool changed = false;
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        const int32_t i = static_cast<int32_t>(u);
        const Cell v = cells[i];
        if (!labelled(g, v)) continue;
        const int32_t own = load_relaxed(&labels[i]);
        const int32_t smallest = neighbour_minimum(g, cells, labels, i, v, all_offsets);
        if (smallest < own) {
            atomicMin(&equivalence[own], smallest);
            changed = true;
        }
    }
    report_change(pass, changed);
}

// Each label in use (the cell whose index it is still carries it) follows the equivalence chain
// to its end. Only label i's thread writes R[i], always a smaller label of the same cluster.
__global__ void analyse_equivalences(int32_t n, const int32_t* __restrict__ labels, int32_t* equivalence, LoopLaunch pass) {
    if (!pass.active()) return;
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        const int32_t i = static_cast<int32_t>(u);
        if (labels[i] != i) continue;
        int32_t end = load_relaxed(&equivalence[i]);
        for (int32_t next; (next = load_relaxed(&equivalence[end])) != end;) end = next;
        store_relaxed(&equivalence[i], end);
    }
}

__global__ void relabel(int32_t n, int32_t* __restrict__ labels, const int32_t* __restrict__ equivalence, LoopLaunch pass) {
    if (!pass.active()) return;
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        const int32_t label = labels[u];
        if (label >= 0) labels[u] = equivalence[label];
    }
}

// ---- host side ----------------------------------------------------------------------------------

// Launches of kernels A-D are grid-stride over the cells (or lines): at most a device's worth of
// blocks, each block reporting a change once.
template <class Cell>
Phase init_phase(Call& call, const Cell* cells, int32_t* equivalence) {
    return launch_phase("init", "mesh init", [&call, cells, equivalence] {
        const int block = call.block();
        init_labels<Cell><<<call.grid(block, call.geometry.cells()), block, 0, call.state.stream>>>(
            call.geometry, cells, call.labels, equivalence);
    });
}

// The host waits for the device once per batch of up to this many passes of kernels A-C.
constexpr int64_t kPropagationBatch = 1024;

// The phase of a fixpoint loop: its passes run from pass 0 (on a fresh LoopControl) to the end.
template <class LaunchPass>
Phase loop_phase(Call& call, const char* name, int64_t max_batch, LaunchPass launch_pass) {
    return {name, [&call, max_batch, launch_pass] {
                LoopControl* control = loop_control(call.state);
                return iterate(call.state, control, call.limit, max_batch, "the mesh labelling",
                               [&](int32_t t) { launch_pass(control, t); });
            }};
}

}  // namespace

PhasePlan neighbour_propagation(Call& call) {
    PhasePlan plan;
    with_cells(call, [&](auto cells) {
        using Cell = std::remove_const_t<std::remove_pointer_t<decltype(cells)>>;
        plan.push_back(init_phase(call, cells, nullptr));
        const int block = call.block();
        const int grid = call.grid(block, call.geometry.cells());
        plan.push_back(loop_phase(call, "propagate", kPropagationBatch,
                                  [&call, cells, grid, block](LoopControl* control, int32_t t) {
                                      propagate_neighbours<Cell><<<grid, block, 0, call.state.stream>>>(
                                          call.geometry, cells, call.labels, LoopLaunch{control, t, call.limit});
                                      check_launch("mesh kernel A");
                                  }));
    });
    return plan;
}

PhasePlan local_propagation(Call& call) {
    const Geometry& g = call.geometry;
    const bool flat = g.depth == 1;
    const int32_t tile = call.tuning.tile_size ? call.tuning.tile_size : (flat ? 16 : 8);
    const int32_t tile_z = flat ? 1 : tile;
    if (tile < 1 || tile > 32 || tile * tile * tile_z > 1024) {
        fail(CCL4J_INVALID_ARGUMENT, "tile_size must be 0 or a tile edge whose tile has at most 1024 cells (" +
                                         std::string(flat ? "up to 32 in 2D" : "up to 10 in 3D") + "), got " +
                                         std::to_string(call.tuning.tile_size));
    }
    const int64_t tiles = int64_t((g.width + tile - 1) / tile) * ((g.height + tile - 1) / tile) *
                          ((g.depth + tile_z - 1) / tile_z);
    const dim3 block(tile, tile, tile_z);
    const size_t shared = sizeof(int32_t) * tile * tile * tile_z;
    PhasePlan plan;
    with_cells(call, [&](auto cells) {
        using Cell = std::remove_const_t<std::remove_pointer_t<decltype(cells)>>;
        plan.push_back(init_phase(call, cells, nullptr));
        plan.push_back(loop_phase(call, "propagate", kPropagationBatch,
                                  [&call, cells, tiles, block, shared, tile, tile_z](LoopControl* control, int32_t t) {
                                      propagate_tiles<Cell><<<static_cast<unsigned>(tiles), block, shared,
                                                              call.state.stream>>>(call.geometry, cells, call.labels,
                                                                                   LoopLaunch{control, t, call.limit}, tile,
                                                                                   tile_z);
                                      check_launch("mesh kernel B");
                                  }));
    });
    return plan;
}

PhasePlan directional_propagation(Call& call) {
    const Geometry& g = call.geometry;
    const int axes = g.depth > 1 ? 3 : 2;
    const int block = call.block();
    PhasePlan plan;
    with_cells(call, [&](auto cells) {
        using Cell = std::remove_const_t<std::remove_pointer_t<decltype(cells)>>;
        plan.push_back(init_phase(call, cells, nullptr));
        plan.push_back(loop_phase(call, "propagate", kPropagationBatch,
                                  [&call, cells, axes, block](LoopControl* control, int32_t t) {
                                      const Geometry& g = call.geometry;
                                      for (int axis = 0; axis < axes; ++axis) {
                                          const int32_t length = axis == 0 ? g.width : axis == 1 ? g.height : g.depth;
                                          const int grid = call.grid(block, g.cells() / length);
                                          for (int direction : {1, -1}) {
                                              propagate_lines<Cell><<<grid, block, 0, call.state.stream>>>(
                                                  g, cells, call.labels, LoopLaunch{control, t, call.limit}, axis,
                                                  direction, axis == 0 && direction == 1);
                                              check_launch("mesh kernel C");
                                          }
                                      }
                                  }));
    });
    return plan;
}

PhasePlan label_equivalence(Call& call) {
    const int block = call.block();
    const int grid = call.grid(block, call.geometry.cells());
    int32_t* equivalence = call.scratch;
    PhasePlan plan;
    with_cells(call, [&](auto cells) {
        using Cell = std::remove_const_t<std::remove_pointer_t<decltype(cells)>>;
        plan.push_back(init_phase(call, cells, equivalence));
        // Each pass's three kernels are timed as phases of a labelling call, so batches stay small
        // (three events a pass); a per-phase run times the whole loop.
        plan.push_back(loop_phase(call, "iterate", 16,
                                  [&call, cells, equivalence, grid, block](LoopControl* control, int32_t t) {
                                      const Geometry& g = call.geometry;
                                      const LoopLaunch pass{control, t, call.limit};
                                      scan_equivalences<Cell><<<grid, block, 0, call.state.stream>>>(
                                          g, cells, call.labels, equivalence, pass);
                                      check_launch("mesh kernel D scanning");
                                      call.state.clock->end_phase("scan");
                                      analyse_equivalences<<<grid, block, 0, call.state.stream>>>(
                                          g.cells(), call.labels, equivalence, pass);
                                      check_launch("mesh kernel D analysis");
                                      call.state.clock->end_phase("analysis");
                                      relabel<<<grid, block, 0, call.state.stream>>>(g.cells(), call.labels,
                                                                                     equivalence, pass);
                                      check_launch("mesh kernel D labelling");
                                      call.state.clock->end_phase("labelling");
                                  }));
    });
    return plan;
}

}  // namespace ccl4j::cuda::mesh
