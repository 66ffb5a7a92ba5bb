// The neighbourhood of a mesh cell, the same for the CPU (cpu/mesh_geometry.hpp) and the GPU
// (cuda/mesh_device.cuh) mesh algorithms: the offsets each connectivity takes, wrap-around at
// periodic boundaries, and the rule that says which cells are labelled and which neighbours
// connect.
#pragma once

#include <cstdint>

#include "common/host_device.hpp"

namespace ccl4j::stencil {

// The 26 offsets of a 3x3x3 neighbourhood are numbered k = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1),
// k != 13 (the cell itself). k < 13 are the "lower half": (dz, dy, dx) lexicographically below
// zero, the offsets that lead to a smaller index on an open mesh. Every edge of the stencil is the
// lower-half offset of exactly one of its two cells, so a pass over the lower half sees each edge
// once.
constexpr int kCentre = 13;

CCL4J_HOST_DEVICE constexpr int dx_of(int k) { return k % 3 - 1; }
CCL4J_HOST_DEVICE constexpr int dy_of(int k) { return k / 3 % 3 - 1; }
CCL4J_HOST_DEVICE constexpr int dz_of(int k) { return k / 9 - 1; }
CCL4J_HOST_DEVICE constexpr int offset_of(int dx, int dy, int dz) { return (dz + 1) * 9 + (dy + 1) * 3 + dx + 1; }

// Whether offset k is a neighbour under the connectivity: 4 and 6 are the face neighbours of 2D
// and 3D, 8 the whole 3x3 square of the plane, 18 the faces and edges of the cube (contacts only:
// labelling takes 6 and 26), 26 the whole cube.
CCL4J_HOST_DEVICE constexpr bool in_stencil(int connectivity, int k) {
    const int dx = dx_of(k), dy = dy_of(k), dz = dz_of(k);
    const int manhattan = (dx != 0) + (dy != 0) + (dz != 0);
    if (k == kCentre) return false;
    switch (connectivity) {
        case 4: return dz == 0 && manhattan == 1;
        case 8: return dz == 0;
        case 6: return manhattan == 1;
        case 18: return manhattan <= 2;
        default: return true;
    }
}

// Coordinate c moved by d (|d| <= 1) on an axis of length n, into `out`; false when it leaves
// an open axis. On a periodic axis of length 1 or 2 the neighbours coincide with the cell or with
// each other, which only repeats connections.
CCL4J_HOST_DEVICE bool step(int32_t c, int d, int32_t n, bool periodic, int32_t& out) {
    int32_t v = c + d;
    if (v < 0) {
        if (!periodic) return false;
        v += n;
    } else if (v >= n) {
        if (!periodic) return false;
        v -= n;
    }
    out = v;
    return true;
}

// The rule of MeshMode: foreground mode labels the non-zero cells, same-value mode every cell.
// The mode is `mode.same_value`, a member of the GPU's Geometry or a constant of the CPU's Rule
// (taken as a bool argument instead, it makes nvcc compile the kernels differently).
template <class Mode, class Cell>
CCL4J_HOST_DEVICE bool labelled(const Mode& mode, Cell value) {
    return mode.same_value || value != 0;
}

// Whether neighbouring cells a and b connect: both labelled (foreground mode), or equal
// (same-value mode).
template <class Mode, class Cell>
CCL4J_HOST_DEVICE bool connected(const Mode& mode, Cell a, Cell b) {
    return mode.same_value ? a == b : (a != 0 && b != 0);
}

}  // namespace ccl4j::stencil
