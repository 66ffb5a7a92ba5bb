// The Cahn-Hilliard field on the host (cahn_hilliard.cpp): the same arithmetic as the GPU kernels
// (common/cahn_hilliard.hpp), rows of the field spread over `threads` threads (0 = all available).
#pragma once

#include <cstdint>

#include "common/cahn_hilliard.hpp"

namespace ccl4j::cpu {

// c = concentration + noise * (2 u - 1), u from the cell's Philox draw.
void ch_initial(const ch::Shape& shape, float concentration, float noise, uint64_t seed, float* c, int threads);

// One RK2 step in place: half = c + dt/2 f(c), then c = c + dt f(half). half and mu are work
// arrays of the cell count: mu is evaluated once per cell in a pass of its own, which gives the
// same values as the global-memory kernel's evaluation at every neighbour.
void ch_step(const ch::Shape& shape, const ch::Coefficients& k, float* c, float* half, float* mu, int threads);

// cells[i] = c[i] > level.
void ch_threshold(int64_t cells, const float* c, float level, uint8_t* out, int threads);

}  // namespace ccl4j::cpu
