// The host side of bond percolation and Swendsen-Wang: the same draws as cuda/percolation.cu,
// one site or bond per loop iteration (`threads` threads; 0 = all available).
#pragma once

#include <cstdint>
#include <vector>

#include "common/lattice.hpp"

namespace ccl4j::cpu {

// open[b] = 1 when bond b of realisation `realisation` is open (draw < threshold), else 0.
void draw_bonds(int64_t bond_count, uint64_t seed, uint64_t realisation, uint64_t threshold, uint8_t* open,
                int threads);

// The masked graph's arcs: masked[a] is the lattice's neighbour when a's bond is open in the
// realisation, the site itself (a self-loop) when it is closed.
void mask_percolation(const Lattice& lattice, uint64_t seed, uint64_t realisation, uint64_t threshold,
                      int32_t* masked, int threads);

// True when some label is held by a site of sides[0] and a site of sides[1]. touch has
// vertex_count entries; tag must differ from every value already in it.
bool spans(const Lattice& lattice, const int32_t* labels, std::vector<int32_t>& touch, int32_t tag);

// Swendsen-Wang, spins 0 (down) or 1 (up): a bond between equal spins is active when its draw of
// the sweep is below threshold; then every site flips when its cluster's draw has the top bit set.
void mask_equal_spins(const Lattice& lattice, const uint8_t* spins, uint64_t seed, uint64_t sweep, uint64_t threshold,
                      int32_t* masked, int threads);
void flip_clusters(int32_t vertex_count, const int32_t* labels, uint64_t seed, uint64_t sweep, uint8_t* spins,
                   int threads);
// Sum of the spins (+-1) and sum over bonds of s s'.
void measure(const Lattice& lattice, const uint8_t* spins, int64_t& spin_sum, int64_t& bond_sum, int threads);

}  // namespace ccl4j::cpu
