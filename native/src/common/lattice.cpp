// Every lattice is described by F forward directions: fwd(s, k) is the neighbour of site s along
// direction k (or -1 at an open boundary), bwd(s, k) the site t with fwd(t, k) == s. Bonds are
// numbered site by site over the forward directions that exist, so the indices are dense; each
// site lists its forward arcs, then its backward ones.
#include "common/lattice.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "common/philox.hpp"

namespace ccl4j {
namespace {

// c + d on a ring or a line of `length` sites; -1 when it leaves an open line.
inline int32_t shift(int32_t c, int32_t d, int32_t length, bool periodic) {
    const int32_t t = c + d;
    if (t >= 0 && t < length) return t;
    if (!periodic) return -1;
    return t < 0 ? t + length : t - length;
}

// Square (+x, +y), triangular (+ the diagonal +x+y) and honeycomb as a brick wall (+x, and +y
// from the sites with x + y even): site (x, y) = y * L + x.
struct Plane {
    ccl4j_lattice_kind kind;
    int32_t L;
    bool periodic;
    int directions() const { return kind == CCL4J_LATTICE_TRIANGULAR ? 3 : 2; }
    static constexpr int dx[3] = {1, 0, 1};
    static constexpr int dy[3] = {0, 1, 1};
    bool has(int32_t x, int32_t y, int k) const {
        return !(kind == CCL4J_LATTICE_HONEYCOMB && k == 1 && (x + y) % 2 != 0);
    }
    int32_t step(int32_t s, int k, int sign, bool from_target) const {
        const int32_t x = s % L, y = s / L;
        const int32_t tx = shift(x, sign * dx[k], L, periodic), ty = shift(y, sign * dy[k], L, periodic);
        if (tx < 0 || ty < 0) return -1;
        if (!(from_target ? has(tx, ty, k) : has(x, y, k))) return -1;
        return ty * L + tx;
    }
    int32_t fwd(int32_t s, int k) const { return step(s, k, 1, false); }
    int32_t bwd(int32_t s, int k) const { return step(s, k, -1, true); }
    int32_t z_of(int32_t s) const { return s / L; }
};

// Simple cubic: site (x, y, z) = (z * L + y) * L + x, forward +x, +y, +z.
struct Cubic {
    int32_t L;
    bool periodic;
    int directions() const { return 3; }
    int32_t step(int32_t s, int k, int sign) const {
        int32_t c[3] = {s % L, (s / L) % L, s / L / L};
        c[k] = shift(c[k], sign, L, periodic);
        if (c[k] < 0) return -1;
        return (c[2] * L + c[1]) * L + c[0];
    }
    int32_t fwd(int32_t s, int k) const { return step(s, k, 1); }
    int32_t bwd(int32_t s, int k) const { return step(s, k, -1); }
    int32_t z_of(int32_t s) const { return s / L / L; }
};

// Body-centred cubic: L^3 cubic cells, site 2 * cell (the corner) and 2 * cell + 1 (the body
// centre). The 8 bonds of a centre go to the corners of its cell, cell + (dx, dy, dz) with
// (dx, dy, dz) the bits of the direction k; corners have no forward bonds.
struct Bcc {
    int32_t L;
    bool periodic;
    int directions() const { return 8; }
    int32_t step(int32_t s, int k, int sign) const {
        const int32_t cell = s / 2;
        int32_t c[3] = {cell % L, (cell / L) % L, cell / L / L};
        for (int a = 0; a < 3; ++a) {
            c[a] = shift(c[a], sign * ((k >> a) & 1), L, periodic);
            if (c[a] < 0) return -1;
        }
        return 2 * ((c[2] * L + c[1]) * L + c[0]) + (sign > 0 ? 0 : 1);
    }
    int32_t fwd(int32_t s, int k) const { return s % 2 == 1 ? step(s, k, 1) : -1; }
    int32_t bwd(int32_t s, int k) const { return s % 2 == 0 ? step(s, k, -1) : -1; }
    int32_t z_of(int32_t s) const { return s / 2 / L / L; }
};

// The Bethe lattice with z = 3 numbered from the centre outwards, shell by shell: the centre 0 has
// the children 1, 2, 3; every other site s has 2s + 2 and 2s + 3 while they exist.
struct Bethe {
    int32_t n;
    int directions() const { return 3; }
    int32_t fwd(int32_t s, int k) const {
        const int64_t child = s == 0 ? k + 1 : (k < 2 ? 2 * static_cast<int64_t>(s) + 2 + k : n);
        return child < n ? static_cast<int32_t>(child) : -1;
    }
    int32_t bwd(int32_t s, int k) const {
        if (s == 0) return -1;
        if (s <= 3) return k == s - 1 ? 0 : -1;
        return k == (s - 2) % 2 ? (s - 2) / 2 : -1;
    }
};

template <class Geometry>
void fill(const Geometry& g, Lattice& out) {
    const int32_t n = out.vertex_count;
    const int F = g.directions();
    std::vector<int64_t> first_bond(static_cast<size_t>(n) + 1, 0);
    std::vector<int64_t> degree_end(static_cast<size_t>(n) + 1, 0);
    parallel::for_each(0, n, 0 /* all threads */, [&](int32_t s) {
        int32_t forward = 0, backward = 0;
        for (int k = 0; k < F; ++k) {
            forward += g.fwd(s, k) >= 0;
            backward += g.bwd(s, k) >= 0;
        }
        first_bond[s + 1] = forward;
        degree_end[s + 1] = forward + backward;
    });
    for (int32_t s = 0; s < n; ++s) {
        first_bond[s + 1] += first_bond[s];
        degree_end[s + 1] += degree_end[s];
    }
    if (degree_end[n] > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "the lattice has " + std::to_string(degree_end[n]) + " arcs, more than 2^31 - 1");
    }
    out.bond_count = first_bond[n];
    out.offsets.resize(static_cast<size_t>(n) + 1);
    out.neighbors.resize(static_cast<size_t>(degree_end[n]));
    out.arc_bonds.resize(static_cast<size_t>(degree_end[n]));
    // The index of bond (t, k) among t's forward bonds.
    auto bond_of = [&](int32_t t, int k) {
        int64_t b = first_bond[t];
        for (int j = 0; j < k; ++j) b += g.fwd(t, j) >= 0;
        return static_cast<int32_t>(b);
    };
    parallel::for_each(0, n + 1, 0, [&](int32_t s) { out.offsets[s] = static_cast<int32_t>(degree_end[s]); });
    parallel::for_each(0, n, 0, [&](int32_t s) {
        int64_t arc = degree_end[s];
        int64_t bond = first_bond[s];
        for (int k = 0; k < F; ++k) {
            const int32_t t = g.fwd(s, k);
            if (t < 0) continue;
            out.neighbors[arc] = t;
            out.arc_bonds[arc++] = static_cast<int32_t>(bond++);
        }
        for (int k = 0; k < F; ++k) {
            const int32_t t = g.bwd(s, k);
            if (t < 0) continue;
            out.neighbors[arc] = t;
            out.arc_bonds[arc++] = bond_of(t, k);
        }
    });
}

// The sites with z == 0 and z == last (rows in 2D, planes in 3D) when the boundary is open.
template <class Geometry>
void fill_sides(const Geometry& g, int32_t last, Lattice& out) {
    if (out.periodic) return;
    for (int32_t s = 0; s < out.vertex_count; ++s) {
        const int32_t z = g.z_of(s);
        if (z == 0) out.sides[0].push_back(s);
        if (z == last) out.sides[1].push_back(s);
    }
}

// Renumbers the sites by a random permutation drawn from the seed (Fisher-Yates on Philox draws),
// keeping each bond's index.
void renumber_randomly(Lattice& lattice, uint64_t seed) {
    const int32_t n = lattice.vertex_count;
    std::vector<int32_t> old_of(n);
    for (int32_t s = 0; s < n; ++s) old_of[s] = s;
    for (int32_t i = n - 1; i > 0; --i) {
        const uint32_t x = draw(seed, kSiteNumbering, 0, static_cast<uint32_t>(i));
        const auto j = static_cast<int32_t>((static_cast<uint64_t>(x) * (static_cast<uint64_t>(i) + 1)) >> 32);
        std::swap(old_of[i], old_of[j]);
    }
    std::vector<int32_t> new_of(n);
    for (int32_t s = 0; s < n; ++s) new_of[old_of[s]] = s;
    std::vector<int32_t> offsets(static_cast<size_t>(n) + 1, 0);
    for (int32_t s = 0; s < n; ++s) {
        const int32_t old = old_of[s];
        offsets[s + 1] = offsets[s] + (lattice.offsets[old + 1] - lattice.offsets[old]);
    }
    std::vector<int32_t> neighbors(lattice.neighbors.size());
    std::vector<int32_t> arc_bonds(lattice.arc_bonds.size());
    parallel::for_each(0, n, 0, [&](int32_t s) {
        const int32_t old = old_of[s];
        int32_t arc = offsets[s];
        for (int32_t a = lattice.offsets[old]; a < lattice.offsets[old + 1]; ++a, ++arc) {
            neighbors[arc] = new_of[lattice.neighbors[a]];
            arc_bonds[arc] = lattice.arc_bonds[a];
        }
    });
    lattice.offsets = std::move(offsets);
    lattice.neighbors = std::move(neighbors);
    lattice.arc_bonds = std::move(arc_bonds);
    for (auto& side : lattice.sides) {
        for (int32_t& s : side) s = new_of[s];
        std::sort(side.begin(), side.end());
    }
}

int64_t power(int64_t base, int exponent) {
    int64_t r = 1;
    for (int i = 0; i < exponent; ++i) r *= base;
    return r;
}

}  // namespace

Lattice build_lattice(ccl4j_lattice_kind kind, int32_t length, bool periodic, uint64_t seed) {
    Lattice out;
    out.kind = kind;
    out.length = length;
    out.periodic = periodic;
    const bool bethe = kind == CCL4J_LATTICE_BETHE || kind == CCL4J_LATTICE_BETHE_RANDOM;
    if (kind < CCL4J_LATTICE_SQUARE || kind > CCL4J_LATTICE_BETHE_RANDOM) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown lattice kind " + std::to_string(kind));
    }
    if (bethe && periodic) fail(CCL4J_INVALID_ARGUMENT, "the Bethe lattice has no periodic boundary");
    const int32_t smallest = bethe ? 1 : (periodic ? (kind == CCL4J_LATTICE_BCC ? 2 : 3) : 1);
    if (length < smallest) {
        fail(CCL4J_INVALID_ARGUMENT, std::string(bethe ? "shells" : "length") + " must be at least " +
                                         std::to_string(smallest) + ", got " + std::to_string(length));
    }
    if (kind == CCL4J_LATTICE_HONEYCOMB && periodic && length % 2 != 0) {
        fail(CCL4J_INVALID_ARGUMENT, "a periodic honeycomb lattice needs an even length, got " + std::to_string(length));
    }
    const int dimension = kind == CCL4J_LATTICE_SIMPLE_CUBIC || kind == CCL4J_LATTICE_BCC ? 3 : 2;
    const int64_t sites = bethe ? (length > 29 ? INT64_MAX : 3 * ((int64_t{1} << length) - 1) + 1)
                                : (length > 2000000 ? INT64_MAX : power(length, dimension)) *
                                      (kind == CCL4J_LATTICE_BCC ? 2 : 1);
    if (sites > INT32_MAX / 8) {
        fail(CCL4J_INVALID_ARGUMENT, "the lattice would have more than 2^28 sites (length " + std::to_string(length) + ")");
    }
    out.vertex_count = static_cast<int32_t>(sites);
    switch (kind) {
        case CCL4J_LATTICE_SQUARE:
        case CCL4J_LATTICE_TRIANGULAR:
        case CCL4J_LATTICE_HONEYCOMB: {
            const Plane g{kind, length, periodic};
            fill(g, out);
            fill_sides(g, length - 1, out);
            break;
        }
        case CCL4J_LATTICE_SIMPLE_CUBIC: {
            const Cubic g{length, periodic};
            fill(g, out);
            fill_sides(g, length - 1, out);
            break;
        }
        case CCL4J_LATTICE_BCC: {
            const Bcc g{length, periodic};
            fill(g, out);
            fill_sides(g, length - 1, out);
            break;
        }
        default: {
            const Bethe g{out.vertex_count};
            fill(g, out);
            out.sides[0].push_back(0);
            for (int32_t s = 1; s < out.vertex_count; ++s) {
                if (2 * static_cast<int64_t>(s) + 2 >= out.vertex_count) out.sides[1].push_back(s);
            }
            if (kind == CCL4J_LATTICE_BETHE_RANDOM) renumber_randomly(out, seed);
        }
    }
    return out;
}

}  // namespace ccl4j
