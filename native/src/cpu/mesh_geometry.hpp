// What the CPU mesh algorithms share: the neighbourhood of a cell as steps from its row to the
// neighbouring rows, wrap-around at periodic boundaries, and the rule that says which cells are
// labelled and which neighbours are connected.
//
// A mesh is a sequence of rows r = y + height * z of `width` cells each. The neighbours of cell
// (x, y, z) are the cells (x + dx, y + dy, z + dz) for the offsets of the connectivity, taken
// modulo the extent on periodic axes and dropped beyond open boundaries. On a periodic axis of
// length 1 or 2 several offsets reach the same cell (or the cell itself); the algorithms only take
// minima and unions, which such repeats do not change.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "common/error.hpp"
#include "common/mesh.hpp"

namespace ccl4j::cpu::mesh {

// The neighbours in the row (dy, dz) away: columns x + dx[0 .. dx_count).
struct RowStep {
    int dy;
    int dz;
    int dx_count;
    int dx[3];
};

// All offsets of the connectivity, or only the backward half (those that lead to a smaller
// index on an open mesh: dz < 0, or dz == 0 and dy < 0, or dz == dy == 0 and dx < 0), which
// reaches every neighbour pair once from one of its ends.
inline std::vector<RowStep> row_steps(int connectivity, bool backward_only) {
    const bool faces_only = connectivity == 4 || connectivity == 6;
    const int dz_max = connectivity == 6 || connectivity == 26 ? 1 : 0;
    std::vector<RowStep> steps;
    for (int dz = -dz_max; dz <= dz_max; ++dz) {
        for (int dy = -1; dy <= 1; ++dy) {
            RowStep s{dy, dz, 0, {0, 0, 0}};
            for (int dx = -1; dx <= 1; ++dx) {
                const int distance = std::abs(dx) + std::abs(dy) + std::abs(dz);
                if (distance == 0 || (faces_only && distance > 1)) continue;
                const bool backward = dz < 0 || (dz == 0 && (dy < 0 || (dy == 0 && dx < 0)));
                if (backward_only && !backward) continue;
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
    int32_t column(int32_t x, int dx) const { return wrap(x + dx, width, periodic_x); }

    // The row (dy, dz) away from row r, or -1 beyond an open boundary.
    int64_t row(int64_t r, int dy, int dz) const {
        const int32_t y = wrap(int32_t(r % height) + dy, height, periodic_y);
        const int32_t z = wrap(int32_t(r / height) + dz, depth, periodic_z);
        return y < 0 || z < 0 ? -1 : y + int64_t(height) * z;
    }

private:
    // One step past either end of [0, n) (|v - clamp| <= 1): wrapped when periodic, else -1.
    static int32_t wrap(int32_t v, int32_t n, bool periodic) {
        if (v < 0) return periodic ? v + n : -1;
        if (v >= n) return periodic ? v - n : -1;
        return v;
    }
};

// Which cells are labelled and which neighbours connect: in foreground mode the non-zero cells,
// all connected to each other; in same-value mode every cell, connected to equal ones.
template <class T, bool SameValue>
struct Rule {
    using Cell = T;
    static bool labelled(T a) { return SameValue || a != 0; }
    // Whether labelled cell a connects to neighbour b.
    static bool connected(T a, T b) { return SameValue ? a == b : b != 0; }
};

// Calls f(cells, Rule<T, SameValue>{}) with the mesh's cells typed and its mode as a type. The
// cells must be dense (a strided mesh is packed first: cpu/mesh_pack.hpp).
template <class F>
void with_rule(const Mesh& m, F&& f) {
    if (!m.dense()) fail(CCL4J_INVALID_ARGUMENT, "the CPU mesh algorithms read dense cells: pack a strided mesh first");
    const bool same = m.mode == MeshMode::SameValue;
    if (m.cell_type == CellType::U8) {
        const auto* cells = static_cast<const uint8_t*>(m.cells);
        if (same) f(cells, Rule<uint8_t, true>{});
        else f(cells, Rule<uint8_t, false>{});
    } else {
        const auto* cells = static_cast<const int32_t*>(m.cells);
        if (same) f(cells, Rule<int32_t, true>{});
        else f(cells, Rule<int32_t, false>{});
    }
}

// labels[i] = i for labelled cells, -1 for the background.
template <class R>
void initial_labels(const typename R::Cell* cells, int64_t n, int32_t* labels, R) {
    for (int64_t i = 0; i < n; ++i) labels[i] = R::labelled(cells[i]) ? int32_t(i) : -1;
}

// The smallest label among the cells that cell x of row r connects to (INT32_MAX when none).
// neighbour_rows[k] is the row of steps[k] from r (or -1); labels of connected cells are >= 0.
template <class R>
int32_t smallest_neighbour_label(const Geometry& g, const std::vector<RowStep>& steps, const int64_t* neighbour_rows,
                                 const typename R::Cell* cells, const int32_t* labels, int64_t r, int32_t x, R) {
    const auto a = cells[r * g.width + x];
    int32_t best = INT32_MAX;
    for (size_t k = 0; k < steps.size(); ++k) {
        if (neighbour_rows[k] < 0) continue;
        const int64_t base = neighbour_rows[k] * g.width;
        for (int d = 0; d < steps[k].dx_count; ++d) {
            const int32_t nx = g.column(x, steps[k].dx[d]);
            if (nx < 0) continue;
            const int64_t j = base + nx;
            if (R::connected(a, cells[j]) && labels[j] < best) best = labels[j];
        }
    }
    return best;
}

}  // namespace ccl4j::cpu::mesh
