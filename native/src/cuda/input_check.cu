// The input checks of a host graph on the GPU, after its copy: offsets in order, ids in range and
// the multiset hash of symmetry (common/arc_hash.hpp) in one pass over the device arrays, so that
// a checked labelling costs a fraction of a millisecond more instead of a pass over host memory.
// A fault is explained by the host's exact checks, which name it.
#include <algorithm>
#include <vector>

#include "common/arc_hash.hpp"
#include "common/error.hpp"
#include "common/validate.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/input_check.hpp"

namespace ccl4j::cuda {
namespace {

struct CheckWorkspace final : Workspace {
    DeviceBuffer sums;    // the hash sum of each block
    DeviceBuffer faults;  // nonzero when an offset is out of order or range, or an id out of range
};

constexpr int kBlock = 256;

__device__ uint64_t warp_sum(uint64_t x) {
    for (int d = 16; d > 0; d >>= 1) x = add_mod(x, __shfl_down_sync(0xffffffffu, x, d));
    return x;
}

// A thread per vertex for the short lists; a vertex of more than 32 arcs is taken by its whole
// warp, lanes over its arcs, so that a hub does not hold up one thread. Each vertex's offsets are
// checked against each other and the arc count before its arcs are read, so a bad offset reads
// nothing outside the arrays.
template <class Offset>
__global__ void check_arcs(const Offset* offsets, const int32_t* neighbors, int32_t n, int64_t arcs, uint64_t key,
                           uint64_t* sums, int32_t* faults) {
    __shared__ uint64_t warp_sums[kBlock / 32];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    uint64_t sum = 0;
    bool fault = false;
    // Whole warps step together (the ballot below needs every lane).
    for (int64_t base = int64_t(blockIdx.x) * kBlock + warp * 32; base < n; base += int64_t(gridDim.x) * kBlock) {
        const int64_t u = base + lane;
        int64_t begin = 0, end = 0;
        if (u < n) {
            begin = offsets[u];
            end = offsets[u + 1];
            if (begin > end || begin < 0 || end > arcs) {
                fault = true;
                begin = end = 0;
            }
        }
        const bool long_list = end - begin > 32;
        if (!long_list) {
            for (int64_t a = begin; a < end; ++a) {
                const int32_t v = neighbors[a];
                if (v < 0 || v >= n) {
                    fault = true;
                    continue;
                }
                sum = add_mod(sum, arc_difference(key, uint32_t(u), uint32_t(v)));
            }
        }
        for (unsigned pending = __ballot_sync(0xffffffffu, long_list); pending != 0; pending &= pending - 1) {
            const int owner = __ffs(pending) - 1;
            const int64_t w = __shfl_sync(0xffffffffu, u, owner);
            const int64_t first = __shfl_sync(0xffffffffu, begin, owner);
            const int64_t last = __shfl_sync(0xffffffffu, end, owner);
            for (int64_t a = first + lane; a < last; a += 32) {
                const int32_t v = neighbors[a];
                if (v < 0 || v >= n) {
                    fault = true;
                    continue;
                }
                sum = add_mod(sum, arc_difference(key, uint32_t(w), uint32_t(v)));
            }
        }
    }
    if (fault) atomicOr(faults, 1);
    sum = warp_sum(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_sum(lane < kBlock / 32 ? warp_sums[lane] : 0);
        if (lane == 0) sums[blockIdx.x] = sum;
    }
}

template <class Offset>
void launch(DeviceState& state, const detail::DeviceCsr& csr, int grid, CheckWorkspace& work) {
    check_arcs<Offset><<<grid, kBlock, 0, state.stream>>>(static_cast<const Offset*>(csr.offsets), csr.neighbors,
                                                          csr.vertex_count, csr.arc_count, arc_hash_key(),
                                                          work.sums.as<uint64_t>(), work.faults.as<int32_t>());
    check_launch("input check");
}

}  // namespace

Phase check_phase(DeviceState& state, const detail::DeviceCsr& csr, const Graph& host) {
    return {"check", [&state, csr, &host] {
                CheckWorkspace& work = state.workspace<CheckWorkspace>();
                const int resident = csr.offset_width == 4 ? resident_grid(state, check_arcs<int32_t>, kBlock)
                                                           : resident_grid(state, check_arcs<int64_t>, kBlock);
                const int64_t needed = (int64_t(csr.vertex_count) + kBlock - 1) / kBlock;
                const int grid = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(resident, needed)));
                work.sums.reserve(sizeof(uint64_t) * grid, "input check sums");
                work.faults.reserve(sizeof(int32_t), "input check faults");
                CCL4J_CUDA_CHECK(cudaMemsetAsync(work.faults.as<int32_t>(), 0, sizeof(int32_t), state.stream));
                if (csr.offset_width == 4) {
                    launch<int32_t>(state, csr, grid, work);
                } else {
                    launch<int64_t>(state, csr, grid, work);
                }
                std::vector<uint64_t> sums(static_cast<size_t>(grid));
                int32_t faults = 0;
                CCL4J_CUDA_CHECK(cudaMemcpyAsync(sums.data(), work.sums.as<uint64_t>(), sizeof(uint64_t) * grid,
                                                 cudaMemcpyDeviceToHost, state.stream));
                CCL4J_CUDA_CHECK(cudaMemcpyAsync(&faults, work.faults.as<int32_t>(), sizeof(int32_t),
                                                 cudaMemcpyDeviceToHost, state.stream));
                CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
                uint64_t difference = 0;
                for (uint64_t s : sums) difference = add_mod(difference, s);
                if (faults != 0 || difference != 0) {
                    check_input(host, 0);  // throws, naming the fault
                    fail(CCL4J_INTERNAL_ERROR, "the GPU's input check found a fault that the host's does not");
                }
                return 0;
            }};
}

}  // namespace ccl4j::cuda
