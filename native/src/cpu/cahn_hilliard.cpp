#include "cpu/cahn_hilliard.hpp"

#include "common/parallel.hpp"
#include "common/philox.hpp"

namespace ccl4j::cpu {

namespace {

// body(x, y, z, i) for every cell, rows spread over the threads.
template <class Body>
void for_cells(const ch::Shape& s, int threads, const Body& body) {
    const int64_t rows = int64_t(s.height) * s.depth;
    parallel::for_each(int64_t{0}, rows, threads, [&](int64_t row) {
        const int32_t y = static_cast<int32_t>(row % s.height), z = static_cast<int32_t>(row / s.height);
        const int64_t first = row * s.width;
        for (int32_t x = 0; x < s.width; ++x) body(x, y, z, first + x);
    });
}

// mu[i] of the field `field`.
void potentials(const ch::Shape& s, const ch::Coefficients& k, const float* field, float* mu, int threads) {
    auto read = [&](int32_t x, int32_t y, int32_t z) { return field[x + int64_t(s.width) * (y + int64_t(s.height) * z)]; };
    for_cells(s, threads, [&](int32_t x, int32_t y, int32_t z, int64_t i) {
        mu[i] = ch::potential(field[i], ch::neighbour_sum(read, s, x, y, z), k);
    });
}

// out[i] = base[i] + step * f[i], f from the potentials mu (out may be base).
void advance(const ch::Shape& s, const ch::Coefficients& k, const float* mu, const float* base, float step, float* out,
             int threads) {
    auto read = [&](int32_t x, int32_t y, int32_t z) { return mu[x + int64_t(s.width) * (y + int64_t(s.height) * z)]; };
    for_cells(s, threads, [&](int32_t x, int32_t y, int32_t z, int64_t i) {
        out[i] = ch::advance(base[i], step, ch::rate(mu[i], ch::neighbour_sum(read, s, x, y, z), k));
    });
}

}  // namespace

void ch_initial(const ch::Shape& shape, float concentration, float noise, uint64_t seed, float* c, int threads) {
    parallel::for_each(int64_t{0}, shape.cells(), threads, [&](int64_t i) {
        c[i] = ch::initial(concentration, noise, draw(seed, kConcentrationNoise, 0, static_cast<uint32_t>(i)));
    });
}

void ch_step(const ch::Shape& shape, const ch::Coefficients& k, float* c, float* half, float* mu, int threads) {
    potentials(shape, k, c, mu, threads);
    advance(shape, k, mu, c, k.half_dt, half, threads);
    potentials(shape, k, half, mu, threads);
    advance(shape, k, mu, c, k.dt, c, threads);
}

void ch_threshold(int64_t cells, const float* c, float level, uint8_t* out, int threads) {
    parallel::for_each(int64_t{0}, cells, threads, [&](int64_t i) { out[i] = c[i] > level ? 1 : 0; });
}

}  // namespace ccl4j::cpu
