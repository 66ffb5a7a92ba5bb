// The book-keeping of label arrays on the GPU. One pass over the labels counts each label's size
// and finds its first (smallest) member: every thread reads a run of consecutive entries, sums
// runs of equal labels, and the lanes of a warp that flush the same label combine their runs
// before one atomic, so that a giant component costs few atomics. Components are then numbered
// in the order of their first members by a prefix sum over the entries (CUB), which gives the
// smallest-member order without a sort; the size order is a CUB radix sort of the components.
// Labels outside [-1, count) are recorded (the smallest such index) and treated as -1 by every
// kernel, then reported before any result is copied out.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "common/label_arrays.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/label_stats.hpp"

namespace ccl4j::cuda {

namespace {

using detail::kFullMask;
using u64 = unsigned long long;

constexpr int kBlock = 256;
constexpr int kItems = 8;  // consecutive entries per thread in the counting pass

// Scalars the kernels accumulate, in one small device array.
enum Scalar { kBad, kComponents, kLabelled, kBest, kSmallest, kKept, kScalars };

__device__ __forceinline__ bool valid(int32_t label, int32_t n) { return label >= 0 && label < n; }

__global__ void fill(int32_t* out, int32_t n, int32_t value) {
    for (int64_t i = detail::thread_index(); i < n; i += detail::thread_count()) out[i] = value;
}

__global__ void init_scalars(u64* scalars) {
    if (threadIdx.x == 0) {
        scalars[kBad] = ULLONG_MAX;
        scalars[kComponents] = 0;
        scalars[kLabelled] = 0;
        scalars[kBest] = 0;
        scalars[kSmallest] = ULLONG_MAX;
        scalars[kKept] = 0;
    }
}

// The lanes that flush a run combine the runs of equal labels: one atomicAdd (size) and at most
// one atomicMin (first member) per distinct label in the warp. All lanes of the warp call this.
// The atomicMin is left out where the run cannot lower the first member below what first_member()
// derives: a run that starts at or after its label, whose label is its own entry's label (so
// canonical labels need none).
__device__ __forceinline__ void flush_runs(bool flush, int32_t label, int32_t run, int32_t start,
                                           const int32_t* __restrict__ labels, int32_t* size, int32_t* first) {
    if (!__ballot_sync(kFullMask, flush)) return;
    const unsigned peers = __match_any_sync(kFullMask, flush ? label : -1);
    if (!flush) return;
    const bool lowers = start < label || labels[label] != label;
    const int32_t total = __reduce_add_sync(peers, run);
    const int32_t lowest = __reduce_min_sync(peers, lowers ? start : INT32_MAX);
    if ((threadIdx.x & 31) == __ffs(peers) - 1) {
        atomicAdd(&size[label], total);
        if (lowest != INT32_MAX) atomicMin(&first[label], lowest);
    }
}

// The first (smallest) member of label l after count_runs: first[l], or l itself when entry l
// carries label l (count_runs then records only runs that start before l).
__device__ __forceinline__ int32_t first_member(const int32_t* __restrict__ labels, const int32_t* __restrict__ first,
                                                int32_t l) {
    return labels[l] == l ? min(first[l], l) : first[l];
}

// size[l] += entries labelled l; first[l] = min index labelled l; scalars[kBad] = min bad index.
// Warps step over the array with a uniform trip count, so that every lane takes part in flush_runs.
__global__ void count_runs(const int32_t* __restrict__ labels, int32_t n, bool vector_loads, int32_t* size,
                           int32_t* first, u64* scalars) {
    const int lane = threadIdx.x & 31;
    const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
    constexpr int64_t kWarpItems = 32 * kItems;
    for (int64_t base = warp * kWarpItems; base < n; base += warps * kWarpItems) {
        const int64_t begin = base + lane * kItems;
        int32_t item[kItems];
        if (vector_loads && begin + kItems <= n) {
            const int4* v = reinterpret_cast<const int4*>(labels + begin);
#pragma unroll
            for (int j = 0; j < kItems / 4; ++j) {
                const int4 q = v[j];
                item[4 * j] = q.x;
                item[4 * j + 1] = q.y;
                item[4 * j + 2] = q.z;
                item[4 * j + 3] = q.w;
            }
        } else {
#pragma unroll
            for (int j = 0; j < kItems; ++j) item[j] = begin + j < n ? labels[begin + j] : -1;
        }
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
            if (item[j] < -1 || item[j] >= n) {
                atomicMin(&scalars[kBad], static_cast<u64>(begin + j));
                item[j] = -1;
            }
        }
        // Each lane keeps its longest pending run and merges later runs of that label into it, so
        // that a giant component interleaved with small ones is flushed once per lane, not once
        // per run (its label's counters are one address that every warp updates).
        int32_t current = item[0];
        int32_t run = 0;
        int32_t start = static_cast<int32_t>(begin);
        int32_t kept = -1, kept_run = 0, kept_start = 0;
#pragma unroll
        for (int j = 0; j <= kItems; ++j) {
            const int32_t label = j < kItems ? item[j] : -2;  // -2 ends the last run
            const bool changed = label != current;
            bool flush = false;
            int32_t flush_label = current, flush_run = run, flush_start = start;
            if (changed && current >= 0) {
                if (current == kept) {
                    kept_run += run;
                } else if (run > kept_run) {
                    flush = kept >= 0;
                    flush_label = kept;
                    flush_run = kept_run;
                    flush_start = kept_start;
                    kept = current;
                    kept_run = run;
                    kept_start = start;
                } else {
                    flush = true;
                }
            }
            flush_runs(flush, flush_label, flush_run, flush_start, labels, size, first);
            if (changed) {
                current = label;
                run = 0;
                start = static_cast<int32_t>(begin + j);
            }
            ++run;
        }
        flush_runs(kept >= 0, kept, kept_run, kept_start, labels, size, first);
    }
}

// Components, labelled entries, the largest (ties: smallest label) and the smallest size.
__global__ void summarize(const int32_t* __restrict__ size, int32_t n, u64* scalars) {
    u64 components = 0, labelled = 0, best = 0, smallest = ULLONG_MAX;
    for (int64_t l = detail::thread_index(); l < n; l += detail::thread_count()) {
        const int32_t s = size[l];
        if (s > 0) {
            ++components;
            labelled += s;
            best = max(best, (static_cast<u64>(s) << 32) | (0xffffffffu - static_cast<uint32_t>(l)));
            smallest = min(smallest, static_cast<u64>(s));
        }
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        components += __shfl_down_sync(kFullMask, components, offset);
        labelled += __shfl_down_sync(kFullMask, labelled, offset);
        best = max(best, __shfl_down_sync(kFullMask, best, offset));
        smallest = min(smallest, __shfl_down_sync(kFullMask, smallest, offset));
    }
    if ((threadIdx.x & 31) == 0 && components > 0) {
        atomicAdd(&scalars[kComponents], components);
        atomicAdd(&scalars[kLabelled], labelled);
        atomicMax(&scalars[kBest], best);
        atomicMin(&scalars[kSmallest], smallest);
    }
}

// flags[i] = 1 where entry i is its component's first member; flags[n] = 0.
__global__ void mark_firsts(const int32_t* __restrict__ labels, int32_t n, const int32_t* __restrict__ first,
                            int32_t* flags) {
    for (int64_t i = detail::thread_index(); i <= n; i += detail::thread_count()) {
        int32_t flag = 0;
        if (i < n) {
            const int32_t l = labels[i];
            flag = valid(l, n) && first_member(labels, first, l) == i;
        }
        flags[i] = flag;
    }
}

// Component rank[first member of l] gets label l and its size; first[l] becomes that component
// index (each thread reads and writes only its own label's entry).
__global__ void emit_components(const int32_t* __restrict__ labels, const int32_t* __restrict__ size, int32_t n,
                                const int32_t* __restrict__ rank, int32_t* first, int32_t* component_label,
                                int32_t* component_size) {
    for (int64_t l = detail::thread_index(); l < n; l += detail::thread_count()) {
        const int32_t s = size[l];
        if (s > 0) {
            const int32_t c = rank[first_member(labels, first, static_cast<int32_t>(l))];
            component_label[c] = static_cast<int32_t>(l);
            component_size[c] = s;
            first[l] = c;
        }
    }
}

// Sort keys for the size order: larger sizes first, then smaller labels.
__global__ void size_keys(const int32_t* __restrict__ component_label, const int32_t* __restrict__ component_size,
                          int32_t k, int32_t n, int label_bits, u64* keys, int32_t* values) {
    for (int64_t c = detail::thread_index(); c < k; c += detail::thread_count()) {
        keys[c] = (static_cast<u64>(n - component_size[c]) << label_bits) | static_cast<u64>(component_label[c]);
        values[c] = static_cast<int32_t>(c);
    }
}

// Component at position p of the size order: its label, size, and the label's new index.
__global__ void permute_components(const int32_t* __restrict__ order, int32_t k, const int32_t* __restrict__ label_in,
                                   const int32_t* __restrict__ size_in, int32_t* label_out, int32_t* size_out,
                                   int32_t* id) {
    for (int64_t p = detail::thread_index(); p < k; p += detail::thread_count()) {
        const int32_t c = order[p];
        label_out[p] = label_in[c];
        size_out[p] = size_in[c];
        id[label_in[c]] = static_cast<int32_t>(p);
    }
}

__global__ void compact_labels(const int32_t* __restrict__ labels, int32_t n, const int32_t* __restrict__ id,
                               int32_t* out) {
    for (int64_t i = detail::thread_index(); i < n; i += detail::thread_count()) {
        const int32_t l = labels[i];
        out[i] = valid(l, n) ? id[l] : -1;
    }
}

// Sort keys for the member lists: the component index (k for unlabelled entries) and the entry.
__global__ void member_keys(const int32_t* __restrict__ labels, int32_t n, const int32_t* __restrict__ id, int32_t k,
                            uint32_t* keys, int32_t* values) {
    for (int64_t i = detail::thread_index(); i < n; i += detail::thread_count()) {
        const int32_t l = labels[i];
        keys[i] = static_cast<uint32_t>(valid(l, n) ? id[l] : k);
        values[i] = static_cast<int32_t>(i);
    }
}

__global__ void log2_histogram(const int32_t* __restrict__ size, int32_t n, int32_t* bins) {
    __shared__ int32_t local[32];
    if (threadIdx.x < 32) local[threadIdx.x] = 0;
    __syncthreads();
    for (int64_t l = detail::thread_index(); l < n; l += detail::thread_count()) {
        const int32_t s = size[l];
        if (s > 0) atomicAdd(&local[31 - __clz(s)], 1);
    }
    __syncthreads();
    if (threadIdx.x < 32 && local[threadIdx.x] > 0) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void filter_labels(const int32_t* __restrict__ labels, int32_t n, const int32_t* __restrict__ size,
                              int32_t min_size, int32_t max_size, int32_t* out) {
    for (int64_t i = detail::thread_index(); i < n; i += detail::thread_count()) {
        const int32_t l = labels[i];
        const int32_t s = valid(l, n) ? size[l] : 0;
        out[i] = s > 0 && s >= min_size && s <= max_size ? l : -1;
    }
}

__global__ void count_kept(const int32_t* __restrict__ size, int32_t n, int32_t min_size, int32_t max_size,
                           u64* scalars) {
    u64 kept = 0;
    for (int64_t l = detail::thread_index(); l < n; l += detail::thread_count()) {
        const int32_t s = size[l];
        kept += s > 0 && s >= min_size && s <= max_size;
    }
    for (int offset = 16; offset > 0; offset /= 2) kept += __shfl_down_sync(kFullMask, kept, offset);
    if ((threadIdx.x & 31) == 0 && kept > 0) atomicAdd(&scalars[kKept], kept);
}

struct IsLabel {
    const int32_t* labels;
    int32_t label;
    __device__ bool operator()(int32_t i) const { return labels[i] == label; }
};

int bits_for(uint32_t value) { return value == 0 ? 1 : 32 - __builtin_clz(value); }

// The statistics' buffers on a state: the work arrays of an operation, and the labels of the
// last labelling of a resident graph (taken over from the driver) with their count, -1 when none.
struct StatsWorkspace final : Workspace {
    DeviceBuffer scratch;
    DeviceBuffer resident_labels;
    int32_t resident_label_count = -1;
};

// The device memory of one operation, carved from the statistics' work buffer.
struct Work {
    DeviceState& state;
    const int32_t* labels;  // on the device
    int32_t n;
    int32_t* size;            // per label
    int32_t* first;           // per label: first member, then component index
    int32_t* rank;            // n + 1: exclusive prefix sum of first-member flags
    int32_t* component_label; // n + 1 (the flags before the prefix sum)
    int32_t* component_size;  // n + 1
    int32_t* sorted_label;    // n
    int32_t* sorted_size;     // n + 1
    u64* keys[2];             // n each
    int32_t* values[2];       // n each
    u64* scalars;
    void* temp;
    size_t temp_bytes;

    int grid(int64_t items) const { return grid_size(state, kBlock, items); }
};

size_t cub_temp_bytes(int32_t n) {
    size_t bytes = 0, need = 0;
    const int32_t* in = nullptr;
    int32_t* out = nullptr;
    u64* keys = nullptr;
    uint32_t* narrow = nullptr;
    CCL4J_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, in, out, n + 1));
    bytes = std::max(bytes, need);
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, need, keys, keys, in, out, n));
    bytes = std::max(bytes, need);
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, need, narrow, narrow, in, out, n));
    bytes = std::max(bytes, need);
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, in, out, n));
    bytes = std::max(bytes, need);
    CCL4J_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, need, in, out, out, out, n));
    bytes = std::max(bytes, need);
    CCL4J_CUDA_CHECK(cub::DeviceSelect::If(nullptr, need, thrust::counting_iterator<int32_t>(0), out, out, n,
                                           IsLabel{nullptr, 0}));
    return std::max(bytes, need);
}

// Carves the work memory and finds the labels on the device (copying host labels there).
Work prepare(DeviceState& state, const int32_t* device_labels, const int32_t* host_labels, int32_t n) {
    state.activate();
    // n + 1 ints, and at least the 32 bins of the log2 histogram.
    const size_t ints = (static_cast<size_t>(std::max(n, 32)) + 1) * sizeof(int32_t);
    const size_t wide = static_cast<size_t>(std::max(n, 1)) * sizeof(u64);
    const size_t temp_bytes = cub_temp_bytes(n);
    std::vector<void*> p = carve(state.workspace<StatsWorkspace>().scratch, {ints, ints, ints, ints, ints, ints, ints, wide, wide, ints, ints,
                                                   kScalars * sizeof(u64), temp_bytes, host_labels ? ints : 1},
                                 "label statistics work arrays");
    Work w{state,
           device_labels,
           n,
           static_cast<int32_t*>(p[0]),
           static_cast<int32_t*>(p[1]),
           static_cast<int32_t*>(p[2]),
           static_cast<int32_t*>(p[3]),
           static_cast<int32_t*>(p[4]),
           static_cast<int32_t*>(p[5]),
           static_cast<int32_t*>(p[6]),
           {static_cast<u64*>(p[7]), static_cast<u64*>(p[8])},
           {static_cast<int32_t*>(p[9]), static_cast<int32_t*>(p[10])},
           static_cast<u64*>(p[11]),
           p[12],
           temp_bytes};
    if (host_labels) {
        int32_t* copy = static_cast<int32_t*>(p[13]);
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(copy, host_labels, static_cast<size_t>(n) * sizeof(int32_t),
                                         cudaMemcpyHostToDevice, state.stream));
        w.labels = copy;
    }
    return w;
}

Work prepare(DeviceState& state, const LabelSource& source) {
    if (source.host) return prepare(state, nullptr, source.host, source.count);
    const StatsWorkspace& work = state.workspace<StatsWorkspace>();
    if (work.resident_label_count != source.count) {
        fail(CCL4J_INVALID_ARGUMENT,
             work.resident_label_count < 0
                 ? std::string("no labels are on the device: label a device-resident graph first")
                 : "the device holds " + std::to_string(work.resident_label_count) + " labels, not " +
                       std::to_string(source.count));
    }
    return prepare(state, work.resident_labels.as<int32_t>(), nullptr, source.count);
}

// Sizes and first members per label, and the scalars' initial values.
void enqueue_sizes(Work& w) {
    cudaStream_t stream = w.state.stream;
    CCL4J_CUDA_CHECK(cudaMemsetAsync(w.size, 0, static_cast<size_t>(w.n) * sizeof(int32_t), stream));
    fill<<<w.grid(w.n), kBlock, 0, stream>>>(w.first, w.n, INT32_MAX);
    check_launch("label statistics: fill");
    init_scalars<<<1, 32, 0, stream>>>(w.scalars);
    check_launch("label statistics: init");
    const bool vector_loads = reinterpret_cast<uintptr_t>(w.labels) % 16 == 0;
    count_runs<<<w.grid((static_cast<int64_t>(w.n) + kItems - 1) / kItems), kBlock, 0, stream>>>(
        w.labels, w.n, vector_loads, w.size, w.first, w.scalars);
    check_launch("label statistics: count");
}

// Components in smallest-member order (component_label, component_size; rank[n] = k), first[l]
// becomes l's component index.
void enqueue_numbering(Work& w) {
    cudaStream_t stream = w.state.stream;
    const int grid = w.grid(static_cast<int64_t>(w.n) + 1);
    mark_firsts<<<grid, kBlock, 0, stream>>>(w.labels, w.n, w.first, w.component_label);
    check_launch("label statistics: first members");
    CCL4J_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(w.temp, w.temp_bytes, w.component_label, w.rank, w.n + 1, stream));
    emit_components<<<grid, kBlock, 0, stream>>>(w.labels, w.size, w.n, w.rank, w.first, w.component_label,
                                                 w.component_size);
    check_launch("label statistics: components");
}

// Waits for the enqueued work and reports a bad label; returns the scalars.
std::vector<u64> finish(Work& w) {
    std::vector<u64> scalars(kScalars);
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(scalars.data(), w.scalars, kScalars * sizeof(u64), cudaMemcpyDeviceToHost,
                                     w.state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(w.state.stream));
    if (scalars[kBad] != ULLONG_MAX) {
        int32_t value = 0;
        CCL4J_CUDA_CHECK(cudaMemcpy(&value, w.labels + scalars[kBad], sizeof(int32_t), cudaMemcpyDeviceToHost));
        fail_bad_label(static_cast<int64_t>(scalars[kBad]), value, w.n);
    }
    return scalars;
}

int32_t component_count(Work& w) {
    int32_t k = 0;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&k, w.rank + w.n, sizeof(int32_t), cudaMemcpyDeviceToHost, w.state.stream));
    finish(w);
    return k;
}

// The components in `order`: their labels and sizes on the device; first[l] is l's position.
struct Ordered {
    int32_t k;
    const int32_t* label;
    const int32_t* size;
};

Ordered enqueue_order(Work& w, int32_t order) {
    enqueue_sizes(w);
    enqueue_numbering(w);
    const int32_t k = component_count(w);
    if (order == CCL4J_ORDER_SMALLEST_MEMBER || k == 0) return {k, w.component_label, w.component_size};
    cudaStream_t stream = w.state.stream;
    const int label_bits = bits_for(static_cast<uint32_t>(w.n));
    const int grid = w.grid(k);
    size_keys<<<grid, kBlock, 0, stream>>>(w.component_label, w.component_size, k, w.n, label_bits, w.keys[0],
                                           w.values[0]);
    check_launch("label statistics: size keys");
    size_t temp_bytes = w.temp_bytes;
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(w.temp, temp_bytes, w.keys[0], w.keys[1], w.values[0],
                                                     w.values[1], k, 0, 2 * label_bits, stream));
    permute_components<<<grid, kBlock, 0, stream>>>(w.values[1], k, w.component_label, w.component_size,
                                                    w.sorted_label, w.sorted_size, w.first);
    check_launch("label statistics: size order");
    return {k, w.sorted_label, w.sorted_size};
}

template <class T>
void copy_out(Work& w, T* host, const T* device, int64_t count) {
    if (host && count > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(host, device, static_cast<size_t>(count) * sizeof(T), cudaMemcpyDeviceToHost,
                                         w.state.stream));
    }
}

void wait(Work& w) { CCL4J_CUDA_CHECK(cudaStreamSynchronize(w.state.stream)); }

}  // namespace

void keep_resident_labels(DeviceState& state, int32_t count) {
    StatsWorkspace& work = state.workspace<StatsWorkspace>();
    work.resident_labels.swap(device_labels(state));
    work.resident_label_count = count;
}

void forget_resident_labels(DeviceState& state) { state.workspace<StatsWorkspace>().resident_label_count = -1; }

int32_t resident_label_count(DeviceState& state) { return state.workspace<StatsWorkspace>().resident_label_count; }

ccl4j_label_summary label_summary(DeviceState& state, const LabelSource& labels) {
    ccl4j_label_summary out{};
    out.count = labels.count;
    out.largest_label = -1;
    if (labels.count == 0) return out;
    Work w = prepare(state, labels);
    enqueue_sizes(w);
    summarize<<<w.grid(w.n), kBlock, 0, state.stream>>>(w.size, w.n, w.scalars);
    check_launch("label statistics: summary");
    const std::vector<u64> s = finish(w);
    out.components = static_cast<int64_t>(s[kComponents]);
    out.labelled = static_cast<int64_t>(s[kLabelled]);
    if (out.components > 0) {
        out.largest_size = static_cast<int32_t>(s[kBest] >> 32);
        out.largest_label = static_cast<int32_t>(0xffffffffu - static_cast<uint32_t>(s[kBest]));
        out.smallest_size = static_cast<int32_t>(s[kSmallest]);
    }
    return out;
}

int64_t label_components(DeviceState& state, const LabelSource& labels, int32_t order, int64_t capacity,
                         int32_t* component_labels, int32_t* sizes) {
    if (labels.count == 0) return 0;
    Work w = prepare(state, labels);
    const Ordered o = enqueue_order(w, order);
    const int64_t written = std::min<int64_t>(capacity, o.k);
    copy_out(w, component_labels, o.label, written);
    copy_out(w, sizes, o.size, written);
    wait(w);
    return o.k;
}

int64_t label_compact(DeviceState& state, const LabelSource& labels, int32_t order, int32_t* out) {
    if (labels.count == 0) return 0;
    Work w = prepare(state, labels);
    const Ordered o = enqueue_order(w, order);
    compact_labels<<<w.grid(w.n), kBlock, 0, state.stream>>>(w.labels, w.n, w.first, w.values[0]);
    check_launch("label statistics: compaction");
    copy_out(w, out, static_cast<const int32_t*>(w.values[0]), w.n);
    wait(w);
    return o.k;
}

int64_t label_histogram(DeviceState& state, const LabelSource& labels, int32_t binning,
                        int64_t capacity, int32_t* bin_sizes, int32_t* bin_counts) {
    if (labels.count == 0) return 0;
    Work w = prepare(state, labels);
    if (binning == CCL4J_HISTOGRAM_LOG2) {
        enqueue_sizes(w);
        CCL4J_CUDA_CHECK(cudaMemsetAsync(w.sorted_size, 0, 32 * sizeof(int32_t), state.stream));
        log2_histogram<<<w.grid(w.n), kBlock, 0, state.stream>>>(w.size, w.n, w.sorted_size);
        check_launch("label statistics: log2 histogram");
        int32_t counts[32];
        copy_out(w, counts, static_cast<const int32_t*>(w.sorted_size), 32);
        finish(w);
        int64_t bins = 0;
        for (int b = 0; b < 32; ++b) {
            if (counts[b] > 0) bins = b + 1;
        }
        for (int64_t b = 0; b < std::min(capacity, bins); ++b) {
            if (bin_sizes) bin_sizes[b] = static_cast<int32_t>(1u << b);
            if (bin_counts) bin_counts[b] = counts[b];
        }
        return bins;
    }
    enqueue_sizes(w);
    enqueue_numbering(w);
    const int32_t k = component_count(w);
    if (k == 0) return 0;
    // Sizes sorted, then run-length encoded: each distinct size and how many components have it.
    size_t temp_bytes = w.temp_bytes;
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(w.temp, temp_bytes, w.component_size, w.sorted_size, k, 0,
                                                    bits_for(static_cast<uint32_t>(w.n)), state.stream));
    int32_t* unique = w.values[0];
    int32_t* counts = w.values[1];
    int32_t* runs = w.rank;
    temp_bytes = w.temp_bytes;
    CCL4J_CUDA_CHECK(
        cub::DeviceRunLengthEncode::Encode(w.temp, temp_bytes, w.sorted_size, unique, counts, runs, k, state.stream));
    int32_t bins = 0;
    copy_out(w, &bins, static_cast<const int32_t*>(runs), 1);
    wait(w);
    const int64_t written = std::min<int64_t>(capacity, bins);
    copy_out(w, bin_sizes, static_cast<const int32_t*>(unique), written);
    copy_out(w, bin_counts, static_cast<const int32_t*>(counts), written);
    wait(w);
    return bins;
}

void label_members(DeviceState& state, const LabelSource& labels, int32_t order, int32_t* offsets,
                   int32_t* members) {
    offsets[0] = 0;
    if (labels.count == 0) return;
    Work w = prepare(state, labels);
    const Ordered o = enqueue_order(w, order);
    if (o.k == 0) return;
    cudaStream_t stream = state.stream;
    // A stable radix sort of (component, entry) pairs by component keeps each list ascending.
    uint32_t* keys_in = reinterpret_cast<uint32_t*>(w.keys[0]);
    uint32_t* keys_out = reinterpret_cast<uint32_t*>(w.keys[1]);
    member_keys<<<w.grid(w.n), kBlock, 0, stream>>>(w.labels, w.n, w.first, o.k, keys_in, w.values[0]);
    check_launch("label statistics: member keys");
    size_t temp_bytes = w.temp_bytes;
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(w.temp, temp_bytes, keys_in, keys_out, w.values[0], w.values[1],
                                                     w.n, 0, bits_for(static_cast<uint32_t>(o.k)), stream));
    // Offsets: the exclusive prefix sum of the sizes in order, with a 0 appended.
    int32_t* sizes = const_cast<int32_t*>(o.size);
    CCL4J_CUDA_CHECK(cudaMemsetAsync(sizes + o.k, 0, sizeof(int32_t), stream));
    temp_bytes = w.temp_bytes;
    CCL4J_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(w.temp, temp_bytes, sizes, w.rank, o.k + 1, stream));
    int32_t labelled = 0;
    copy_out(w, &labelled, static_cast<const int32_t*>(w.rank + o.k), 1);
    wait(w);
    copy_out(w, offsets, static_cast<const int32_t*>(w.rank), o.k + 1);
    copy_out(w, members, static_cast<const int32_t*>(w.values[1]), labelled);
    wait(w);
}

int64_t label_component_members(DeviceState& state, const LabelSource& labels, int32_t label, int64_t capacity,
                                int32_t* members) {
    if (labels.count == 0) return 0;
    Work w = prepare(state, labels);
    enqueue_sizes(w);
    size_t temp_bytes = w.temp_bytes;
    CCL4J_CUDA_CHECK(cub::DeviceSelect::If(w.temp, temp_bytes, thrust::counting_iterator<int32_t>(0), w.values[0],
                                           w.rank, w.n, IsLabel{w.labels, label}, state.stream));
    int32_t size = 0;
    copy_out(w, &size, static_cast<const int32_t*>(w.rank), 1);
    finish(w);
    copy_out(w, members, static_cast<const int32_t*>(w.values[0]), std::min<int64_t>(capacity, size));
    wait(w);
    return size;
}

int64_t label_filter(DeviceState& state, const LabelSource& labels, int32_t min_size, int32_t max_size, int32_t* out) {
    if (labels.count == 0) return 0;
    Work w = prepare(state, labels);
    enqueue_sizes(w);
    filter_labels<<<w.grid(w.n), kBlock, 0, state.stream>>>(w.labels, w.n, w.size, min_size, max_size, w.values[0]);
    check_launch("label statistics: filter");
    count_kept<<<w.grid(w.n), kBlock, 0, state.stream>>>(w.size, w.n, min_size, max_size, w.scalars);
    check_launch("label statistics: kept components");
    const std::vector<u64> s = finish(w);
    copy_out(w, out, static_cast<const int32_t*>(w.values[0]), w.n);
    wait(w);
    return static_cast<int64_t>(s[kKept]);
}

const int32_t* enqueue_compaction(DeviceState& state, const int32_t* device_labels, int32_t count,
                                  int32_t* device_out, cudaEvent_t start) {
    Work w = prepare(state, device_labels, nullptr, count);
    CCL4J_CUDA_CHECK(cudaEventRecord(start, state.stream));
    enqueue_sizes(w);
    enqueue_numbering(w);
    compact_labels<<<w.grid(w.n), kBlock, 0, state.stream>>>(w.labels, w.n, w.first, device_out);
    check_launch("label statistics: compaction");
    return w.component_size;
}

}  // namespace ccl4j::cuda
