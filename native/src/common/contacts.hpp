// What the CPU and GPU contacts (cpu/contacts, cuda/contacts) share: the visit of a cell's
// contacts, each contact as one sortable 64-bit key, and the rows made from the sorted keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/host_device.hpp"
#include "common/mesh_stencil.hpp"

namespace ccl4j::contacts {

// The labels' grid and the stencil of the contacts, as the ABI checked them.
struct Shape {
    int32_t width, height, depth;
    int32_t connectivity;  // 4, 8, 6, 18 or 26
    bool periodic[3];
};

// How two neighbouring cells touch: across a face normal to x, y or z, or at an edge or corner.
enum Kind : int { kFaceX = 0, kFaceY = 1, kFaceZ = 2, kEdgeOrCorner = 3 };

CCL4J_HOST_DEVICE int kind_of(int k) {
    const int dx = stencil::dx_of(k), dy = stencil::dy_of(k), dz = stencil::dz_of(k);
    if ((dx != 0) + (dy != 0) + (dz != 0) > 1) return kEdgeOrCorner;
    return dx != 0 ? kFaceX : dy != 0 ? kFaceY : kFaceZ;
}

// A contact as a key: the smaller label in the top 31 bits, the larger in the next 31, the kind in
// the last 2, so that sorted keys group by pair (ascending) and within a pair by kind.
CCL4J_HOST_DEVICE uint64_t key(int32_t a, int32_t b, int kind) {
    const uint32_t lo = static_cast<uint32_t>(a < b ? a : b), hi = static_cast<uint32_t>(a < b ? b : a);
    return (uint64_t(lo) << 33) | (uint64_t(hi) << 2) | uint64_t(kind);
}
CCL4J_HOST_DEVICE int32_t first_of(uint64_t key) { return static_cast<int32_t>(key >> 33); }
CCL4J_HOST_DEVICE int32_t second_of(uint64_t key) { return static_cast<int32_t>((key >> 2) & 0x7fffffffu); }
CCL4J_HOST_DEVICE int kind_of_key(uint64_t key) { return static_cast<int>(key & 3u); }

// emit(key) for each contact of cell (x, y, z) with a neighbour at a lower-half offset of the
// stencil (each pair of neighbouring cells is the lower-half offset of exactly one of them, so a
// pass over every cell sees each contact once). Labels below 0 touch nothing; a label past the
// cell count is the caller's to report (its keys are still well formed).
template <class Emit>
CCL4J_HOST_DEVICE void visit(const int32_t* labels, const Shape& s, int32_t x, int32_t y, int32_t z, Emit&& emit) {
    const int64_t row = s.width, layer = int64_t(s.width) * s.height;
    const int32_t a = labels[x + row * y + layer * z];
    if (a < 0) return;
    for (int k = 0; k < stencil::kCentre; ++k) {
        if (!stencil::in_stencil(s.connectivity, k)) continue;
        int32_t nx, ny, nz;
        if (!stencil::step(x, stencil::dx_of(k), s.width, s.periodic[0], nx) ||
            !stencil::step(y, stencil::dy_of(k), s.height, s.periodic[1], ny) ||
            !stencil::step(z, stencil::dz_of(k), s.depth, s.periodic[2], nz)) {
            continue;
        }
        const int32_t b = labels[nx + row * ny + layer * nz];
        if (b >= 0 && b != a) emit(key(a, b, kind_of(k)));
    }
}

// The table of contacts, one row per pair, ascending.
struct Rows {
    std::vector<int32_t> first, second;
    std::vector<int64_t> contacts, faces[3];
};

// The rows of distinct ascending keys and how often each occurred.
inline Rows rows_of(const uint64_t* keys, const int64_t* counts, size_t n) {
    Rows r;
    for (size_t i = 0; i < n; ++i) {
        const int32_t a = first_of(keys[i]), b = second_of(keys[i]);
        if (r.first.empty() || r.first.back() != a || r.second.back() != b) {
            r.first.push_back(a);
            r.second.push_back(b);
            r.contacts.push_back(0);
            for (auto& f : r.faces) f.push_back(0);
        }
        r.contacts.back() += counts[i];
        const int kind = kind_of_key(keys[i]);
        if (kind != kEdgeOrCorner) r.faces[kind].back() += counts[i];
    }
    return r;
}

}  // namespace ccl4j::contacts
