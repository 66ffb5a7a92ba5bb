#include "cpu/percolation.hpp"

#include <omp.h>

#include "common/philox.hpp"

namespace ccl4j::cpu {
namespace {
int team(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }
}  // namespace

void draw_bonds(int64_t bond_count, uint64_t seed, uint64_t realisation, uint64_t threshold, uint8_t* open,
                int threads) {
#pragma omp parallel for schedule(static) num_threads(team(threads))
    for (int64_t b = 0; b < bond_count; ++b) {
        open[b] = draw(seed, kPercolationBond, realisation, static_cast<uint32_t>(b)) < threshold;
    }
}

void mask_percolation(const Lattice& lattice, uint64_t seed, uint64_t realisation, uint64_t threshold,
                      int32_t* masked, int threads) {
    const int32_t n = lattice.vertex_count;
#pragma omp parallel for schedule(static) num_threads(team(threads))
    for (int32_t v = 0; v < n; ++v) {
        for (int32_t a = lattice.offsets[v]; a < lattice.offsets[v + 1]; ++a) {
            const uint32_t bond = static_cast<uint32_t>(lattice.arc_bonds[a]);
            masked[a] = draw(seed, kPercolationBond, realisation, bond) < threshold ? lattice.neighbors[a] : v;
        }
    }
}

bool spans(const Lattice& lattice, const int32_t* labels, std::vector<int32_t>& touch, int32_t tag) {
    for (int32_t s : lattice.sides[0]) touch[labels[s]] = tag;
    for (int32_t s : lattice.sides[1]) {
        if (touch[labels[s]] == tag) return true;
    }
    return false;
}

void mask_equal_spins(const Lattice& lattice, const uint8_t* spins, uint64_t seed, uint64_t sweep, uint64_t threshold,
                      int32_t* masked, int threads) {
    const int32_t n = lattice.vertex_count;
#pragma omp parallel for schedule(static) num_threads(team(threads))
    for (int32_t v = 0; v < n; ++v) {
        for (int32_t a = lattice.offsets[v]; a < lattice.offsets[v + 1]; ++a) {
            const int32_t t = lattice.neighbors[a];
            const uint32_t bond = static_cast<uint32_t>(lattice.arc_bonds[a]);
            const bool active = spins[v] == spins[t] && draw(seed, kClusterBond, sweep, bond) < threshold;
            masked[a] = active ? t : v;
        }
    }
}

void flip_clusters(int32_t vertex_count, const int32_t* labels, uint64_t seed, uint64_t sweep, uint8_t* spins,
                   int threads) {
#pragma omp parallel for schedule(static) num_threads(team(threads))
    for (int32_t v = 0; v < vertex_count; ++v) {
        spins[v] ^= static_cast<uint8_t>(draw(seed, kClusterFlip, sweep, static_cast<uint32_t>(labels[v])) >> 31);
    }
}

void measure(const Lattice& lattice, const uint8_t* spins, int64_t& spin_sum, int64_t& bond_sum, int threads) {
    const int32_t n = lattice.vertex_count;
    int64_t m = 0, e = 0;
#pragma omp parallel for schedule(static) reduction(+ : m, e) num_threads(team(threads))
    for (int32_t v = 0; v < n; ++v) {
        m += spins[v] ? 1 : -1;
        for (int32_t a = lattice.offsets[v]; a < lattice.offsets[v + 1]; ++a) {
            e += spins[v] == spins[lattice.neighbors[a]] ? 1 : -1;
        }
    }
    spin_sum = m;
    bond_sum = e / 2;  // each bond was counted from both ends
}

}  // namespace ccl4j::cpu
