// Nearest-neighbour lattices as CSR graphs whose arcs carry the index of their bond, for bond
// percolation and cluster Monte Carlo: a bond is one undirected edge, stored as two arcs that
// share its index, so a per-bond draw opens or closes both.
#pragma once

#include <cstdint>
#include <vector>

#include "ccl4j.h"

namespace ccl4j {

struct Lattice {
    ccl4j_lattice_kind kind = 0;
    int32_t length = 0;     // sites per side, or shells of the Bethe lattice
    bool periodic = false;
    int32_t vertex_count = 0;
    int64_t bond_count = 0;
    std::vector<int32_t> offsets;    // vertex_count + 1
    std::vector<int32_t> neighbors;  // 2 * bond_count arcs
    std::vector<int32_t> arc_bonds;  // the bond index of each arc, in [0, bond_count)
    // The sites of the two opposite open boundaries a spanning cluster joins (empty when periodic):
    // first and last row (2D), first and last plane along z (3D), the centre and the surface
    // shell (Bethe).
    std::vector<int32_t> sides[2];
};

// Builds a lattice; throws Error(CCL4J_INVALID_ARGUMENT) for a bad kind or size. seed only
// matters for BETHE_RANDOM (the numbering of the sites).
Lattice build_lattice(ccl4j_lattice_kind kind, int32_t length, bool periodic, uint64_t seed);

}  // namespace ccl4j
