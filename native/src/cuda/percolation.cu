// Bond percolation and Swendsen-Wang on the GPU; see percolation.hpp. The draws are those of
// cpu/percolation.cpp (common/philox.hpp on both sides), so both backends give the same bonds.
#include "cuda/percolation.hpp"

#include <cuda_runtime.h>

#include <vector>

#include "common/philox.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {

class DeviceLattice {
public:
    DeviceLattice(int device, const Lattice& host)
        : vertex_count(host.vertex_count),
          arc_count(static_cast<int64_t>(host.neighbors.size())),
          side_counts{static_cast<int32_t>(host.sides[0].size()), static_cast<int32_t>(host.sides[1].size())},
          masked(device, Graph{host.vertex_count, static_cast<int64_t>(host.neighbors.size()), 4, nullptr, nullptr}) {}

    const int32_t vertex_count;
    const int64_t arc_count;
    const int32_t side_counts[2];
    // The masked graph the labelling reads: the lattice's offsets, arcs rewritten per realisation.
    DeviceGraph masked;
    DeviceBuffer neighbors;
    DeviceBuffer arc_bonds;
    DeviceBuffer sides[2];
    DeviceBuffer touch;    // per label: the tag of the last realisation whose side 0 reached it
    DeviceBuffer results;  // per realisation a flag, or per sweep two sums
    DeviceBuffer spins;
    int32_t tag = 0;
};

void DeviceLatticeDeleter::operator()(DeviceLattice* lattice) const { delete lattice; }

namespace {

using detail::thread_count;
using detail::thread_index;

constexpr int kBlock = 256;

template <class T>
void upload(DeviceState& state, DeviceBuffer& buffer, const std::vector<T>& host, const char* what) {
    buffer.reserve(std::max<size_t>(host.size() * sizeof(T), 1), what);
    if (!host.empty()) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(buffer.as<void>(), host.data(), host.size() * sizeof(T),
                                         cudaMemcpyHostToDevice, state.stream));
    }
}

__global__ void draw_bonds_kernel(int64_t bond_count, uint64_t seed, uint64_t realisation, uint64_t threshold,
                                  uint8_t* open) {
    for (int64_t b = thread_index(); b < bond_count; b += thread_count()) {
        open[b] = draw(seed, kPercolationBond, realisation, static_cast<uint32_t>(b)) < threshold;
    }
}

__global__ void mask_percolation(const int32_t* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                                 const int32_t* __restrict__ arc_bonds, int32_t n, uint64_t seed,
                                 uint64_t realisation, uint64_t threshold, int32_t* __restrict__ masked) {
    for (int32_t v = thread_index(); v < n; v += thread_count()) {
        for (int32_t a = offsets[v]; a < offsets[v + 1]; ++a) {
            const uint32_t bond = static_cast<uint32_t>(arc_bonds[a]);
            masked[a] = draw(seed, kPercolationBond, realisation, bond) < threshold ? neighbors[a] : v;
        }
    }
}

__global__ void mark_side(const int32_t* __restrict__ side, int32_t count, const int32_t* __restrict__ label,
                          int32_t* touch, int32_t tag) {
    for (int32_t i = thread_index(); i < count; i += thread_count()) touch[label[side[i]]] = tag;
}

__global__ void test_side(const int32_t* __restrict__ side, int32_t count, const int32_t* __restrict__ label,
                          const int32_t* __restrict__ touch, int32_t tag, int32_t* result) {
    for (int32_t i = thread_index(); i < count; i += thread_count()) {
        if (touch[label[side[i]]] == tag) *result = 1;
    }
}

__global__ void mask_equal_spins(const int32_t* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                                 const int32_t* __restrict__ arc_bonds, const uint8_t* __restrict__ spins, int32_t n,
                                 uint64_t seed, uint64_t sweep, uint64_t threshold, int32_t* __restrict__ masked) {
    for (int32_t v = thread_index(); v < n; v += thread_count()) {
        const uint8_t spin = spins[v];
        for (int32_t a = offsets[v]; a < offsets[v + 1]; ++a) {
            const int32_t t = neighbors[a];
            const bool active = spins[t] == spin &&
                                draw(seed, kClusterBond, sweep, static_cast<uint32_t>(arc_bonds[a])) < threshold;
            masked[a] = active ? t : v;
        }
    }
}

__global__ void flip_clusters(const int32_t* __restrict__ label, int32_t n, uint64_t seed, uint64_t sweep,
                              uint8_t* spins) {
    for (int32_t v = thread_index(); v < n; v += thread_count()) {
        spins[v] ^= static_cast<uint8_t>(draw(seed, kClusterFlip, sweep, static_cast<uint32_t>(label[v])) >> 31);
    }
}

// Adds the spin sum and the sum over arcs of s s' (each bond twice) into sums[0], sums[1].
__global__ void measure(const int32_t* __restrict__ offsets, const int32_t* __restrict__ neighbors,
                        const uint8_t* __restrict__ spins, int32_t n, unsigned long long* sums) {
    long long m = 0, e = 0;
    for (int32_t v = thread_index(); v < n; v += thread_count()) {
        m += spins[v] ? 1 : -1;
        for (int32_t a = offsets[v]; a < offsets[v + 1]; ++a) e += spins[v] == spins[neighbors[a]] ? 1 : -1;
    }
    for (int delta = detail::kWarp / 2; delta > 0; delta /= 2) {
        m += __shfl_down_sync(detail::kFullMask, m, delta);
        e += __shfl_down_sync(detail::kFullMask, e, delta);
    }
    if (threadIdx.x % detail::kWarp == 0) {
        atomicAdd(&sums[0], static_cast<unsigned long long>(m));
        atomicAdd(&sums[1], static_cast<unsigned long long>(e));
    }
}

int grid(const DeviceState& state, int64_t items) { return grid_size(state, kBlock, std::max<int64_t>(items, 1)); }

const int32_t* offsets_of(const DeviceLattice& lattice) { return lattice.masked.offsets.as<int32_t>(); }

}  // namespace

DeviceLatticePtr upload_lattice(DeviceState& state, const Lattice& host) {
    state.activate();
    DeviceLatticePtr lattice(new DeviceLattice(state.device, host));
    upload(state, lattice->masked.offsets, host.offsets, "lattice offsets");
    lattice->masked.neighbors.reserve(std::max<size_t>(host.neighbors.size() * sizeof(int32_t), 1), "masked arcs");
    upload(state, lattice->neighbors, host.neighbors, "lattice neighbours");
    upload(state, lattice->arc_bonds, host.arc_bonds, "lattice bond indices");
    upload(state, lattice->sides[0], host.sides[0], "lattice side 0");
    upload(state, lattice->sides[1], host.sides[1], "lattice side 1");
    lattice->touch.reserve(static_cast<size_t>(host.vertex_count) * sizeof(int32_t), "spanning marks");
    CCL4J_CUDA_CHECK(cudaMemsetAsync(lattice->touch.as<void>(), 0, static_cast<size_t>(host.vertex_count) * sizeof(int32_t),
                                     state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    return lattice;
}

void draw_bonds(DeviceState& state, int64_t bond_count, uint64_t seed, uint64_t realisation, uint64_t threshold,
                uint8_t* open) {
    if (bond_count == 0) return;
    state.activate();
    DeviceBuffer bonds;
    bonds.reserve(static_cast<size_t>(bond_count), "bond flags");
    draw_bonds_kernel<<<grid(state, bond_count), kBlock, 0, state.stream>>>(bond_count, seed, realisation, threshold,
                                                                            bonds.as<uint8_t>());
    check_launch("draw_bonds");
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(open, bonds.as<void>(), static_cast<size_t>(bond_count), cudaMemcpyDeviceToHost,
                                     state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
}

void begin_results(DeviceState& state, DeviceLattice& lattice, int32_t count) {
    state.activate();
    const size_t bytes = static_cast<size_t>(count) * 2 * sizeof(int64_t);
    lattice.results.reserve(std::max<size_t>(bytes, 1), "results");
    CCL4J_CUDA_CHECK(cudaMemsetAsync(lattice.results.as<void>(), 0, bytes, state.stream));
}

void percolation_realisation(DeviceState& state, DeviceLattice& lattice, const LabelOptions& options,
                             uint64_t seed, uint64_t realisation, uint64_t threshold, int32_t slot, PhaseLog& log) {
    const int32_t n = lattice.vertex_count;
    mask_percolation<<<grid(state, n), kBlock, 0, state.stream>>>(
        offsets_of(lattice), lattice.neighbors.as<int32_t>(), lattice.arc_bonds.as<int32_t>(), n, seed, realisation,
        threshold, lattice.masked.neighbors.as<int32_t>());
    check_launch("mask_percolation");
    label(state, lattice.masked, options, nullptr, log);
    if (lattice.side_counts[0] == 0 || lattice.side_counts[1] == 0) return;
    const int32_t* labels = device_labels(state).as<int32_t>();
    const int32_t tag = ++lattice.tag;
    mark_side<<<grid(state, lattice.side_counts[0]), kBlock, 0, state.stream>>>(
        lattice.sides[0].as<int32_t>(), lattice.side_counts[0], labels, lattice.touch.as<int32_t>(), tag);
    check_launch("mark_side");
    test_side<<<grid(state, lattice.side_counts[1]), kBlock, 0, state.stream>>>(
        lattice.sides[1].as<int32_t>(), lattice.side_counts[1], labels, lattice.touch.as<int32_t>(), tag,
        lattice.results.as<int32_t>() + slot);
    check_launch("test_side");
}

int64_t spanning_results(DeviceState& state, DeviceLattice& lattice, int32_t count, uint8_t* spanning,
                         int32_t* labels) {
    std::vector<int32_t> flags(static_cast<size_t>(count));
    if (count > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(flags.data(), lattice.results.as<void>(), flags.size() * sizeof(int32_t),
                                         cudaMemcpyDeviceToHost, state.stream));
    }
    if (labels && count > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, device_labels(state).as<void>(),
                                         static_cast<size_t>(lattice.vertex_count) * sizeof(int32_t),
                                         cudaMemcpyDeviceToHost, state.stream));
    }
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    int64_t set = 0;
    for (int32_t i = 0; i < count; ++i) {
        if (spanning) spanning[i] = flags[i] != 0;
        set += flags[i] != 0;
    }
    return set;
}

void reset_spins(DeviceState& state, DeviceLattice& lattice) {
    state.activate();
    lattice.spins.reserve(std::max<size_t>(lattice.vertex_count, 1), "spins");
    CCL4J_CUDA_CHECK(cudaMemsetAsync(lattice.spins.as<void>(), 1, static_cast<size_t>(lattice.vertex_count), state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
}

void ising_sweep(DeviceState& state, DeviceLattice& lattice, const LabelOptions& options, uint64_t seed,
                 uint64_t sweep, uint64_t threshold, int32_t slot, PhaseLog& log) {
    const int32_t n = lattice.vertex_count;
    const int32_t* offsets = offsets_of(lattice);
    auto* spins = lattice.spins.as<uint8_t>();
    mask_equal_spins<<<grid(state, n), kBlock, 0, state.stream>>>(offsets, lattice.neighbors.as<int32_t>(),
                                                                   lattice.arc_bonds.as<int32_t>(), spins, n, seed,
                                                                   sweep, threshold,
                                                                   lattice.masked.neighbors.as<int32_t>());
    check_launch("mask_equal_spins");
    label(state, lattice.masked, options, nullptr, log);
    flip_clusters<<<grid(state, n), kBlock, 0, state.stream>>>(device_labels(state).as<int32_t>(), n, seed, sweep, spins);
    check_launch("flip_clusters");
    measure<<<grid(state, n), kBlock, 0, state.stream>>>(offsets, lattice.neighbors.as<int32_t>(), spins, n,
                                                         lattice.results.as<unsigned long long>() + 2 * slot);
    check_launch("measure");
}

void sweep_results(DeviceState& state, DeviceLattice& lattice, int32_t count, int64_t* spin_sums, int64_t* bond_sums) {
    std::vector<int64_t> sums(static_cast<size_t>(count) * 2);
    if (count > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(sums.data(), lattice.results.as<void>(), sums.size() * sizeof(int64_t),
                                         cudaMemcpyDeviceToHost, state.stream));
    }
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    for (int32_t i = 0; i < count; ++i) {
        spin_sums[i] = sums[2 * i];
        bond_sums[i] = sums[2 * i + 1] / 2;  // each bond was counted from both ends
    }
}

}  // namespace ccl4j::cuda
