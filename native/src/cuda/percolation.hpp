// Bond percolation and Swendsen-Wang on the GPU (percolation.cu): the lattice is uploaded once;
// each realisation or sweep masks its arcs into a resident graph with the lattice's offsets (a
// closed bond's arcs become self-loops), labels it with any graph algorithm, and leaves its
// result in a device array that is read back once per call. Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cstdint>
#include <memory>

#include "ccl4j.h"
#include "common/lattice.hpp"
#include "common/phase_log.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

class DeviceLattice;
struct DeviceLatticeDeleter {
    void operator()(DeviceLattice* lattice) const;
};
using DeviceLatticePtr = std::unique_ptr<DeviceLattice, DeviceLatticeDeleter>;

DeviceLatticePtr upload_lattice(DeviceState& state, const Lattice& lattice);

// open[b] (host) for bond_count bonds, drawn on the device.
void draw_bonds(DeviceState& state, int64_t bond_count, uint64_t seed, uint64_t realisation, uint64_t threshold,
                uint8_t* open);

// Makes room for `count` results (spanning flags or sweep sums) and clears them.
void begin_results(DeviceState& state, DeviceLattice& lattice, int32_t count);

// One percolation realisation; its spanning flag goes to result `slot`. log receives the
// labelling's phases.
void percolation_realisation(DeviceState& state, DeviceLattice& lattice, const LabelOptions& options,
                             uint64_t seed, uint64_t realisation, uint64_t threshold, int32_t slot, PhaseLog& log);
// The flags of results 0 .. count - 1 (host, may be nullptr); returns how many are set. labels
// (host, may be nullptr) receives the labels of the last realisation.
int64_t spanning_results(DeviceState& state, DeviceLattice& lattice, int32_t count, uint8_t* spanning,
                         int32_t* labels);

// Swendsen-Wang: sets every spin up.
void reset_spins(DeviceState& state, DeviceLattice& lattice);
// One sweep; the spin sum and the bond sum s s' after it go to result `slot`.
void ising_sweep(DeviceState& state, DeviceLattice& lattice, const LabelOptions& options, uint64_t seed,
                 uint64_t sweep, uint64_t threshold, int32_t slot, PhaseLog& log);
// The spin and bond sums of results 0 .. count - 1 (host arrays of count entries).
void sweep_results(DeviceState& state, DeviceLattice& lattice, int32_t count, int64_t* spin_sums, int64_t* bond_sums);

}  // namespace ccl4j::cuda
