// What the CPU mesh algorithms share: the neighbourhood of a cell (common/mesh_stencil.hpp) as
// steps from its row to the neighbouring rows, wrap-around at periodic boundaries, and the rule
// that says which cells are labelled and which neighbours are connected.
//
// A mesh is a sequence of rows r = y + height * z of `width` cells each. The neighbours of cell
// (x, y, z) are the cells (x + dx, y + dy, z + dz) for the offsets of the connectivity, taken
// modulo the extent on periodic axes and dropped beyond open boundaries. On a periodic axis of
// length 1 or 2 several offsets reach the same cell (or the cell itself); the algorithms only take
// minima and unions, which such repeats do not change.
#pragma once

#include <cstdint>
#include <vector>

#include "common/error.hpp"
#include "common/mesh.hpp"
#include "common/mesh_stencil.hpp"

namespace ccl4j::cpu::mesh {

// The neighbours in the row (dy, dz) away: columns x + dx[0 .. dx_count).
struct RowStep {
    int dy;
    int dz;
    int dx_count;
    int dx[3];
};

// All offsets of the connectivity, or only the backward half (the stencil's lower half, which
// leads to a smaller index on an open mesh), which reaches every neighbour pair once from one of
// its ends.
inline std::vector<RowStep> row_steps(int connectivity, bool backward_only) {
    std::vector<RowStep> steps;
    for (int dz = -1; dz <= 1; ++dz) {
        for (int dy = -1; dy <= 1; ++dy) {
            RowStep s{dy, dz, 0, {0, 0, 0}};
            for (int dx = -1; dx <= 1; ++dx) {
                const int k = stencil::offset_of(dx, dy, dz);
                if (!stencil::in_stencil(connectivity, k) || (backward_only && k > stencil::kCentre)) continue;
                s.dx[s.dx_count++] = dx;
            }
            if (s.dx_count > 0) steps.push_back(s);
        }
    }
    return steps;
}

struct Geometry {
    int32_t width;
    int32_t height;
    int32_t depth;
    bool periodic_x;
    bool periodic_y;
    bool periodic_z;

    explicit Geometry(const Mesh& m)
        : width(m.width), height(m.height), depth(m.depth), periodic_x(m.periodic[0]), periodic_y(m.periodic[1]),
          periodic_z(m.periodic[2]) {}

    int64_t rows() const { return int64_t(height) * depth; }

    // The column x + dx (|dx| <= 1), or -1 beyond an open boundary.
    int32_t column(int32_t x, int dx) const {
        int32_t nx;
        return stencil::step(x, dx, width, periodic_x, nx) ? nx : -1;
    }

    // The row (dy, dz) away from row r, or -1 beyond an open boundary.
    int64_t row(int64_t r, int dy, int dz) const {
        int32_t y, z;
        const bool inside = stencil::step(int32_t(r % height), dy, height, periodic_y, y) &&
                            stencil::step(int32_t(r / height), dz, depth, periodic_z, z);
        return inside ? y + int64_t(height) * z : -1;
    }
};

// The cell rule of common/mesh_stencil.hpp with the mode as a type, so that the algorithms'
// loops are compiled once per mode.
template <class T, bool SameValue>
struct Rule {
    using Cell = T;
    static constexpr bool same_value = SameValue;
    double delta = 0;  // same-value mode: the largest difference of neighbours that connect
    bool labelled(T a) const { return stencil::labelled(*this, a); }
    // Whether neighbouring cells a and b connect.
    bool connected(T a, T b) const { return stencil::connected(*this, a, b); }
    // Whether connecting is an equivalence of cell values (not so for values within delta > 0).
    bool equivalence() const { return !SameValue || delta == 0; }
};

// Calls f(cells, rule) with the mesh's cells typed as T and its mode in a Rule<T, SameValue>.
template <class T, class F>
void with_rule_of(const Mesh& m, F&& f) {
    const auto* cells = static_cast<const T*>(m.cells);
    if (m.mode == MeshMode::SameValue) f(cells, Rule<T, true>{m.delta});
    else f(cells, Rule<T, false>{});
}

// Calls f(cells, rule) with the mesh's cells typed and its mode as a type. The cells must be
// dense (a strided mesh is packed first: cpu/mesh_pack.hpp).
template <class F>
void with_rule(const Mesh& m, F&& f) {
    if (!m.dense()) fail(CCL4J_INVALID_ARGUMENT, "the CPU mesh algorithms read dense cells: pack a strided mesh first");
    switch (m.cell_type) {
        case CellType::U8: with_rule_of<uint8_t>(m, f); break;
        case CellType::U16: with_rule_of<uint16_t>(m, f); break;
        case CellType::I32: with_rule_of<int32_t>(m, f); break;
        case CellType::F32: with_rule_of<float>(m, f); break;
    }
}

// labels[i] = i for labelled cells, -1 for the background.
template <class R>
void initial_labels(const typename R::Cell* cells, int64_t n, int32_t* labels, R rule) {
    for (int64_t i = 0; i < n; ++i) labels[i] = rule.labelled(cells[i]) ? int32_t(i) : -1;
}

// The smallest label among the cells that cell x of row r connects to (INT32_MAX when none).
// neighbour_rows[k] is the row of steps[k] from r (or -1); labels of connected cells are >= 0.
template <class R>
int32_t smallest_neighbour_label(const Geometry& g, const std::vector<RowStep>& steps, const int64_t* neighbour_rows,
                                 const typename R::Cell* cells, const int32_t* labels, int64_t r, int32_t x, R rule) {
    const auto a = cells[r * g.width + x];
    int32_t best = INT32_MAX;
    for (size_t k = 0; k < steps.size(); ++k) {
        if (neighbour_rows[k] < 0) continue;
        const int64_t base = neighbour_rows[k] * g.width;
        for (int d = 0; d < steps[k].dx_count; ++d) {
            const int32_t nx = g.column(x, steps[k].dx[d]);
            if (nx < 0) continue;
            const int64_t j = base + nx;
            if (rule.connected(a, cells[j]) && labels[j] < best) best = labels[j];
        }
    }
    return best;
}

}  // namespace ccl4j::cpu::mesh
