// Per-component statistics on the GPU (cuda/statistics.hpp). From canonical labels on the device:
//  stats-roots: a bit mask of the roots (labels[i] == i) and an inclusive scan of its words'
//               counts (RootIndex), so that a root's row is the roots before it, and k is read back;
//  stats:       one pass over the cells that writes the RASTER labels and the rows. A block takes
//               tiles of 1024 cells, a warp a row of 32 of them: ballots find the runs of equal
//               labels, whose sizes and coordinate sums follow from their ends, and each run goes
//               into a hash table of the tile's rows in shared memory (eight atomic instructions).
//               The table is flushed once per tile, a thread per 64-byte row (MeshRow) in four
//               16-byte stores. A component's row is written whole, with plain
//               stores, by the tile it begins in, so that the rows need neither zeroing nor
//               atomics; its parts in other tiles become partial rows in what the scratch buffer
//               has left, which add_partial_rows sorts by row and adds. A tile whose partial rows
//               find no room is done again after that, adding them directly with atomics. (The previous design, a
//               thread per 16 cells summing runs in registers, all rows zeroed and flushed with
//               atomics, took 1.81 ms on 8192^2 at p = 0.5 on the H100, this one 1.28 ms; the
//               lanes diverged, about 7 active threads a warp.)
//  stats-order: (SIZE numbering) a radix sort of the rows by (size descending, first cell), the
//               inverse permutation, and a second pass that writes the labels.
//  measurements: (when asked for) cuda/measurements.cu's pass over the labels in the numbering.
// An algorithm that leaves a union-find tree (MESH_UNION_FIND's tree plan) has no labels to start
// from: its local and merge steps leave the tree and the bit mask of its roots, stats-roots only
// scans the mask, and stats is finalize_statistics, which writes the labels from the tree and
// the rows in one pass over the union-find's own tiles, each cluster piece in the slot of its
// tile-local root (no hashing), then the partial rows sorted by row and added without atomics
// (add_partial_rows). Labelling + statistics so take 1.33-1.53 times the labelling alone on the
// H100 (1.32-1.54 on an H200), where the pass over canonical labels above took 1.89-2.29 times
// (BENCHMARKS.md).
// The table keeps the accumulators, not the columns: copy_column computes the rows asked for
// (centroids, means, faces from the bounding box, the numbering's labels and order) in one small
// kernel into a staging buffer and copies them out, so a call writes no column nobody reads.
#include "cuda/statistics.hpp"

#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "common/error.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/measurements.hpp"
#include "cuda/mesh_device.cuh"
#include "cuda/root_index.cuh"

namespace ccl4j::cuda {
namespace {

using detail::kFullMask;
using u32 = uint32_t;
using u64 = unsigned long long;

constexpr int kBlock = 256;

// ---- accumulators -----------------------------------------------------------------------------

// One mesh row (or a partial row): two 32-byte sectors. Minima are kept as complements (~value)
// and intensity extremes as order-preserving keys, so that one instruction (atomicMax) merges all
// of sector B but the size. The smallest z is the first cell's, so it is not kept.
struct alignas(64) MeshRow {
    // sector A, 64-bit sums
    u64 sum[3];     // coordinates x, y, z
    u64 intensity;  // integers: the exact sum (two's complement); F32: the bits of a double
    // sector B, 32-bit: word 8 + f for field f
    u32 size;
    u32 low[2];  // ~min x, ~min y
    u32 high[3];
    u32 intensity_low;   // ~key(min)
    u32 intensity_high;  // key(max)
};
static_assert(sizeof(MeshRow) == 64, "a mesh row is two sectors");

struct alignas(32) GraphRow {
    u64 edges;
    u64 max_degree;
    u32 size;
    u32 max_vertex;
    u64 unused;
};

// Order-preserving unsigned keys of intensities: integers with the sign bit flipped; floats with
// the sign bit set for positive values and all bits flipped for negative ones.
__device__ __forceinline__ u32 order_key(int32_t v) { return static_cast<u32>(v) ^ 0x80000000u; }
__device__ __forceinline__ u32 order_key(float v) {
    const u32 b = __float_as_uint(v);
    return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}
__device__ __forceinline__ double key_value(u32 key, bool real) {
    if (!real) return static_cast<double>(static_cast<int32_t>(key ^ 0x80000000u));
    const float v = __uint_as_float((key & 0x80000000u) ? key & 0x7fffffffu : ~key);
    return isnan(v) ? __longlong_as_double(0x7ff8000000000000LL) : v;  // the CPU tables' NaN, bit for bit
}

// The intensity types: the cell as stored and the type a tile sums it in. `low` and `high` are the
// keys a cell brings to MIN and MAX: equal to `key` but for a NaN, which takes no part in either
// (NumPy's nanmin/nanmax): its low key is above and its high key below every number's, so a
// component's extreme is NaN only when all its cells are. `key` itself still tells NaNs apart from
// numbers, which the uniform-tile test needs (a NaN among equal numbers makes the sum NaN).
template <IntensityType T>
struct Traits;
template <>
struct Traits<IntensityType::U8> {
    using Cell = uint8_t;
    using Sum = u32;  // a tile of 4096 cells sums at most 4096 * 255
    __device__ static u32 key(Cell v) { return order_key(static_cast<int32_t>(v)); }
    __device__ static u32 low(Cell v) { return key(v); }
    __device__ static u32 high(Cell v) { return key(v); }
    __device__ static Cell of_key(u32 k) { return static_cast<Cell>(k ^ 0x80000000u); }
    __device__ static Sum value(Cell v) { return v; }
};
template <>
struct Traits<IntensityType::U16> {
    using Cell = uint16_t;
    using Sum = u32;  // a tile of 4096 cells sums at most 4096 * 65535
    __device__ static u32 key(Cell v) { return order_key(static_cast<int32_t>(v)); }
    __device__ static u32 low(Cell v) { return key(v); }
    __device__ static u32 high(Cell v) { return key(v); }
    __device__ static Cell of_key(u32 k) { return static_cast<Cell>(k ^ 0x80000000u); }
    __device__ static Sum value(Cell v) { return v; }
};
template <>
struct Traits<IntensityType::I32> {
    using Cell = int32_t;
    using Sum = u64;  // int64 in two's complement: sums are exact modulo 2^64
    __device__ static u32 key(Cell v) { return order_key(v); }
    __device__ static u32 low(Cell v) { return key(v); }
    __device__ static u32 high(Cell v) { return key(v); }
    __device__ static Cell of_key(u32 k) { return static_cast<Cell>(k ^ 0x80000000u); }
    __device__ static Sum value(Cell v) { return static_cast<u64>(static_cast<int64_t>(v)); }
};
template <>
struct Traits<IntensityType::F32> {
    using Cell = float;
    using Sum = double;
    __device__ static u32 key(Cell v) { return order_key(v); }
    __device__ static u32 low(Cell v) { return isnan(v) ? ~0u : order_key(v); }  // decodes to NaN
    __device__ static u32 high(Cell v) { return isnan(v) ? 0u : order_key(v); }  // decodes to NaN
    __device__ static Cell of_key(u32 k) { return __uint_as_float((k & 0x80000000u) ? k & 0x7fffffffu : ~k); }
    __device__ static Sum value(Cell v) { return v; }
};

// ---- warp reductions over a group of lanes (match_any peers, the graph pass) ----------------------

// Exact modulo 2^64: three 32-bit reductions of 16, 16 and 32 bits (the last one may wrap, which
// the shift by 32 discards anyway).
__device__ __forceinline__ u64 group_add(unsigned peers, u64 v) {
    const u32 low = __reduce_add_sync(peers, static_cast<u32>(v & 0xffffu));
    const u32 middle = __reduce_add_sync(peers, static_cast<u32>((v >> 16) & 0xffffu));
    const u32 high = __reduce_add_sync(peers, static_cast<u32>(v >> 32));
    return static_cast<u64>(low) + (static_cast<u64>(middle) << 16) + (static_cast<u64>(high) << 32);
}
__device__ __forceinline__ u64 group_max(unsigned peers, u64 v) {
    const u32 high = __reduce_max_sync(peers, static_cast<u32>(v >> 32));
    const u32 low = __reduce_max_sync(peers, static_cast<u32>(v >> 32) == high ? static_cast<u32>(v) : 0u);
    return (static_cast<u64>(high) << 32) | low;
}

__device__ __forceinline__ void add_to(u64* target, u64 v) { atomicAdd(target, v); }
__device__ __forceinline__ void add_to(u64* target, double v) { atomicAdd(reinterpret_cast<double*>(target), v); }
__device__ __forceinline__ void add_to(u32* target, u32 v) { atomicAdd(target, v); }
__device__ __forceinline__ void add_to(double* target, double v) { atomicAdd(target, v); }

// ---- the roots' rows ----------------------------------------------------------------------------

// mask (see RootIndex): a warp takes 32 words, one coalesced load of 32 labels per word.
__global__ void root_mask(const int32_t* __restrict__ labels, int32_t n, int64_t words, u32* mask) {
    const int lane = threadIdx.x & 31;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
    for (int64_t base = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32 * 32; base < words;
         base += warps * 32) {
        int32_t label[32];
#pragma unroll
        for (int j = 0; j < 32; ++j) {
            const int64_t i = (base + j) * 32 + lane;
            label[j] = i < n ? labels[i] : -1;
        }
        u32 mine = 0;
#pragma unroll
        for (int j = 0; j < 32; ++j) {
            const u32 bits = __ballot_sync(kFullMask, label[j] == (base + j) * 32 + lane);
            if (lane == j) mine = bits;
        }
        if (base + lane < words) mask[base + lane] = mine;
    }
}

struct RootsInWord {
    const u32* mask;
    __device__ u32 operator()(int64_t w) const { return __popc(mask[w]); }
};
using RootCounts = thrust::transform_iterator<RootsInWord, thrust::counting_iterator<int64_t>>;

// ---- the mesh pass ------------------------------------------------------------------------------

// A tile holds 32 rows of 32 cells (a warp's row each): 4 across and 8 rows in 2D, 2 across, 4
// rows and 4 layers in 3D, where clusters spread across layers as much as across rows. (The
// packed sums of TileTable allow 128 cells across and 16 rows and layers.)
constexpr int kWarpRows = 32;
constexpr int kTileCells = kWarpRows * 32;
constexpr int kSlotBits = 10;
constexpr int kSlots = 1 << kSlotBits;  // a tile has at most one component per cell: its table never fills
static_assert(kSlots == kTileCells, "a slot per cell");
constexpr int kWarpsPerBlock = kBlock / 32;

struct Shape {
    int32_t width, height, depth;
    __host__ __device__ bool three_d() const { return depth > 1; }
};

struct TileShape {
    int32_t across, rows, layers;  // warp rows across, rows (y), layers (z): 32 in all
    __host__ __device__ int32_t width() const { return 32 * across; }
};

TileShape tile_shape(const Shape& g) { return g.three_d() ? TileShape{2, 4, 4} : TileShape{4, 8, 1}; }

// A tile's rows in shared memory, coordinates relative to its corner. The size and the x sum
// share a word (11 and 17 bits), the y and z sums another (14 bits each), and the rows and layers
// occupied a bit mask (y: bits 0-15, z: 16-31): enough for 1024 cells at x < 128 and y, z < 16,
// so that a run costs eight atomic instructions. Empty slots hold key -1, zero sums and maxima,
// all-ones minima; the flush leaves them so again.
template <class Sum>
struct TileTable {
    int32_t key[kSlots];  // the component's row
    u32 size_x[kSlots], sum_yz[kSlots];
    u32 span[kSlots];
    u32 min_x[kSlots], max_x[kSlots];
    u32 low[kSlots], high[kSlots];  // intensity keys
    Sum intensity[kSlots];
    uint8_t root[kSlots];  // the component begins in the tile
    int32_t used[kSlots];  // the slots taken, in any order
    int32_t used_count, partial_count, partial_cursor, partial_base;

    __device__ __forceinline__ void empty(int s) {
        key[s] = -1;
        size_x[s] = sum_yz[s] = span[s] = 0;
        min_x[s] = ~0u;
        max_x[s] = 0;
        low[s] = ~0u;
        high[s] = 0;
        intensity[s] = 0;
        root[s] = 0;
    }
};

constexpr int kSizeBits = 11, kSumYBits = 14;
static_assert(kTileCells * 127 < (1 << (32 - kSizeBits)) && kTileCells * 15 < (1 << kSumYBits), "packed sums");

// Where a tile lies.
struct Corner {
    u32 x, y, z;
};

// What a pass needs. The first pass (redo false) runs over every tile: it writes the first cells
// and, with write_raster, the RASTER labels; the rows of components that begin in a tile go
// straight into `rows` (every row is written once so: no zeroing, no atomics), and the other
// rows' partial sums are appended to `partials` while there is room, else the tile is listed in
// `redo_tiles`. The redo pass then runs over the listed tiles again (its labels RASTER when
// raster_in) and adds their partial sums with atomics (merge_word).
template <class Cell>
struct MeshPass {
    Shape g;
    TileShape t;
    int32_t tiles_x, tiles_y;
    int64_t tiles;
    int32_t* labels;
    RootIndex roots;
    const Cell* cells;
    bool write_raster;
    MeshRow* rows;
    int32_t* first;
    MeshRow* partials;
    int32_t* partial_rows;
    int32_t capacity;
    int32_t* partial_count;  // device counters
    int32_t* redo_tiles;
    int32_t* redo_count;
    bool redo, raster_in;
};

// Adds word `role` of a partial row (MeshRow's 32-bit words; wide: the 64-bit word it belongs
// to) to a row that holds its first part: sums (words 0-7) and the size with additions, the
// rest with maxima (minima are kept complemented).
__device__ __forceinline__ void merge_word(MeshRow* row, int role, u64 wide, u32 word, bool real) {
    if (role < 6) {
        if ((role & 1) == 0) atomicAdd(reinterpret_cast<u64*>(row) + role / 2, wide);
    } else if (role == 6) {
        if (real) {
            add_to(&row->intensity, __longlong_as_double(static_cast<long long>(wide)));
        } else {
            add_to(&row->intensity, wide);
        }
    } else if (role == 8) {
        atomicAdd(&row->size, word);
    } else if (role > 8) {
        atomicMax(reinterpret_cast<u32*>(row) + role, word);
    }
}

// A partial row added to its row with atomics, a word at a time (merge_word).
__device__ __forceinline__ void merge_atomically(MeshRow* row, const MeshRow& part, bool real) {
    const u32* words = reinterpret_cast<const u32*>(&part);
    const u64* wide = reinterpret_cast<const u64*>(&part);
#pragma unroll
    for (int role = 0; role < 16; ++role) merge_word(row, role, wide[(role & 7) / 2], words[role], real);
}

template <class Sum>
__device__ __forceinline__ u64 intensity_bits(Sum s) {
    if constexpr (std::is_same_v<Sum, double>) {
        return static_cast<u64>(__double_as_longlong(s));
    } else {
        return static_cast<u64>(s);
    }
}

// A run (or several runs of one component) of a warp row into the table: size_x and sum_yz
// packed as in TileTable, its y and z, its first and last x.
template <class Sum>
__device__ __forceinline__ void add_run(TileTable<Sum>& t, int32_t row, bool root, u32 size_x, u32 sum_yz, u32 y,
                                        u32 z, u32 first_x, u32 last_x, u32 low, u32 high, Sum intensity) {
    u32 slot = (static_cast<u32>(row) * 2654435761u) >> (32 - kSlotBits);
    for (;;) {
        const int32_t held = atomicCAS(&t.key[slot], -1, row);
        if (held == -1) t.used[atomicAdd(&t.used_count, 1)] = static_cast<int32_t>(slot);
        if (held == -1 || held == row) break;
        slot = (slot + 1) & (kSlots - 1);
    }
    atomicAdd(&t.size_x[slot], size_x);
    atomicAdd(&t.sum_yz[slot], sum_yz);
    atomicOr(&t.span[slot], (1u << y) | (1u << (16 + z)));
    atomicMin(&t.min_x[slot], first_x);
    atomicMax(&t.max_x[slot], last_x);
    atomicMin(&t.low[slot], low);
    atomicMax(&t.high[slot], high);
    add_to(&t.intensity[slot], intensity);
    if (root) t.root[slot] = 1;
}

// A segmented reduction of the intensity keys and sums of a warp row's runs: each lane up to
// `tail`, the last lane of its run, so that a run's first lane ends with the run's.
template <class Sum>
__device__ __forceinline__ void reduce_run(u32& low, u32& high, Sum& sum, int tail) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const u32 other_low = __shfl_down_sync(kFullMask, low, offset);
        const u32 other_high = __shfl_down_sync(kFullMask, high, offset);
        const Sum other_sum = __shfl_down_sync(kFullMask, sum, offset);
        if (lane + offset <= tail) {
            low = min(low, other_low);
            high = max(high, other_high);
            sum += other_sum;
        }
    }
}

// The runs of a warp row (lane = cell), found with ballots: heads and tails are the lanes of
// their first and last cells; the first lane of each run holds its row and canonical label.
struct RowRuns {
    u32 heads = 0, tails = 0;
    int32_t row = -1, canonical = -1;
    bool cell = false;
};

// The runs, and the rows of their components (a tile's rows are looked up together).
template <class Cell>
__device__ __forceinline__ RowRuns find_runs(const MeshPass<Cell>& p, int32_t stored, bool inside) {
    const int lane = threadIdx.x & 31;
    // The run key: the canonical label, or in a redo over RASTER labels the row.
    const int32_t l = p.redo && p.raster_in ? stored - 1 : stored;
    RowRuns r;
    r.cell = inside && l >= 0;
    const int32_t before = __shfl_up_sync(kFullMask, l, 1);
    const int32_t after = __shfl_down_sync(kFullMask, l, 1);
    r.heads = __ballot_sync(kFullMask, r.cell && (lane == 0 || before != l));
    r.tails = __ballot_sync(kFullMask, r.cell && (lane == 31 || after != l));
    if ((r.heads >> lane) & 1) {
        r.canonical = l;
        if (p.redo && p.raster_in) {
            r.row = l;
            r.canonical = p.first[l];
        } else {
            r.row = p.roots.row(l);
        }
    }
    return r;
}

// A warp row's runs into the table. The sizes and coordinate sums of runs follow from their
// ends; intensities are reduced over the lanes (a segmented reduction, skipped when every run
// of the row holds one value: binary images, label images).
template <IntensityType T>
__device__ __forceinline__ void add_row(const MeshPass<typename Traits<T>::Cell>& p,
                                        TileTable<typename Traits<T>::Sum>& t, const RowRuns& r, int64_t i,
                                        bool inside, typename Traits<T>::Cell v, u32 x0, u32 y, u32 z) {
    using Sum = typename Traits<T>::Sum;
    const int lane = threadIdx.x & 31;
    if (r.heads == 0) {
        if (p.write_raster && inside) p.labels[i] = 0;
        return;
    }
    const bool head = (r.heads >> lane) & 1;
    const int tail = r.cell ? lane + __ffs(r.tails >> lane) - 1 : lane;
    if (p.write_raster) {
        const int from = 31 - __clz(r.heads & (0xffffffffu >> (31 - lane)));
        const int32_t row = __shfl_sync(kFullMask, r.row, from < 0 ? lane : from);
        if (inside) p.labels[i] = r.cell ? row + 1 : 0;
    }
    const u32 key = Traits<T>::key(v);
    u32 low = Traits<T>::low(v), high = Traits<T>::high(v);
    Sum sum = Traits<T>::value(v);
    const u32 previous_key = __shfl_up_sync(kFullMask, key, 1);
    if (__ballot_sync(kFullMask, r.cell && !head && previous_key != key) == 0) {
        sum *= static_cast<Sum>(tail - lane + 1);
    } else {
        reduce_run(low, high, sum, tail);
    }
    const u32 size = tail - lane + 1;
    const u32 first_x = x0 + lane;
    const u32 last_x = x0 + tail;
    if (head) {
        const u32 size_x = size | ((2 * first_x + size - 1) * size / 2) << kSizeBits;
        const u32 sum_yz = size * y | (size * z) << kSumYBits;
        const bool root = r.canonical == i;
        if (root && !p.redo) p.first[r.row] = r.canonical;
        add_run(t, r.row, root, size_x, sum_yz, y, z, first_x, last_x, low, high, sum);
    }
    // The next row's shuffles and ballots take the whole warp (diverged, they run emulated).
    __syncwarp();
}

// The table's rows out, and the table emptied: a thread per row, which it writes in four 16-byte
// stores (or, in a redo, adds with atomics).
template <class Cell, class Sum>
__device__ void flush_table(const MeshPass<Cell>& p, TileTable<Sum>& t, const Corner& c, int64_t tile) {
    const int used = t.used_count;
    if (!p.redo) {
        // Room for the partial rows, or the tile is done again later.
        int partial = 0;
        for (int u = threadIdx.x; u < used; u += kBlock) partial += !t.root[t.used[u]];
        partial = __reduce_add_sync(kFullMask, partial);
        if ((threadIdx.x & 31) == 0 && partial > 0) atomicAdd(&t.partial_count, partial);
        __syncthreads();
        if (threadIdx.x == 0 && t.partial_count > 0) {
            // Past the end, the counter only grows, and the partial rows' rows stay -1 from
            // the end of the last room given out: add_partial_rows skips those.
            const int32_t base = atomicAdd(p.partial_count, t.partial_count);
            t.partial_base = base <= p.capacity - t.partial_count ? base : -1;
            if (t.partial_base < 0) p.redo_tiles[atomicAdd(p.redo_count, 1)] = static_cast<int32_t>(tile);
        }
        __syncthreads();
    }
    for (int u = threadIdx.x; u < used; u += kBlock) {
        const int s = t.used[u];
        const int32_t row = t.key[s];
        const bool root = t.root[s];
        const u32 size_x = t.size_x[s], sum_yz = t.sum_yz[s], span = t.span[s];
        const u32 size = size_x & ((1u << kSizeBits) - 1), ys = span & 0xffffu, zs = span >> 16;
        MeshRow r;
        r.sum[0] = (size_x >> kSizeBits) + static_cast<u64>(size) * c.x;
        r.sum[1] = (sum_yz & ((1u << kSumYBits) - 1)) + static_cast<u64>(size) * c.y;
        r.sum[2] = (sum_yz >> kSumYBits) + static_cast<u64>(size) * c.z;
        r.intensity = intensity_bits(t.intensity[s]);
        r.size = size;
        r.low[0] = ~(c.x + t.min_x[s]);
        r.low[1] = ~(c.y + __ffs(ys) - 1);
        r.high[0] = c.x + t.max_x[s];
        r.high[1] = c.y + 31 - __clz(ys);
        r.high[2] = c.z + 31 - __clz(zs);
        r.intensity_low = ~t.low[s];
        r.intensity_high = t.high[s];
        t.empty(s);
        if (p.redo) {
            if (!root) merge_atomically(p.rows + row, r, std::is_same_v<Sum, double>);
            continue;
        }
        MeshRow* target = p.rows + row;
        if (!root) {
            if (t.partial_base < 0) continue;
            const int32_t at = t.partial_base + atomicAdd(&t.partial_cursor, 1);
            p.partial_rows[at] = row;
            target = p.partials + at;
        }
        const uint4* from = reinterpret_cast<const uint4*>(&r);
        uint4* to = reinterpret_cast<uint4*>(target);
#pragma unroll
        for (int q = 0; q < 4; ++q) to[q] = from[q];
    }
}

// The statistics pass over the cells (see the top of the file): a block per tile, a warp per
// row of 32 cells, each warp four rows of the tile (their labels loaded, and their rows looked
// up, together). Four blocks of 46 KB tables fill an SM: capped at 64 registers, the pass took
// 1.20 ms on 8192^2 at p = 0.5 on the H100, against 1.40 ms at 78 registers and three blocks.
template <IntensityType T>
__global__ void __launch_bounds__(kBlock, 4) accumulate_mesh(MeshPass<typename Traits<T>::Cell> p) {
    using Cell = typename Traits<T>::Cell;
    using Sum = typename Traits<T>::Sum;
    __shared__ TileTable<Sum> table;
    const int64_t count = p.redo ? *p.redo_count : p.tiles;
    if (blockIdx.x >= count) return;
    for (int s = threadIdx.x; s < kSlots; s += kBlock) table.empty(s);
    if (threadIdx.x == 0) table.used_count = table.partial_count = table.partial_cursor = table.partial_base = 0;
    __syncthreads();
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int64_t n = blockIdx.x; n < count; n += gridDim.x) {
        const int64_t tile = p.redo ? p.redo_tiles[n] : n;
        const Corner c{static_cast<u32>(tile % p.tiles_x) * p.t.width(),
                       static_cast<u32>(tile / p.tiles_x % p.tiles_y) * p.t.rows,
                       static_cast<u32>(tile / p.tiles_x / p.tiles_y) * p.t.layers};
        constexpr int kRowsPerWarp = kWarpRows / kWarpsPerBlock;
        int32_t label[kRowsPerWarp];
        Cell value[kRowsPerWarp];
        int64_t index[kRowsPerWarp];
        bool inside[kRowsPerWarp];
        u32 x0[kRowsPerWarp], y[kRowsPerWarp], z[kRowsPerWarp];
#pragma unroll
        for (int q = 0; q < kRowsPerWarp; ++q) {
            const int r = warp + kWarpsPerBlock * q;
            x0[q] = 32 * (r % p.t.across);
            y[q] = r / p.t.across % p.t.rows;
            z[q] = r / p.t.across / p.t.rows;
            const u32 gx = c.x + x0[q] + lane, gy = c.y + y[q], gz = c.z + z[q];
            inside[q] = gx < static_cast<u32>(p.g.width) && gy < static_cast<u32>(p.g.height) &&
                        gz < static_cast<u32>(p.g.depth);
            index[q] = gx + static_cast<int64_t>(p.g.width) * (gy + static_cast<int64_t>(p.g.height) * gz);
            label[q] = inside[q] ? p.labels[index[q]] : -1;
            value[q] = inside[q] ? p.cells[index[q]] : Cell(0);
        }
        RowRuns runs[kRowsPerWarp];
#pragma unroll
        for (int q = 0; q < kRowsPerWarp; ++q) runs[q] = find_runs(p, label[q], inside[q]);
#pragma unroll
        for (int q = 0; q < kRowsPerWarp; ++q) {
            add_row<T>(p, table, runs[q], index[q], inside[q], value[q], x0[q], y[q], z[q]);
        }
        __syncthreads();
        flush_table(p, table, c, tile);
        __syncthreads();
        if (threadIdx.x == 0) table.used_count = table.partial_count = table.partial_cursor = table.partial_base = 0;
        __syncthreads();
    }
}

// Two parts of one component's row merged: sums and sizes added, the rest (minima kept
// complemented) by maxima.
template <bool Real>
struct MergeRows {
    __device__ MeshRow operator()(const MeshRow& a, const MeshRow& b) const {
        MeshRow m = a;
#pragma unroll
        for (int f = 0; f < 3; ++f) m.sum[f] += b.sum[f];
        if constexpr (Real) {
            m.intensity = static_cast<u64>(__double_as_longlong(__longlong_as_double(static_cast<long long>(a.intensity)) +
                                                                __longlong_as_double(static_cast<long long>(b.intensity))));
        } else {
            m.intensity += b.intensity;
        }
        m.size += b.size;
        u32* into = reinterpret_cast<u32*>(&m);
        const u32* from = reinterpret_cast<const u32*>(&b);
#pragma unroll
        for (int w = 9; w < 16; ++w) into[w] = max(into[w], from[w]);
        return m;
    }
};

// A row's fields from lane + offset (the lanes above the last hold nothing of use).
__device__ __forceinline__ MeshRow shuffle_down(const MeshRow& r, int offset) {
    MeshRow o;
    const u32* from = reinterpret_cast<const u32*>(&r);
    u32* to = reinterpret_cast<u32*>(&o);
#pragma unroll
    for (int w = 0; w < 16; ++w) to[w] = __shfl_down_sync(kFullMask, from[w], offset);
    return o;
}

// The partial rows, sorted by row (rows_in; order[i]: the partial row at place i, or i without
// `order`), into the rows their components' root tiles wrote. A warp takes 32 consecutive
// places, a lane each, so that a row's partial rows lie in consecutive lanes: a segmented
// reduction brings their sum to the first of them, which adds it to the row with one plain read
// and write when the row has no partial rows in the warps before and after. The sums of the two
// rows that do continue there (the warp's first and last) become the warp's two places in `next`
// (row -1 when not taken; an empty sum where one row spans the whole warp), in the same order,
// for a second launch, which adds those that still continue past its warps with atomics (one
// row's worth a warp). Without the second level, a spanning cluster, which has a partial row in
// every tile, had one row's worth of atomics from each of 2,048 warps queue on its row: 0.17 ms
// on the 8192^2 field at p = 0.6 on an H200, against 0.04 ms so.
template <bool Real>
__global__ void add_partials(const MeshRow* __restrict__ partials, const int32_t* __restrict__ rows_in,
                             const int32_t* __restrict__ order, int64_t count, MeshRow* rows, MeshRow* next,
                             int32_t* next_rows) {
    const int lane = threadIdx.x & 31;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
    for (int64_t base = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32 * 32; base < count;
         base += warps * 32) {
        const int64_t at = base + lane;
        const int32_t row = at < count ? rows_in[at] : -1;
        MeshRow r{};
        if (row >= 0) {
            const uint4* from = reinterpret_cast<const uint4*>(partials + (order ? order[at] : at));
            uint4* to = reinterpret_cast<uint4*>(&r);
#pragma unroll
            for (int q = 0; q < 4; ++q) to[q] = from[q];
        }
        const int32_t before = __shfl_up_sync(kFullMask, row, 1), after = __shfl_down_sync(kFullMask, row, 1);
        const u32 heads = __ballot_sync(kFullMask, row >= 0 && (lane == 0 || before != row));
        const u32 tails = __ballot_sync(kFullMask, row >= 0 && (lane == 31 || after != row));
        const int tail = row >= 0 ? lane + __ffs(tails >> lane) - 1 : lane;
        if (heads != tails) {  // some row has several partial rows here
#pragma unroll
            for (int offset = 1; offset < 32; offset <<= 1) {
                const MeshRow other = shuffle_down(r, offset);
                if (lane + offset <= tail) r = MergeRows<Real>{}(r, other);
            }
        }
        const bool head = (heads >> lane) & 1;
        const bool open_before = head && lane == 0 && at > 0 && rows_in[at - 1] == row;
        const bool open_after = head && tail == 31 && base + 32 < count && rows_in[base + 32] == row;
        if (head && !open_before && !open_after && r.size != 0) rows[row] = MergeRows<Real>{}(rows[row], r);
        if (!next) {
            if (open_before || open_after) merge_atomically(rows + row, r, Real);
            continue;
        }
        const int64_t w = 2 * (base / 32);
        const int last = heads != 0 ? 31 - __clz(heads) : 0;
        if (lane == 0) {
            next_rows[w] = open_before ? row : -1;
            next[w] = open_before ? r : MeshRow{};
        }
        if (lane == last) {
            next_rows[w + 1] = open_after ? row : -1;
            next[w + 1] = open_after && !open_before ? r : MeshRow{};
        }
    }
}

// ---- the union-find's finalize with statistics ---------------------------------------------------

// Division by a divisor fixed for a launch, of dividends below 2^31: n * m >> s with
// m = ceil(2^s / d) and s = 31 + ceil(log2 d) is exact there (its error, below n / 2^s, stays
// under 1 / d).
struct Divider {
    u64 multiplier;
    int shift;
    static Divider of(u32 d) {
        int l = 0;
        while ((u64{1} << l) < d) ++l;
        const int s = 31 + l;
        return {((u64{1} << s) + d - 1) / d, s};
    }
    __device__ __forceinline__ u32 operator()(u32 n) const {
        return static_cast<u32>((static_cast<u64>(n) * multiplier) >> shift);
    }
};

// A union-find tile's slots in shared memory, one per cell, indexed by the cell's place in the
// tile (x + 32 (y + TY z)): a cluster's slot is its tile-local root's. Sums relative to the
// tile's corner: size (bits 0-11) and x sum (12-27) share a word, the y and z sums another;
// `columns` and `lines` are bit masks of the x and of the y (bits 0-15; in 2D 0-31) and z (16-31)
// occupied. Empty slots hold zero sums and masks, all-ones minima.
template <class Sum, int kCells>
struct SlotTable {
    u32 size_x[kCells], sum_yz[kCells], columns[kCells], lines[kCells];
    u32 low[kCells], high[kCells];  // intensity keys
    Sum intensity[kCells];
    int32_t label[kCells];    // the cell's entry in the tree, then the label of the slot's cells
    uint16_t used[kCells];    // the slots taken, in any order
    int32_t used_count;
    u32 key_min, key_max;     // the tile's intensity keys: one value when equal

    __device__ __forceinline__ void empty(int s) {
        size_x[s] = sum_yz[s] = columns[s] = lines[s] = 0;
        low[s] = ~0u;
        high[s] = 0;
        intensity[s] = 0;
    }
};
constexpr int kSlotSizeBits = 12, kSlotSumBits = 16;
static_assert(mesh::Tile3D::kCells < (1 << kSlotSizeBits) && mesh::Tile3D::kCells * 31 < (1 << kSlotSumBits) &&
                  mesh::Tile2D::kCells * 31 < (1 << kSlotSumBits),
              "packed slot sums");

// What the finalize from the tree needs. It writes every label and the rows of the components
// whose roots lie in the tile, and appends the others' partial rows to `partials` while there is
// room (counting them all in partial_count, so that the host can run it again with more).
template <class Cell>
struct TreePass {
    Shape g;
    int32_t tiles_x, tiles_y;
    int64_t tiles;
    Divider by_width, by_plane;
    const int32_t* tree;
    int32_t* labels;
    RootIndex roots;
    const Cell* cells;
    bool write_raster;
    MeshRow* rows;
    int32_t rows_capacity;  // rows at or past it are not written (the host runs the pass again)
    int32_t* first;
    MeshRow* partials;
    int32_t* partial_rows;
    int32_t capacity;
    int32_t* partial_count;
};

// The finalize of the union-find's tree (mesh::block_union_find_tree) with the statistics: a
// block per tile of the union-find, a warp per row of 32 cells. Every labelled cell's entry is
// its tile-local root (a root whose tree was joined to others may point anywhere), so that a run
// of equal entries along a row goes into the slot of the cell its entry names, or, when that
// lies outside the tile, into the slot of the run's first cell: each slot holds part of one
// component, and each component's root is in its own slot. Four shared-memory atomics a run
// (seven when the tile's intensities differ), no hashing. The flush walks each slot's cell up the
// tree to the component's root (its first step from the entries kept in shared memory): the slot
// of that root writes the row whole, the others are partial rows as in the mesh pass, placed by
// one atomic per warp. Then the labels, each cell its slot's.
template <IntensityType T, class Tl>
__global__ void __launch_bounds__(Tl::kThreads, Tl::TZ > 1 ? 3 : 4) finalize_statistics(TreePass<typename Traits<T>::Cell> p) {
    using Cell = typename Traits<T>::Cell;
    using Sum = typename Traits<T>::Sum;
    using Table = SlotTable<Sum, Tl::kCells>;
    constexpr int kRows = Tl::TY * Tl::TZ;
    constexpr int kWarps = Tl::kThreads / 32;
    constexpr int kPerWarp = kRows / kWarps;
    constexpr bool k3D = Tl::TZ > 1;
    static_assert(Tl::TX == 32 && kRows % kWarps == 0, "a warp takes whole rows");
    extern __shared__ uint4 shared_words[];
    Table& t = *reinterpret_cast<Table*>(shared_words);
    if (blockIdx.x >= p.tiles) return;
    for (int s = threadIdx.x; s < Tl::kCells; s += Tl::kThreads) t.empty(s);
    if (threadIdx.x == 0) {
        t.used_count = 0;
        t.key_min = ~0u;
        t.key_max = 0;
    }
    __syncthreads();
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const u32 width = p.g.width, height = p.g.height;
    const u32 plane = width * height;
    for (int64_t tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) {
        const u32 x0 = static_cast<u32>(tile % p.tiles_x) * 32;
        const u32 y0 = static_cast<u32>(tile / p.tiles_x % p.tiles_y) * Tl::TY;
        const u32 z0 = static_cast<u32>(tile / p.tiles_x / p.tiles_y) * Tl::TZ;
        const u32 corner = x0 + width * y0 + plane * z0;
        int32_t entry[kPerWarp];
        Cell value[kPerWarp];
        bool inside[kPerWarp];
#pragma unroll
        for (int q = 0; q < kPerWarp; ++q) {
            const int r = warp + kWarps * q;
            const u32 x = x0 + lane, y = y0 + r % Tl::TY, z = z0 + r / Tl::TY;
            inside[q] = x < width && y < height && z < static_cast<u32>(p.g.depth);
            const u32 i = x + width * y + plane * z;
            entry[q] = inside[q] ? p.tree[i] : -1;
            value[q] = inside[q] ? p.cells[i] : Cell(0);
            t.label[lane + 32 * r] = entry[q];
        }
        // One intensity in the whole tile (a binary image as its own intensity): the slots' are
        // then their sizes times it, and the runs skip their three intensity atomics.
        u32 key_min = ~0u, key_max = 0;
#pragma unroll
        for (int q = 0; q < kPerWarp; ++q) {
            if (entry[q] >= 0) {
                key_min = min(key_min, Traits<T>::key(value[q]));
                key_max = max(key_max, Traits<T>::key(value[q]));
            }
        }
        key_min = __reduce_min_sync(kFullMask, key_min);
        key_max = __reduce_max_sync(kFullMask, key_max);
        if (lane == 0 && key_min <= key_max) {
            atomicMin(&t.key_min, key_min);
            atomicMax(&t.key_max, key_max);
        }
        __syncthreads();
        const bool uniform = t.key_min >= t.key_max;  // (or no labelled cell)
        int slot[kPerWarp];
#pragma unroll
        for (int q = 0; q < kPerWarp; ++q) {
            const int r = warp + kWarps * q;
            const int32_t e = entry[q];
            const bool cell = e >= 0;
            const int32_t before = __shfl_up_sync(kFullMask, e, 1);
            const int32_t after = __shfl_down_sync(kFullMask, e, 1);
            const u32 heads = __ballot_sync(kFullMask, cell && (lane == 0 || before != e));
            const u32 tails = __ballot_sync(kFullMask, cell && (lane == 31 || after != e));
            const bool head = (heads >> lane) & 1;
            int own = -1;
            if (head) {
                // The entry's place in the tile, from its offset to the corner; the run's first
                // cell when it lies outside.
                own = lane + 32 * r;
                const u32 d = static_cast<u32>(e) - corner;
                if (static_cast<u32>(e) >= corner) {
                    const u32 dz = k3D ? p.by_plane(d) : 0;
                    const u32 in_plane = d - dz * plane;
                    const u32 dy = p.by_width(in_plane);
                    const u32 dx = in_plane - dy * width;
                    if (dz < Tl::TZ && dy < Tl::TY && dx < 32 && x0 + dx < width && y0 + dy < height) {
                        own = static_cast<int>(dx + 32 * (dy + Tl::TY * dz));
                    }
                }
            }
            const int from = 31 - __clz(heads & (0xffffffffu >> (31 - lane)));
            slot[q] = __shfl_sync(kFullMask, own, from < 0 ? lane : from);
            if (!cell) slot[q] = -1;
            const int tail = cell ? lane + __ffs(tails >> lane) - 1 : lane;
            u32 low = 0, high = 0;
            Sum sum = 0;
            if (!uniform) {
                low = Traits<T>::low(value[q]);
                high = Traits<T>::high(value[q]);
                sum = Traits<T>::value(value[q]);
                reduce_run(low, high, sum, tail);
            }
            if (head) {
                const u32 size = tail - lane + 1;
                const u32 ly = r % Tl::TY, lz = r / Tl::TY;
                const int s = own;
                if (atomicAdd(&t.size_x[s], size | ((2 * lane + size - 1) * size / 2) << kSlotSizeBits) == 0) {
                    t.used[atomicAdd(&t.used_count, 1)] = static_cast<uint16_t>(s);
                }
                atomicAdd(&t.sum_yz[s], size * ly | (size * lz) << kSlotSumBits);
                atomicOr(&t.columns[s], (2u << tail) - (1u << lane));
                atomicOr(&t.lines[s], k3D ? (1u << ly) | (1u << (16 + lz)) : 1u << ly);
                if (!uniform) {
                    atomicMin(&t.low[s], low);
                    atomicMax(&t.high[s], high);
                    add_to(&t.intensity[s], sum);
                }
            }
            __syncwarp();
        }
        __syncthreads();
        // The flush: a thread per slot taken (the trees are read only here).
        const int used = t.used_count;
        for (int u = threadIdx.x; u < used; u += Tl::kThreads) {
            // The lanes of this round: a warp's first `used - (u - lane)` lanes.
            const int taking = used - (u - lane);
            const unsigned round = taking >= 32 ? kFullMask : (1u << taking) - 1;
            const int s = t.used[u];
            const int32_t cell = static_cast<int32_t>(corner + (s & 31) + width * ((s >> 5) % Tl::TY) +
                                                      plane * ((s >> 5) / Tl::TY));
            int32_t root = cell;
            for (int32_t next = t.label[s]; next != root; next = __ldg(p.tree + next)) root = next;
            const int32_t row = p.roots.row(root);
            const u32 size_x = t.size_x[s], sum_yz = t.sum_yz[s], columns = t.columns[s], lines = t.lines[s];
            const u32 size = size_x & ((1u << kSlotSizeBits) - 1);
            const u32 ys = k3D ? lines & 0xffffu : lines, zs = lines >> 16;
            MeshRow m;
            m.sum[0] = (size_x >> kSlotSizeBits) + static_cast<u64>(size) * x0;
            m.sum[1] = (sum_yz & ((1u << kSlotSumBits) - 1)) + static_cast<u64>(size) * y0;
            m.sum[2] = (sum_yz >> kSlotSumBits) + static_cast<u64>(size) * z0;
            m.size = size;
            m.low[0] = ~(x0 + __ffs(columns) - 1);
            m.low[1] = ~(y0 + __ffs(ys) - 1);
            m.high[0] = x0 + 31 - __clz(columns);
            m.high[1] = y0 + 31 - __clz(ys);
            m.high[2] = k3D ? z0 + 31 - __clz(zs) : 0;
            if (uniform) {
                const typename Traits<T>::Cell one = Traits<T>::of_key(t.key_min);
                m.intensity = intensity_bits(static_cast<Sum>(size) * Traits<T>::value(one));
                m.intensity_low = ~Traits<T>::low(one);
                m.intensity_high = Traits<T>::high(one);
            } else {
                m.intensity = intensity_bits(t.intensity[s]);
                m.intensity_low = ~t.low[s];
                m.intensity_high = t.high[s];
            }
            t.empty(s);
            t.label[s] = p.write_raster ? row + 1 : root;
            const bool whole = root == cell;
            const unsigned parts = __ballot_sync(round, !whole);
            int32_t at = 0;
            if (parts != 0) {
                const int leader = __ffs(parts) - 1;
                if (lane == leader) at = atomicAdd(p.partial_count, __popc(parts));
                at = __shfl_sync(round, at, leader) + __popc(parts & ((1u << lane) - 1));
            }
            MeshRow* target = p.rows + row;
            if (whole) {
                if (row >= p.rows_capacity) continue;
                p.first[row] = root;
            } else {
                if (at >= p.capacity) continue;
                p.partial_rows[at] = row;
                target = p.partials + at;
            }
            const uint4* from = reinterpret_cast<const uint4*>(&m);
            uint4* to = reinterpret_cast<uint4*>(target);
#pragma unroll
            for (int q = 0; q < 4; ++q) to[q] = from[q];
        }
        __syncthreads();
        const int32_t background = p.write_raster ? 0 : -1;
#pragma unroll
        for (int q = 0; q < kPerWarp; ++q) {
            const int r = warp + kWarps * q;
            if (!inside[q]) continue;
            const u32 i = x0 + lane + width * (y0 + r % Tl::TY) + plane * (z0 + r / Tl::TY);
            p.labels[i] = slot[q] >= 0 ? t.label[slot[q]] : background;
        }
        if (threadIdx.x == 0) {
            t.used_count = 0;
            t.key_min = ~0u;
            t.key_max = 0;
        }
        __syncthreads();
    }
}

// ---- the graph pass -----------------------------------------------------------------------------

// One vertex per lane, warps stepping together (so every lane takes part in the match): its
// label in the numbering (RASTER), its row's size, edges (arcs to vertices >= it), largest vertex
// and degree, combined per row across the warp before the atomics.
template <class Offset>
__global__ void accumulate_graph(int32_t n, const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                                 int32_t* labels, RootIndex roots, bool write_raster, GraphRow* rows,
                                 int32_t* first) {
    const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
    for (int64_t base = warp * 32; base < n; base += warps * 32) {
        const int64_t v = base + (threadIdx.x & 31);
        int32_t row = -1;
        u64 edges = 0, degree = 0;
        if (v < n) {
            const int32_t l = labels[v];
            if (l >= 0) {
                row = roots.row(l);
                if (l == v) first[row] = l;
                const Offset begin = offsets[v], end = offsets[v + 1];
                degree = static_cast<u64>(end - begin);
                for (Offset a = begin; a < end; ++a) edges += __ldg(neighbors + a) >= v;
            }
            if (write_raster) labels[v] = row + 1;
        }
        const unsigned peers = __match_any_sync(kFullMask, row);
        const u32 size = __popc(peers);
        edges = group_add(peers, edges);
        degree = group_max(peers, degree);
        const u32 largest = __reduce_max_sync(peers, static_cast<u32>(v < n ? v : 0));
        if (row >= 0 && static_cast<int>(threadIdx.x & 31) == __ffs(peers) - 1) {
            atomicAdd(&rows[row].size, size);
            atomicAdd(&rows[row].edges, edges);
            atomicMax(&rows[row].max_degree, degree);
            atomicMax(&rows[row].max_vertex, largest);
        }
    }
}

// ---- the size order ----------------------------------------------------------------------------

// Keys (n - size, first) ascending: larger components first, equal sizes by first cell. sizes
// are the rows' 32-bit size fields, `stride` words apart.
__global__ void size_keys(const u32* __restrict__ sizes, int stride, const int32_t* __restrict__ first, int32_t k,
                          int32_t n, u64* keys, int32_t* rows) {
    for (int64_t r = detail::thread_index(); r < k; r += detail::thread_count()) {
        keys[r] = (static_cast<u64>(n - sizes[r * stride]) << 32) | static_cast<u32>(first[r]);
        rows[r] = static_cast<int32_t>(r);
    }
}

__global__ void invert(const int32_t* __restrict__ order, int32_t k, int32_t* position) {
    for (int64_t p = detail::thread_index(); p < k; p += detail::thread_count()) {
        position[order[p]] = static_cast<int32_t>(p);
    }
}

// Canonical labels to the SIZE numbering: the position of the label's row, -1 for background.
__global__ void relabel(int32_t* labels, int32_t n, RootIndex roots,
                        const int32_t* __restrict__ position) {
    for (int64_t i = detail::thread_index(); i < n; i += detail::thread_count()) {
        const int32_t l = labels[i];
        labels[i] = l >= 0 ? position[roots.row(l)] : -1;
    }
}

// ---- columns ----------------------------------------------------------------------------------

// What the column kernel needs of a table.
struct TableView {
    TableKind kind;
    int32_t numbering;
    Shape shape;
    bool real;  // F32 intensity
    const MeshRow* mesh;
    const GraphRow* graph;
    const int32_t* first;
    const int32_t* order;  // SIZE numbering: the raster row at each position; else null
};

__device__ double ratio_of(u64 sum, u32 size) {
    return static_cast<double>(static_cast<int64_t>(sum)) / static_cast<double>(size);
}

// Rows [begin, begin + count) of a column into out (its type: 4 or 8 bytes a value).
__global__ void column_values(TableView t, int32_t column, int64_t begin, int64_t count, void* out) {
    for (int64_t i = detail::thread_index(); i < count; i += detail::thread_count()) {
        const int64_t r = begin + i;
        const int32_t raster = t.order ? t.order[r] : static_cast<int32_t>(r);
        const int32_t root = t.first[raster];
        auto* i32 = static_cast<int32_t*>(out);
        auto* i64 = static_cast<int64_t*>(out);
        auto* f64 = static_cast<double*>(out);
        if (column == CCL4J_STAT_LABEL) {
            i64[i] = t.numbering == CCL4J_NUMBERING_CANONICAL ? root : t.numbering == CCL4J_NUMBERING_RASTER ? r + 1 : r;
            continue;
        }
        if (column == CCL4J_STAT_FIRST) {
            i64[i] = root;
            continue;
        }
        if (t.kind == TableKind::Graph) {
            const GraphRow& g = t.graph[raster];
            switch (column) {
                case CCL4J_STAT_SIZE: i64[i] = g.size; break;
                case CCL4J_STAT_EDGES: i64[i] = static_cast<int64_t>(g.edges); break;
                case CCL4J_STAT_MAX_VERTEX: i32[i] = static_cast<int32_t>(g.max_vertex); break;
                case CCL4J_STAT_MAX_DEGREE: i64[i] = static_cast<int64_t>(g.max_degree); break;
                default: break;
            }
            continue;
        }
        const MeshRow& m = t.mesh[raster];
        const bool three_d = t.shape.three_d();
        const int64_t plane = static_cast<int64_t>(t.shape.width) * t.shape.height;
        const int32_t low[3] = {static_cast<int32_t>(~m.low[0]), static_cast<int32_t>(~m.low[1]),
                                three_d ? static_cast<int32_t>(root / plane) : 0};
        const int32_t high[3] = {static_cast<int32_t>(m.high[0]), static_cast<int32_t>(m.high[1]),
                                 three_d ? static_cast<int32_t>(m.high[2]) : 0};
        const double sum = t.real ? __longlong_as_double(static_cast<long long>(m.intensity))
                                  : static_cast<double>(static_cast<int64_t>(m.intensity));
        switch (column) {
            case CCL4J_STAT_SIZE: i64[i] = m.size; break;
            case CCL4J_STAT_MIN_X: case CCL4J_STAT_MIN_Y: case CCL4J_STAT_MIN_Z:
                i32[i] = low[column - CCL4J_STAT_MIN_X];
                break;
            case CCL4J_STAT_MAX_X: case CCL4J_STAT_MAX_Y: case CCL4J_STAT_MAX_Z:
                i32[i] = high[column - CCL4J_STAT_MAX_X];
                break;
            case CCL4J_STAT_CENTROID_X: case CCL4J_STAT_CENTROID_Y: case CCL4J_STAT_CENTROID_Z:
                f64[i] = ratio_of(m.sum[column - CCL4J_STAT_CENTROID_X], m.size);
                break;
            case CCL4J_STAT_TOUCHES: {
                const int32_t extent[3] = {t.shape.width, t.shape.height, t.shape.depth};
                u32 faces = 0;
                for (int a = 0; a < (three_d ? 3 : 2); ++a) {
                    if (low[a] == 0) faces |= CCL4J_FACE_X_MIN << (2 * a);
                    if (high[a] == extent[a] - 1) faces |= CCL4J_FACE_X_MAX << (2 * a);
                }
                i32[i] = static_cast<int32_t>(faces);
                break;
            }
            case CCL4J_STAT_SUM: f64[i] = sum; break;
            case CCL4J_STAT_MIN: f64[i] = key_value(~m.intensity_low, t.real); break;
            case CCL4J_STAT_MAX: f64[i] = key_value(m.intensity_high, t.real); break;
            case CCL4J_STAT_MEAN: f64[i] = sum / static_cast<double>(m.size); break;
            default: break;
        }
    }
}

// ---- buffers and the table ----------------------------------------------------------------------

// The statistics' buffers on a state. The last table points into them; each call starts a new
// generation, and a table of an older one refuses to be read.
struct TableWorkspace final : Workspace {
    DeviceBuffer rows, first, order;    // the table
    DeviceBuffer temp, sort, staging;   // CUB's scratch, the size order's arrays, copy_column
    DeviceBuffer labels, scratch, cells;  // statistics of host labels
    DeviceBuffer redo;                   // the mesh pass's counters and tiles to redo
    DeviceBuffer index, partials;        // the finalize from a tree: the root index, partial rows
    DeviceBuffer partial_levels;         // add_partials' sums of rows that continue past a warp
    DeviceBuffer offsets, neighbors;    // host graphs
    uint64_t generation = 0;
};

class DeviceTable final : public StatisticsTable {
public:
    DeviceTable(DeviceState& state, const TableView& view, int64_t k)
        : state_(state), view_(view), k_(k), generation_(state.workspace<TableWorkspace>().generation) {}

    TableKind kind() const override { return view_.kind; }
    int64_t rows() const override { return k_; }

    void copy_column(int32_t column, int64_t first, int64_t count, void* out) const override {
        TableWorkspace& work = state_.workspace<TableWorkspace>();
        if (work.generation != generation_) {
            fail(CCL4J_INVALID_ARGUMENT, "this statistics table is gone: a later statistics call on the context "
                                         "has reused its device memory");
        }
        const int width = column_width(view_.kind, column);
        if (width == 0) fail(CCL4J_INTERNAL_ERROR, "the table has no column " + std::to_string(column));
        if (count <= 0) return;
        state_.activate();
        const size_t bytes = static_cast<size_t>(count) * width;
        work.staging.reserve(bytes, "statistics column");
        column_values<<<grid_size(state_, kBlock, count), kBlock, 0, state_.stream>>>(view_, column, first, count,
                                                                                     work.staging.as<void>());
        check_launch("statistics: column");
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(out, work.staging.as<void>(), bytes, cudaMemcpyDeviceToHost, state_.stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_.stream));
    }

private:
    DeviceState& state_;
    TableView view_;
    int64_t k_;
    uint64_t generation_;
};

// One statistics computation over canonical labels on the device.
struct Job {
    DeviceState& state;
    TableKind kind;
    Shape shape;           // meshes
    int32_t n;             // cells or vertices
    int32_t numbering;
    int32_t* labels;       // device: canonical in, numbered out
    int32_t* scratch;      // device, n entries: the root index, then the mesh pass's partial rows
    const void* cells;     // meshes: the intensity on the device, dense
    IntensityType type;
    const Graph* graph;    // graphs: offset width
    const void* offsets;   // graphs, device
    const int32_t* neighbors;
    const int32_t* tree = nullptr;  // the union-find's tree (finalized here), else null: labels are canonical
    u32* index = nullptr;           // where the root index goes
    RootIndex roots{};
    int32_t k = 0;
    MeshRow* mesh_rows = nullptr;
    GraphRow* graph_rows = nullptr;
    int32_t* first = nullptr;
    int32_t* order = nullptr;

    TableWorkspace& work() const { return state.workspace<TableWorkspace>(); }
    int grid(int64_t items) const { return grid_size(state, kBlock, items); }
};

// The root index in the scratch buffer: mask, then inclusive.
int64_t index_words(int64_t n) { return (n + 31) / 32; }
int64_t index_words(const Job& job) { return index_words(job.n); }

// stats-roots: the root index (its mask from the canonical labels, or as the tree plan left it),
// and k (the host waits for it; the finalize from the tree reads it back with its own count, so
// that the host waits once).
void index_roots(Job& job) {
    cudaStream_t stream = job.state.stream;
    const int64_t words = index_words(job);
    u32* mask = job.index ? job.index : reinterpret_cast<u32*>(job.scratch);
    u32* inclusive = mask + words;
    job.roots = RootIndex{mask, inclusive};
    if (!job.tree) {  // (the tree plan leaves the mask)
        root_mask<<<job.grid((words + 31) / 32 * 32), kBlock, 0, stream>>>(job.labels, job.n, words, mask);
        check_launch("statistics: root mask");
    }
    const RootCounts counts(thrust::counting_iterator<int64_t>(0), RootsInWord{mask});
    size_t bytes = 0;
    CCL4J_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, counts, inclusive, words, stream));
    job.work().temp.reserve(bytes, "statistics scan scratch");
    CCL4J_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(job.work().temp.as<void>(), bytes, counts, inclusive, words, stream));
    if (job.tree) return;
    // Into pageable memory the copy returns once done.
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&job.k, inclusive + words - 1, sizeof(int32_t), cudaMemcpyDeviceToHost, stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
}

int bits_for(uint32_t value) { return value == 0 ? 1 : 32 - __builtin_clz(value); }

// Room for `rows` rows of the table and their first cells.
void reserve_rows(Job& job, int64_t rows) {
    TableWorkspace& work = job.work();
    const size_t row_bytes = job.kind == TableKind::Mesh ? sizeof(MeshRow) : sizeof(GraphRow);
    work.rows.reserve(static_cast<size_t>(std::max<int64_t>(rows, 1)) * row_bytes, "statistics rows");
    work.first.reserve(static_cast<size_t>(std::max<int64_t>(rows, 1)) * sizeof(int32_t), "statistics first cells");
    job.first = work.first.as<int32_t>();
    job.mesh_rows = work.rows.as<MeshRow>();
    job.graph_rows = work.rows.as<GraphRow>();
}


// place[i] = i.
__global__ void fill_places(int32_t* place, int32_t count) {
    for (int64_t i = detail::thread_index(); i < count; i += detail::thread_count()) place[i] = static_cast<int32_t>(i);
}

// The first `count` partial rows into the rows: their rows sorted (a CUB radix sort carrying their
// places; rows -1, room left unused, sort last), then add_partials, twice. (On 8192^2 at p = 0.5
// on an H200, under ncu: 0.05 ms, where the kernel before, eight rounds of 32 partial rows a warp
// grouped with __match_any_sync, took 0.28 ms, and a CUB reduce-by-key over the partial rows in
// row order 0.27 ms.)
template <bool Real>
void add_partial_rows(Job& job, const MeshRow* partials, const int32_t* partial_rows, int32_t count) {
    if (count == 0) return;
    cudaStream_t stream = job.state.stream;
    size_t sort_bytes = 0;
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, static_cast<int32_t*>(nullptr),
                                                     static_cast<int32_t*>(nullptr), static_cast<int32_t*>(nullptr),
                                                     static_cast<int32_t*>(nullptr), count));
    const size_t ints = static_cast<size_t>(count) * sizeof(int32_t);
    const std::vector<void*> b = carve(job.work().sort, {ints, ints, ints, sort_bytes}, "statistics partial row order");
    auto* sorted_rows = static_cast<int32_t*>(b[0]);
    auto* places = static_cast<int32_t*>(b[1]);
    auto* order = static_cast<int32_t*>(b[2]);
    fill_places<<<job.grid(count), kBlock, 0, stream>>>(places, count);
    check_launch("statistics: partial row places");
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(b[3], sort_bytes, partial_rows, sorted_rows, places, order, count,
                                                     0, bits_for(static_cast<uint32_t>(job.k)), stream));
    // The rows that continue past a warp, two places a warp, for the second level (see add_partials).
    const int64_t next_count = 2 * ((count + 31) / 32);
    const std::vector<void*> n =
        carve(job.work().partial_levels, {static_cast<size_t>(next_count) * sizeof(MeshRow),
                                          static_cast<size_t>(next_count) * sizeof(int32_t)},
              "statistics partial row sums");
    auto* next = static_cast<MeshRow*>(n[0]);
    auto* next_rows = static_cast<int32_t*>(n[1]);
    const bool two_levels = count > 32;
    add_partials<Real><<<job.grid(count), kBlock, 0, stream>>>(partials, sorted_rows, order, count, job.mesh_rows,
                                                               two_levels ? next : nullptr, next_rows);
    check_launch("statistics: partial rows");
    if (!two_levels) return;
    add_partials<Real><<<job.grid(next_count), kBlock, 0, stream>>>(next, next_rows, nullptr, next_count,
                                                                    job.mesh_rows, nullptr, nullptr);
    check_launch("statistics: partial rows, second level");
}

// The mesh pass, the partial rows and the redo pass (see MeshPass). The partial rows take what the
// scratch buffer has left after the root index: 68 bytes a row, about n / 18 rows.
template <IntensityType T>
void launch_mesh(Job& job) {
    using Cell = typename Traits<T>::Cell;
    cudaStream_t stream = job.state.stream;
    const Shape& g = job.shape;
    const TileShape t = tile_shape(g);
    const int32_t tiles_x = (g.width + t.width() - 1) / t.width();
    const int32_t tiles_y = (g.height + t.rows - 1) / t.rows;
    const int64_t tiles = static_cast<int64_t>(tiles_x) * tiles_y * ((g.depth + t.layers - 1) / t.layers);
    const size_t scratch_bytes = static_cast<size_t>(job.n) * sizeof(int32_t);
    const size_t index_bytes = (static_cast<size_t>(index_words(job)) * 2 * sizeof(u32) + 63) / 64 * 64;
    const size_t room = scratch_bytes > index_bytes ? scratch_bytes - index_bytes : 0;
    const auto capacity = static_cast<int32_t>(room / (sizeof(MeshRow) + sizeof(int32_t)));
    auto* partials = reinterpret_cast<MeshRow*>(reinterpret_cast<char*>(job.scratch) + index_bytes);
    auto* partial_rows = reinterpret_cast<int32_t*>(partials + capacity);
    TableWorkspace& work = job.work();
    work.redo.reserve((static_cast<size_t>(tiles) + 2) * sizeof(int32_t), "statistics tiles to redo");
    int32_t* counters = work.redo.as<int32_t>();  // partial rows, tiles to redo
    CCL4J_CUDA_CHECK(cudaMemsetAsync(counters, 0, 2 * sizeof(int32_t), stream));
    CCL4J_CUDA_CHECK(cudaMemsetAsync(partial_rows, 0xff, static_cast<size_t>(capacity) * sizeof(int32_t), stream));
    MeshPass<Cell> pass{g,         t,           tiles_x,    tiles_y,  tiles,
                        job.labels, job.roots,  static_cast<const Cell*>(job.cells),
                        job.numbering == CCL4J_NUMBERING_RASTER,
                        job.mesh_rows, job.first, partials,  partial_rows,
                        capacity,   counters,    counters + 2, counters + 1, false, false};
    const int resident = resident_grid(job.state, accumulate_mesh<T>, kBlock);
    accumulate_mesh<T><<<static_cast<int>(std::min<int64_t>(tiles, resident)), kBlock, 0, stream>>>(pass);
    check_launch("statistics: mesh pass");
    int32_t written = 0;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&written, counters, sizeof written, cudaMemcpyDeviceToHost, stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
    add_partial_rows<T == IntensityType::F32>(job, partials, partial_rows, std::min(written, capacity));
    pass.raster_in = pass.write_raster;
    pass.write_raster = false;
    pass.redo = true;
    accumulate_mesh<T><<<resident, kBlock, 0, stream>>>(pass);
    check_launch("statistics: mesh pass again");
}

// The finalize from the tree (finalize_statistics), then the partial rows (add_partial_rows). The
// rows get the room their buffer has from earlier calls, at least one a 64 cells, and the partial
// rows a buffer of their own (the tree is read until the end), at least one a 32 cells; the host
// reads k and the partial rows' count back after the pass, and should either outnumber its room,
// the pass runs again with room for all (it writes every label and whole row anew).
template <IntensityType T, class Tl>
void launch_tree(Job& job) {
    using Cell = typename Traits<T>::Cell;
    using Sum = typename Traits<T>::Sum;
    const auto kernel = finalize_statistics<T, Tl>;
    cudaStream_t stream = job.state.stream;
    const Shape& g = job.shape;
    const int32_t tiles_x = (g.width + Tl::TX - 1) / Tl::TX;
    const int32_t tiles_y = (g.height + Tl::TY - 1) / Tl::TY;
    const int64_t tiles = static_cast<int64_t>(tiles_x) * tiles_y * ((g.depth + Tl::TZ - 1) / Tl::TZ);
    TableWorkspace& work = job.work();
    work.redo.reserve(2 * sizeof(int32_t), "statistics partial row count");
    int32_t* count = work.redo.as<int32_t>();  // the partial rows, then k, read back together
    const int shared = static_cast<int>(sizeof(SlotTable<Sum, Tl::kCells>));
    CCL4J_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    CCL4J_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          cudaSharedmemCarveoutMaxShared));
    int per_multiprocessor = 0;
    CCL4J_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, Tl::kThreads, shared));
    const int blocks = static_cast<int>(std::min<int64_t>(tiles, std::max(per_multiprocessor, 1) * job.state.multiprocessors));
    const auto plane = static_cast<u32>(static_cast<int64_t>(g.width) * g.height);
    int64_t capacity = std::max<int64_t>(
        {int64_t{job.n} / 32, static_cast<int64_t>(work.partials.capacity() / (sizeof(MeshRow) + sizeof(int32_t))), 1024});
    int64_t rows_capacity =
        std::max<int64_t>({int64_t{job.n} / 64, static_cast<int64_t>(work.rows.capacity() / sizeof(MeshRow)), 1024});
    MeshRow* partials = nullptr;
    int32_t* partial_rows = nullptr;
    int32_t taken = 0;
    for (;;) {
        reserve_rows(job, rows_capacity);
        work.partials.reserve(static_cast<size_t>(capacity) * (sizeof(MeshRow) + sizeof(int32_t)),
                              "statistics partial rows");
        partials = work.partials.as<MeshRow>();
        partial_rows = reinterpret_cast<int32_t*>(partials + capacity);
        CCL4J_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int32_t), stream));
        const TreePass<Cell> pass{g,         tiles_x,   tiles_y,    tiles,     Divider::of(static_cast<u32>(g.width)),
                                  Divider::of(plane),   job.tree,   job.labels, job.roots,
                                  static_cast<const Cell*>(job.cells), job.numbering == CCL4J_NUMBERING_RASTER,
                                  job.mesh_rows, static_cast<int32_t>(rows_capacity), job.first, partials,
                                  partial_rows, static_cast<int32_t>(capacity), count};
        kernel<<<blocks, Tl::kThreads, shared, stream>>>(pass);
        check_launch("statistics: finalize from the tree");
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(count + 1, job.roots.inclusive + index_words(job) - 1, sizeof(int32_t),
                                         cudaMemcpyDeviceToDevice, stream));
        int32_t back[2];
        // (Into pageable memory: the copy returns once done.)
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(back, count, sizeof back, cudaMemcpyDeviceToHost, stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
        taken = back[0];
        job.k = back[1];
        if (taken <= capacity && job.k <= rows_capacity) break;
        capacity = std::max<int64_t>(capacity, taken);
        rows_capacity = std::max<int64_t>(rows_capacity, job.k);
    }
    add_partial_rows<T == IntensityType::F32>(job, partials, partial_rows, taken);
}

template <IntensityType T>
void launch_tree(Job& job) {
    if (job.shape.depth == 1) return launch_tree<T, mesh::Tile2D>(job);
    launch_tree<T, mesh::Tile3D>(job);
}

template <class Offset>
void launch_graph(Job& job) {
    accumulate_graph<Offset><<<job.grid(job.n), kBlock, 0, job.state.stream>>>(
        job.n, static_cast<const Offset*>(job.offsets), job.neighbors, job.labels, job.roots,
        job.numbering == CCL4J_NUMBERING_RASTER, job.graph_rows, job.first);
    check_launch("statistics: graph pass");
}

// stats: the rows, one pass over the entries (and, for meshes, the partial rows).
void accumulate(Job& job) {
    if (job.tree) {  // (which makes room for the rows itself: k is not known yet)
        switch (job.type) {
            case IntensityType::U8: return launch_tree<IntensityType::U8>(job);
            case IntensityType::U16: return launch_tree<IntensityType::U16>(job);
            case IntensityType::I32: return launch_tree<IntensityType::I32>(job);
            case IntensityType::F32: return launch_tree<IntensityType::F32>(job);
        }
    }
    TableWorkspace& work = job.work();
    const size_t k = static_cast<size_t>(job.k);
    reserve_rows(job, job.k);
    // Without components only RASTER labels change (background becomes 0).
    if (k == 0 && job.numbering != CCL4J_NUMBERING_RASTER) return;
    if (job.kind == TableKind::Graph) {
        // Every row is added to with atomics. (A mesh's rows are written whole by their first tiles.)
        if (k > 0) CCL4J_CUDA_CHECK(cudaMemsetAsync(work.rows.as<void>(), 0, k * sizeof(GraphRow), job.state.stream));
        if (job.graph->offset_width == 4) return launch_graph<int32_t>(job);
        return launch_graph<int64_t>(job);
    }
    switch (job.type) {
        case IntensityType::U8: return launch_mesh<IntensityType::U8>(job);
        case IntensityType::U16: return launch_mesh<IntensityType::U16>(job);
        case IntensityType::I32: return launch_mesh<IntensityType::I32>(job);
        case IntensityType::F32: return launch_mesh<IntensityType::F32>(job);
    }
}


// stats-order (SIZE numbering): the rows by size, and the labels in that order.
void order_by_size(Job& job) {
    if (job.numbering != CCL4J_NUMBERING_SIZE || job.k == 0) return;
    TableWorkspace& work = job.work();
    cudaStream_t stream = job.state.stream;
    const int32_t k = job.k;
    const size_t keys = static_cast<size_t>(k) * sizeof(u64), ints = static_cast<size_t>(k) * sizeof(int32_t);
    size_t temp_bytes = 0;
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, static_cast<u64*>(nullptr),
                                                     static_cast<u64*>(nullptr), static_cast<int32_t*>(nullptr),
                                                     static_cast<int32_t*>(nullptr), k));
    const std::vector<void*> p = carve(work.sort, {keys, keys, ints, ints, temp_bytes}, "statistics size order");
    work.order.reserve(ints, "statistics order");
    job.order = work.order.as<int32_t>();
    auto* keys_in = static_cast<u64*>(p[0]);
    auto* keys_out = static_cast<u64*>(p[1]);
    auto* rows_in = static_cast<int32_t*>(p[2]);
    auto* position = static_cast<int32_t*>(p[3]);
    const u32* sizes = job.kind == TableKind::Mesh ? &job.mesh_rows->size : &job.graph_rows->size;
    const int stride = static_cast<int>((job.kind == TableKind::Mesh ? sizeof(MeshRow) : sizeof(GraphRow)) / 4);
    size_keys<<<job.grid(k), kBlock, 0, stream>>>(sizes, stride, job.first, k, job.n, keys_in, rows_in);
    check_launch("statistics: size keys");
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(p[4], temp_bytes, keys_in, keys_out, rows_in, job.order, k, 0,
                                                     32 + bits_for(static_cast<uint32_t>(job.n)), stream));
    invert<<<job.grid(k), kBlock, 0, stream>>>(job.order, k, position);
    check_launch("statistics: size positions");
    relabel<<<job.grid(job.n), kBlock, 0, stream>>>(job.labels, job.n, job.roots, position);
    check_launch("statistics: size labels");
}

StatisticsTablePtr table_of(const Job& job) {
    TableView view{job.kind,      job.numbering, job.shape,      job.type == IntensityType::F32,
                   job.mesh_rows, job.graph_rows, job.first,     job.order};
    return std::make_unique<DeviceTable>(job.state, view, job.k);
}

Job mesh_job(DeviceState& state, const Mesh& mesh, int32_t numbering) {
    return Job{state,   TableKind::Mesh, Shape{mesh.width, mesh.height, mesh.depth},
               static_cast<int32_t>(mesh.cell_count()),    numbering, nullptr, nullptr, nullptr,
               IntensityType::U8, nullptr, nullptr, nullptr};
}

// Reserves the dense device copy of a host intensity grid of the mesh's extents.
void* reserve_intensity(DeviceState& state, const Mesh& mesh, const Intensity& intensity) {
    DeviceBuffer& cells = state.workspace<TableWorkspace>().cells;
    cells.reserve(static_cast<size_t>(mesh.cell_count()) * intensity_bytes(intensity.type), "statistics intensity");
    return cells.as<void>();
}

void copy_intensity(DeviceState& state, void* target, const Mesh& mesh, const Intensity& intensity) {
    copy_grid(state, target,
              Grid{intensity.cells, intensity_bytes(intensity.type), mesh.width, mesh.height, mesh.depth,
                   intensity.row_step, intensity.layer_step});
}

// The measurement rows of a mesh job's labels, now in its numbering.
std::vector<MeasureRow> measure_rows(const Job& job) {
    return mesh_measures(job.state, job.shape.width, job.shape.height, job.shape.depth, job.labels, job.numbering,
                         job.roots, job.k);
}

// Copies the numbered labels out: not at all when out is null or the labels stayed the caller's.
void copy_labels_out(const Job& job, const int32_t* host_labels, int32_t* out) {
    if (!out) return;
    const size_t bytes = static_cast<size_t>(job.n) * sizeof(int32_t);
    if (job.numbering == CCL4J_NUMBERING_CANONICAL) {
        if (out != host_labels) std::memmove(out, host_labels, bytes);
        return;
    }
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(out, job.labels, bytes, cudaMemcpyDeviceToHost, job.state.stream));
}

}  // namespace

StatisticsTablePtr label_mesh_statistics(DeviceState& state, const Mesh& mesh, ccl4j_algorithm algorithm,
                                         const MeshTuning& tuning, const Intensity* intensity, int32_t numbering,
                                         bool measure, int32_t* labels, PhaseLog& log) {
    TableWorkspace& work = state.workspace<TableWorkspace>();
    ++work.generation;
    Job job = mesh_job(state, mesh, numbering);
    void* device_intensity = nullptr;
    const auto upload = [&] { copy_intensity(state, device_intensity, mesh, *intensity); };
    std::vector<MeasureRow> measured;
    // An algorithm that leaves a union-find tree gets its labels from the statistics' own finalize.
    const bool tree = has_tree_plan(algorithm);
    label_mesh_with(
        state, mesh, algorithm, tuning, intensity ? std::function<void()>(upload) : nullptr,
        [&](mesh::Call& call, PhasePlan& plan) {
            job.labels = call.labels;
            job.scratch = call.scratch;
            if (tree) {
                job.tree = call.scratch;
                work.index.reserve(static_cast<size_t>(index_words(job)) * 2 * sizeof(u32), "statistics root index");
                job.index = work.index.as<u32>();
                call.roots = job.index;
            }
            if (intensity) {
                device_intensity = reserve_intensity(state, mesh, *intensity);
                job.cells = device_intensity;
                job.type = intensity->type;
            } else {
                job.cells = call.cells;
                job.type = intensity_type(call.cell_type);
            }
            plan.push_back({"stats-roots", [&job] {
                                 index_roots(job);
                                 return 0;
                             }});
            plan.push_back({"stats", [&job] {
                                 accumulate(job);
                                 return 0;
                             }});
            if (numbering == CCL4J_NUMBERING_SIZE) {
                plan.push_back({"stats-order", [&job] {
                                     order_by_size(job);
                                     return 0;
                                 }});
            }
            if (measure) {
                plan.push_back({"measurements", [&] {
                                     measured = measure_rows(job);
                                     return 0;
                                 }});
            }
        },
        labels, log, tree);
    return measure ? with_measures(table_of(job), std::move(measured)) : table_of(job);
}

size_t statistics_scratch_bytes(int64_t cells) {
    return static_cast<size_t>(std::max(cells, 2 * index_words(cells))) * sizeof(int32_t);
}

StatisticsTablePtr mesh_statistics(DeviceState& state, const Mesh& mesh, const int32_t* labels,
                                   const Intensity& intensity, int32_t numbering, bool measure, int32_t* out) {
    state.activate();
    TableWorkspace& work = state.workspace<TableWorkspace>();
    ++work.generation;
    Job job = mesh_job(state, mesh, numbering);
    const size_t label_bytes = static_cast<size_t>(job.n) * sizeof(int32_t);
    work.labels.reserve(label_bytes, "statistics labels");
    work.scratch.reserve(statistics_scratch_bytes(job.n), "statistics scratch");
    job.labels = work.labels.as<int32_t>();
    job.scratch = work.scratch.as<int32_t>();
    job.cells = reserve_intensity(state, mesh, intensity);
    job.type = intensity.type;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(job.labels, labels, label_bytes, cudaMemcpyHostToDevice, state.stream));
    copy_intensity(state, const_cast<void*>(job.cells), mesh, intensity);
    index_roots(job);
    accumulate(job);
    order_by_size(job);
    std::vector<MeasureRow> measured;
    if (measure) measured = measure_rows(job);
    copy_labels_out(job, labels, out);
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    return measure ? with_measures(table_of(job), std::move(measured)) : table_of(job);
}

StatisticsTablePtr graph_statistics(DeviceState& state, const Graph& graph, const int32_t* labels, int32_t numbering,
                                    int32_t* out) {
    state.activate();
    TableWorkspace& work = state.workspace<TableWorkspace>();
    ++work.generation;
    Job job{state,   TableKind::Graph, Shape{0, 0, 0}, graph.vertex_count, numbering, nullptr, nullptr, nullptr,
            IntensityType::U8, &graph, nullptr, nullptr};
    if (job.n == 0) return table_of(job);
    const size_t label_bytes = static_cast<size_t>(job.n) * sizeof(int32_t);
    const size_t offset_bytes = (static_cast<size_t>(job.n) + 1) * graph.offset_width;
    const size_t neighbor_bytes = static_cast<size_t>(graph.arc_count) * sizeof(int32_t);
    work.labels.reserve(label_bytes, "statistics labels");
    work.scratch.reserve(statistics_scratch_bytes(job.n), "statistics scratch");
    work.offsets.reserve(offset_bytes, "statistics graph offsets");
    work.neighbors.reserve(std::max<size_t>(neighbor_bytes, 1), "statistics graph neighbours");
    job.labels = work.labels.as<int32_t>();
    job.scratch = work.scratch.as<int32_t>();
    job.offsets = work.offsets.as<void>();
    job.neighbors = work.neighbors.as<int32_t>();
    cudaStream_t stream = state.stream;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(job.labels, labels, label_bytes, cudaMemcpyHostToDevice, stream));
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(work.offsets.as<void>(), graph.offsets, offset_bytes, cudaMemcpyHostToDevice, stream));
    if (neighbor_bytes > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(work.neighbors.as<void>(), graph.neighbors, neighbor_bytes,
                                         cudaMemcpyHostToDevice, stream));
    }
    index_roots(job);
    accumulate(job);
    order_by_size(job);
    copy_labels_out(job, labels, out);
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
    return table_of(job);
}

}  // namespace ccl4j::cuda
