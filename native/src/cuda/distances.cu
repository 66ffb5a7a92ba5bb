// Distances within components on the GPU (cuda/distances.hpp): the all-pairs search of Leist,
// Playne & Hawick 2009 (section 4), a level-synchronous breadth-first search with one launch per
// level and a device-side frontier flag (their Kernels 2 and 7: no frontier copied to the host),
// run for many sources at once. The graph stays in CSR on the device (their layout (e)).
//
// Sources go in words of 64 bits: bit b of word w stands for source base + 64 w + b. A batch
// holds K words per vertex in three arrays, seen, the frontier and the next frontier, laid out
// vertex-major ([v][w]: a vertex's K words side by side). A level is two kernels:
//  expand:  a thread per (vertex, word), consecutive threads on consecutive words of a vertex, so
//           that a warp reads the vertex's adjacency list once (a broadcast) and each neighbour's
//           words in one coalesced access; a thread with a frontier pushes its bits to the
//           neighbours that have not seen them yet (atomicOr into next). This kernel does the
//           work, the arcs times the words;
//  advance: a pass over every (word, vertex), lanes on consecutive vertices of one word (strided
//           loads, a streaming pass): keeps the bits new to a vertex (next & ~seen) as its
//           frontier and marks them seen; a warp counts each new bit over its lanes with one
//           ballot, so the per-source sums take one atomic per bit and warp (the level times the
//           count) instead of one per vertex.
// The loop (driver.hpp: iterate) ends at the first level that finds nothing new. The sums are
// 64-bit. A final kernel adds each source's sum and eccentricity into its component's row.
// With a matrix, advance also writes the level of each new (source, vertex) pair into the
// batch's rows, which are copied to the host after each batch.
#include "cuda/distances.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "ccl4j.h"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/loop_device.cuh"

namespace ccl4j::cuda {
namespace {

using detail::kFullMask;
using detail::load_relaxed;
using detail::store_relaxed;
using detail::thread_count;
using detail::thread_index;
using u64 = unsigned long long;

constexpr int kBlock = 256;
// The host waits for the device once per batch of up to this many levels (driver.hpp: iterate).
constexpr int64_t kMaxLaunches = 1024;
// Device memory for the three word arrays of a batch, and for its matrix rows.
constexpr size_t kWordBytes = size_t(384) << 20;
constexpr size_t kMatrixBytes = size_t(512) << 20;

struct DistancesWorkspace final : Workspace {
    DeviceBuffer graph;    // offsets, neighbours
    DeviceBuffer words;    // seen, frontier, next
    DeviceBuffer sources;  // per-source sums and eccentricities, rows, row sums and diameters
    DeviceBuffer matrix;   // the batch's rows of the distance matrix
};

struct Batch {
    int32_t n;
    int32_t words;  // K
    int32_t base;   // the first source
    int64_t items;  // K * n
    u64* seen;
    u64* frontier;
    u64* next;
    u64* sums;             // per source, n
    int32_t* eccentricity;  // per source, n
    int32_t* matrix;        // (64 K) x n rows from source base, or nullptr
};

__global__ void init_batch(Batch b) {
    for (int64_t i = thread_index(); i < b.items; i += thread_count()) {
        const int32_t v = static_cast<int32_t>(i / b.words), w = static_cast<int32_t>(i % b.words);
        const int64_t offset = static_cast<int64_t>(v) - b.base - 64ll * w;
        const u64 bit = offset >= 0 && offset < 64 ? u64(1) << offset : 0;
        b.seen[i] = bit;
        b.frontier[i] = bit;
        b.next[i] = 0;
        if (bit && b.matrix) b.matrix[static_cast<int64_t>(v - b.base) * b.n + v] = 0;
    }
}

template <class Offset>
__global__ void expand(const Offset* __restrict__ offsets, const int32_t* __restrict__ neighbors, Batch b, LoopLaunch loop) {
    if (!loop.begin()) return;
    for (int64_t i = thread_index(); i < b.items; i += thread_count()) {
        const u64 f = b.frontier[i];
        if (!f) continue;
        const int32_t u = static_cast<int32_t>(i / b.words), w = static_cast<int32_t>(i % b.words);
        for (Offset a = offsets[u]; a < offsets[u + 1]; ++a) {
            const int64_t j = static_cast<int64_t>(neighbors[a]) * b.words + w;
            if (f & ~b.seen[j]) atomicOr(&b.next[j], f);
        }
    }
}

// Adds `count` vertices at distance `level` to source s.
__device__ __forceinline__ void add_reached(const Batch& b, int32_t s, int32_t level, u64 count) {
    atomicAdd(&b.sums[s], static_cast<u64>(level) * count);
    atomicMax(&b.eccentricity[s], level);
}

__global__ void advance(Batch b, LoopLaunch loop) {
    if (!loop.active()) return;
    const int32_t level = loop.t + 1;
    const int lane = threadIdx.x & 31;
    int found = 0;
    // Whole warps go round the loop together, for the ballots.
    const int64_t stride = thread_count();
    for (int64_t start = thread_index() - lane; start < b.items; start += stride) {
        const int64_t k = start + lane;  // word-major here, for the ballots: word k / n of vertex k % n
        const bool active = k < b.items;
        u64 fresh = 0;
        int32_t w = -1, v = 0;
        if (active) {
            w = static_cast<int32_t>(k / b.n);
            v = static_cast<int32_t>(k % b.n);
            const int64_t i = static_cast<int64_t>(v) * b.words + w;
            const u64 x = b.next[i];
            const u64 old = b.frontier[i];
            if (x) {
                fresh = x & ~b.seen[i];
                b.next[i] = 0;
                if (fresh) b.seen[i] |= fresh;
            }
            if (old != fresh) b.frontier[i] = fresh;
        }
        if (!__any_sync(kFullMask, fresh != 0)) continue;
        found = 1;
        const int32_t w0 = __shfl_sync(kFullMask, w, 0);
        if (__all_sync(kFullMask, !active || w == w0)) {
            // one word across the warp: a ballot per new bit counts its vertices
            u64 bits = (static_cast<u64>(__reduce_or_sync(kFullMask, static_cast<uint32_t>(fresh >> 32))) << 32) |
                       __reduce_or_sync(kFullMask, static_cast<uint32_t>(fresh));
            while (bits) {
                const int bit = __ffsll(static_cast<long long>(bits)) - 1;
                bits &= bits - 1;
                const bool mine = (fresh >> bit) & 1;
                const unsigned holders = __ballot_sync(kFullMask, mine);
                const int32_t s = b.base + 64 * w0 + bit;
                if (lane == (bit & 31)) add_reached(b, s, level, __popc(holders));
                if (mine && b.matrix) b.matrix[static_cast<int64_t>(s - b.base) * b.n + v] = level;
            }
        } else {
            // a warp across two words: each lane on its own
            for (u64 bits = fresh; bits; bits &= bits - 1) {
                const int bit = __ffsll(static_cast<long long>(bits)) - 1;
                const int32_t s = b.base + 64 * w + bit;
                add_reached(b, s, level, 1);
                if (b.matrix) b.matrix[static_cast<int64_t>(s - b.base) * b.n + v] = level;
            }
        }
    }
    if (__syncthreads_or(found) && threadIdx.x == 0) loop.changed();
}

// Each source's sum and eccentricity into its component's row.
__global__ void reduce_rows(int32_t n, const int32_t* __restrict__ row, const u64* __restrict__ sums,
                            const int32_t* __restrict__ eccentricity, u64* row_sums, int32_t* diameters) {
    for (int64_t s = thread_index(); s < n; s += thread_count()) {
        const int32_t r = row[s];
        if (sums[s]) atomicAdd(&row_sums[r], sums[s]);
        if (eccentricity[s]) atomicMax(&diameters[r], eccentricity[s]);
    }
}

// Words per vertex in a batch: enough for every source when memory allows.
int32_t batch_words(int32_t n, bool matrix) {
    const int64_t all = (static_cast<int64_t>(n) + 63) / 64;
    int64_t words = static_cast<int64_t>(kWordBytes / (3 * sizeof(u64) * static_cast<size_t>(n)));
    if (matrix) words = std::min<int64_t>(words, static_cast<int64_t>(kMatrixBytes / (64 * sizeof(int32_t) * static_cast<size_t>(n))));
    return static_cast<int32_t>(std::clamp<int64_t>(words, 1, all));
}

template <class Offset>
void run(DeviceState& state, const Graph& graph, const int32_t* row, int32_t rows, int64_t* path_sums,
         int32_t* diameters, int32_t* matrix, PhaseLog& log) {
    const int32_t n = graph.vertex_count;
    DistancesWorkspace& work = state.workspace<DistancesWorkspace>();
    const size_t offset_bytes = (static_cast<size_t>(n) + 1) * sizeof(Offset);
    const size_t neighbor_bytes = static_cast<size_t>(graph.arc_count) * sizeof(int32_t);
    const std::vector<void*> g = carve(work.graph, {offset_bytes, std::max<size_t>(neighbor_bytes, 1)}, "distances graph");
    const auto* offsets = static_cast<const Offset*>(g[0]);
    const auto* neighbors = static_cast<const int32_t*>(g[1]);

    const int32_t words = batch_words(n, matrix != nullptr);
    const size_t word_bytes = static_cast<size_t>(words) * n * sizeof(u64);
    const std::vector<void*> w = carve(work.words, {word_bytes, word_bytes, word_bytes}, "distances search words");
    const size_t k = static_cast<size_t>(std::max(rows, 1));
    const std::vector<void*> p =
        carve(work.sources, {n * sizeof(u64), n * sizeof(int32_t), n * sizeof(int32_t), k * sizeof(u64), k * sizeof(int32_t)},
              "distances sums");
    auto* sums = static_cast<u64*>(p[0]);
    auto* eccentricity = static_cast<int32_t*>(p[1]);
    auto* device_row = static_cast<int32_t*>(p[2]);
    auto* row_sums = static_cast<u64*>(p[3]);
    auto* row_diameters = static_cast<int32_t*>(p[4]);
    const int32_t batch_sources = static_cast<int32_t>(std::min<int64_t>(64ll * words, n));
    const size_t matrix_bytes = static_cast<size_t>(batch_sources) * n * sizeof(int32_t);
    if (matrix) work.matrix.reserve(matrix_bytes, "distances matrix rows");

    Batch batch{n, words, 0, static_cast<int64_t>(words) * n, static_cast<u64*>(w[0]), static_cast<u64*>(w[1]),
                static_cast<u64*>(w[2]), sums, eccentricity, matrix ? work.matrix.as<int32_t>() : nullptr};
    LoopControl* control = loop_control(state);
    const int32_t limit = n + 2;  // a search has at most n - 1 levels, and one more launch ends it
    const int grid = grid_size(state, kBlock, batch.items);
    cudaStream_t stream = state.stream;
    DeviceState* s = &state;

    const auto upload = [&] {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(g[0], graph.offsets, offset_bytes, cudaMemcpyHostToDevice, stream));
        if (neighbor_bytes > 0) {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(g[1], graph.neighbors, neighbor_bytes, cudaMemcpyHostToDevice, stream));
        }
        if (row) CCL4J_CUDA_CHECK(cudaMemcpyAsync(device_row, row, n * sizeof(int32_t), cudaMemcpyHostToDevice, stream));
    };
    PhasePlan plan{{"bfs", [&] {
                        CCL4J_CUDA_CHECK(cudaMemsetAsync(sums, 0, n * sizeof(u64), stream));
                        CCL4J_CUDA_CHECK(cudaMemsetAsync(eccentricity, 0, n * sizeof(int32_t), stream));
                        int32_t levels = 0;
                        for (int32_t base = 0; base < n; base += batch_sources) {
                            batch.base = base;
                            const int32_t count = std::min(batch_sources, n - base);
                            if (batch.matrix) {
                                CCL4J_CUDA_CHECK(cudaMemsetAsync(batch.matrix, 0xff, static_cast<size_t>(count) * n * sizeof(int32_t), stream));
                            }
                            init_batch<<<grid, kBlock, 0, stream>>>(batch);
                            check_launch("distances: init");
                            levels += iterate(*s, control, limit, kMaxLaunches, "distances search", [&](int32_t t) {
                                const LoopLaunch loop{control, t, limit};
                                expand<Offset><<<grid, kBlock, 0, stream>>>(offsets, neighbors, batch, loop);
                                check_launch("distances: expand");
                                advance<<<grid, kBlock, 0, stream>>>(batch, loop);
                                check_launch("distances: advance");
                            });
                            if (matrix) {
                                CCL4J_CUDA_CHECK(cudaMemcpyAsync(matrix + static_cast<int64_t>(base) * n, batch.matrix,
                                                                 static_cast<size_t>(count) * n * sizeof(int32_t),
                                                                 cudaMemcpyDeviceToHost, stream));
                            }
                        }
                        return levels;
                    }}};
    if (row) {
        plan.push_back({"reduce", [&] {
                            CCL4J_CUDA_CHECK(cudaMemsetAsync(row_sums, 0, k * sizeof(u64), stream));
                            CCL4J_CUDA_CHECK(cudaMemsetAsync(row_diameters, 0, k * sizeof(int32_t), stream));
                            reduce_rows<<<grid_size(state, kBlock, n), kBlock, 0, stream>>>(n, device_row, sums, eccentricity,
                                                                                          row_sums, row_diameters);
                            check_launch("distances: reduce");
                            return 0;
                        }});
    }
    const auto download = [&] {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(path_sums, row_sums, rows * sizeof(u64), cudaMemcpyDeviceToHost, stream));
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(diameters, row_diameters, rows * sizeof(int32_t), cudaMemcpyDeviceToHost, stream));
    };
    drive(state, plan, upload, row ? std::function<void()>(download) : nullptr, log);
}

}  // namespace

void graph_distances(DeviceState& state, const Graph& graph, const int32_t* row, int32_t rows, int64_t* path_sums,
                     int32_t* diameters, int32_t* matrix, PhaseLog& log) {
    if (graph.vertex_count == 0) return;
    state.activate();
    if (graph.offset_width == 4) {
        run<int32_t>(state, graph, row, rows, path_sums, diameters, matrix, log);
    } else {
        run<int64_t>(state, graph, row, rows, path_sums, diameters, matrix, log);
    }
}

}  // namespace ccl4j::cuda
