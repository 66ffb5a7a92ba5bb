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
//            cells along each row by warp ballot (at full connectivity, runs of the occupied
//            columns of bundles of 2 or 4 rows), then the connections inside the tile that the
//            runs do not imply; each cell's entry in the global tree is then the global index of
//            its tile-local root (a tile-local root is the smallest cell of its tile-local
//            cluster, since local order follows global order);
//  merge:    the cells on tile borders join their connected neighbours in other tiles in the
//            global tree (periodic wrap-around included), halving the paths they walk from the
//            two cells' entries (so that only tile-local roots are ever written); a warp takes a
//            border row or a 32-cell piece of the border column, and leaves out the connections
//            implied as in the local step;
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
        lower_neighbours(g, cells, i, v, [&](int32_t j) { unite(labels, i, j, RelaxedLoad{}); });
    }
}

// ---- block union-find ---------------------------------------------------------------------------

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

// Sets the bits of a tile row's tile-local roots in the bit mask `roots` (Call::roots): `root` is
// this lane's, `first` the index of the row's first cell. When the mesh's width is a multiple of
// 32, each tile row is one word of the mask, which it writes whole; else the mask was zeroed
// before the local step and the row's bits are set with atomics. The whole warp calls it.
template <class L>
__device__ __forceinline__ void mark_roots(const Geometry& g, uint32_t* roots, L first, bool root) {
    const uint32_t bits = __ballot_sync(kFullMask, root);
    if (threadIdx.x % 32 != 0) return;
    if (g.width % 32 == 0) {
        roots[first >> 5] = bits;
        return;
    }
    if (bits == 0) return;
    const int shift = static_cast<int>(first & 31);
    atomicOr(&roots[first >> 5], bits << shift);
    if (shift != 0 && (bits >> (32 - shift)) != 0) atomicOr(&roots[(first >> 5) + 1], bits >> (32 - shift));
}

// A lane's cell value from the lane before and after it (narrow integers widened to int for the
// shuffle, floats shuffled as floats).
template <class Cell>
__device__ __forceinline__ Cell shuffle_up(Cell v) {
    if constexpr (std::is_floating_point_v<Cell>) return __shfl_up_sync(kFullMask, v, 1);
    else return static_cast<Cell>(__shfl_up_sync(kFullMask, static_cast<int32_t>(v), 1));
}
template <class Cell>
__device__ __forceinline__ Cell shuffle_down(Cell v) {
    if constexpr (std::is_floating_point_v<Cell>) return __shfl_down_sync(kFullMask, v, 1);
    else return static_cast<Cell>(__shfl_down_sync(kFullMask, static_cast<int32_t>(v), 1));
}

// The rows holding a row's lower-half neighbours, as offsets (dy, dz): (-1, 0) in 2D; in 3D also
// (-1, -1), (0, -1) and (1, -1) in the layer below. A row is a neighbour row when its cell at
// the same x is in the stencil; it is wide when the cells at x - 1 and x + 1 are too (8 and 26).
constexpr int kRowOffsets = 4;  // offset o: dy = row_dy(o), dz = row_dz(o)
__host__ __device__ constexpr int row_dy(int o) { return o == 2 ? 0 : o == 3 ? 1 : -1; }
__host__ __device__ constexpr int row_dz(int o) { return o == 0 ? 0 : -1; }

__host__ __device__ constexpr bool neighbour_row(int connectivity, int dy, int dz) {
    return in_stencil(connectivity, offset_of(0, dy, dz)) || in_stencil(connectivity, offset_of(-1, dy, dz));
}
__host__ __device__ constexpr bool wide_row(int connectivity, int dy, int dz) {
    return in_stencil(connectivity, offset_of(-1, dy, dz));
}

// The local step for face connectivity in foreground mode when no periodic axis fits in the tile
// (the common case), on bit masks of the rows: a cell's lower-half neighbours in the tile are
// then the adjacent cells to the left, above (y - 1) and behind (z - 1), and two labelled cells
// are connected. A warp computes which of its row's vertical connections are needed with a few
// mask operations, and only those lanes walk the trees; the rest is shared by each run. Run
// starts are the only cells ever hooked or walked: the other cells keep pointing at their start.
template <class Cell, class T, class L>
__device__ __forceinline__ void local_union_faces(const Geometry& g, const TilePlace<T>& tile,
                                                  const Cell* __restrict__ cells, L* __restrict__ parent,
                                                  uint32_t* roots, int32_t* tree, uint32_t* labelled_rows,
                                                  uint32_t* joins_rows) {
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
        on_row[k] = x < g.width && y < g.height && z < g.depth && cells[linear_index<L>(g, x, y, z)] != 0;
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
        L root = -1;
        if (((labelled_row & ~joins) >> lane) & 1) {
            int32_t local = r * 32 + lane;
            for (int32_t next; (next = tree[local]) != local;) local = next;
            root = linear_index<L>(g, tile.x0 + tile.lx(local), tile.y0 + tile.ly(local), tile.z0 + tile.lz(local));
        }
        root = __shfl_sync(kFullMask, root, 31 - __clz(~joins & up_to_lane));
        const L i = linear_index<L>(g, x, y, z);
        const bool on = (labelled_row >> lane) & 1;
        if (x < g.width) parent[i] = on ? root : -1;
        if (roots) mark_roots(g, roots, i - lane, on && root == i);
    }
}

// The local step for full connectivity (8 in 2D, 26 in 3D) in foreground mode when no periodic
// axis fits in the tile. As the 2 x 2 blocks of Allegretti et al. (2019, BKE), whose labelled
// pixels are all neighbours, the tile's rows are taken in bundles: 2 rows (y, y + 1) in 2D, 4 in
// 3D (y, y + 1 at z, z + 1). Two labelled cells of a bundle in the same or adjacent columns are
// neighbours, so the bundle's pieces of clusters are the runs of its occupied columns (the OR of
// its rows), found with one ballot. Each run is a node of the tile's union-find, numbered by its
// first cell in the tile's order, so that a tile-local root is still the smallest cell of its
// tile-local cluster. A bundle then joins its lower-half neighbour bundles ((y - 2, z), and in 3D
// (y - 2, z - 2), (y, z - 2), (y + 2, z - 2)) where their facing rows touch: a labelled cell of
// the facing rows at x joins the runs holding the other bundle's facing cells at x - 1 .. x + 1
// (at most two runs: the leftmost and rightmost), unless the cell at x - 1 is labelled too and
// has the same run among its own (it is in the same run of this bundle, so that union is its).
template <class T>
struct Bundles {
    static constexpr int kBZ = T::TZ > 1 ? 2 : 1;  // a bundle's layers
    static constexpr int kRows = 2 * kBZ;           // row k of a bundle: y + k % 2, z + k / 2
    static constexpr int kAlongY = T::TY / 2;
    static constexpr int kCount = kAlongY * (T::TZ / kBZ);
    static_assert(T::TY % 2 == 0 && T::TZ % kBZ == 0, "tiles hold whole bundles");
    // The tile row of bundle b's row k.
    __device__ static int row(int b, int k) { return 2 * (b % kAlongY) + k % 2 + T::TY * (kBZ * (b / kAlongY) + k / 2); }
    // Lower-half neighbour bundle o, at (row_dy(o), row_dz(o)) in bundles: which rows face each
    // other, this bundle's rows `own` and the other's rows `other`.
    __device__ static uint32_t own(int o, const uint32_t* r) {
        return o == 0 ? r[0] | (kBZ > 1 ? r[2] : 0) : o == 1 ? r[0] : o == 2 ? r[0] | r[1] : r[1];
    }
    __device__ static uint32_t other(int o, const uint32_t* r) {
        return o == 0 ? r[1] | (kBZ > 1 ? r[3] : 0) : o == 1 ? r[3] : o == 2 ? r[2] | r[3] : r[2];
    }
};

template <class Cell, class T, class L>
__device__ __forceinline__ void local_union_bundles(const Geometry& g, const TilePlace<T>& tile,
                                                    const Cell* __restrict__ cells, L* __restrict__ parent,
                                                    uint32_t* roots, int32_t* tree, uint32_t* rows,
                                                    uint32_t* occupied, int32_t* first) {
    using B = Bundles<T>;
    constexpr int kWarps = T::kThreads / 32;
    constexpr int kPerWarp = B::kCount / kWarps;
    static_assert(B::kCount % kWarps == 0, "every warp takes the same number of bundles");
    const int lane = threadIdx.x % 32;
    const uint32_t up_to_lane = (2u << lane) - 1;
    const int32_t x = tile.x0 + lane;
    const auto start_in = [](uint32_t columns, int l) {  // the first lane of the run holding lane l
        return 31 - __clz(~(columns & columns << 1) & ((2u << l) - 1));
    };
    // All of the warp's rows are read before the first is used, so that their loads are in flight
    // together.
    bool on[kPerWarp][B::kRows];
#pragma unroll
    for (int w = 0; w < kPerWarp; ++w) {
#pragma unroll
        for (int k = 0; k < B::kRows; ++k) {
            const int r = B::row(threadIdx.x / 32 + w * kWarps, k);
            const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
            on[w][k] = x < g.width && y < g.height && z < g.depth && cells[linear_index<L>(g, x, y, z)] != 0;
        }
    }
#pragma unroll
    for (int w = 0; w < kPerWarp; ++w) {
        const int b = threadIdx.x / 32 + w * kWarps;
        uint32_t row[B::kRows], columns = 0;
#pragma unroll
        for (int k = 0; k < B::kRows; ++k) {
            row[k] = __ballot_sync(kFullMask, on[w][k]);
            columns |= row[k];
            if (lane == 0) rows[B::row(b, k)] = row[k];
        }
        if (lane == 0) occupied[b] = columns;
        if (((columns & ~(columns << 1)) >> lane) & 1) {
            // A run starts here: its node is its first cell in the tile's order of rows.
            const uint32_t rest = ~columns & ~(up_to_lane >> 1);  // the empty columns from here on
            const uint32_t run = (rest ? (1u << (__ffs(rest) - 1)) - 1 : kFullMask) & ~(up_to_lane >> 1);
            int node = -1;
#pragma unroll
            for (int k = B::kRows - 1; k >= 0; --k) {  // the bundle's rows are in the tile's order
                if (row[k] & run) node = B::row(b, k) * 32 + __ffs(row[k] & run) - 1;
            }
            tree[node] = node;
            first[b * 32 + lane] = node;
        }
    }
    __syncthreads();
#pragma unroll
    for (int w = 0; w < kPerWarp; ++w) {
        const int b = threadIdx.x / 32 + w * kWarps;
        const int by = b % B::kAlongY, bz = b / B::kAlongY;
        uint32_t row[B::kRows];
#pragma unroll
        for (int k = 0; k < B::kRows; ++k) row[k] = rows[B::row(b, k)];
        const uint32_t columns = occupied[b];
#pragma unroll
        for (int o = 0; o < kRowOffsets; ++o) {
            if (!neighbour_row(T::TZ > 1 ? 26 : 8, row_dy(o), row_dz(o))) continue;
            const int oy = by + row_dy(o), oz = bz + row_dz(o);
            if (oy < 0 || oy >= B::kAlongY || oz < 0) continue;
            const int n = oy + B::kAlongY * oz;
            uint32_t other_rows[B::kRows];
#pragma unroll
            for (int k = 0; k < B::kRows; ++k) other_rows[k] = rows[B::row(n, k)];
            const uint32_t mine = B::own(o, row), theirs = B::other(o, other_rows), their_columns = occupied[n];
            // The other bundle's facing cells at x - 1, x, x + 1 (bits 0, 1, 2).
            const uint32_t near = static_cast<uint32_t>((static_cast<uint64_t>(theirs) << 1) >> lane) & 7;
            int32_t leftmost = -1, rightmost = -1;
            if (((mine >> lane) & 1) && near != 0) {
                leftmost = start_in(their_columns, lane - 1 + __ffs(near) - 1);
                rightmost = start_in(their_columns, lane - 1 + (31 - __clz(near)));
            }
            const int32_t before_left = __shfl_up_sync(kFullMask, leftmost, 1);
            const int32_t before_right = __shfl_up_sync(kFullMask, rightmost, 1);
            const bool before = lane > 0 && ((mine >> (lane - 1)) & 1);
            const bool need_left = leftmost >= 0 && !(before && (leftmost == before_left || leftmost == before_right));
            const bool need_right = rightmost != leftmost && !(before && (rightmost == before_left || rightmost == before_right));
            if (need_left || need_right) {
                const int32_t node = first[b * 32 + start_in(columns, lane)];
                if (need_left) unite<true>(tree, node, first[n * 32 + leftmost], load_shared);
                if (need_right) unite<true>(tree, node, first[n * 32 + rightmost], load_shared);
            }
        }
    }
    __syncthreads();
    // Each run's first lane walks from its node to the root; the run's other cells take it from
    // that lane.
#pragma unroll
    for (int w = 0; w < kPerWarp; ++w) {
        const int b = threadIdx.x / 32 + w * kWarps;
        const uint32_t columns = occupied[b];
        L root = -1;
        if (((columns & ~(columns << 1)) >> lane) & 1) {
            int32_t local = first[b * 32 + lane];
            for (int32_t next; (next = tree[local]) != local;) local = next;
            root = linear_index<L>(g, tile.x0 + tile.lx(local), tile.y0 + tile.ly(local), tile.z0 + tile.lz(local));
        }
        root = __shfl_sync(kFullMask, root, start_in(columns, lane));
#pragma unroll
        for (int k = 0; k < B::kRows; ++k) {
            const int r = B::row(b, k);
            const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
            if (y >= g.height || z >= g.depth) continue;  // the whole row is outside the mesh
            const L i = linear_index<L>(g, x, y, z);
            const bool on = (rows[r] >> lane) & 1;
            if (x < g.width) parent[i] = on ? root : -1;
            if (roots) mark_roots(g, roots, i - lane, on && root == i);
        }
    }
}

// A warp takes a row of 32 cells at a time (threadIdx.x % 32 is the cell's x in the tile).
//  1. Runs: each maximal run of connected cells along a row hangs from its first cell, found with
//     one ballot: no tree deeper than one from the row direction.
//  2. Every other lower-half connection inside the tile is a union in shared memory, with path
//     halving. A connection of cell l to m at an offset without x component is left out when
//     l and m both continue the runs of their left neighbours: then l-1 and m-1 are connected by
//     the same offset, and that union (or the one it leaves to its own left) joins the same trees
//     (when connecting is an equivalence of values: implies()).
//  3. Each cell's entry in the global tree: the global index of its tile-local root.
template <class Cell, class T, int kConnectivity, class L>
__global__ void __launch_bounds__(T::kThreads) local_union(Geometry g, const Cell* __restrict__ cells,
                                                           L* __restrict__ parent, uint32_t* roots) {
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
        local_union_faces<Cell, T, L>(g, tile, cells, parent, roots, tree, labelled_rows, joins_left);
        return;
    }
    if (kConnectivity != 18 && !g.same_value && !wraps_inside) {  // (bundles join whole 3x3 neighbourhoods)
        __shared__ uint32_t occupied[Bundles<T>::kCount];
        __shared__ int32_t first[Bundles<T>::kCount * 32];
        local_union_bundles<Cell, T, L>(g, tile, cells, parent, roots, tree, joins_left, occupied, first);
        return;
    }
    for (int r = threadIdx.x / 32; r < kRows; r += kWarps) {
        const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
        const bool inside = x < g.width && y < g.height && z < g.depth;
        const Cell v = inside ? cells[linear_index<L>(g, x, y, z)] : Cell(0);
        const bool is_labelled = inside && labelled(g, v);
        const Cell left = shuffle_up(v);
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
            if (dx_of(k) == 0 && continues_run && ((joins_left[m / 32] >> lane) & 1) && implies(g)) continue;
            unite<true>(tree, l, m, load_shared);
        }
    }
    __syncthreads();
    for (int r = threadIdx.x / 32; r < kRows; r += kWarps) {
        const int32_t y = tile.y0 + r % T::TY, z = tile.z0 + r / T::TY;
        if (y >= g.height || z >= g.depth) continue;  // the whole row is outside the mesh
        const L i = linear_index<L>(g, x, y, z);
        int32_t local = x < g.width ? tree[r * 32 + lane] : -1;
        L root = -1;
        if (local >= 0) {
            for (int32_t next; (next = tree[local]) != local;) local = next;
            root = linear_index<L>(g, tile.x0 + tile.lx(local), tile.y0 + tile.ly(local), tile.z0 + tile.lz(local));
        }
        if (x < g.width) parent[i] = root;
        if (roots) mark_roots(g, roots, i - lane, root == i);
    }
}

// The merge: every connection between cells of different tiles, a warp per piece of a tile's
// border, in both modes and at every connectivity.
//  rows:    a row with a neighbour row outside the tile (y == 0, z == 0, and y == TY - 1 for the
//           row offset (1, -1) of 26) joins it, lane by lane for the cells of the same x range;
//  column:  the cells at x == 0, in pieces of 32, join their neighbours at x - 1 (with any y and
//           z offset, lower half or not: every connection across a tile's left border is its
//           right cell's), so that the rows need no lanes beyond the tile's x range.
// Connections are left out when implied by others and by the runs of connected cells along a
// row of a tile, which are joined already: in a row piece, for its cell a[x] and the neighbour
// row's b[x],
//  same x:  a[x] - b[x] is implied by a[x-1] - b[x-1] when both rows continue their runs at x;
//  x - 1:   a[x] - b[x-1] by a[x-1] - b[x-1] (a[x-1] connected) or by a[x] - b[x] (b[x] connected);
//  x + 1:   a[x] - b[x+1] by a[x+1] - b[x+1] or by a[x] - b[x], likewise;
// and the same along y in the column. A same-place connection leans only on the one before it,
// a diagonal one only on same-place ones, so no chain of implications goes round in a circle.
// All of these lean on connecting being an equivalence of values (implies()); with a delta every
// connection is a union.
//
// A neighbour row at (dy, dz) with dy and dz both non-zero (26 only) has two rows next to both
// it and the row, (dy, 0) and (0, dz): a labelled cell of those next to both ends of a connection
// implies it (at x - 1 .. x + 1 for the same x, x - 1 .. x for x - 1, x .. x + 1 for x + 1),
// through connections to rows that are not diagonal in y and z, which never lean on diagonal ones.
__host__ __device__ constexpr bool bridged_row(int connectivity, int dy, int dz) {
    return dy != 0 && dz != 0 && wide_row(connectivity, dy, 0) && wide_row(connectivity, 0, dz);
}

// The x step of a union's kind d: 0 for the same x, 1 for x - 1, 2 for x + 1.
__device__ __forceinline__ int step_of(int d) { return d == 1 ? -1 : d == 2 ? 1 : 0; }

// The pieces of a tile's border, in the order of the warps of merge_borders.
template <class T, int kConnectivity>
struct BorderPieces {
    static constexpr bool kBelow = T::TZ > 1;  // neighbour rows in the layer below (6 and 26)
    static constexpr bool kAhead = neighbour_row(kConnectivity, 1, -1);  // the row offset (1, -1) (26)
    static constexpr int kPerLayer = kAhead ? 2 : 1;  // border rows of a layer above the first
    static constexpr int kRows = (kBelow ? T::TY : 0) + (T::TZ - (kBelow ? 1 : 0)) * kPerLayer;
    static constexpr int kColumns = (T::TY * T::TZ + 31) / 32;
    static constexpr int kPerTile = kRows + kColumns;

    // Border row p: the first layer's rows (with neighbours in the layer below), then y == 0 (and
    // y == TY - 1) of each later layer.
    __device__ static void row(int p, int& ly, int& lz) {
        if (kBelow && p < T::TY) {
            ly = p;
            lz = 0;
            return;
        }
        p -= kBelow ? T::TY : 0;
        lz = p / kPerLayer + (kBelow ? 1 : 0);
        ly = p % kPerLayer ? T::TY - 1 : 0;
    }
};

// Whether cell values p and q, each present or not, are connected.
template <class Cell>
__device__ __forceinline__ bool link(const Geometry& g, bool p_on, Cell p, bool q_on, Cell q) {
    return p_on && q_on && connected(g, p, q);
}

// A piece's unions, bit 3 o + d for its neighbour row (or column) o and d = 0, 1, 2 for the cell
// at the same place, before and after it, are made in one loop (as the local step's in a warp);
// target(o, d) is the other cell's index. The walks start at the two cells' entries, so that only
// tile-local roots are ever written: every other cell keeps pointing at its tile-local root,
// which the statistics' finalize (statistics.cu) takes as the cell's slot in its tile.
// With `roots` (Call::roots), a root hung below another loses its bit there.
template <class L, class Target>
__device__ __forceinline__ void unite_all(L* parent, uint32_t* roots, L i, uint32_t todo, Target target) {
    const RelaxedLoad load;
    const L from = todo != 0 ? load(&parent[i]) : L(-1);
    const auto hooked = [roots](L a) {
        if (roots) atomicAnd(&roots[a >> 5], ~(1u << (a & 31)));
    };
    while (todo != 0) {
        const int k = __ffs(todo) - 1;
        todo &= todo - 1;
        unite<true>(parent, from, load(&parent[target(k / 3, k % 3)]), load, hooked);
    }
}

template <class Cell, class T, int kConnectivity, class L>
__device__ __forceinline__ void merge_row(const Geometry& g, const Cell* __restrict__ cells, L* parent,
                                          uint32_t* roots, const TilePlace<T>& tile, int ly, int lz) {
    const int lane = threadIdx.x % 32;
    const int32_t x = tile.x0 + lane, y = tile.y0 + ly, z = tile.z0 + lz;
    if (y >= g.height || z >= g.depth) return;  // the whole warp
    const bool inside = x < g.width;
    // The index of this lane's cell in the row (dy, dz) from this one; false when there is none.
    const auto row_index = [&](int dy, int dz, L& j) {
        int32_t ny, nz;
        if (!step(y, dy, g.height, g.periodic_y, ny) || !step(z, dz, g.depth, g.periodic_z, nz)) return false;
        j = linear_index<L>(g, x, ny, nz);
        return true;
    };
    const L i = linear_index<L>(g, x, y, z);
    const Cell v = inside ? cells[i] : Cell(0);
    const bool on = inside && labelled(g, v);
    const Cell v_left = shuffle_up(v), v_right = shuffle_down(v);
    const bool on_left = __shfl_up_sync(kFullMask, on, 1) && lane > 0;
    const bool on_right = __shfl_down_sync(kFullMask, on, 1) && lane < 31;
    uint32_t todo = 0;
#pragma unroll
    for (int o = 0; o < kRowOffsets; ++o) {
        const int dy = row_dy(o), dz = row_dz(o);
        // Rows inside the tile and the mesh are the local step's; a row past the mesh's last one
        // is there only by periodic wrap-around, from another tile.
        const bool in_tile = ly + dy >= 0 && ly + dy < T::TY && lz + dz >= 0 && y + dy < g.height;
        L j;
        if (!neighbour_row(kConnectivity, dy, dz) || in_tile || !row_index(dy, dz, j)) continue;
        const Cell w = inside ? cells[j] : Cell(0);
        const bool w_on = inside && labelled(g, w);
        const Cell w_left = shuffle_up(w), w_right = shuffle_down(w);
        const bool w_on_left = __shfl_up_sync(kFullMask, w_on, 1) && lane > 0;
        const bool w_on_right = __shfl_down_sync(kFullMask, w_on, 1) && lane < 31;
        bool same = link(g, on, v, w_on, w) &&
                    !(implies(g) && link(g, on, v, on_left, v_left) && link(g, w_on, w, w_on_left, w_left));
        bool left = false, right = false;
        if (wide_row(kConnectivity, dy, dz)) {
            left = link(g, on, v, w_on_left, w_left) &&
                   !(implies(g) && (link(g, on, v, on_left, v_left) || link(g, w_on, w, w_on_left, w_left)));
            right = link(g, on, v, w_on_right, w_right) &&
                    !(implies(g) && (link(g, on, v, on_right, v_right) || link(g, w_on, w, w_on_right, w_right)));
        }
        if (bridged_row(kConnectivity, dy, dz) && !g.same_value) {
            // As drop_bridged, on the cells of the two rows next to both.
            L b1, b2;
            const bool on1 = row_index(dy, 0, b1) && inside && cells[b1] != 0;
            const bool on2 = row_index(0, dz, b2) && inside && cells[b2] != 0;
            const uint32_t bridges = __ballot_sync(kFullMask, on1 || on2);
            const bool before = lane > 0 && ((bridges >> (lane - 1)) & 1), here = (bridges >> lane) & 1,
                       after = lane < 31 && ((bridges >> (lane + 1)) & 1);
            same = same && !(before || here || after);
            left = left && !(before || here);
            right = right && !(here || after);
        }
        todo |= (uint32_t(same) | uint32_t(left) << 1 | uint32_t(right) << 2) << (3 * o);
    }
    unite_all(parent, roots, i, todo, [&](int o, int d) {
        L j = 0;
        row_index(row_dy(o), row_dz(o), j);
        return j + step_of(d);
    });
}

// Connections across the left border (to x - 1 at y + dy and z + dz) are left out when implied:
// with dz == 0 along y as in row_links, the column's consecutive cells in the tile being joined;
// with dz != 0 when the cell at x - 1 and z (or the tile's own cell at z + dz), at y, is connected
// to both ends, through connections with dz == 0 (or inside column x).
template <class Cell, class T, int kConnectivity, class L>
__device__ __forceinline__ void merge_column(const Geometry& g, const Cell* __restrict__ cells, L* parent,
                                             uint32_t* roots, const TilePlace<T>& tile, int c) {
    if (c >= T::TY * T::TZ) return;
    const int ly = c % T::TY;
    const int32_t x = tile.x0, y = tile.y0 + ly, z = tile.z0 + c / T::TY;
    int32_t nx;
    if (y >= g.height || z >= g.depth || !step(x, -1, g.width, g.periodic_x, nx)) return;
    const L i = linear_index<L>(g, x, y, z);
    const Cell v = cells[i];
    if (!labelled(g, v)) return;
    // The cell at (x - 1, y + dy, z + dz); false when there is none.
    const auto left_index = [&](int dy, int dz, L& j) {
        int32_t ny, nz;
        if (!step(y, dy, g.height, g.periodic_y, ny) || !step(z, dz, g.depth, g.periodic_z, nz)) return false;
        j = linear_index<L>(g, nx, ny, nz);
        return true;
    };
    const auto left_cell = [&](int dy, int dz, Cell& w) {
        L j;
        const bool there = left_index(dy, dz, j);
        w = there ? cells[j] : Cell(0);
        return there && labelled(g, w);
    };
    // The tile's cells above and below, in the tile: joined to this one when connected.
    const bool first = ly == 0, last = ly == T::TY - 1 || y == g.height - 1;
    const bool joined_above = !first && connected(g, v, cells[i - g.width]);
    const bool joined_below = !last && connected(g, v, cells[i + g.width]);
    Cell w_mid;  // the cell at (x - 1, y, z)
    const bool mid_on = left_cell(0, 0, w_mid);
    uint32_t todo = 0;
#pragma unroll
    for (int o = 0; o < 3; ++o) {
        const int dz = step_of(o);
        int32_t nz;
        if (!in_stencil(kConnectivity, offset_of(-1, 0, dz)) || !step(z, dz, g.depth, g.periodic_z, nz)) continue;
        Cell w, w_above, w_below;
        const bool w_on = left_cell(0, dz, w);
        bool same = link(g, true, v, w_on, w) &&
                    !(implies(g) && joined_above && link(g, w_on, w, true, cells[linear_index<L>(g, nx, y - 1, nz)]));
        bool above = false, below = false;
        if (in_stencil(kConnectivity, offset_of(-1, -1, dz))) {
            const bool above_on = left_cell(-1, dz, w_above), below_on = left_cell(1, dz, w_below);
            // Within the tile's rows the column at x - 1's consecutive cells are joined too.
            above = link(g, true, v, above_on, w_above) &&
                    !(implies(g) && !first && (joined_above || link(g, w_on, w, above_on, w_above)));
            below = link(g, true, v, below_on, w_below) &&
                    !(implies(g) && !last && (joined_below || link(g, w_on, w, below_on, w_below)));
            if (dz != 0) {
                const Cell own = cells[linear_index<L>(g, x, y, nz)];
                const auto bridged = [&](bool on, Cell end) {
                    return implies(g) && ((link(g, true, v, mid_on, w_mid) && link(g, mid_on, w_mid, on, end)) ||
                                          (connected(g, v, own) && link(g, true, own, on, end)));
                };
                same = same && !bridged(w_on, w);
                above = above && !bridged(above_on, w_above);
                below = below && !bridged(below_on, w_below);
            }
        }
        todo |= (uint32_t(same) | uint32_t(above) << 1 | uint32_t(below) << 2) << (3 * o);
    }
    unite_all(parent, roots, i, todo, [&](int o, int d) {
        L j = 0;
        left_index(step_of(d), step_of(o), j);
        return j;
    });
}

template <class Cell, class T, int kConnectivity, class L>
__global__ void merge_borders(Geometry g, const Cell* __restrict__ cells, L* parent, uint32_t* roots, uint32_t tiles) {
    using Pieces = BorderPieces<T, kConnectivity>;
    // In 64 bits: a large mesh's border pieces can outnumber 2^32 / 32.
    const uint64_t warp = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (warp >= uint64_t(tiles) * Pieces::kPerTile) return;
    const TilePlace<T> tile(g, static_cast<uint32_t>(warp / Pieces::kPerTile));
    const int piece = warp % Pieces::kPerTile;
    if (piece < Pieces::kRows) {
        int ly, lz;
        Pieces::row(piece, ly, lz);
        // The last row of a tile the mesh ends in has the row offset (1, -1) outside it too.
        if (Pieces::kAhead && ly == T::TY - 1) ly = min(ly, g.height - 1 - tile.y0);
        merge_row<Cell, T, kConnectivity, L>(g, cells, parent, roots, tile, ly, lz);
    } else {
        merge_column<Cell, T, kConnectivity, L>(g, cells, parent, roots, tile,
                                                (piece - Pieces::kRows) * 32 + threadIdx.x % 32);
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

// The finalize of int64 labels, in the tree itself (a second array of 8 bytes a cell would not fit
// beside the largest meshes): each entry is lowered to its root while others read it, which only
// shortens their walks (a root is an ancestor), through relaxed atomics.
__global__ void finalize_in_place(int64_t n, int64_t* parent) {
    const RelaxedLoad load;
    for (int64_t u = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; u < n; u += int64_t(gridDim.x) * blockDim.x) {
        int64_t root = load(&parent[u]);
        if (root < 0 || root == u) continue;
        for (int64_t next; (next = load(&parent[root])) != root;) root = next;
        ::cuda::atomic_ref<int64_t, ::cuda::thread_scope_device>(parent[u]).store(root, ::cuda::std::memory_order_relaxed);
    }
}

// The local and merge phases into the tree `parent` (cell count entries of L), then the finalize
// unless `finalize` is false (the tree plan: statistics finalize from the tree themselves).
template <class Cell, class T, int kConnectivity, class L>
PhasePlan union_find_kernels(Call& call, const Cell* cells, L* parent, bool finalize) {
    const Geometry& g = call.geometry;
    const int64_t tiles = int64_t((g.width + T::TX - 1) / T::TX) * ((g.height + T::TY - 1) / T::TY) *
                          ((g.depth + T::TZ - 1) / T::TZ);
    PhasePlan plan;
    plan.push_back(launch_phase("local", "mesh union-find local", [&call, cells, parent, tiles] {
        if (call.roots && call.geometry.width % 32 != 0) {  // (see mark_roots)
            const size_t words = static_cast<size_t>((call.geometry.cell_count() + 31) / 32);
            CCL4J_CUDA_CHECK(cudaMemsetAsync(call.roots, 0, words * sizeof(uint32_t), call.state.stream));
        }
        local_union<Cell, T, kConnectivity, L><<<static_cast<unsigned>(tiles), T::kThreads, 0, call.state.stream>>>(
            call.geometry, cells, parent, call.roots);
    }));
    plan.push_back(launch_phase("merge", "mesh union-find merge", [&call, cells, parent, tiles] {
        const int64_t threads = tiles * BorderPieces<T, kConnectivity>::kPerTile * 32;
        merge_borders<Cell, T, kConnectivity, L><<<static_cast<unsigned>((threads + 255) / 256), 256, 0,
                                                   call.state.stream>>>(call.geometry, cells, parent, call.roots,
                                                                        static_cast<uint32_t>(tiles));
    }));
    if (!finalize) return plan;
    if constexpr (std::is_same_v<L, int32_t>) {
        plan.push_back(launch_phase("finalize", "mesh union-find finalize", [&call] {
            const int block = call.block();
            const int32_t n = call.geometry.cells();
            finalize_labels<<<call.grid(block, n), block, 0, call.state.stream>>>(n, call.scratch, call.labels);
        }));
    } else {
        plan.push_back(launch_phase("finalize", "mesh union-find finalize", [&call] {
            const int block = call.block();
            const int64_t n = call.geometry.cell_count();
            finalize_in_place<<<call.grid(block, n), block, 0, call.state.stream>>>(n, call.wide_labels);
        }));
    }
    return plan;
}

// Block union-find into int32 labels (the tree in call.scratch) or int64 ones (in call.wide_labels).
template <class L>
PhasePlan block_union_find_into(Call& call, L* parent, bool finalize = true) {
    // Planar meshes (depth 1) use the 2D tile; their connectivity is 4 or 8 (label_mesh maps 6,
    // 18 and 26 on a single layer to those).
    const bool flat = call.geometry.depth == 1;
    const int32_t connectivity = call.geometry.connectivity;
    const bool diagonal = connectivity == 8 || connectivity == 26;
    PhasePlan plan;
    with_cells(call, [&](auto cells) {
        using Cell = std::remove_const_t<std::remove_pointer_t<decltype(cells)>>;
        if (flat) {
            plan = diagonal ? union_find_kernels<Cell, Tile2D, 8>(call, cells, parent, finalize)
                            : union_find_kernels<Cell, Tile2D, 4>(call, cells, parent, finalize);
        } else {
            plan = diagonal             ? union_find_kernels<Cell, Tile3D, 26>(call, cells, parent, finalize)
                   : connectivity == 18 ? union_find_kernels<Cell, Tile3D, 18>(call, cells, parent, finalize)
                                        : union_find_kernels<Cell, Tile3D, 6>(call, cells, parent, finalize);
        }
    });
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

PhasePlan block_union_find(Call& call) { return block_union_find_into(call, call.scratch); }

PhasePlan block_union_find_wide(Call& call) { return block_union_find_into(call, call.wide_labels); }

PhasePlan block_union_find_tree(Call& call) { return block_union_find_into(call, call.scratch, false); }

}  // namespace ccl4j::cuda::mesh
