#include "cpu/percolation.hpp"

#include <numeric>
#include <vector>

#include "common/parallel.hpp"
#include "common/philox.hpp"

namespace ccl4j::cpu {

void draw_bonds(int64_t bond_count, uint64_t seed, uint64_t realisation, uint64_t threshold, uint8_t* open,
                int threads) {
    parallel::for_each(int64_t{0}, bond_count, threads, [&](int64_t b) {
        open[b] = draw(seed, kPercolationBond, realisation, static_cast<uint32_t>(b)) < threshold;
    });
}

void mask_percolation(const Lattice& lattice, uint64_t seed, uint64_t realisation, uint64_t threshold,
                      int32_t* masked, int threads) {
    const int32_t n = lattice.vertex_count;
    parallel::for_each(0, n, threads, [&](int32_t v) {
        for (int32_t a = lattice.offsets[v]; a < lattice.offsets[v + 1]; ++a) {
            const uint32_t bond = static_cast<uint32_t>(lattice.arc_bonds[a]);
            masked[a] = draw(seed, kPercolationBond, realisation, bond) < threshold ? lattice.neighbors[a] : v;
        }
    });
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
    parallel::for_each(0, n, threads, [&](int32_t v) {
        for (int32_t a = lattice.offsets[v]; a < lattice.offsets[v + 1]; ++a) {
            const int32_t t = lattice.neighbors[a];
            const uint32_t bond = static_cast<uint32_t>(lattice.arc_bonds[a]);
            const bool active = spins[v] == spins[t] && draw(seed, kClusterBond, sweep, bond) < threshold;
            masked[a] = active ? t : v;
        }
    });
}

void flip_clusters(int32_t vertex_count, const int32_t* labels, uint64_t seed, uint64_t sweep, uint8_t* spins,
                   int threads) {
    parallel::for_each(0, vertex_count, threads, [&](int32_t v) {
        spins[v] ^= static_cast<uint8_t>(draw(seed, kClusterFlip, sweep, static_cast<uint32_t>(labels[v])) >> 31);
    });
}

void measure(const Lattice& lattice, const uint8_t* spins, int64_t& spin_sum, int64_t& bond_sum, int threads) {
    const int parts = parallel::thread_count(threads);
    std::vector<int64_t> m(parts, 0), e(parts, 0);  // per block
    parallel::for_blocks(0, lattice.vertex_count, parts, [&](int part, int32_t first, int32_t last) {
        int64_t block_m = 0, block_e = 0;
        for (int32_t v = first; v < last; ++v) {
            block_m += spins[v] ? 1 : -1;
            for (int32_t a = lattice.offsets[v]; a < lattice.offsets[v + 1]; ++a) {
                block_e += spins[v] == spins[lattice.neighbors[a]] ? 1 : -1;
            }
        }
        m[part] = block_m;
        e[part] = block_e;
    });
    spin_sum = std::accumulate(m.begin(), m.end(), int64_t{0});
    bond_sum = std::accumulate(e.begin(), e.end(), int64_t{0}) / 2;  // each bond was counted from both ends
}

}  // namespace ccl4j::cpu
