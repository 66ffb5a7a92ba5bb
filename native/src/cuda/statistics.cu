// Per-component statistics on the GPU (cuda/statistics.hpp). From canonical labels on the device:
//  stats-scan:  rank[i] = roots at or below i (an inclusive CUB scan over labels[i] == i), so that
//               root r's row is rank[r] - 1, and k = rank[n - 1] is read back;
//  stats:       one pass over the cells that writes the RASTER labels and accumulates the rows.
//               A block takes tiles of 32 rows x 128 cells, each thread 16 consecutive cells of
//               a row: runs of equal labels are summed in registers (a thread keeps its longest
//               run open across the others, so that a large cluster's runs in a segment become
//               one), and each run goes into a hash table of the tile's rows in shared memory.
//               The table is flushed once per tile: half a warp per row, one lane per field, so
//               that one row's partial sums leave in four atomic instructions over the two
//               32-byte sectors of its 64-byte accumulator (MeshRow). Global atomics are then
//               per cluster and tile, not per cell or run, and a percolating cluster costs one
//               flush per tile. (Combining the lanes' runs per row with __match_any_sync before
//               the table was measured slower: 3.5 against 1.9 ms on 8192^2 at p = 0.5, H100.)
//  stats-order: (SIZE numbering) a radix sort of the rows by (size descending, first cell), the
//               inverse permutation, and a second pass that writes the labels.
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

#include "common/error.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/mesh_device.cuh"

namespace ccl4j::cuda {
namespace {

using detail::kFullMask;
using u32 = uint32_t;
using u64 = unsigned long long;

constexpr int kBlock = 256;

// ---- accumulators -----------------------------------------------------------------------------

// One mesh row while it is accumulated: two 32-byte sectors, every field starting at zero. Minima
// are kept as maxima of complements (~value) and intensity extremes as maxima of order-preserving
// keys, so that one instruction (atomicMax) serves all of sector B but the size. The smallest z
// (3D) or y (2D) is the first cell's, so it is not accumulated.
struct alignas(64) MeshRow {
    // sector A, 64-bit sums
    u64 sum[3];     // coordinates x, y, z
    u64 intensity;  // integers: the exact sum (two's complement); F32: the bits of a double
    // sector B, 32-bit: word 8 + f for field f
    u32 size;
    u32 low[2];  // ~min x, ~min y (3D)
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
    return static_cast<double>(__uint_as_float((key & 0x80000000u) ? key & 0x7fffffffu : ~key));
}

// The intensity types: the cell as stored and the type a tile sums it in.
template <IntensityType T>
struct Traits;
template <>
struct Traits<IntensityType::U8> {
    using Cell = uint8_t;
    using Sum = u32;  // a tile of 4096 cells sums at most 4096 * 255
    __device__ static u32 key(Cell v) { return order_key(static_cast<int32_t>(v)); }
    __device__ static Sum value(Cell v) { return v; }
};
template <>
struct Traits<IntensityType::I32> {
    using Cell = int32_t;
    using Sum = u64;  // int64 in two's complement: sums are exact modulo 2^64
    __device__ static u32 key(Cell v) { return order_key(v); }
    __device__ static Sum value(Cell v) { return static_cast<u64>(static_cast<int64_t>(v)); }
};
template <>
struct Traits<IntensityType::F32> {
    using Cell = float;
    using Sum = double;
    __device__ static u32 key(Cell v) { return order_key(v); }
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
__device__ __forceinline__ void add_to(u64* target, u32 v) { atomicAdd(target, static_cast<u64>(v)); }

// ---- the roots' rows ----------------------------------------------------------------------------

struct IsRoot {
    const int32_t* labels;
    __device__ int32_t operator()(int32_t i) const { return labels[i] == i; }
};
using RootFlags = thrust::transform_iterator<IsRoot, thrust::counting_iterator<int32_t>>;

// ---- the mesh pass ------------------------------------------------------------------------------

constexpr int kSegment = 16;                           // cells per thread, along x
constexpr int kTileWidth = 128;                        // cells per tile row
constexpr int kRowThreads = kTileWidth / kSegment;     // threads per tile row
constexpr int kTileRows = kBlock / kRowThreads;        // rows per tile
constexpr int kSlotBits = 9;
constexpr int kSlots = 1 << kSlotBits;                 // rows a tile's table holds (8 cells per slot)

struct Shape {
    int32_t width, height, depth;
    __host__ __device__ bool three_d() const { return depth > 1; }
};

// The fields of a tile's rows, coordinates relative to the tile's corner.
enum Field { kSize, kSumX, kSumY, kMinX, kMaxX, kMinY, kMaxY, kLow, kHigh, kFields };  // kLow, kHigh: intensity keys

__device__ __forceinline__ u32 empty_value(int field) {
    return field == kMinX || field == kMinY || field == kLow ? ~0u : 0u;
}

// A tile's rows in shared memory. Empty slots hold key -1, zero sums and maxima, all-ones minima;
// the flush leaves them so again.
template <class Sum>
struct TileTable {
    int32_t key[kSlots];
    u32 word[kFields][kSlots];
    Sum intensity[kSlots];
};

// A run of cells of one row (or several runs of it, merged) in a thread's segment; x relative to
// the tile.
template <class Sum>
struct Run {
    int32_t row = -1;
    u32 size = 0, sum_x = 0, min_x = 0, max_x = 0, low = 0, high = 0;
    Sum intensity = 0;
};

template <class Sum>
__device__ __forceinline__ void merge(Run<Sum>& into, const Run<Sum>& r) {
    into.size += r.size;
    into.sum_x += r.sum_x;
    into.min_x = min(into.min_x, r.min_x);
    into.max_x = max(into.max_x, r.max_x);
    into.low = min(into.low, r.low);
    into.high = max(into.high, r.high);
    into.intensity += r.intensity;
}

// Where a tile lies: its corner and layer.
struct Corner {
    u32 x, y, z;
};

// Cells of one row of the tile: in its slot of the table, or (a full table) directly in the row.
template <class Sum>
__device__ __noinline__ void add_to_table(TileTable<Sum>& t, MeshRow* rows, bool three_d, const Corner& c, int32_t row, u32 size,
                             u32 sum_x, u32 sum_y, u32 min_x, u32 max_x, u32 min_y, u32 max_y, u32 low, u32 high,
                             Sum intensity) {
    u32 slot = (static_cast<u32>(row) * 2654435761u) >> (32 - kSlotBits);
    for (int probe = 0; probe < kSlots; ++probe) {
        const int32_t held = atomicCAS(&t.key[slot], -1, row);
        if (held == -1 || held == row) {
            atomicAdd(&t.word[kSize][slot], size);
            atomicAdd(&t.word[kSumX][slot], sum_x);
            atomicAdd(&t.word[kSumY][slot], sum_y);
            atomicMin(&t.word[kMinX][slot], min_x);
            atomicMax(&t.word[kMaxX][slot], max_x);
            atomicMin(&t.word[kMinY][slot], min_y);
            atomicMax(&t.word[kMaxY][slot], max_y);
            atomicMin(&t.word[kLow][slot], low);
            atomicMax(&t.word[kHigh][slot], high);
            atomicAdd(&t.intensity[slot], intensity);
            return;
        }
        slot = (slot + 1) & (kSlots - 1);
    }
    MeshRow& r = rows[row];
    atomicAdd(&r.sum[0], sum_x + static_cast<u64>(size) * c.x);
    atomicAdd(&r.sum[1], sum_y + static_cast<u64>(size) * c.y);
    add_to(&r.intensity, intensity);
    atomicAdd(&r.size, size);
    atomicMax(&r.low[0], ~(c.x + min_x));
    atomicMax(&r.high[0], c.x + max_x);
    atomicMax(&r.high[1], c.y + max_y);
    if (three_d) {
        atomicAdd(&r.sum[2], static_cast<u64>(size) * c.z);
        atomicMax(&r.low[1], ~(c.y + min_y));
        atomicMax(&r.high[2], c.z);
    }
    atomicMax(&r.intensity_low, ~low);
    atomicMax(&r.intensity_high, high);
}

// A run of row y of the tile, by the lane that holds it.
template <class Sum>
__device__ __forceinline__ void add_run(TileTable<Sum>& t, MeshRow* rows, bool three_d, const Corner& c,
                                        const Run<Sum>& r, u32 y) {
    add_to_table(t, rows, three_d, c, r.row, r.size, r.sum_x, r.size * y, r.min_x, r.max_x, y, y, r.low, r.high,
                 r.intensity);
}

// What lane `role` of a half warp does with a slot (roles 12-15 nothing): the field it reads
// (4 bits a role), the corner coordinate it adds (2 bits: none, x, y, z), and the row word it
// updates (MeshRow, 64-bit words 0-3 for roles 0-3, 32-bit words 8-15 for roles 4-11).
//  0-2: coordinate sums x, y (the field plus size * corner) and z (size * corner z);
//  3: the intensity sum; 4: the size;
//  5-11: maxima of ~(min x), ~(min y), max x, max y, max z (the corner), ~(low key), high key.
constexpr u64 kRoleField = u64(kSumX) | u64(kSumY) << 4 | u64(kSize) << 8 | u64(kSize) << 16 | u64(kMinX) << 20 |
                           u64(kMinY) << 24 | u64(kMaxX) << 28 | u64(kMaxY) << 32 | u64(kSize) << 36 |
                           u64(kLow) << 40 | u64(kHigh) << 44;
constexpr u32 kRoleAxis = 1u | 2u << 2 | 3u << 4 | 1u << 10 | 2u << 12 | 1u << 14 | 2u << 16 | 3u << 18;
constexpr u32 kComplemented = 1u << 5 | 1u << 6 | 1u << 10;
constexpr u32 kClears = 1u << 0 | 1u << 1 | 1u << 4 | 1u << 5 | 1u << 6 | 1u << 7 | 1u << 8 | 1u << 10 | 1u << 11;

// Flushes the tile's table into the rows and empties it: half a warp a slot, a lane a field, so
// that a row's update is four atomic instructions over its two sectors. In 2D, z is 0 and the
// smallest y is the first cell's: those lanes only empty their fields.
template <class Sum>
__device__ void flush_table(TileTable<Sum>& t, MeshRow* rows, bool three_d, const Corner& c) {
    const int role = threadIdx.x & 15;
    const int field = static_cast<int>((kRoleField >> (4 * role)) & 15);
    const u32 axis = (kRoleAxis >> (2 * role)) & 3;
    const u32 offset = axis == 1 ? c.x : axis == 2 ? c.y : axis == 3 ? c.z : 0;
    const bool complemented = (kComplemented >> role) & 1;
    const bool planar_rest = !three_d && (role == 2 || role == 6 || role == 9);
    const unsigned half = 0xffffu << (threadIdx.x & 16);
    for (int s = threadIdx.x >> 4; s < kSlots; s += kBlock / 16) {
        const int32_t row = t.key[s];
        const u32 size = t.word[kSize][s];
        const u32 value = t.word[field][s];
        const Sum intensity = t.intensity[s];
        __syncwarp(half);
        if (row < 0) continue;
        if (!planar_rest && role < 3) {
            const u64 base = role == 2 ? 0 : value;
            atomicAdd(reinterpret_cast<u64*>(&rows[row]) + role, base + static_cast<u64>(size) * offset);
        } else if (role == 3) {
            add_to(&rows[row].intensity, intensity);
        } else if (role == 4) {
            atomicAdd(&rows[row].size, size);
        } else if (!planar_rest && role < 12) {
            const u32 top = role == 9 ? offset : value + offset;
            atomicMax(reinterpret_cast<u32*>(&rows[row]) + 4 + role, complemented ? ~top : top);
        }
        if ((kClears >> role) & 1) t.word[field][s] = empty_value(field);
        if (role == 2) t.key[s] = -1;
        if (role == 3) t.intensity[s] = 0;
    }
}

// The statistics pass over the cells (see the top of the file). labels: canonical in, RASTER out
// with write_raster; first[row] receives the row's root.
template <IntensityType T>
__global__ void __launch_bounds__(kBlock, 4) accumulate_mesh(Shape g, int32_t* labels, const int32_t* __restrict__ rank,
                                                          const typename Traits<T>::Cell* __restrict__ cells,
                                                          bool write_raster, int32_t tiles_x, int32_t tiles_y,
                                                          int64_t tiles, MeshRow* rows, int32_t* first) {
    using Cell = typename Traits<T>::Cell;
    using Sum = typename Traits<T>::Sum;
    __shared__ TileTable<Sum> table;
    for (int s = threadIdx.x; s < kSlots; s += kBlock) {
        table.key[s] = -1;
        for (int f = 0; f < kFields; ++f) table.word[f][s] = empty_value(f);
        table.intensity[s] = 0;
    }
    __syncthreads();
    const bool three_d = g.three_d();
    const u32 y = threadIdx.x / kRowThreads;
    const u32 x0 = (threadIdx.x % kRowThreads) * kSegment;
    for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const Corner corner{static_cast<u32>(tile % tiles_x) * kTileWidth,
                            static_cast<u32>(tile / tiles_x % tiles_y) * kTileRows,
                            static_cast<u32>(tile / tiles_x / tiles_y)};
        const int32_t gy = static_cast<int32_t>(corner.y + y);
        const int32_t gx = static_cast<int32_t>(corner.x + x0);
        const int32_t cells_here = gy < g.height ? max(0, min(kSegment, g.width - gx)) : 0;
        const int64_t begin = gx + static_cast<int64_t>(g.width) * (gy + static_cast<int64_t>(g.height) * corner.z);
        int32_t label[kSegment];
        Cell value[kSegment];
        if (cells_here == kSegment && begin % 4 == 0) {
            const int4* l = reinterpret_cast<const int4*>(labels + begin);
#pragma unroll
            for (int q = 0; q < kSegment / 4; ++q) {
                const int4 v = l[q];
                label[4 * q] = v.x;
                label[4 * q + 1] = v.y;
                label[4 * q + 2] = v.z;
                label[4 * q + 3] = v.w;
            }
        } else {
#pragma unroll
            for (int j = 0; j < kSegment; ++j) label[j] = j < cells_here ? labels[begin + j] : -1;
        }
        if (cells_here == kSegment && (begin * static_cast<int64_t>(sizeof(Cell))) % 16 == 0) {
            const uint4* c = reinterpret_cast<const uint4*>(cells + begin);
#pragma unroll
            for (int q = 0; q < static_cast<int>(kSegment * sizeof(Cell) / 16); ++q) {
                const uint4 v = c[q];
                std::memcpy(value + q * 16 / sizeof(Cell), &v, 16);
            }
        } else {
#pragma unroll
            for (int j = 0; j < kSegment; ++j) value[j] = j < cells_here ? cells[begin + j] : Cell(0);
        }
        Run<Sum> open, kept;
        int32_t last_label = -1, last_row = -1;
        // One copy of the loop body (the table's code is large, and 17 inlined copies of it
        // overflow the instruction cache): the cells pass through label[0] and value[0] as
        // through shift registers, and the numbered labels come out at the end of label[].
#pragma unroll 1
        for (int j = 0; j <= kSegment; ++j) {
            const int32_t l = j < kSegment ? label[0] : -1;
            const Cell v = value[0];
            if (j < kSegment) {
#pragma unroll
                for (int q = 0; q + 1 < kSegment; ++q) {
                    label[q] = label[q + 1];
                    value[q] = value[q + 1];
                }
            }
            int32_t row = -1;
            if (l >= 0) {
                if (l != last_label) {
                    last_label = l;
                    last_row = __ldg(rank + l) - 1;
                    if (l == begin + j) first[last_row] = l;
                }
                row = last_row;
            }
            if (j < kSegment) label[kSegment - 1] = write_raster ? row + 1 : l;
            // The open run ends at a change of row: it joins the kept run, replaces a shorter
            // kept run (which leaves), or leaves itself.
            bool leaves = false;
            Run<Sum> leaving;
            if (row != open.row) {
                if (open.row >= 0) {
                    if (open.row == kept.row) {
                        merge(kept, open);
                    } else if (open.size > kept.size) {
                        leaves = kept.row >= 0;
                        leaving = kept;
                        kept = open;
                    } else {
                        leaves = true;
                        leaving = open;
                    }
                }
                open.row = row;
                if (row >= 0) {
                    const u32 x = x0 + j;
                    open.size = 1;
                    open.sum_x = open.min_x = open.max_x = x;
                    open.low = open.high = Traits<T>::key(v);
                    open.intensity = Traits<T>::value(v);
                }
            } else if (row >= 0) {
                const u32 x = x0 + j;
                ++open.size;
                open.sum_x += x;
                open.max_x = x;
                const u32 key = Traits<T>::key(v);
                open.low = min(open.low, key);
                open.high = max(open.high, key);
                open.intensity += Traits<T>::value(v);
            }
            if (leaves) add_run(table, rows, three_d, corner, leaving, y);
        }
        if (kept.row >= 0) add_run(table, rows, three_d, corner, kept, y);
        if (write_raster && cells_here > 0) {
            if (cells_here == kSegment && begin % 4 == 0) {
                int4* l = reinterpret_cast<int4*>(labels + begin);
#pragma unroll
                for (int q = 0; q < kSegment / 4; ++q) {
                    l[q] = make_int4(label[4 * q], label[4 * q + 1], label[4 * q + 2], label[4 * q + 3]);
                }
            } else {
#pragma unroll
                for (int j = 0; j < kSegment; ++j) {
                    if (j < cells_here) labels[begin + j] = label[j];
                }
            }
        }
        __syncthreads();
        flush_table(table, rows, three_d, corner);
        __syncthreads();
    }
}

// ---- the graph pass -----------------------------------------------------------------------------

// One vertex per lane, warps stepping together (so every lane takes part in the match): its
// label in the numbering (RASTER), its row's size, edges (arcs to vertices >= it), largest vertex
// and degree, combined per row across the warp before the atomics.
template <class Offset>
__global__ void accumulate_graph(int32_t n, const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                                 int32_t* labels, const int32_t* __restrict__ rank, bool write_raster, GraphRow* rows,
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
                row = __ldg(rank + l) - 1;
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
__global__ void relabel(int32_t* labels, int32_t n, const int32_t* __restrict__ rank,
                        const int32_t* __restrict__ position) {
    for (int64_t i = detail::thread_index(); i < n; i += detail::thread_count()) {
        const int32_t l = labels[i];
        labels[i] = l >= 0 ? position[rank[l] - 1] : -1;
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
            i32[i] = t.numbering == CCL4J_NUMBERING_CANONICAL ? root
                     : t.numbering == CCL4J_NUMBERING_RASTER  ? static_cast<int32_t>(r + 1)
                                                              : static_cast<int32_t>(r);
            continue;
        }
        if (column == CCL4J_STAT_FIRST) {
            i32[i] = root;
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
        const int32_t low[3] = {static_cast<int32_t>(~m.low[0]),
                                three_d ? static_cast<int32_t>(~m.low[1]) : static_cast<int32_t>(root / t.shape.width),
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
    DeviceBuffer labels, rank, cells;   // statistics of host labels
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

size_t intensity_bytes(IntensityType type) { return type == IntensityType::U8 ? 1 : 4; }

// One statistics computation over canonical labels on the device.
struct Job {
    DeviceState& state;
    TableKind kind;
    Shape shape;           // meshes
    int32_t n;             // cells or vertices
    int32_t numbering;
    int32_t* labels;       // device: canonical in, numbered out
    int32_t* rank;         // device, n entries
    const void* cells;     // meshes: the intensity on the device, dense
    IntensityType type;
    const Graph* graph;    // graphs: offset width
    const void* offsets;   // graphs, device
    const int32_t* neighbors;
    int32_t k = 0;
    MeshRow* mesh_rows = nullptr;
    GraphRow* graph_rows = nullptr;
    int32_t* first = nullptr;
    int32_t* order = nullptr;

    TableWorkspace& work() const { return state.workspace<TableWorkspace>(); }
    int grid(int64_t items) const { return grid_size(state, kBlock, items); }
};

// stats-scan: the rows of the roots, and k (the host waits for it).
void scan_roots(Job& job) {
    cudaStream_t stream = job.state.stream;
    const RootFlags flags(thrust::counting_iterator<int32_t>(0), IsRoot{job.labels});
    size_t bytes = 0;
    CCL4J_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, flags, job.rank, job.n, stream));
    job.work().temp.reserve(bytes, "statistics scan scratch");
    CCL4J_CUDA_CHECK(cub::DeviceScan::InclusiveSum(job.work().temp.as<void>(), bytes, flags, job.rank, job.n, stream));
    // Into pageable memory the copy returns once done.
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&job.k, job.rank + job.n - 1, sizeof(int32_t), cudaMemcpyDeviceToHost, stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <IntensityType T>
void launch_mesh(Job& job) {
    const Shape& g = job.shape;
    const int32_t tiles_x = (g.width + kTileWidth - 1) / kTileWidth;
    const int32_t tiles_y = (g.height + kTileRows - 1) / kTileRows;
    const int64_t tiles = static_cast<int64_t>(tiles_x) * tiles_y * g.depth;
    const int grid = static_cast<int>(std::min<int64_t>(tiles, resident_grid(job.state, accumulate_mesh<T>, kBlock)));
    accumulate_mesh<T><<<grid, kBlock, 0, job.state.stream>>>(
        g, job.labels, job.rank, static_cast<const typename Traits<T>::Cell*>(job.cells),
        job.numbering == CCL4J_NUMBERING_RASTER, tiles_x, tiles_y, tiles, job.mesh_rows, job.first);
    check_launch("statistics: mesh pass");
}

template <class Offset>
void launch_graph(Job& job) {
    accumulate_graph<Offset><<<job.grid(job.n), kBlock, 0, job.state.stream>>>(
        job.n, static_cast<const Offset*>(job.offsets), job.neighbors, job.labels, job.rank,
        job.numbering == CCL4J_NUMBERING_RASTER, job.graph_rows, job.first);
    check_launch("statistics: graph pass");
}

// stats: the rows' accumulators from zero, one pass over the entries.
void accumulate(Job& job) {
    TableWorkspace& work = job.work();
    const size_t k = static_cast<size_t>(job.k);
    const size_t row_bytes = job.kind == TableKind::Mesh ? sizeof(MeshRow) : sizeof(GraphRow);
    work.rows.reserve(std::max<size_t>(k, 1) * row_bytes, "statistics rows");
    work.first.reserve(std::max<size_t>(k, 1) * sizeof(int32_t), "statistics first cells");
    job.first = work.first.as<int32_t>();
    job.mesh_rows = work.rows.as<MeshRow>();
    job.graph_rows = work.rows.as<GraphRow>();
    // Without components only RASTER labels change (background becomes 0).
    if (k == 0 && job.numbering != CCL4J_NUMBERING_RASTER) return;
    if (k > 0) CCL4J_CUDA_CHECK(cudaMemsetAsync(work.rows.as<void>(), 0, k * row_bytes, job.state.stream));
    if (job.kind == TableKind::Graph) {
        if (job.graph->offset_width == 4) return launch_graph<int32_t>(job);
        return launch_graph<int64_t>(job);
    }
    switch (job.type) {
        case IntensityType::U8: return launch_mesh<IntensityType::U8>(job);
        case IntensityType::I32: return launch_mesh<IntensityType::I32>(job);
        case IntensityType::F32: return launch_mesh<IntensityType::F32>(job);
    }
}

int bits_for(uint32_t value) { return value == 0 ? 1 : 32 - __builtin_clz(value); }

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
    relabel<<<job.grid(job.n), kBlock, 0, stream>>>(job.labels, job.n, job.rank, position);
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
                                         int32_t* labels, PhaseLog& log) {
    ++state.workspace<TableWorkspace>().generation;
    Job job = mesh_job(state, mesh, numbering);
    void* device_intensity = nullptr;
    const auto upload = [&] { copy_intensity(state, device_intensity, mesh, *intensity); };
    label_mesh_with(
        state, mesh, algorithm, tuning, intensity ? std::function<void()>(upload) : nullptr,
        [&](mesh::Call& call, PhasePlan& plan) {
            job.labels = call.labels;
            job.rank = call.scratch;
            if (intensity) {
                device_intensity = reserve_intensity(state, mesh, *intensity);
                job.cells = device_intensity;
                job.type = intensity->type;
            } else {
                job.cells = call.cells;
                job.type = call.cell_type == CellType::U8 ? IntensityType::U8 : IntensityType::I32;
            }
            plan.push_back({"stats-scan", [&job] {
                                 scan_roots(job);
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
        },
        labels, log);
    return table_of(job);
}

StatisticsTablePtr mesh_statistics(DeviceState& state, const Mesh& mesh, const int32_t* labels,
                                   const Intensity& intensity, int32_t numbering, int32_t* out) {
    state.activate();
    TableWorkspace& work = state.workspace<TableWorkspace>();
    ++work.generation;
    Job job = mesh_job(state, mesh, numbering);
    const size_t label_bytes = static_cast<size_t>(job.n) * sizeof(int32_t);
    work.labels.reserve(label_bytes, "statistics labels");
    work.rank.reserve(label_bytes, "statistics ranks");
    job.labels = work.labels.as<int32_t>();
    job.rank = work.rank.as<int32_t>();
    job.cells = reserve_intensity(state, mesh, intensity);
    job.type = intensity.type;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(job.labels, labels, label_bytes, cudaMemcpyHostToDevice, state.stream));
    copy_intensity(state, const_cast<void*>(job.cells), mesh, intensity);
    scan_roots(job);
    accumulate(job);
    order_by_size(job);
    copy_labels_out(job, labels, out);
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    return table_of(job);
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
    work.rank.reserve(label_bytes, "statistics ranks");
    work.offsets.reserve(offset_bytes, "statistics graph offsets");
    work.neighbors.reserve(std::max<size_t>(neighbor_bytes, 1), "statistics graph neighbours");
    job.labels = work.labels.as<int32_t>();
    job.rank = work.rank.as<int32_t>();
    job.offsets = work.offsets.as<void>();
    job.neighbors = work.neighbors.as<int32_t>();
    cudaStream_t stream = state.stream;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(job.labels, labels, label_bytes, cudaMemcpyHostToDevice, stream));
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(work.offsets.as<void>(), graph.offsets, offset_bytes, cudaMemcpyHostToDevice, stream));
    if (neighbor_bytes > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(work.neighbors.as<void>(), graph.neighbors, neighbor_bytes,
                                         cudaMemcpyHostToDevice, stream));
    }
    scan_roots(job);
    accumulate(job);
    order_by_size(job);
    copy_labels_out(job, labels, out);
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
    return table_of(job);
}

}  // namespace ccl4j::cuda
