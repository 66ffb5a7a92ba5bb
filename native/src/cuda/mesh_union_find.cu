// The two GPU mesh algorithms without a fixpoint loop, both built on union-find trees in which
// every entry points to a cell of the same cluster with a smaller or equal index, so that the
// root of a tree is its smallest cell and following the entries to the root gives the canonical
// label.
//
// Komura 2015/2016 (the lattice form of the generalized algorithm, komura2016 section 2-3):
//  (i)   init: label[i] = the smallest of i and its connected neighbours with a smaller index;
//  (ii)  analysis: label[i] = label[label[i]] until it no longer changes;
//  (iii) label reduction: for each other connected neighbour j < i (the residual list, recomputed
//        from the stencil instead of stored), the trees of i and j are joined with atomicMin
//        (his Algorithm 1, `unite` in mesh_device.cuh);
//  (iv)  analysis again.
//
// Block union-find (after Playne & Hawick 2018, "A new algorithm for parallel connected-component
// labelling on GPUs"): a block labels one tile of cells in shared memory first, so that only the
// connections across tile borders touch global memory:
//  local:    the tile's cells and a union-find over them in shared memory: runs of connected
//            cells along each row by warp ballot, then the other connections inside the tile
//            (those not implied by their left neighbours'); each cell's entry in the global
//            tree is then the global index of its tile-local root (a tile-local root is the
//            smallest cell of its tile-local cluster, since local order follows global order);
//  merge:    the cells on tile borders join their connected lower-half neighbours in other tiles
//            in the global tree (periodic wrap-around included), halving the paths they walk;
//            with face connectivity a warp takes a row or a 32-cell piece of column of a border;
//  finalize: every cell's label is the root of its tree, read from the tree into the label array
//            (the tree is not written meanwhile, so plain cached loads suffice).
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "cuda/cuda_check.hpp"
#include "cuda/mesh_device.cuh"

namespace ccl4j::cuda::mesh {
namespace {

// ---- Komura -------------------------------------------------------------------------------------

// The smallest connected neighbour of labelled cell i below i (i itself when there is none); with
// `each`, also calls each(j) for every other such neighbour.
template <class Cell, class Each>
__device__ __forceinline__ int32_t lower_neighbours(const Geometry& g, const Cell* __restrict__ cells, int32_t i,
                                                    Cell v, Each each) {
    int32_t x, y, z;
    coordinates(g, i, x, y, z);
    int32_t smallest = i;
#pragma unroll
    for (int k = 0; k < 27; ++k) {
        int32_t nx, ny, nz;
        if (!in_stencil(g.connectivity, k) || !neighbour(g, x, y, z, k, nx, ny, nz)) continue;
        const int32_t j = index_of(g, nx, ny, nz);
        if (j < i && connected(g, v, cells[j])) smallest = min(smallest, j);
    }
#pragma unroll
    for (int k = 0; k < 27; ++k) {
        int32_t nx, ny, nz;
        if (!in_stencil(g.connectivity, k) || !neighbour(g, x, y, z, k, nx, ny, nz)) continue;
        const int32_t j = index_of(g, nx, ny, nz);
        if (j < i && j != smallest && connected(g, v, cells[j])) each(j);
    }
    return smallest;
}

template <class Cell>
__global__ void komura_init(Geometry g, const Cell* __restrict__ cells, int32_t* __restrict__ labels) {
    const int32_t n = g.cells();
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        const int32_t i = static_cast<int32_t>(u);
        const Cell v = cells[i];
        labels[i] = labelled(g, v) ? lower_neighbours(g, cells, i, v, [](int32_t) {}) : -1;
    }
}

// Steps (ii) and (iv). Only i's thread writes labels[i], always a root reachable from it.
__global__ void komura_analysis(int32_t n, int32_t* labels) {
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        const int32_t i = static_cast<int32_t>(u);
        const int32_t label = load_relaxed(&labels[i]);
        if (label < 0) continue;
        int32_t root = label;
        for (int32_t next; (next = load_relaxed(&labels[root])) != root;) root = next;
        if (root != label) store_relaxed(&labels[i], root);
    }
}

template <class Cell>
__global__ void komura_reduction(Geometry g, const Cell* __restrict__ cells, int32_t* labels) {
    const int32_t n = g.cells();
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        const int32_t i = static_cast<int32_t>(u);
        const Cell v = cells[i];
        if (!labelled(g, v)) continue;
        lower_neighbours(g, cells, i, v, [&](int32_t j) { unite(labels, i, j, load_relaxed); });
    }
}

// ---- block union-find ---------------------------------------------------------------------------

// Tile shapes: 32 x 32 cells in 2D, 32 x 8 x 8 in 3D; a row of 32 cells is read and written by
// one warp. Each thread takes kCellsPerThread cells of the tile.
template <int TX_, int TY_, int TZ_>
struct Tile {
    static constexpr int TX = TX_, TY = TY_, TZ = TZ_;
    static constexpr int kCells = TX * TY * TZ;
    static constexpr int kThreads = kCells / 4;
};
using Tile2D = Tile<32, 32, 1>;
using Tile3D = Tile<32, 8, 8>;

__device__ __forceinline__ int32_t load_shared(int32_t* p) {
    return ::cuda::atomic_ref<int32_t, ::cuda::thread_scope_block>(*p).load(::cuda::std::memory_order_relaxed);
}

// The tile of block b and the global coordinates of its cell l.
template <class T>
struct TilePlace {
    int32_t x0, y0, z0;

    __device__ TilePlace(const Geometry& g, uint32_t b) {
        const uint32_t tiles_x = (g.width + T::TX - 1) / T::TX;
        const uint32_t tiles_y = (g.height + T::TY - 1) / T::TY;
        x0 = static_cast<int32_t>(b % tiles_x) * T::TX;
        y0 = static_cast<int32_t>(b / tiles_x % tiles_y) * T::TY;
        z0 = static_cast<int32_t>(b / tiles_x / tiles_y) * T::TZ;
    }
    __device__ static int lx(int l) { return l % T::TX; }
    __device__ static int ly(int l) { return l / T::TX % T::TY; }
    __device__ static int lz(int l) { return l / (T::TX * T::TY); }
    __device__ bool contains(int32_t x, int32_t y, int32_t z) const {
        return x >= x0 && x < x0 + T::TX && y >= y0 && y < y0 + T::TY && z >= z0 && z < z0 + T::TZ;
    }
    __device__ int local(int32_t x, int32_t y, int32_t z) const {
        return (x - x0) + T::TX * ((y - y0) + T::TY * (z - z0));
    }
};

constexpr uint32_t kFullMask = 0xffffffffu;
constexpr int kLeft = 12;  // the offset (-1, 0, 0)

// The local step for face connectivity in foreground mode when no periodic axis fits in the tile
// (the common case), on bit masks of the rows: a cell's lower-half neighbours in the tile are
// then the adjacent cells to the left, above (y - 1) and behind (z - 1), and two labelled cells
// are connected. A warp computes which of its row's vertical connections are needed with a few
// mask operations, and only those lanes walk the trees; the rest is shared by each run. Run
// starts are the only cells ever hooked or walked: the other cells keep pointing at their start.
template <class Cell, class T>
__device__ __forceinline__ void local_union_faces(const Geometry& g, const TilePlace<T>& tile,
                                                  const Cell* __restrict__ cells, int32_t* __restrict__ parent,
                                                  int32_t* tree, uint32_t* labelled_rows, uint32_t* joins_rows) {
    constexpr int kRows = T::TY * T::TZ;
    constexpr int kWarps = T::kThreads / 32;
    constexpr int kRowsPerWarp = kRows / kWarps;
    static_assert(kRows % kWarps == 0, "every warp takes the same number of rows");
    const int lane = threadIdx.x % 32;
    const uint32_t up_to_lane = (2u << lane) - 1;
    const int32_t x = tile.x0 + lane;
    // All of the warp's rows are read before the first is used, so that their loads are in
    // flight together.
    bool on_row[kRowsPerWarp];
#pragma unroll
    for (int k = 0; k < kRowsPerWarp; ++k) {
        const int r = threadIdx.x / 32 + k * kWarps;
        const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
        on_row[k] = x < g.width && y < g.height && z < g.depth && cells[index_of(g, x, y, z)] != 0;
    }
#pragma unroll
    for (int k = 0; k < kRowsPerWarp; ++k) {
        const int r = threadIdx.x / 32 + k * kWarps;
        const bool on = on_row[k];
        const uint32_t labelled_row = __ballot_sync(kFullMask, on);
        const uint32_t joins = labelled_row & (labelled_row << 1);  // bit x: x and x - 1 labelled
        tree[r * 32 + lane] = on ? r * 32 + (31 - __clz(~joins & up_to_lane)) : -1;
        if (lane == 0) {
            labelled_rows[r] = labelled_row;
            joins_rows[r] = joins;
        }
    }
    __syncthreads();
    // The connection of x to row q is needed unless x - 1 has the same one and both rows join x
    // to x - 1 (as in the general path): one union per overlap of a run with a run of row q.
    for (int r = threadIdx.x / 32; r < kRows; r += kWarps) {
        const uint32_t labelled_row = labelled_rows[r], joins = joins_rows[r];
        const int start = r * 32 + (31 - __clz(~joins & up_to_lane));
        const auto join_row = [&](int q) {
            const uint32_t joins_q = joins_rows[q];
            const uint32_t needed = labelled_row & labelled_rows[q] & ~(joins & joins_q);
            if ((needed >> lane) & 1) unite<true>(tree, start, q * 32 + (31 - __clz(~joins_q & up_to_lane)), load_shared);
        };
        if (r % T::TY > 0) join_row(r - 1);
        if (T::TZ > 1 && r >= T::TY) join_row(r - T::TY);
    }
    __syncthreads();
    // Each run start walks to its root; the run's other cells take it from the start's lane.
    for (int r = threadIdx.x / 32; r < kRows; r += kWarps) {
        const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
        if (y >= g.height || z >= g.depth) continue;  // the whole row is outside the mesh
        const uint32_t labelled_row = labelled_rows[r], joins = joins_rows[r];
        int32_t root = -1;
        if (((labelled_row & ~joins) >> lane) & 1) {
            root = r * 32 + lane;
            for (int32_t next; (next = tree[root]) != root;) root = next;
            root = index_of(g, tile.x0 + tile.lx(root), tile.y0 + tile.ly(root), tile.z0 + tile.lz(root));
        }
        root = __shfl_sync(kFullMask, root, 31 - __clz(~joins & up_to_lane));
        if (x < g.width) parent[index_of(g, x, y, z)] = ((labelled_row >> lane) & 1) ? root : -1;
    }
}

// A warp takes a row of 32 cells at a time (threadIdx.x % 32 is the cell's x in the tile).
//  1. Runs: each maximal run of connected cells along a row hangs from its first cell, found with
//     one ballot: no tree deeper than one from the row direction.
//  2. Every other lower-half connection inside the tile is a union in shared memory, with path
//     halving. A connection of cell l to m at an offset without x component is left out when
//     l and m both continue the runs of their left neighbours: then l-1 and m-1 are connected by
//     the same offset, and that union (or the one it leaves to its own left) joins the same trees.
//  3. Each cell's entry in the global tree: the global index of its tile-local root.
template <class Cell, class T, int kConnectivity>
__global__ void __launch_bounds__(T::kThreads) local_union(Geometry g, const Cell* __restrict__ cells,
                                                           int32_t* __restrict__ parent) {
    static_assert(T::TX == 32, "a tile row is a warp");
    constexpr int kRows = T::TY * T::TZ;
    constexpr int kWarps = T::kThreads / 32;
    __shared__ int32_t tree[T::kCells];
    __shared__ Cell value[T::kCells];
    __shared__ uint32_t joins_left[kRows];  // bit x: cell x of the row is connected to cell x - 1
    const TilePlace<T> tile(g, blockIdx.x);
    const int lane = threadIdx.x % 32;
    const int32_t x = tile.x0 + lane;
    // A periodic axis no longer than the tile brings wrap-around neighbours into it.
    const bool wraps_inside = (g.periodic_x && g.width <= T::TX) || (g.periodic_y && g.height <= T::TY) ||
                              (g.periodic_z && g.depth <= T::TZ);
    if ((kConnectivity == 4 || kConnectivity == 6) && !g.same_value && !wraps_inside) {
        __shared__ uint32_t labelled_rows[kRows];
        local_union_faces<Cell, T>(g, tile, cells, parent, tree, labelled_rows, joins_left);
        return;
    }
    for (int r = threadIdx.x / 32; r < kRows; r += kWarps) {
        const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
        const bool inside = x < g.width && y < g.height && z < g.depth;
        const Cell v = inside ? cells[index_of(g, x, y, z)] : Cell(0);
        const bool is_labelled = inside && labelled(g, v);
        const Cell left = static_cast<Cell>(__shfl_up_sync(kFullMask, static_cast<int32_t>(v), 1));
        const bool left_labelled = __shfl_up_sync(kFullMask, static_cast<int32_t>(is_labelled), 1) != 0;
        const uint32_t joins = __ballot_sync(kFullMask, lane > 0 && is_labelled && left_labelled && connected(g, v, left));
        // Lane 0 never joins its left, so some run starts at or below every lane.
        const uint32_t starts = ~joins & ((2u << lane) - 1);
        value[r * 32 + lane] = v;
        tree[r * 32 + lane] = is_labelled ? r * 32 + (31 - __clz(starts)) : -1;
        if (lane == 0) joins_left[r] = joins;
    }
    __syncthreads();
    for (int r = threadIdx.x / 32; r < kRows; r += kWarps) {
        const int l = r * 32 + lane;
        if (load_shared(&tree[l]) < 0) continue;  // background or outside: never joined
        const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
        const Cell v = value[l];
        const bool continues_run = (joins_left[r] >> lane) & 1;
#pragma unroll
        for (int k = 0; k < kCentre; ++k) {
            if (!in_stencil(kConnectivity, k)) continue;
            int m;
            if (!wraps_inside) {
                // No periodic neighbour lies in this tile: the neighbour is the adjacent cell,
                // when that is in the tile and in the mesh (offsets of the lower half never
                // decrease z below the tile's cells' own).
                const int ly = r % T::TY, lz = r / T::TY;
                const int nlx = lane + dx_of(k), nly = ly + dy_of(k), nlz = lz + dz_of(k);
                if (k == kLeft || nlx < 0 || nlx >= T::TX || nly < 0 || nly >= T::TY || nlz < 0 ||
                    x + dx_of(k) >= g.width || y + dy_of(k) >= g.height) {
                    continue;  // (the left neighbour: within the row's runs)
                }
                m = l + dx_of(k) + T::TX * (dy_of(k) + T::TY * dz_of(k));
            } else {
                int32_t nx, ny, nz;
                if (!neighbour(g, x, y, z, k, nx, ny, nz) || !tile.contains(nx, ny, nz)) continue;
                if (k == kLeft && nx == x - 1) continue;  // within the row's runs
                m = tile.local(nx, ny, nz);
            }
            if (!connected(g, v, value[m])) continue;
            if (dx_of(k) == 0 && continues_run && ((joins_left[m / 32] >> lane) & 1)) continue;
            unite<true>(tree, l, m, load_shared);
        }
    }
    __syncthreads();
    for (int r = threadIdx.x / 32; r < kRows; r += kWarps) {
        const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
        if (x >= g.width || y >= g.height || z >= g.depth) continue;
        int32_t root = tree[r * 32 + lane];
        if (root >= 0) {
            for (int32_t next; (next = tree[root]) != root;) root = next;
            root = index_of(g, tile.x0 + tile.lx(root), tile.y0 + tile.ly(root), tile.z0 + tile.lz(root));
        }
        parent[index_of(g, x, y, z)] = root;
    }
}

// Only cells on a tile's border can have lower-half neighbours outside it: on its low faces, and
// with diagonal connectivity on its high x and y faces (offsets (+1, -1, *) and (*, +1, -1)) and
// at the mesh's last column and row (their periodic neighbours). Other threads skip at once.
template <class T, int kConnectivity>
__device__ __forceinline__ bool on_border(const Geometry& g, int l, int32_t x, int32_t y) {
    constexpr bool diagonal = kConnectivity == 8 || kConnectivity == 26;
    const int lx = l % T::TX, ly = l / T::TX % T::TY, lz = l / (T::TX * T::TY);
    if (lx == 0 || ly == 0 || (T::TZ > 1 && lz == 0)) return true;
    return diagonal && (lx == T::TX - 1 || ly == T::TY - 1 || x == g.width - 1 || y == g.height - 1);
}

template <class Cell, class T, int kConnectivity>
__global__ void __launch_bounds__(T::kThreads) merge_tiles(Geometry g, const Cell* __restrict__ cells,
                                                           int32_t* parent) {
    const TilePlace<T> tile(g, blockIdx.x);
    for (int l = threadIdx.x; l < T::kCells; l += T::kThreads) {
        const int32_t x = tile.x0 + tile.lx(l), y = tile.y0 + tile.ly(l), z = tile.z0 + tile.lz(l);
        if (!on_border<T, kConnectivity>(g, l, x, y) || x >= g.width || y >= g.height || z >= g.depth) continue;
        const int32_t i = index_of(g, x, y, z);
        const Cell v = cells[i];
        if (!labelled(g, v)) continue;
#pragma unroll
        for (int k = 0; k < kCentre; ++k) {
            int32_t nx, ny, nz;
            if (!in_stencil(kConnectivity, k) || !neighbour(g, x, y, z, k, nx, ny, nz) || tile.contains(nx, ny, nz)) {
                continue;
            }
            const int32_t j = index_of(g, nx, ny, nz);
            const Cell w = cells[j];
            if (!connected(g, v, w)) continue;
            // As in the local step, a connection is left out when the same offset connects the
            // cells next to both ends, and each end is joined to its cell within its own tile:
            // to the left for offsets without x component (the left cells are on the same border),
            // above for the x-border's left offset (the cells above are on it too).
            if (dx_of(k) == 0 && x > tile.x0 && connected(g, v, cells[i - 1]) && connected(g, w, cells[j - 1])) {
                continue;
            }
            if (k == kLeft && y > tile.y0 && connected(g, v, cells[i - g.width]) &&
                connected(g, w, cells[j - g.width])) {
                continue;
            }
            unite<true>(parent, i, j, load_relaxed);
        }
    }
}

// The merge for face connectivity (4, 6), where only the low faces have neighbours in other
// tiles, with a warp per piece of border instead of a block per tile: the rows at y == 0 or z == 0
// of the tile (their offsets (0, -1, 0) and (0, 0, -1)), and the column at x == 0 in pieces of 32
// cells (offset (-1, 0, 0)). Each connection is left out as in merge_tiles when implied.
template <class T>
struct FacePieces {
    static constexpr int kRows = T::TZ > 1 ? T::TZ + T::TY - 1 : 1;  // y == 0 (each z), then z == 0 (y > 0)
    static constexpr int kColumns = (T::TY * T::TZ + 31) / 32;
    static constexpr int kPerTile = kRows + kColumns;
};

template <class Cell, class T, int kConnectivity>
__global__ void merge_faces(Geometry g, const Cell* __restrict__ cells, int32_t* parent, uint32_t tiles) {
    using Pieces = FacePieces<T>;
    const uint32_t warp = thread_index() / 32;
    if (warp >= tiles * Pieces::kPerTile) return;
    const TilePlace<T> tile(g, warp / Pieces::kPerTile);
    const int piece = warp % Pieces::kPerTile;
    const int lane = threadIdx.x % 32;
    if (piece < Pieces::kRows) {
        const int ly = piece < T::TZ ? 0 : piece - T::TZ + 1;
        const int lz = piece < T::TZ ? piece : 0;
        const int32_t x = tile.x0 + lane, y = tile.y0 + ly, z = tile.z0 + lz;
        if (x >= g.width || y >= g.height || z >= g.depth) return;
        const int32_t i = index_of(g, x, y, z);
        const Cell v = cells[i];
        if (!labelled(g, v)) return;
        for (int k : {4, 10}) {  // (0, 0, -1) and (0, -1, 0)
            int32_t nx, ny, nz;
            if (!in_stencil(kConnectivity, k) || !neighbour(g, x, y, z, k, nx, ny, nz) || tile.contains(nx, ny, nz)) {
                continue;
            }
            const int32_t j = index_of(g, nx, ny, nz);
            const Cell w = cells[j];
            if (!connected(g, v, w)) continue;
            if (lane > 0 && connected(g, v, cells[i - 1]) && connected(g, w, cells[j - 1])) continue;
            unite<true>(parent, i, j, load_relaxed);
        }
    } else {
        const int c = (piece - Pieces::kRows) * 32 + lane;
        if (c >= T::TY * T::TZ) return;
        const int ly = c % T::TY, lz = c / T::TY;
        const int32_t x = tile.x0, y = tile.y0 + ly, z = tile.z0 + lz;
        if (y >= g.height || z >= g.depth) return;
        const int32_t i = index_of(g, x, y, z);
        const Cell v = cells[i];
        int32_t nx, ny, nz;
        if (!labelled(g, v) || !neighbour(g, x, y, z, kLeft, nx, ny, nz) || tile.contains(nx, ny, nz)) return;
        const int32_t j = index_of(g, nx, ny, nz);
        const Cell w = cells[j];
        if (!connected(g, v, w)) return;
        if (ly > 0 && connected(g, v, cells[i - g.width]) && connected(g, w, cells[j - g.width])) return;
        unite<true>(parent, i, j, load_relaxed);
    }
}

__global__ void finalize_labels(int32_t n, const int32_t* __restrict__ parent, int32_t* __restrict__ labels) {
    for (uint32_t u = thread_index(); u < static_cast<uint32_t>(n); u += thread_count()) {
        int32_t root = parent[u];
        if (root >= 0) {
            for (int32_t next; (next = parent[root]) != root;) root = next;
        }
        labels[u] = root;
    }
}

template <class Cell, class T, int kConnectivity>
PhasePlan union_find_kernels(Call& call, const Cell* cells) {
    const Geometry& g = call.geometry;
    const int64_t tiles = int64_t((g.width + T::TX - 1) / T::TX) * ((g.height + T::TY - 1) / T::TY) *
                          ((g.depth + T::TZ - 1) / T::TZ);
    PhasePlan plan;
    plan.push_back(launch_phase("local", "mesh union-find local", [&call, cells, tiles] {
        local_union<Cell, T, kConnectivity>
            <<<static_cast<unsigned>(tiles), T::kThreads, 0, call.state.stream>>>(call.geometry, cells, call.scratch);
    }));
    plan.push_back(launch_phase("merge", "mesh union-find merge", [&call, cells, tiles] {
        if (kConnectivity == 4 || kConnectivity == 6) {
            const int64_t threads = tiles * FacePieces<T>::kPerTile * 32;
            merge_faces<Cell, T, kConnectivity><<<static_cast<unsigned>((threads + 255) / 256), 256, 0,
                                                  call.state.stream>>>(call.geometry, cells, call.scratch,
                                                                       static_cast<uint32_t>(tiles));
        } else {
            merge_tiles<Cell, T, kConnectivity>
                <<<static_cast<unsigned>(tiles), T::kThreads, 0, call.state.stream>>>(call.geometry, cells,
                                                                                      call.scratch);
        }
    }));
    plan.push_back(launch_phase("finalize", "mesh union-find finalize", [&call] {
        const int block = call.block();
        const int32_t n = call.geometry.cells();
        finalize_labels<<<call.grid(block, n), block, 0, call.state.stream>>>(n, call.scratch, call.labels);
    }));
    return plan;
}

}  // namespace

PhasePlan komura_lattice(Call& call) {
    const int block = call.block();
    const int grid = call.grid(block, call.geometry.cells());
    PhasePlan plan;
    with_cells(call, [&](auto cells) {
        using Cell = std::remove_const_t<std::remove_pointer_t<decltype(cells)>>;
        plan.push_back(launch_phase("init", "mesh Komura init", [&call, cells, grid, block] {
            komura_init<Cell><<<grid, block, 0, call.state.stream>>>(call.geometry, cells, call.labels);
        }));
        plan.push_back(launch_phase("analysis1", "mesh Komura analysis1", [&call, grid, block] {
            komura_analysis<<<grid, block, 0, call.state.stream>>>(call.geometry.cells(), call.labels);
        }));
        plan.push_back(launch_phase("reduction", "mesh Komura reduction", [&call, cells, grid, block] {
            komura_reduction<Cell><<<grid, block, 0, call.state.stream>>>(call.geometry, cells, call.labels);
        }));
        plan.push_back(launch_phase("analysis2", "mesh Komura analysis2", [&call, grid, block] {
            komura_analysis<<<grid, block, 0, call.state.stream>>>(call.geometry.cells(), call.labels);
        }));
    });
    return plan;
}

PhasePlan block_union_find(Call& call) {
    // Planar meshes (depth 1) use the 2D tile; their connectivity is 4 or 8 (label_mesh maps 6
    // and 26 on a single layer to those).
    const bool flat = call.geometry.depth == 1;
    const bool diagonal = call.geometry.connectivity == 8 || call.geometry.connectivity == 26;
    PhasePlan plan;
    with_cells(call, [&](auto cells) {
        using Cell = std::remove_const_t<std::remove_pointer_t<decltype(cells)>>;
        if (flat) {
            plan = diagonal ? union_find_kernels<Cell, Tile2D, 8>(call, cells)
                            : union_find_kernels<Cell, Tile2D, 4>(call, cells);
        } else {
            plan = diagonal ? union_find_kernels<Cell, Tile3D, 26>(call, cells)
                            : union_find_kernels<Cell, Tile3D, 6>(call, cells);
        }
    });
    return plan;
}

}  // namespace ccl4j::cuda::mesh
