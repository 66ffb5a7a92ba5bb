// Philox-4x32-10 (Salmon, Moraes, Dror & Shaw, "Parallel random numbers: as easy as 1, 2, 3",
// SC 2011): a counter-based generator, so that the random numbers of a bond or a cluster depend
// only on (seed, counter) and not on which thread draws them. The same code runs on the host and
// on the device, which makes the CPU and GPU draws bit-identical.
#pragma once

#include <cstdint>

#include "common/host_device.hpp"

namespace ccl4j {

struct Philox4x32 {
    uint32_t v[4];
};

CCL4J_HOST_DEVICE void philox_mulhilo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
    const uint64_t product = static_cast<uint64_t>(a) * b;
    hi = static_cast<uint32_t>(product >> 32);
    lo = static_cast<uint32_t>(product);
}

// Ten rounds of the Philox S-box on counter c under key (k0, k1), the key bumped by the Weyl
// constants between rounds.
CCL4J_HOST_DEVICE Philox4x32 philox4x32_10(Philox4x32 c, uint32_t k0, uint32_t k1) {
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint32_t hi0, lo0, hi1, lo1;
        philox_mulhilo(0xD2511F53u, c.v[0], hi0, lo0);
        philox_mulhilo(0xCD9E8D57u, c.v[2], hi1, lo1);
        c = Philox4x32{{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
    }
    return c;
}

// What a draw is for: the second word of the counter, so that the streams never overlap.
enum DrawPurpose : uint32_t { kPercolationBond = 0, kClusterBond = 1, kClusterFlip = 2, kSiteNumbering = 3,
                            kConcentrationNoise = 4 };  // 4: the Cahn-Hilliard quench, per cell

// The first word of Philox(counter = (index, purpose, step lo, step hi), key = seed): index is a
// bond or a cluster label, step a realisation or a sweep.
CCL4J_HOST_DEVICE uint32_t draw(uint64_t seed, uint32_t purpose, uint64_t step, uint32_t index) {
    const Philox4x32 c{{index, purpose, static_cast<uint32_t>(step), static_cast<uint32_t>(step >> 32)}};
    return philox4x32_10(c, static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)).v[0];
}

// A draw x in [0, 2^32) is "open" when x < threshold(p) = floor(p * 2^32) (2^32 for p = 1):
// computed once on the host, so both backends compare against the same integer.
inline uint64_t open_threshold(double p) {
    if (p >= 1.0) return uint64_t{1} << 32;
    if (p <= 0.0) return 0;
    return static_cast<uint64_t>(p * 4294967296.0);
}

}  // namespace ccl4j
