// The discrete Cahn-Hilliard equation of Leist, Playne & Hawick 2009 (section 3),
//     dc/dt = m lap(mu),  mu = -b c + u c^3 - K lap(c),  b = u = 1,
// with lap the 5-point (2D) or 7-point (3D) Laplacian of spacing h, as the CPU and both GPU
// kernels evaluate it: every value goes through the same float operations in the same order, and
// the device's never fuse a multiply and an add (nvcc would, by default), so that the backends
// and kernels compute the same bits.
#pragma once

#include <cstdint>

#include "common/host_device.hpp"

namespace ccl4j::ch {

// What a kernel needs of the parameters, as floats computed once on the host.
struct Coefficients {
    float gradient;  // K / h^2
    float mobility;  // m / h^2
    float faces;     // 4 in 2D, 6 in 3D: the centre's weight in the Laplacian
    float half_dt;   // the first Runge-Kutta stage's step
    float dt;
};

// The extents and boundaries of a field, x fastest, cell (x, y, z) at x + width * (y + height * z).
struct Shape {
    int32_t width, height, depth;
    bool periodic;  // else no-flux
    CCL4J_HOST_DEVICE bool three_d() const { return depth > 1; }
    CCL4J_HOST_DEVICE int64_t cells() const { return int64_t(width) * height * depth; }
};

CCL4J_HOST_DEVICE float add(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
CCL4J_HOST_DEVICE float sub(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
CCL4J_HOST_DEVICE float mul(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

// The coordinate of a neighbour, i = -1 .. n, within the field: wrapped (periodic), or the cell
// itself at the wall (no-flux: the mirrored ghost cell holds the wall cell's value, so no flux of
// c or of mu crosses the wall and the sum of c is conserved).
CCL4J_HOST_DEVICE int32_t neighbour(int32_t i, int32_t n, bool periodic) {
    if (i < 0) return periodic ? n - 1 : 0;
    if (i >= n) return periodic ? 0 : n - 1;
    return i;
}

// The sum of the face neighbours in the fixed order -x, +x, -y, +y (, -z, +z).
CCL4J_HOST_DEVICE float face_sum(float xm, float xp, float ym, float yp) { return add(add(add(xm, xp), ym), yp); }
CCL4J_HOST_DEVICE float face_sum(float xm, float xp, float ym, float yp, float zm, float zp) {
    return add(add(face_sum(xm, xp, ym, yp), zm), zp);
}

// The sum of the face neighbours of cell (x, y, z) of a field read by read(x, y, z), boundaries
// applied (the CPU and the global-memory kernel; the shared-memory one reads its tile).
template <class Read>
CCL4J_HOST_DEVICE float neighbour_sum(const Read& read, const Shape& s, int32_t x, int32_t y, int32_t z) {
    const float xm = read(neighbour(x - 1, s.width, s.periodic), y, z);
    const float xp = read(neighbour(x + 1, s.width, s.periodic), y, z);
    const float ym = read(x, neighbour(y - 1, s.height, s.periodic), z);
    const float yp = read(x, neighbour(y + 1, s.height, s.periodic), z);
    if (!s.three_d()) return face_sum(xm, xp, ym, yp);
    return face_sum(xm, xp, ym, yp, read(x, y, neighbour(z - 1, s.depth, s.periodic)),
                    read(x, y, neighbour(z + 1, s.depth, s.periodic)));
}

// The chemical potential mu = c^3 - c - K lap(c) of a cell, given the sum of its face neighbours.
CCL4J_HOST_DEVICE float potential(float c, float neighbours, const Coefficients& k) {
    const float laplacian = sub(neighbours, mul(k.faces, c));
    return sub(sub(mul(mul(c, c), c), c), mul(k.gradient, laplacian));
}

// dc/dt = m lap(mu) of a cell, given its mu and the sum of its neighbours' mu.
CCL4J_HOST_DEVICE float rate(float mu, float neighbours, const Coefficients& k) {
    return mul(k.mobility, sub(neighbours, mul(k.faces, mu)));
}

// One Runge-Kutta stage of a cell: base + step * rate.
CCL4J_HOST_DEVICE float advance(float base, float step, float r) { return add(base, mul(step, r)); }

// The initial concentration of a cell: c0 + noise * (2 u - 1), u in [0, 1) from the 24 high bits
// of its Philox draw (2 u - 1 is exact in float).
CCL4J_HOST_DEVICE float initial(float c0, float noise, uint32_t draw) {
    const float u = static_cast<float>(draw >> 8) * (1.0f / 16777216.0f);
    return add(c0, mul(noise, sub(mul(2.0f, u), 1.0f)));
}

}  // namespace ccl4j::ch
