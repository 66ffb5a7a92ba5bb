#include "cpu/cahn_hilliard.hpp"

#include "common/parallel.hpp"
#include "common/philox.hpp"

namespace ccl4j::cpu {

namespace {

// The rows of a field around row (y, z), the boundaries applied: the row itself and its face
// neighbours along y and z (those along z unused in 2D).
struct Rows {
    int64_t self, ym, yp, zm, zp;
};

// body(rows) for every row, rows spread over the threads.
template <class Body>
void for_rows(const ch::Shape& s, int threads, const Body& body) {
    const int64_t rows = int64_t(s.height) * s.depth;
    auto row = [&](int32_t y, int32_t z) { return (y + int64_t(s.height) * z) * s.width; };
    parallel::for_each(int64_t{0}, rows, threads, [&](int64_t r) {
        const int32_t y = static_cast<int32_t>(r % s.height), z = static_cast<int32_t>(r / s.height);
        body(Rows{row(y, z), row(ch::neighbour(y - 1, s.height, s.periodic), z),
                  row(ch::neighbour(y + 1, s.height, s.periodic), z),
                  row(y, ch::neighbour(z - 1, s.depth, s.periodic)),
                  row(y, ch::neighbour(z + 1, s.depth, s.periodic))});
    });
}

// The sum of the face neighbours of cell x of a row of field a, in ch::neighbour_sum's order.
inline float neighbours(const ch::Shape& s, const float* a, const Rows& r, int32_t x) {
    const float xm = a[r.self + ch::neighbour(x - 1, s.width, s.periodic)];
    const float xp = a[r.self + ch::neighbour(x + 1, s.width, s.periodic)];
    if (!s.three_d()) return ch::face_sum(xm, xp, a[r.ym + x], a[r.yp + x]);
    return ch::face_sum(xm, xp, a[r.ym + x], a[r.yp + x], a[r.zm + x], a[r.zp + x]);
}

// mu of the field `field`.
void potentials(const ch::Shape& s, const ch::Coefficients& k, const float* field, float* mu, int threads) {
    for_rows(s, threads, [&](const Rows& r) {
        for (int32_t x = 0; x < s.width; ++x) mu[r.self + x] = ch::potential(field[r.self + x], neighbours(s, field, r, x), k);
    });
}

// out = base + step * f, f from the potentials mu (out may be base).
void advance(const ch::Shape& s, const ch::Coefficients& k, const float* mu, const float* base, float step, float* out,
             int threads) {
    for_rows(s, threads, [&](const Rows& r) {
        for (int32_t x = 0; x < s.width; ++x) {
            const int64_t i = r.self + x;
            out[i] = ch::advance(base[i], step, ch::rate(mu[i], neighbours(s, mu, r, x), k));
        }
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
