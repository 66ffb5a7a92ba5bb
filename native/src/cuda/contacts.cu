// Contacts on the GPU: a pass over the cells counts each cell's contacts (and finds the first bad
// label), a prefix sum (CUB) gives each cell where its keys go, a second pass writes the keys, a
// radix sort orders them and a run-length encoding counts each distinct (pair, kind); the runs,
// one to four a pair, are copied to the host and read into rows there.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <vector>

#include "common/label_arrays.hpp"
#include "cuda/contacts.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"

namespace ccl4j::cuda {

namespace {

using u64 = unsigned long long;
constexpr int kBlock = 256;

struct ContactsWorkspace final : Workspace {
    DeviceBuffer cells;  // the labels, the per-cell offsets and the scalars
    DeviceBuffer keys;   // the keys, sorted keys, runs and CUB's temporary memory
};

__device__ __forceinline__ int64_t first_thread() { return int64_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ int64_t stride() { return int64_t(gridDim.x) * blockDim.x; }

// counts[i] = the contacts cell i sees at its lower-half offsets; bad = the smallest bad cell.
__global__ void count_contacts(const int32_t* __restrict__ labels, contacts::Shape s, int64_t cells, int64_t* counts,
                               u64* bad) {
    for (int64_t i = first_thread(); i < cells; i += stride()) {
        const int32_t l = labels[i];
        int64_t n = 0;
        if (l < -1 || l >= cells) {
            atomicMin(bad, static_cast<u64>(i));
        } else {
            const int32_t x = int32_t(i % s.width), y = int32_t(i / s.width % s.height),
                          z = int32_t(i / s.width / s.height);
            contacts::visit(labels, s, x, y, z, [&](uint64_t) { ++n; });
        }
        counts[i] = n;
    }
}

// Writes the keys of cell i's contacts from keys[offsets[i]] on, in the order count_contacts saw them.
__global__ void write_contacts(const int32_t* __restrict__ labels, contacts::Shape s, int64_t cells,
                               const int64_t* __restrict__ offsets, u64* keys) {
    for (int64_t i = first_thread(); i < cells; i += stride()) {
        const int32_t l = labels[i];
        if (l < -1 || l >= cells) continue;
        const int32_t x = int32_t(i % s.width), y = int32_t(i / s.width % s.height), z = int32_t(i / s.width / s.height);
        int64_t at = offsets[i];
        contacts::visit(labels, s, x, y, z, [&](uint64_t k) { keys[at++] = k; });
    }
}

}  // namespace

std::optional<contacts::Rows> mesh_contacts(DeviceState& state, const int32_t* labels, const contacts::Shape& s) {
    state.activate();
    const int64_t cells = int64_t(s.width) * s.height * s.depth;
    cudaStream_t stream = state.stream;
    ContactsWorkspace& work = state.workspace<ContactsWorkspace>();
    size_t scan_bytes = 0;
    CCL4J_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<int64_t*>(nullptr),
                                                   static_cast<int64_t*>(nullptr), cells + 1));
    std::vector<void*> p = carve(work.cells,
                                 {size_t(cells) * sizeof(int32_t), size_t(cells + 1) * sizeof(int64_t), sizeof(u64),
                                  scan_bytes},
                                 "contacts: labels and offsets");
    int32_t* device_labels = static_cast<int32_t*>(p[0]);
    int64_t* offsets = static_cast<int64_t*>(p[1]);
    u64* bad = static_cast<u64*>(p[2]);
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(device_labels, labels, size_t(cells) * sizeof(int32_t), cudaMemcpyHostToDevice,
                                     stream));
    const u64 none = ULLONG_MAX;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(bad, &none, sizeof(u64), cudaMemcpyHostToDevice, stream));
    CCL4J_CUDA_CHECK(cudaMemsetAsync(offsets + cells, 0, sizeof(int64_t), stream));
    const int grid = grid_size(state, kBlock, cells);
    count_contacts<<<grid, kBlock, 0, stream>>>(device_labels, s, cells, offsets, bad);
    check_launch("contacts: count");
    CCL4J_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(p[3], scan_bytes, offsets, offsets, cells + 1, stream));
    int64_t total = 0;
    u64 first_bad = 0;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&total, offsets + cells, sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&first_bad, bad, sizeof(u64), cudaMemcpyDeviceToHost, stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (first_bad != ULLONG_MAX) fail_bad_label(int64_t(first_bad), labels[first_bad], cells);
    if (total > INT32_MAX) return std::nullopt;
    if (total == 0) return contacts::Rows{};

    const int n = int(total);
    u64* none_keys = nullptr;
    int* none_ints = nullptr;
    size_t sort_bytes = 0, encode_bytes = 0;
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, none_keys, none_keys, n));
    CCL4J_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, encode_bytes, none_keys, none_keys, none_ints,
                                                        none_ints, n));
    const size_t temp_bytes = std::max(sort_bytes, encode_bytes);
    std::vector<void*> q = carve(work.keys,
                                 {size_t(n) * sizeof(u64), size_t(n) * sizeof(u64), size_t(n) * sizeof(u64),
                                  size_t(n) * sizeof(int), sizeof(int), temp_bytes},
                                 "contacts: keys");
    u64* keys = static_cast<u64*>(q[0]);
    u64* sorted = static_cast<u64*>(q[1]);
    u64* unique = static_cast<u64*>(q[2]);
    int* lengths = static_cast<int*>(q[3]);
    int* runs = static_cast<int*>(q[4]);
    write_contacts<<<grid, kBlock, 0, stream>>>(device_labels, s, cells, offsets, keys);
    check_launch("contacts: write");
    size_t bytes = temp_bytes;
    CCL4J_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(q[5], bytes, keys, sorted, n, 0, 64, stream));
    bytes = temp_bytes;
    CCL4J_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(q[5], bytes, sorted, unique, lengths, runs, n, stream));
    int run_count = 0;
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&run_count, runs, sizeof(int), cudaMemcpyDeviceToHost, stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<uint64_t> host_keys(run_count);
    std::vector<int> host_lengths(run_count);
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(host_keys.data(), unique, size_t(run_count) * sizeof(u64), cudaMemcpyDeviceToHost,
                                     stream));
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(host_lengths.data(), lengths, size_t(run_count) * sizeof(int),
                                     cudaMemcpyDeviceToHost, stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
    work.keys.release();
    const std::vector<int64_t> counts(host_lengths.begin(), host_lengths.end());
    return contacts::rows_of(host_keys.data(), counts.data(), host_keys.size());
}

}  // namespace ccl4j::cuda
