// Wrapping components: a union-find over the open mesh's clusters that meet a periodic boundary.
// Each node keeps its offset from its parent in cells of the unrolled lattice, so that a find also
// knows the node's offset from its root; joining two nodes already in one set closes a loop, whose
// displacement is the difference of those offsets plus the bond's.
#include "cpu/mesh_wraps.hpp"

#include <array>
#include <unordered_map>

#include "ccl4j.h"
#include "cpu/mesh_geometry.hpp"

namespace ccl4j::cpu {
namespace {

using Offset = std::array<int64_t, 3>;

class OffsetUnionFind {
public:
    // The node of an open cluster (its canonical label), made on first use.
    int32_t node(int64_t cluster) {
        auto [it, fresh] = index_.try_emplace(cluster, static_cast<int32_t>(parent_.size()));
        if (fresh) {
            parent_.push_back(it->second);
            offset_.push_back({0, 0, 0});
            wraps_.push_back(0);
            cluster_.push_back(cluster);
        }
        return it->second;
    }

    // Joins a and b, where b lies at `step` from a.
    void join(int32_t a, int32_t b, const Offset& step) {
        Offset oa, ob;
        const int32_t ra = find(a, oa), rb = find(b, ob);
        Offset loop;
        for (int k = 0; k < 3; ++k) loop[k] = oa[k] + step[k] - ob[k];
        if (ra == rb) {
            for (int k = 0; k < 3; ++k) {
                if (loop[k] != 0) wraps_[ra] |= 1u << k;
            }
            return;
        }
        parent_[rb] = ra;
        offset_[rb] = loop;  // rb's offset from ra: where b must lie, less b's offset from rb
        wraps_[ra] |= wraps_[rb];
    }

    // The wrap bits of each node's set, with the node's cluster.
    template <class F>
    void each(F f) {
        Offset ignored;
        for (int32_t v = 0; v < static_cast<int32_t>(parent_.size()); ++v) f(cluster_[v], wraps_[find(v, ignored)]);
    }

private:
    // The root of v, and v's offset from it; halves the path on the way (each node then points
    // at its grandparent, its offset the sum of both steps).
    int32_t find(int32_t v, Offset& from_root) {
        from_root = {0, 0, 0};
        while (parent_[v] != v) {
            const int32_t p = parent_[v];
            if (parent_[p] != p) {
                for (int k = 0; k < 3; ++k) offset_[v][k] += offset_[p][k];
                parent_[v] = parent_[p];
                continue;
            }
            for (int k = 0; k < 3; ++k) from_root[k] += offset_[v][k];
            v = p;
        }
        return v;
    }

    std::unordered_map<int64_t, int32_t> index_;
    std::vector<int32_t> parent_;
    std::vector<Offset> offset_;
    std::vector<uint32_t> wraps_;
    std::vector<int64_t> cluster_;
};

// A cell's value as a double, which holds every cell type's values exactly.
double value_at(const Mesh& m, int32_t x, int32_t y, int32_t z) {
    const int64_t at = x + m.row_step() * y + m.layer_step() * z;
    switch (m.cell_type) {
        case CellType::U8: return static_cast<const uint8_t*>(m.cells)[at];
        case CellType::U16: return static_cast<const uint16_t*>(m.cells)[at];
        case CellType::I32: return static_cast<const int32_t*>(m.cells)[at];
        case CellType::F32: return static_cast<const float*>(m.cells)[at];
    }
    return 0;
}

// The mesh's mode as the cell rule of common/mesh_stencil.hpp reads it.
struct Mode {
    bool same_value;
    double delta;
};

// The offsets of the connectivity's neighbourhood that step forwards along `axis`.
std::vector<std::array<int, 3>> forward_offsets(int32_t connectivity, int axis) {
    std::vector<std::array<int, 3>> offsets;
    for (const mesh::RowStep& s : mesh::row_steps(connectivity, false)) {
        for (int k = 0; k < s.dx_count; ++k) {
            const std::array<int, 3> d{s.dx[k], s.dy, s.dz};
            if (d[axis] == 1) offsets.push_back(d);
        }
    }
    return offsets;
}

template <class L>
std::vector<uint32_t> wraps_of(const Mesh& m, const L* open, const std::function<int32_t(int64_t)>& row_of,
                               int64_t rows) {
    std::vector<uint32_t> wraps(static_cast<size_t>(rows), 0);
    const int32_t extent[3] = {m.width, m.height, m.depth};
    OffsetUnionFind clusters;
    const Mode mode{m.mode == MeshMode::SameValue, m.delta};
    for (int axis = 0; axis < 3; ++axis) {
        if (!m.periodic[axis] || (axis == 2 && m.depth == 1)) continue;  // a single layer has no bonds along z
        // every bond across this axis's boundary leaves a cell of its last plane forwards
        const std::vector<std::array<int, 3>> forward = forward_offsets(m.connectivity, axis);
        int32_t lo[3] = {0, 0, 0}, hi[3] = {m.width, m.height, m.depth};
        lo[axis] = extent[axis] - 1;
        for (int32_t z = lo[2]; z < hi[2]; ++z) {
            for (int32_t y = lo[1]; y < hi[1]; ++y) {
                for (int32_t x = lo[0]; x < hi[0]; ++x) {
                    const int64_t i = x + int64_t(m.width) * (y + int64_t(m.height) * z);
                    if (open[i] < 0) continue;
                    const double value = value_at(m, x, y, z);
                    const int32_t at[3] = {x, y, z};
                    for (const std::array<int, 3>& d : forward) {
                        int32_t n[3];
                        Offset step{0, 0, 0};
                        bool present = true;
                        for (int k = 0; k < 3 && present; ++k) {
                            n[k] = at[k] + d[k];
                            if (n[k] >= 0 && n[k] < extent[k]) continue;
                            present = m.periodic[k];
                            step[k] = n[k] < 0 ? -1 : 1;
                            n[k] -= step[k] * extent[k];
                        }
                        if (!present) continue;
                        const int64_t j = n[0] + int64_t(m.width) * (n[1] + int64_t(m.height) * n[2]);
                        if (open[j] < 0) continue;
                        if (stencil::connected(mode, value, value_at(m, n[0], n[1], n[2]))) clusters.join(clusters.node(open[i]), clusters.node(open[j]), step);
                    }
                }
            }
        }
    }
    clusters.each([&](int64_t cluster, uint32_t bits) {
        if (bits) wraps[static_cast<size_t>(row_of(cluster))] |= bits;
    });
    return wraps;
}

}  // namespace

std::vector<uint32_t> mesh_wraps(const Mesh& m, const int32_t* open, const std::function<int32_t(int64_t)>& row_of,
                                 int64_t rows) {
    return wraps_of(m, open, row_of, rows);
}

std::vector<uint32_t> mesh_wraps(const Mesh& m, const int64_t* open, const std::function<int32_t(int64_t)>& row_of,
                                 int64_t rows) {
    return wraps_of(m, open, row_of, rows);
}

}  // namespace ccl4j::cpu
