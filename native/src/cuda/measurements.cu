// The measurement pass on the GPU (cuda/measurements.hpp): a thread takes 32 cells of a row, and
// each run of equal labels among them (a run, or the piece of one the thread holds) adds its
// measures (common/measure_run.hpp, the host pass's definitions) to its row with atomics; the
// 128-bit sums as two words, the low one's carry added to the high one, so that the sums are
// exact whatever the order. The rows are zeroed first and copied back once done.
#include "cuda/measurements.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "ccl4j.h"
#include "common/measure_run.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/root_index.cuh"

namespace ccl4j::cuda {
namespace {

constexpr int kBlock = 256;
constexpr int32_t kSegment = 32;  // cells of a row a thread takes

struct MeasureWorkspace final : Workspace {
    DeviceBuffer rows;
};

// A 128-bit sum as two 64-bit words.
struct WideSum {
    unsigned long long low, high;
};

// A row's accumulators (zeroed before the pass).
struct MeasureSums {
    unsigned long long size;
    WideSum first[3], second[6];
    unsigned long long faces[3];
    unsigned long long perimeter[2][3];
};

__device__ __forceinline__ unsigned long long low_word(__int128 v) { return static_cast<unsigned long long>(v); }
__device__ __forceinline__ unsigned long long high_word(__int128 v) {
    return static_cast<unsigned long long>(static_cast<unsigned __int128>(v) >> 64);
}

__int128 wide_value(const WideSum& w) {
    return static_cast<__int128>((static_cast<unsigned __int128>(w.high) << 64) | w.low);
}

MeasureRow measure_row(const MeasureSums& s) {
    MeasureRow m;
    m.size = static_cast<int64_t>(s.size);
    for (int a = 0; a < 3; ++a) {
        m.first[a] = wide_value(s.first[a]);
        m.faces[a] = static_cast<int64_t>(s.faces[a]);
    }
    for (int p = 0; p < 6; ++p) m.second[p] = wide_value(s.second[p]);
    for (int e = 0; e < 2; ++e) {
        for (int w = 0; w < 3; ++w) m.perimeter[e][w] = static_cast<int64_t>(s.perimeter[e][w]);
    }
    return m;
}

__device__ __forceinline__ void add(unsigned long long* target, int64_t v) {
    if (v) atomicAdd(target, static_cast<unsigned long long>(v));
}

__device__ __forceinline__ void add(WideSum* target, __int128 v) {
    if (v == 0) return;
    const unsigned long long low = low_word(v);
    const unsigned long long high = high_word(v);
    const unsigned long long before = atomicAdd(&target->low, low);
    const unsigned long long carried = high + (before + low < before ? 1ull : 0ull);
    if (carried) atomicAdd(&target->high, carried);
}

struct Pass {
    int32_t width, height, depth;
    const int32_t* labels;
    int32_t numbering;
    RootIndex roots;
    MeasureSums* rows;

    __device__ int32_t background() const { return numbering == CCL4J_NUMBERING_RASTER ? 0 : -1; }

    __device__ int32_t at(int64_t x, int64_t y, int64_t z) const {
        if (x < 0 || y < 0 || z < 0 || x >= width || y >= height || z >= depth) return background();
        return labels[x + width * (y + int64_t(height) * z)];
    }

    __device__ int32_t row_of(int32_t l) const {
        if (numbering == CCL4J_NUMBERING_RASTER) return l - 1;
        if (numbering == CCL4J_NUMBERING_SIZE) return l;
        return roots.row(l);
    }

    // Adds m to the row of label l.
    __device__ void add(int32_t l, const MeasureRow& m) const {
        MeasureSums* sums = rows + row_of(l);
        ::ccl4j::cuda::add(&sums->size, m.size);
        for (int a = 0; a < 3; ++a) {
            ::ccl4j::cuda::add(&sums->first[a], m.first[a]);
            ::ccl4j::cuda::add(&sums->faces[a], m.faces[a]);
        }
        for (int q = 0; q < 6; ++q) ::ccl4j::cuda::add(&sums->second[q], m.second[q]);
        for (int e = 0; e < 2; ++e) {
            for (int w = 0; w < 3; ++w) ::ccl4j::cuda::add(&sums->perimeter[e][w], m.perimeter[e][w]);
        }
    }
};

__global__ void __launch_bounds__(kBlock) measure_cells(Pass p) {
    const int64_t segments = (p.width + kSegment - 1) / kSegment;
    const int64_t items = segments * p.height * p.depth;
    const auto at = [&p](int64_t x, int64_t y, int64_t z) { return p.at(x, y, z); };
    for (int64_t item = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; item < items;
         item += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t line = item / segments;
        const int32_t from = static_cast<int32_t>(item % segments) * kSegment;
        const int32_t to = p.width - from < kSegment ? p.width : from + kSegment;
        const int32_t y = static_cast<int32_t>(line % p.height), z = static_cast<int32_t>(line / p.height);
        const int32_t* row = p.labels + line * p.width;
        MeasureRow pending;  // of the runs of label `held` in this segment, met in turn
        int32_t held = p.background();
        for (int32_t x = from; x < to;) {
            const int32_t l = row[x];
            const int32_t start = x;
            while (x < to && row[x] == l) ++x;
            if (l == p.background()) continue;
            if (l != held) {
                if (held != p.background()) p.add(held, pending);
                pending = MeasureRow{};
                held = l;
            }
            measure_run(at, start, x, y, z, l, p.depth > 1, pending);
        }
        if (held != p.background()) p.add(held, pending);
    }
}

}  // namespace

std::vector<MeasureRow> mesh_measures(DeviceState& state, int32_t width, int32_t height, int32_t depth,
                                      const int32_t* labels, int32_t numbering, const RootIndex& roots, int32_t k) {
    std::vector<MeasureRow> rows(static_cast<size_t>(k));
    if (k == 0) return rows;
    MeasureWorkspace& work = state.workspace<MeasureWorkspace>();
    const size_t bytes = static_cast<size_t>(k) * sizeof(MeasureSums);
    work.rows.reserve(bytes, "measurement rows");
    auto* sums = work.rows.as<MeasureSums>();
    CCL4J_CUDA_CHECK(cudaMemsetAsync(sums, 0, bytes, state.stream));
    const int64_t items = (int64_t(width) + kSegment - 1) / kSegment * height * depth;
    measure_cells<<<grid_size(state, kBlock, items), kBlock, 0, state.stream>>>(
        Pass{width, height, depth, labels, numbering, roots, sums});
    check_launch("measurements: cells");
    std::vector<MeasureSums> host(static_cast<size_t>(k));
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(host.data(), sums, bytes, cudaMemcpyDeviceToHost, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    for (size_t r = 0; r < host.size(); ++r) rows[r] = measure_row(host[r]);
    return rows;
}

}  // namespace ccl4j::cuda
