// Tests of the CPU mesh algorithms (CPU I, CPU II, the parallel union-find) against a breadth-first
// search written here from the definition: random fields of every size class (single cells, rows,
// columns, periodic axes of length 1 and 2, planes, volumes), both cell types, both modes, every
// connectivity and every combination of periodic axes; all-background and all-foreground meshes;
// iteration counts and limits; and ccl4j_label_mesh through libccl4j.so (dispatch, validation,
// timings, strided meshes on every backend present). Prints every failure and "N passed, M failed".
#include <array>
#include <cmath>
#include <limits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "ccl4j/bench.h"
#include "common/error.hpp"
#include "common/mesh.hpp"
#include "cpu/mesh_cpu.hpp"
#include "check.hpp"

namespace {

using ccl4j::Mesh;
using ccl4j::PhaseLog;
using namespace ccl4j::test;

// A mesh with its own cells.
struct Field {
    int32_t width, height, depth;
    ccl4j::CellType type;
    std::vector<uint8_t> u8;
    std::vector<int32_t> i32;

    int64_t n() const { return int64_t(width) * height * depth; }
    int32_t at(int64_t i) const { return type == ccl4j::CellType::U8 ? u8[i] : i32[i]; }
    const void* data() const { return type == ccl4j::CellType::U8 ? static_cast<const void*>(u8.data()) : i32.data(); }
    std::string describe() const {
        return std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(depth) +
               (type == ccl4j::CellType::U8 ? " u8" : " i32");
    }
};

// Cells drawn from {0 .. values - 1}, each non-zero with probability `density` when values == 2.
Field random_field(std::mt19937& rng, int32_t w, int32_t h, int32_t d, ccl4j::CellType type, double density,
                   int values) {
    Field f{w, h, d, type, {}, {}};
    std::uniform_real_distribution<double> unit(0, 1);
    std::uniform_int_distribution<int> value(0, values - 1);
    for (int64_t i = 0; i < f.n(); ++i) {
        int v = values == 2 ? (unit(rng) < density ? 1 : 0) : value(rng);
        // i32 cells use large and negative values too, to catch narrowing.
        if (type == ccl4j::CellType::U8) f.u8.push_back(uint8_t(v == 1 ? 255 : v));
        else f.i32.push_back(v == 0 ? 0 : v * 1000003 - 7);
    }
    return f;
}

Mesh mesh_of(const Field& f, int connectivity, unsigned periodic, ccl4j::MeshMode mode) {
    Mesh m;
    m.width = f.width;
    m.height = f.height;
    m.depth = f.depth;
    m.cell_type = f.type;
    m.cells = f.data();
    m.connectivity = connectivity;
    for (int a = 0; a < 3; ++a) m.periodic[a] = (periodic >> a) & 1u;
    m.mode = mode;
    return m;
}

// The reference: a breadth-first search from each unlabelled cell in increasing index order, over
// the neighbours (x + dx, y + dy, z + dz) of the definition, wrapped modulo the extent on periodic
// axes. The first cell of each search is the smallest of its cluster, so labels are canonical.
// labelled(i) says whether cell i is labelled, connected(i, j) whether neighbours i and j connect.
template <class Labelled, class Connected>
std::vector<int32_t> reference_by(const Mesh& m, Labelled labelled, Connected connected) {
    const int64_t n = m.cell_count();
    std::vector<int32_t> labels(static_cast<size_t>(n), -2);
    const bool three_d = m.connectivity == 6 || m.connectivity == 18 || m.connectivity == 26;
    const bool faces = m.connectivity == 4 || m.connectivity == 6;
    const bool edges = m.connectivity == 18;  // no corners
    auto coordinate = [](int32_t v, int32_t extent, bool periodic) -> int32_t {
        if (v >= 0 && v < extent) return v;
        return periodic ? (v + extent) % extent : -1;
    };
    std::deque<int64_t> queue;
    for (int64_t start = 0; start < n; ++start) {
        if (labels[start] != -2) continue;
        if (!labelled(start)) {
            labels[start] = -1;
            continue;
        }
        labels[start] = int32_t(start);
        queue.push_back(start);
        while (!queue.empty()) {
            const int64_t c = queue.front();
            queue.pop_front();
            const int32_t x = int32_t(c % m.width), y = int32_t(c / m.width % m.height),
                          z = int32_t(c / m.width / m.height);
            for (int dz = -1; dz <= 1; ++dz) {
                for (int dy = -1; dy <= 1; ++dy) {
                    for (int dx = -1; dx <= 1; ++dx) {
                        const int manhattan = std::abs(dx) + std::abs(dy) + std::abs(dz);
                        if (manhattan == 0 || (faces && manhattan > 1) || (edges && manhattan > 2) ||
                            (!three_d && dz != 0)) {
                            continue;
                        }
                        const int32_t nx = coordinate(x + dx, m.width, m.periodic[0]);
                        const int32_t ny = coordinate(y + dy, m.height, m.periodic[1]);
                        const int32_t nz = coordinate(z + dz, m.depth, m.periodic[2]);
                        if (nx < 0 || ny < 0 || nz < 0) continue;
                        const int64_t j = nx + int64_t(m.width) * (ny + int64_t(m.height) * nz);
                        if (labels[j] == -2 && labelled(j) && connected(c, j)) {
                            labels[j] = int32_t(start);
                            queue.push_back(j);
                        }
                    }
                }
            }
        }
    }
    return labels;
}

std::vector<int32_t> reference(const Mesh& m, const Field& f) {
    const bool same = m.mode == ccl4j::MeshMode::SameValue;
    return reference_by(
        m, [&](int64_t i) { return same || f.at(i) != 0; },
        [&](int64_t i, int64_t j) { return same ? f.at(i) == f.at(j) : true; });
}

struct Algorithm {
    std::string name;
    ccl4j_algorithm id;
    std::vector<std::string> phases;
    bool iterative;
    std::function<void(const Mesh&, int32_t*, int32_t, PhaseLog&)> run;  // (mesh, labels, max_iterations, log)
};

const std::vector<Algorithm>& algorithms() {
    static const std::vector<Algorithm> all = {
        {"cpu-raster", CCL4J_ALGORITHM_MESH_CPU_RASTER, {"init", "scan"}, true,
         [](const Mesh& m, int32_t* l, int32_t limit, PhaseLog& log) { ccl4j::cpu::mesh_raster(m, l, limit, log); }},
        {"cpu-equivalence", CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE, {"init", "scan", "analysis", "labelling"}, true,
         [](const Mesh& m, int32_t* l, int32_t limit, PhaseLog& log) {
             ccl4j::cpu::mesh_equivalence(m, l, limit, log);
         }},
        {"cpu-parallel(1)", CCL4J_ALGORITHM_MESH_CPU_PARALLEL, {"local", "merge", "flatten"}, false,
         [](const Mesh& m, int32_t* l, int32_t, PhaseLog& log) { ccl4j::cpu::mesh_parallel(m, l, 1, log); }},
        {"cpu-parallel(3)", CCL4J_ALGORITHM_MESH_CPU_PARALLEL, {"local", "merge", "flatten"}, false,
         [](const Mesh& m, int32_t* l, int32_t, PhaseLog& log) { ccl4j::cpu::mesh_parallel(m, l, 3, log); }},
        {"cpu-parallel(8)", CCL4J_ALGORITHM_MESH_CPU_PARALLEL, {"local", "merge", "flatten"}, false,
         [](const Mesh& m, int32_t* l, int32_t, PhaseLog& log) { ccl4j::cpu::mesh_parallel(m, l, 8, log); }},
        {"cpu-parallel-int64(3)", CCL4J_ALGORITHM_MESH_CPU_PARALLEL, {"local", "merge", "flatten"}, false,
         [](const Mesh& m, int32_t* l, int32_t, PhaseLog& log) {
             std::vector<int64_t> wide(static_cast<size_t>(m.cell_count()), kPoison);
             ccl4j::cpu::mesh_parallel(m, wide.data(), 3, log);
             narrow(wide, l);
         }},
    };
    return all;
}

std::string describe(const Field& f, int connectivity, unsigned periodic, ccl4j::MeshMode mode) {
    return f.describe() + " c" + std::to_string(connectivity) + " periodic=" + std::to_string(periodic) +
           (mode == ccl4j::MeshMode::SameValue ? " same-value" : " foreground");
}

// Every algorithm on one field and setting, against the reference; nothing written past the end.
void check_all(const Field& f, int connectivity, unsigned periodic, ccl4j::MeshMode mode) {
    const Mesh m = mesh_of(f, connectivity, periodic, mode);
    const std::vector<int32_t> expected = reference(m, f);
    for (const Algorithm& a : algorithms()) {
        const std::string what = a.name + " on " + describe(f, connectivity, periodic, mode);
        std::vector<int32_t> labels(static_cast<size_t>(f.n()) + 1, -12345);
        ccl4j_timings timings;
        PhaseLog log(&timings);
        try {
            a.run(m, labels.data(), 0, log);
        } catch (const ccl4j::Error& e) {
            CHECK_MSG(false, what + ": " + e.what());
            continue;
        }
        CHECK_MSG(labels.back() == -12345, what + ": wrote past the last label");
        labels.pop_back();
        check_labels(labels, expected, what);
        check_phases(timings, a.phases, what);
        if (a.iterative) CHECK_MSG(timings.iterations >= 1 && timings.iterations <= f.n() + 2, what + ": iterations");
    }
}

const std::vector<unsigned> periodic_sets_2d = {0, 1, 2, 3};
const std::vector<unsigned> periodic_sets_3d = {0, 1, 2, 4, 7};

void random_fields() {
    std::mt19937 rng(20101);
    const std::vector<std::vector<int32_t>> dims_2d = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {2, 7}, {7, 2},
                                                      {5, 5}, {17, 13}, {40, 31}, {64, 3}, {300, 200}};
    const std::vector<std::vector<int32_t>> dims_3d = {{1, 1, 2}, {2, 2, 2}, {1, 5, 4}, {5, 1, 3},
                                                      {4, 4, 1}, {6, 5, 4}, {11, 9, 7}, {3, 17, 2}, {40, 30, 20}};
    for (auto type : {ccl4j::CellType::U8, ccl4j::CellType::I32}) {
        for (double density : {0.3, 0.6}) {
            for (const auto& d : dims_2d) {
                Field f = random_field(rng, d[0], d[1], 1, type, density, 2);
                Field colours = random_field(rng, d[0], d[1], 1, type, 0, 3);
                for (int c : {4, 8}) {
                    for (unsigned p : periodic_sets_2d) {
                        check_all(f, c, p, ccl4j::MeshMode::Foreground);
                        check_all(colours, c, p, ccl4j::MeshMode::SameValue);
                    }
                }
            }
            for (const auto& d : dims_3d) {
                Field f = random_field(rng, d[0], d[1], d[2], type, density * 0.6, 2);
                Field colours = random_field(rng, d[0], d[1], d[2], type, 0, 3);
                for (int c : {6, 18, 26}) {
                    for (unsigned p : periodic_sets_3d) {
                        check_all(f, c, p, ccl4j::MeshMode::Foreground);
                        check_all(colours, c, p, ccl4j::MeshMode::SameValue);
                    }
                }
            }
        }
    }
}

// u16 and f32 cells: every CPU algorithm against the reference on random fields, foreground and
// same-value; f32 fields are random walks labelled with a tolerance delta (where "connected" is
// no longer an equivalence of values, only of the graph it spans), with NaN, -0.0 and infinities
// among the cells: -0.0 is background, a NaN is labelled but connects to nothing when compared,
// and equal infinities connect.
template <class T>
void check_typed(const std::vector<T>& cells, int32_t w, int32_t h, int32_t d, ccl4j::CellType type, double delta,
                 const char* name) {
    for (int c : d == 1 ? std::vector<int>{4, 8} : std::vector<int>{6, 18, 26}) {
        for (unsigned periodic : {0u, 7u}) {
            for (auto mode : {ccl4j::MeshMode::Foreground, ccl4j::MeshMode::SameValue}) {
                Mesh m;
                m.width = w;
                m.height = h;
                m.depth = d;
                m.cell_type = type;
                m.cells = cells.data();
                m.connectivity = c;
                for (int a = 0; a < 3; ++a) m.periodic[a] = (periodic >> a) & 1u;
                m.mode = mode;
                const bool same = mode == ccl4j::MeshMode::SameValue;
                m.delta = same ? delta : 0;
                const std::vector<int32_t> expected = reference_by(
                    m, [&](int64_t i) { return same || cells[i] != 0; },
                    [&](int64_t i, int64_t j) {
                        const double a = cells[i], b = cells[j];
                        return !same || a == b || std::fabs(a - b) <= m.delta;
                    });
                for (const Algorithm& alg : algorithms()) {
                    const std::string what = alg.name + " on " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                                             std::to_string(d) + " " + name + " c" + std::to_string(c) + " periodic=" +
                                             std::to_string(periodic) + (same ? " same-value delta " : " foreground ") +
                                             std::to_string(m.delta);
                    std::vector<int32_t> labels(static_cast<size_t>(m.cell_count()), -12345);
                    ccl4j_timings timings;
                    PhaseLog log(&timings);
                    try {
                        alg.run(m, labels.data(), 0, log);
                    } catch (const ccl4j::Error& e) {
                        CHECK_MSG(false, what + ": " + e.what());
                        continue;
                    }
                    check_labels(labels, expected, what);
                }
            }
        }
    }
}

void cell_types() {
    std::mt19937 rng(47);
    std::uniform_int_distribution<int> coin(0, 2);
    std::normal_distribution<float> step(0, 1);
    for (const auto& dims : std::vector<std::array<int32_t, 3>>{{37, 23, 1}, {13, 11, 7}}) {
        const int64_t n = int64_t(dims[0]) * dims[1] * dims[2];
        std::vector<uint16_t> u16(static_cast<size_t>(n));
        for (auto& v : u16) v = coin(rng) == 0 ? 0 : uint16_t(65535 - coin(rng) * 40000);  // 0, 65535, 25535, ...
        check_typed(u16, dims[0], dims[1], dims[2], ccl4j::CellType::U16, 0, "u16");
        std::vector<float> f32(static_cast<size_t>(n));
        float walk = 0;
        for (auto& v : f32) v = walk += step(rng);
        f32[3] = std::nanf("");
        f32[4] = std::nanf("");
        f32[5] = -0.0f;
        f32[6] = 0.0f;
        f32[n - 1] = f32[n - 2] = std::numeric_limits<float>::infinity();
        for (double delta : {0.0, 0.5, 1.5}) check_typed(f32, dims[0], dims[1], dims[2], ccl4j::CellType::F32, delta, "f32");
        std::vector<float> levels(static_cast<size_t>(n));
        for (auto& v : levels) v = float(coin(rng)) * 0.25f;  // equal values: delta 0 connects equal cells
        check_typed(levels, dims[0], dims[1], dims[2], ccl4j::CellType::F32, 0, "f32 levels");
    }
}

Field constant_field(int32_t w, int32_t h, int32_t d, ccl4j::CellType type, int32_t value) {
    Field f{w, h, d, type, {}, {}};
    if (type == ccl4j::CellType::U8) f.u8.assign(size_t(f.n()), uint8_t(value));
    else f.i32.assign(size_t(f.n()), value);
    return f;
}

void constant_fields() {
    for (auto type : {ccl4j::CellType::U8, ccl4j::CellType::I32}) {
        for (int32_t value : {0, 1}) {
            for (unsigned p : {0u, 3u}) {
                check_all(constant_field(33, 20, 1, type, value), 4, p, ccl4j::MeshMode::Foreground);
                check_all(constant_field(33, 20, 1, type, value), 8, p, ccl4j::MeshMode::SameValue);
                check_all(constant_field(1, 50, 1, type, value), 4, p, ccl4j::MeshMode::Foreground);
                check_all(constant_field(50, 1, 1, type, value), 8, p, ccl4j::MeshMode::Foreground);
                check_all(constant_field(7, 6, 5, type, value), 6, p | 4u, ccl4j::MeshMode::Foreground);
                check_all(constant_field(7, 6, 5, type, value), 26, p, ccl4j::MeshMode::SameValue);
            }
        }
    }
    // Whole-mesh results, not only agreement with the reference.
    std::vector<int32_t> labels(20 * 33);
    ccl4j_timings t;
    PhaseLog log(&t);
    Field zeros = constant_field(33, 20, 1, ccl4j::CellType::U8, 0);
    ccl4j::cpu::mesh_parallel(mesh_of(zeros, 8, 3, ccl4j::MeshMode::Foreground), labels.data(), 2, log);
    CHECK(std::vector<int32_t>(labels.size(), -1) == labels);
    ccl4j::cpu::mesh_parallel(mesh_of(zeros, 8, 0, ccl4j::MeshMode::SameValue), labels.data(), 2, log);
    CHECK(std::vector<int32_t>(labels.size(), 0) == labels);
}

// Hand-checked wrap-around: on a 5x3 mesh, (0,1) and (4,1) touch only across the x boundary, and
// (2,0) and (2,2) only across the y boundary; (0,0) and (4,2) only diagonally across both.
void wrap_around() {
    Field f = constant_field(5, 3, 1, ccl4j::CellType::U8, 0);
    auto set = [&](int x, int y) { f.u8[size_t(x + 5 * y)] = 1; };
    set(0, 1), set(4, 1), set(2, 0), set(2, 2);
    std::vector<int32_t> labels(15);
    ccl4j_timings t;
    PhaseLog log(&t);
    for (const Algorithm& a : algorithms()) {
        a.run(mesh_of(f, 4, 0, ccl4j::MeshMode::Foreground), labels.data(), 0, log);
        CHECK_MSG(labels[4 + 5] == 4 + 5 && labels[2 + 10] == 2 + 10, a.name + ": open boundaries join nothing");
        a.run(mesh_of(f, 4, 1, ccl4j::MeshMode::Foreground), labels.data(), 0, log);
        CHECK_MSG(labels[4 + 5] == 5 && labels[2 + 10] == 12, a.name + ": periodic x joins across x only");
        a.run(mesh_of(f, 4, 2, ccl4j::MeshMode::Foreground), labels.data(), 0, log);
        CHECK_MSG(labels[4 + 5] == 9 && labels[2 + 10] == 2, a.name + ": periodic y joins across y only");
    }
    Field corners = constant_field(5, 3, 1, ccl4j::CellType::I32, 0);
    corners.i32[0] = corners.i32[14] = 9;
    for (const Algorithm& a : algorithms()) {
        a.run(mesh_of(corners, 8, 3, ccl4j::MeshMode::Foreground), labels.data(), 0, log);
        CHECK_MSG(labels[14] == 0, a.name + ": 8-connectivity joins the corners across both boundaries");
        a.run(mesh_of(corners, 4, 3, ccl4j::MeshMode::Foreground), labels.data(), 0, log);
        CHECK_MSG(labels[14] == 14, a.name + ": 4-connectivity does not");
    }
}

// The iterative algorithms stop with CCL4J_NOT_CONVERGED when the limit is too small: a serpentine
// path (one cluster whose labels need many scans) with a limit of 1.
void iteration_limits() {
    Field f = constant_field(9, 9, 1, ccl4j::CellType::U8, 0);
    for (int y = 0; y < 9; y += 2) {
        for (int x = 0; x < 9; ++x) f.u8[size_t(x + 9 * y)] = 1;
        f.u8[size_t((y / 2 % 2 == 0 ? 8 : 0) + 9 * (y + 1 < 9 ? y + 1 : y))] = 1;
    }
    const Mesh m = mesh_of(f, 4, 0, ccl4j::MeshMode::Foreground);
    std::vector<int32_t> labels(81);
    for (const Algorithm& a : algorithms()) {
        if (!a.iterative) continue;
        ccl4j_timings t;
        PhaseLog log(&t);
        check_fails([&] { a.run(m, labels.data(), 1, log); }, CCL4J_NOT_CONVERGED, a.name + " with max_iterations 1");
        PhaseLog log2(&t);
        a.run(m, labels.data(), 0, log2);
        CHECK_MSG(t.iterations > 1, a.name + " needs more than one iteration on the serpentine");
        CHECK_MSG(labels[80] == 0, a.name + " labels the serpentine as one cluster");
    }
}

// A one-cell-wide serpentine filling a w x h mesh (rows joined at alternate ends), and its
// transpose: one cluster whose labels must travel the whole path, across every slab seam.
void serpentines() {
    for (auto [w, h] : {std::pair<int32_t, int32_t>{257, 255}, {255, 257}}) {
        Field f = constant_field(w, h, 1, ccl4j::CellType::U8, 0);
        const bool rows = w > h;
        const int32_t along = rows ? w : h, across = rows ? h : w;
        auto set = [&](int32_t a, int32_t b) { f.u8[size_t(rows ? a + w * b : b + w * a)] = 1; };
        for (int32_t b = 0; b < across; b += 2) {
            for (int32_t a = 0; a < along; ++a) set(a, b);
            if (b + 1 < across) set(b / 2 % 2 == 0 ? along - 1 : 0, b + 1);
        }
        check_all(f, 4, 0, ccl4j::MeshMode::Foreground);
        check_all(f, 8, 0, ccl4j::MeshMode::SameValue);
        check_all(f, 4, 3, ccl4j::MeshMode::Foreground);
    }
}

// The parallel union-find alone against the reference, on each of the thread (slab) counts.
void check_parallel(const Field& f, int connectivity, unsigned periodic, ccl4j::MeshMode mode,
                    const std::vector<int>& thread_counts) {
    const Mesh m = mesh_of(f, connectivity, periodic, mode);
    const std::vector<int32_t> expected = reference(m, f);
    for (int threads : thread_counts) {
        std::vector<int32_t> labels(static_cast<size_t>(f.n()), kPoison);
        ccl4j_timings t;
        PhaseLog log(&t);
        ccl4j::cpu::mesh_parallel(m, labels.data(), threads, log);
        check_labels(labels, expected, "cpu-parallel(" + std::to_string(threads) + ") on " +
                                           describe(f, connectivity, periodic, mode));
        std::vector<int64_t> wide(static_cast<size_t>(f.n()), kPoison);
        ccl4j::cpu::mesh_parallel(m, wide.data(), threads, log);
        narrow(wide, labels.data());
        check_labels(labels, expected, "cpu-parallel-int64(" + std::to_string(threads) + ") on " +
                                           describe(f, connectivity, periodic, mode));
    }
}

// The parallel union-find skips the unions that earlier ones imply (Wu et al.'s decision tree,
// carried to 3D), so every arrangement of a cell's backward neighbourhood is tried: bands of three
// rows, stacked along y, in a 4 x 3K x 2 volume (in 2D, bands of two rows in 4 x 2K x 1). Cell
// (2, 1, 1) of a band and its 13 backward neighbours (in 2D cell (2, 1) and its 4) run through
// every combination of 0 and 1, twice; the band's other cells are random. One thread joins
// everything in its slab; two put the two planes (or halves) in different slabs, so that the
// unions into the other plane are the merge phase's; three cut the planes. Cells 0 and 1 are also
// two colours in same-value mode. Face connectivity runs on the same fields.
void neighbourhoods() {
    std::mt19937 rng(26);
    std::bernoulli_distribution coin(0.5);
    for (const bool three_d : {false, true}) {
        const int32_t band_rows = three_d ? 3 : 2;
        const int bits = three_d ? 14 : 5;
        const int32_t bands = 2 << bits;  // every combination twice, with different random cells around
        Field f = constant_field(4, band_rows * bands, three_d ? 2 : 1, ccl4j::CellType::U8, 0);
        auto at = [&](int32_t band, int32_t x, int32_t y, int32_t z) -> uint8_t& {
            return f.u8[size_t(x + 4 * (band * band_rows + y + int64_t(f.height) * z))];
        };
        for (int32_t band = 0; band < bands; ++band) {
            int bit = 0;
            auto next = [&] { return uint8_t((band >> bit++) & 1); };
            for (int32_t z = 0; z < f.depth; ++z) {
                for (int32_t y = 0; y < band_rows; ++y) {
                    for (int32_t x = 0; x < 4; ++x) {
                        // The backward neighbourhood of (2, 1, z_last) and the cell itself.
                        const bool plane_before = three_d && z == 0;
                        const bool row_before = z == f.depth - 1 && (y == 0 || (y == 1 && x <= 2));
                        const bool tried = x >= 1 && (plane_before || row_before);
                        at(band, x, y, z) = tried ? next() : uint8_t(coin(rng));
                    }
                }
            }
        }
        for (const int connectivity : three_d ? std::vector<int>{26, 18, 6} : std::vector<int>{8, 4}) {
            for (const unsigned periodic : {0u, 7u}) {
                const unsigned p = three_d ? periodic : periodic & 3u;
                check_parallel(f, connectivity, p, ccl4j::MeshMode::Foreground, {1, 2, 3});
                check_parallel(f, connectivity, p, ccl4j::MeshMode::SameValue, {1, 2, 3});
            }
        }
    }
}

// Every slab count from one to one row per slab, where the merge phase joins all rows, on odd
// sizes with and without wrap-around.
void slab_counts() {
    std::mt19937 rng(1009);
    std::vector<int> thread_counts(43);
    for (int i = 0; i < 43; ++i) thread_counts[size_t(i)] = i + 1;
    for (double density : {0.15, 0.45}) {
        Field volume = random_field(rng, 7, 6, 5, ccl4j::CellType::U8, density, 2);
        Field colours = random_field(rng, 7, 6, 5, ccl4j::CellType::I32, 0, 2);
        Field plane = random_field(rng, 13, 11, 1, ccl4j::CellType::U8, density + 0.2, 2);
        for (unsigned p : {0u, 7u}) {
            for (int c : {6, 18, 26}) {
                check_parallel(volume, c, p, ccl4j::MeshMode::Foreground, thread_counts);
                check_parallel(colours, c, p, ccl4j::MeshMode::SameValue, thread_counts);
            }
            for (int c : {4, 8}) check_parallel(plane, c, p & 3u, ccl4j::MeshMode::Foreground, thread_counts);
        }
    }
}

// ---- the C ABI ----------------------------------------------------------------------------------

// The shape of f as the ABI takes it (dense); its cells, f.data(), are an argument of their own.
ccl4j_mesh abi_mesh(const Field& f) {
    ccl4j_mesh m{};
    m.width = f.width;
    m.height = f.height;
    m.depth = f.depth;
    m.cell_type = f.type == ccl4j::CellType::U8 ? CCL4J_CELL_U8 : CCL4J_CELL_I32;
    return m;
}

void expect_error(ccl4j_context c, const ccl4j_mesh* m, const void* cells, const ccl4j_mesh_options* o,
                  int32_t* labels, ccl4j_status status, const std::string& needle, const std::string& what) {
    const ccl4j_status got = ccl4j_label_mesh(c, m, cells, o, labels, nullptr);
    const std::string message = ccl4j_context_error_message(c);
    CHECK_MSG(got == status && message.find(needle) != std::string::npos,
              what + ": status " + std::to_string(got) + ", message '" + message + "'");
}

void abi() {
    std::mt19937 rng(5);
    Field f = random_field(rng, 23, 19, 1, ccl4j::CellType::U8, 0.55, 2);
    Field volume = random_field(rng, 9, 8, 7, ccl4j::CellType::I32, 0.3, 2);
    for (ccl4j_backend backend : {CCL4J_BACKEND_CPU_PARALLEL, CCL4J_BACKEND_CPU_SERIAL}) {
        ccl4j_context c = nullptr;
        CHECK(ccl4j_context_create(backend, 0, &c) == CCL4J_SUCCESS);
        const std::string on = std::string(" on backend ") + std::to_string(backend);
        for (ccl4j_algorithm a : {CCL4J_ALGORITHM_AUTO, CCL4J_ALGORITHM_MESH_CPU_RASTER,
                                  CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE, CCL4J_ALGORITHM_MESH_CPU_PARALLEL}) {
            for (unsigned periodic : {0u, 3u}) {
                ccl4j_mesh m = abi_mesh(f);
                ccl4j_mesh_options o{};
                o.algorithm = a;
                o.connectivity = 8;
                o.periodic = periodic;
                std::vector<int32_t> labels(size_t(f.n()));
                ccl4j_timings t;
                const std::string what = "algorithm " + std::to_string(a) + on;
                CHECK_MSG(ccl4j_label_mesh(c, &m, f.data(), &o, labels.data(), &t) == CCL4J_SUCCESS,
                          what + ccl4j_context_error_message(c));
                check_labels(labels, reference(mesh_of(f, 8, periodic, ccl4j::MeshMode::Foreground), f), what);
                CHECK_MSG(t.backend == backend, what + ": timings backend");
                CHECK_MSG(t.algorithm == (a == CCL4J_ALGORITHM_AUTO ? CCL4J_ALGORITHM_MESH_CPU_PARALLEL : a),
                          what + ": timings algorithm");
                CHECK_MSG(t.total_ms >= 0 && t.phase_count >= 2, what + ": timings");
            }
        }
        // NULL options: defaults (face neighbours, open, foreground); 3D picks 6.
        ccl4j_mesh m3 = abi_mesh(volume);
        std::vector<int32_t> labels(size_t(volume.n()));
        CHECK(ccl4j_label_mesh(c, &m3, volume.data(), nullptr, labels.data(), nullptr) == CCL4J_SUCCESS);
        check_labels(labels, reference(mesh_of(volume, 6, 0, ccl4j::MeshMode::Foreground), volume), "defaults in 3D" + on);
        ccl4j_mesh_options same{};
        same.mode = CCL4J_MESH_SAME_VALUE;
        same.connectivity = 26;
        same.periodic = CCL4J_PERIODIC_X | CCL4J_PERIODIC_Z;
        CHECK(ccl4j_label_mesh(c, &m3, volume.data(), &same, labels.data(), nullptr) == CCL4J_SUCCESS);
        check_labels(labels, reference(mesh_of(volume, 26, 5, ccl4j::MeshMode::SameValue), volume),
                     "same-value 26 periodic xz" + on);

        // Validation: every bad value named.
        ccl4j_mesh m = abi_mesh(f);
        ccl4j_mesh_options o{};
        std::vector<int32_t> out(size_t(f.n()));
        expect_error(c, nullptr, f.data(), &o, out.data(), CCL4J_INVALID_ARGUMENT, "mesh is NULL", "NULL mesh");
        expect_error(c, &m, f.data(), &o, nullptr, CCL4J_INVALID_ARGUMENT, "labels is NULL", "NULL labels");
        expect_error(c, &m, nullptr, &o, out.data(), CCL4J_INVALID_ARGUMENT, "cells is NULL", "NULL cells");
        ccl4j_mesh bad = m;
        bad.height = 0;
        expect_error(c, &bad, f.data(), &o, out.data(), CCL4J_INVALID_ARGUMENT, "height 0", "zero height");
        bad = m;
        bad.width = -3;
        expect_error(c, &bad, f.data(), &o, out.data(), CCL4J_INVALID_ARGUMENT, "width -3", "negative width");
        bad = m;
        bad.width = bad.height = bad.depth = 2000;
        expect_error(c, &bad, f.data(), &o, out.data(), CCL4J_INVALID_ARGUMENT, "8000000000 cells", "too many cells");
        bad = m;
        bad.cell_type = 3;
        expect_error(c, &bad, f.data(), &o, out.data(), CCL4J_INVALID_ARGUMENT, "cell type 3", "unknown cell type");
        ccl4j_mesh_options bo{};
        bo.connectivity = 7;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT,
                     "connectivity 7 does not fit a 2D mesh (23x19x1): expected 4 or 8 (or 6, 18 or 26, which act "
                     "as 4, 8 and 8)", "7 in 2D");
        bo.connectivity = 5;
        expect_error(c, &m3, volume.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "connectivity 5", "5 in 3D");
        bo.connectivity = 8;
        expect_error(c, &m3, volume.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "connectivity 8", "8 in 3D");
        bo = {};
        bo.mode = 2;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "mode 2", "unknown mode");
        bo = {};
        bo.periodic = 8;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "periodic", "unknown periodic bit");
        bo = {};
        bo.algorithm = CCL4J_ALGORITHM_ECL_CC;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "algorithm 1", "graph algorithm");
        bo.algorithm = 99;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "algorithm 99", "unknown algorithm");
        bo.algorithm = CCL4J_ALGORITHM_MESH_KOMURA;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_UNSUPPORTED,
                     "MESH_KOMURA (20) is a GPU algorithm and needs a CUDA", "GPU algorithm on the CPU");
        bo = {};
        bo.cpu_threads = -1;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "cpu_threads", "negative threads");
        bo = {};
        bo.max_iterations = -2;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "max_iterations", "negative iterations");
        bo = {};
        bo.flags = 4;
        expect_error(c, &m, f.data(), &bo, out.data(), CCL4J_INVALID_ARGUMENT, "flags", "unknown flag");
        ccl4j_context_destroy(c);
    }
    ccl4j_mesh m = abi_mesh(f);
    std::vector<int32_t> out(size_t(f.n()));
    CHECK(ccl4j_label_mesh(nullptr, &m, f.data(), nullptr, out.data(), nullptr) == CCL4J_INVALID_ARGUMENT);

    // On CUDA: AUTO is the block union-find, and the CPU algorithms are refused.
    ccl4j_capabilities caps;
    CHECK(ccl4j_get_capabilities(&caps) == CCL4J_SUCCESS);
    if (!(caps.backends & (1u << CCL4J_BACKEND_CUDA))) {
        std::printf("NOTICE: no CUDA device present - ccl4j_label_mesh is not run on CUDA\n");
        return;
    }
    ccl4j_context c = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &c) == CCL4J_SUCCESS);
    ccl4j_mesh_options o{};
    o.connectivity = 8;
    o.periodic = CCL4J_PERIODIC_X | CCL4J_PERIODIC_Y;
    ccl4j_timings t;
    CHECK_MSG(ccl4j_label_mesh(c, &m, f.data(), &o, out.data(), &t) == CCL4J_SUCCESS, ccl4j_context_error_message(c));
    check_labels(out, reference(mesh_of(f, 8, 3, ccl4j::MeshMode::Foreground), f), "AUTO on CUDA");
    CHECK(t.backend == CCL4J_BACKEND_CUDA && t.algorithm == CCL4J_ALGORITHM_MESH_UNION_FIND);
    o.algorithm = CCL4J_ALGORITHM_MESH_CPU_PARALLEL;
    expect_error(c, &m, f.data(), &o, out.data(), CCL4J_UNSUPPORTED,
                 "MESH_CPU_PARALLEL (24) runs on the CPU backends", "CPU algorithm on CUDA");
    ccl4j_context_destroy(c);
}

// A W x H x 1 volume takes the 3D connectivities, as scikit-image and cc3d take them: 6 labels as
// 4, 26 as 8, and periodic z joins a cell to itself only. Through the ABI, on every backend present
// and every algorithm of each (the GPU ones when a device is there), against the 2D reference.
void single_layer() {
    std::mt19937 rng(26);
    const std::vector<std::vector<int32_t>> dims = {{1, 1}, {1, 7}, {7, 1}, {2, 2}, {23, 19}, {64, 3}};
    ccl4j_capabilities caps;
    CHECK(ccl4j_get_capabilities(&caps) == CCL4J_SUCCESS);
    std::vector<std::pair<ccl4j_backend, std::vector<ccl4j_algorithm>>> runs = {
        {CCL4J_BACKEND_CPU_PARALLEL, {CCL4J_ALGORITHM_AUTO, CCL4J_ALGORITHM_MESH_CPU_RASTER,
                                      CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE, CCL4J_ALGORITHM_MESH_CPU_PARALLEL}},
        {CCL4J_BACKEND_CPU_SERIAL, {CCL4J_ALGORITHM_MESH_CPU_RASTER, CCL4J_ALGORITHM_MESH_CPU_PARALLEL}}};
    if (caps.backends & (1u << CCL4J_BACKEND_CUDA)) {
        std::vector<ccl4j_algorithm> gpu;
        for (int a = CCL4J_ALGORITHM_MESH_NEIGHBOR; a <= CCL4J_ALGORITHM_MESH_UNION_FIND; ++a) {
            gpu.push_back(static_cast<ccl4j_algorithm>(a));
        }
        runs.push_back({CCL4J_BACKEND_CUDA, gpu});
    } else {
        std::printf("NOTICE: no CUDA device present - single-layer meshes with 6 and 26 are not run on CUDA\n");
    }
    for (const auto& [backend, algorithms] : runs) {
        ccl4j_context c = nullptr;
        CHECK(ccl4j_context_create(backend, 0, &c) == CCL4J_SUCCESS);
        for (const auto& d : dims) {
            for (auto type : {ccl4j::CellType::U8, ccl4j::CellType::I32}) {
                Field f = random_field(rng, d[0], d[1], 1, type, 0.55, 2);
                Field colours = random_field(rng, d[0], d[1], 1, type, 0, 3);
                for (ccl4j_algorithm a : algorithms) {
                    for (auto [three, two] : {std::pair<int, int>{6, 4}, {18, 8}, {26, 8}}) {
                        for (unsigned periodic : {0u, 4u, 3u, 7u}) {
                            for (bool same : {false, true}) {
                                const Field& field = same ? colours : f;
                                const auto mode = same ? ccl4j::MeshMode::SameValue : ccl4j::MeshMode::Foreground;
                                ccl4j_mesh m = abi_mesh(field);
                                ccl4j_mesh_options o{};
                                o.algorithm = a;
                                o.connectivity = three;
                                o.periodic = periodic;
                                o.mode = same ? CCL4J_MESH_SAME_VALUE : CCL4J_MESH_FOREGROUND;
                                std::vector<int32_t> labels(size_t(field.n()) + 1, -12345);
                                const std::string what = "backend " + std::to_string(backend) + " algorithm " +
                                                         std::to_string(a) + " on " +
                                                         describe(field, three, periodic, mode);
                                const ccl4j_status status =
                                    ccl4j_label_mesh(c, &m, field.data(), &o, labels.data(), nullptr);
                                CHECK_MSG(status == CCL4J_SUCCESS, what + ": " + ccl4j_context_error_message(c));
                                if (status != CCL4J_SUCCESS) continue;
                                CHECK_MSG(labels.back() == -12345, what + ": wrote past the last label");
                                labels.pop_back();
                                // the planar stencil, and periodic z (bit 4) dropped: it changes nothing
                                check_labels(labels, reference(mesh_of(field, two, periodic & 3u, mode), field),
                                             what);
                            }
                        }
                    }
                }
            }
        }
        ccl4j_context_destroy(c);
    }
    // Hand-checked: two cells touching at a corner are one cluster under 26 and two under 6.
    Field corner = constant_field(3, 2, 1, ccl4j::CellType::U8, 0);
    corner.u8[0] = corner.u8[4] = 1;  // (0, 0) and (1, 1)
    ccl4j_context c = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &c) == CCL4J_SUCCESS);
    ccl4j_mesh m = abi_mesh(corner);
    ccl4j_mesh_options o{};
    std::vector<int32_t> labels(6);
    o.connectivity = 26;
    o.periodic = CCL4J_PERIODIC_Z;
    CHECK(ccl4j_label_mesh(c, &m, corner.data(), &o, labels.data(), nullptr) == CCL4J_SUCCESS);
    CHECK(labels == (std::vector<int32_t>{0, -1, -1, -1, 0, -1}));
    o.connectivity = 6;
    CHECK(ccl4j_label_mesh(c, &m, corner.data(), &o, labels.data(), nullptr) == CCL4J_SUCCESS);
    CHECK(labels == (std::vector<int32_t>{0, -1, -1, -1, 4, -1}));
    // 4 and 8 stay 2D-only: a volume of two layers refuses them
    Field two = constant_field(3, 2, 2, ccl4j::CellType::U8, 1);
    ccl4j_mesh m2 = abi_mesh(two);
    std::vector<int32_t> labels2(12);
    o.connectivity = 8;
    expect_error(c, &m2, two.data(), &o, labels2.data(), CCL4J_INVALID_ARGUMENT,
                 "connectivity 8 does not fit a 3D mesh (3x2x2): expected 6, 18 or 26", "8 in 3D");
    // Hand-checked: cells touching at an edge are one cluster under 18, at a corner only under 26.
    Field cube = constant_field(2, 2, 2, ccl4j::CellType::U8, 0);
    ccl4j_mesh mc = abi_mesh(cube);
    std::vector<int32_t> labels3(8);
    o.connectivity = 18;
    o.periodic = 0;
    cube.u8[0] = cube.u8[6] = 1;  // (0, 0, 0) and (0, 1, 1): an edge apart
    CHECK(ccl4j_label_mesh(c, &mc, cube.data(), &o, labels3.data(), nullptr) == CCL4J_SUCCESS);
    CHECK(labels3 == (std::vector<int32_t>{0, -1, -1, -1, -1, -1, 0, -1}));
    cube.u8[6] = 0;
    cube.u8[7] = 1;  // (0, 0, 0) and (1, 1, 1): a corner apart
    CHECK(ccl4j_label_mesh(c, &mc, cube.data(), &o, labels3.data(), nullptr) == CCL4J_SUCCESS);
    CHECK(labels3 == (std::vector<int32_t>{0, -1, -1, -1, -1, -1, -1, 7}));
    o.connectivity = 26;
    CHECK(ccl4j_label_mesh(c, &mc, cube.data(), &o, labels3.data(), nullptr) == CCL4J_SUCCESS);
    CHECK(labels3 == (std::vector<int32_t>{0, -1, -1, -1, -1, -1, -1, 0}));
    ccl4j_context_destroy(c);
}

// ---- strided meshes ------------------------------------------------------------------------------

// A field's cells inside a larger buffer, as a region of an image or volume lies: `first` cells
// before the first one, rows row_stride cells apart, layers layer_stride apart (0: dense, as the
// ABI reads it). The gaps hold non-zero cells that would join clusters if a labelling read them.
struct Embedded {
    std::vector<uint8_t> bytes;
    ccl4j_mesh mesh;
    const void* cells;  // the first cell, inside bytes
};

Embedded embed(const Field& f, int64_t first, int64_t row_stride, int64_t layer_stride) {
    const int64_t rows = row_stride ? row_stride : f.width;
    const int64_t layers = layer_stride ? layer_stride : rows * f.height;
    const size_t cell = f.type == ccl4j::CellType::U8 ? 1 : 4;
    Embedded e;
    e.bytes.assign(static_cast<size_t>(first + layers * f.depth) * cell, uint8_t(0x77));
    const auto* source = static_cast<const uint8_t*>(f.data());
    for (int32_t z = 0; z < f.depth; ++z) {
        for (int32_t y = 0; y < f.height; ++y) {
            std::memcpy(&e.bytes[static_cast<size_t>(first + layers * z + rows * y) * cell],
                        source + (static_cast<size_t>(z) * f.height + y) * f.width * cell, f.width * cell);
        }
    }
    e.mesh = abi_mesh(f);
    e.cells = &e.bytes[static_cast<size_t>(first) * cell];
    e.mesh.row_stride = row_stride;
    e.mesh.layer_stride = layer_stride;
    return e;
}

bool has_phase(const ccl4j_timings& t, const std::string& name) {
    for (int32_t i = 0; i < t.phase_count; ++i) {
        if (name == t.phases[i].name) return true;
    }
    return false;
}

// Whether every row of f lies where it would in a dense field.
bool contiguous(const Field& f, int64_t row_stride, int64_t layer_stride) {
    const int64_t rows = row_stride ? row_stride : f.width;
    const int64_t layers = layer_stride ? layer_stride : rows * f.height;
    bool same = true;
    for (int64_t z = 0; z < f.depth; ++z) {
        for (int64_t y = 0; y < f.height; ++y) same = same && rows * y + layers * z == f.width * (y + f.height * z);
    }
    return same;
}

// Every CPU algorithm through the ABI on fields embedded with padded rows, padded layers or both
// (and strides that say dense): the labels of the dense field; only strided input is packed.
void strided() {
    std::mt19937 rng(777);
    const std::vector<Field> fields = {random_field(rng, 23, 19, 1, ccl4j::CellType::U8, 0.55, 2),
                                       random_field(rng, 9, 8, 7, ccl4j::CellType::I32, 0.35, 2),
                                       random_field(rng, 6, 1, 5, ccl4j::CellType::U8, 0.6, 2),
                                       random_field(rng, 1, 7, 4, ccl4j::CellType::I32, 0, 3),
                                       random_field(rng, 301, 211, 1, ccl4j::CellType::I32, 0.6, 2)};
    for (ccl4j_backend backend : {CCL4J_BACKEND_CPU_PARALLEL, CCL4J_BACKEND_CPU_SERIAL}) {
        ccl4j_context c = nullptr;
        CHECK(ccl4j_context_create(backend, 0, &c) == CCL4J_SUCCESS);
        for (const Field& f : fields) {
            const bool three_d = f.depth > 1;
            const ccl4j::MeshMode mode = f.width == 1 ? ccl4j::MeshMode::SameValue : ccl4j::MeshMode::Foreground;
            const int connectivity = three_d ? 26 : 8;
            const int64_t row = f.width + 3, layer = int64_t(f.width) * f.height + 5;
            // {first, row_stride, layer_stride}: dense strides given explicitly, then padded ones.
            const std::vector<std::array<int64_t, 3>> layouts = {
                {0, f.width, int64_t(f.width) * f.height}, {5, row, 0}, {1, 0, layer}, {9, row, row * f.height + 11}};
            for (unsigned periodic : {0u, three_d ? 7u : 3u}) {
                const std::vector<int32_t> expected = reference(mesh_of(f, connectivity, periodic, mode), f);
                for (const auto& layout : layouts) {
                    const Embedded e = embed(f, layout[0], layout[1], layout[2]);
                    for (ccl4j_algorithm a : {CCL4J_ALGORITHM_MESH_CPU_RASTER, CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE,
                                              CCL4J_ALGORITHM_MESH_CPU_PARALLEL}) {
                        ccl4j_mesh_options o{};
                        o.algorithm = a;
                        o.connectivity = connectivity;
                        o.periodic = periodic;
                        o.mode = mode == ccl4j::MeshMode::SameValue ? CCL4J_MESH_SAME_VALUE : CCL4J_MESH_FOREGROUND;
                        o.cpu_threads = 3;
                        const std::string what = "strided " + describe(f, connectivity, periodic, mode) + " first " +
                                                 std::to_string(layout[0]) + " row_stride " + std::to_string(layout[1]) +
                                                 " layer_stride " + std::to_string(layout[2]) + " algorithm " +
                                                 std::to_string(a) + " on backend " + std::to_string(backend);
                        std::vector<int32_t> labels(size_t(f.n()), -12345);
                        ccl4j_timings t;
                        CHECK_MSG(ccl4j_label_mesh(c, &e.mesh, e.cells, &o, labels.data(), &t) == CCL4J_SUCCESS,
                                  what + ": " + ccl4j_context_error_message(c));
                        check_labels(labels, expected, what);
                        CHECK_MSG(has_phase(t, "pack") != contiguous(f, layout[1], layout[2]),
                                  what + ": a pack phase exactly for strided cells");
                    }
                }
            }
        }
        ccl4j_context_destroy(c);
    }
    // On CUDA the copy to the device gathers the cells (AUTO: the block union-find).
    ccl4j_capabilities caps;
    CHECK(ccl4j_get_capabilities(&caps) == CCL4J_SUCCESS);
    if (!(caps.backends & (1u << CCL4J_BACKEND_CUDA))) {
        std::printf("NOTICE: no CUDA device present - strided meshes are not labelled on CUDA here\n");
        return;
    }
    ccl4j_context c = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &c) == CCL4J_SUCCESS);
    for (const Field& f : fields) {
        const int connectivity = f.depth > 1 ? 6 : 4;
        const std::vector<int32_t> expected = reference(mesh_of(f, connectivity, 0, ccl4j::MeshMode::Foreground), f);
        const int64_t row = f.width + 3;
        for (const auto& layout : std::vector<std::array<int64_t, 3>>{{5, row, 0}, {9, row, row * f.height + 11}}) {
            const Embedded e = embed(f, layout[0], layout[1], layout[2]);
            std::vector<int32_t> labels(size_t(f.n()), -12345);
            const std::string what = "strided on CUDA " + f.describe() + " row_stride " + std::to_string(layout[1]) +
                                     " layer_stride " + std::to_string(layout[2]);
            CHECK_MSG(ccl4j_label_mesh(c, &e.mesh, e.cells, nullptr, labels.data(), nullptr) == CCL4J_SUCCESS,
                      what + ": " + ccl4j_context_error_message(c));
            check_labels(labels, expected, what);
        }
    }
    ccl4j_context_destroy(c);
}

// Strides that overlap or reach beyond memory are refused, each naming the field and its value.
void strided_errors() {
    std::mt19937 rng(778);
    const Field f = random_field(rng, 10, 4, 3, ccl4j::CellType::I32, 0.5, 2);
    ccl4j_context c = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &c) == CCL4J_SUCCESS);
    std::vector<int32_t> out(size_t(f.n()));
    const ccl4j_mesh m = abi_mesh(f);
    auto refused = [&](int64_t row_stride, int64_t layer_stride, const std::string& needle) {
        ccl4j_mesh bad = m;
        bad.row_stride = row_stride;
        bad.layer_stride = layer_stride;
        expect_error(c, &bad, f.data(), nullptr, out.data(), CCL4J_INVALID_ARGUMENT, needle,
                     "row_stride " + std::to_string(row_stride) + ", layer_stride " + std::to_string(layer_stride));
    };
    refused(-1, 0, "row_stride -1 is negative");
    refused(0, -40, "layer_stride -40 is negative");
    refused(9, 0, "row_stride 9 is less than the width 10");
    refused(12, 47, "layer_stride 47 is less than row stride 12 * height 4 = 48");
    refused(0, 39, "layer_stride 39 is less than row stride 10 * height 4 = 40");
    refused(INT64_MAX / 2, 0, "times the height 4 does not fit int64");
    refused(0, INT64_MAX / 2, "strides reach beyond what memory can address");
    refused(0, int64_t(1) << 62, "strides reach beyond what memory can address");
    ccl4j_mesh wide = m;
    wide.depth = 2;
    wide.layer_stride = (int64_t(1) << 62) + 1;  // the span fits int64, its bytes (4 per cell) not 64 bits
    expect_error(c, &wide, f.data(), nullptr, out.data(), CCL4J_INVALID_ARGUMENT, "beyond what memory can address",
                 "span bytes beyond 64 bits");
    ccl4j_phase_run run = nullptr;
    ccl4j_mesh bad = m;
    bad.row_stride = 5;
    CHECK(ccl4j_phase_run_create_mesh(c, &bad, f.data(), nullptr, &run) == CCL4J_INVALID_ARGUMENT && run == nullptr);
    ccl4j_context_destroy(c);
}

}  // namespace

// ccl4j_label_mesh64 and ccl4j_mesh_memory_needs through the ABI: the int64 labels equal the
// reference on every backend present, other algorithms are refused by name, and a call that cannot
// fit fails with the figures before anything is allocated or read.
void abi_int64() {
    std::mt19937 rng(64);
    Field f = random_field(rng, 41, 23, 1, ccl4j::CellType::U8, 0.6, 2);
    Field volume = random_field(rng, 13, 9, 8, ccl4j::CellType::I32, 0.3, 3);
    ccl4j_capabilities caps;
    CHECK(ccl4j_get_capabilities(&caps) == CCL4J_SUCCESS);
    std::vector<ccl4j_backend> backends = {CCL4J_BACKEND_CPU_PARALLEL, CCL4J_BACKEND_CPU_SERIAL};
    if (caps.backends & (1u << CCL4J_BACKEND_CUDA)) {
        backends.push_back(CCL4J_BACKEND_CUDA);
    } else {
        std::printf("NOTICE: no CUDA device present - ccl4j_label_mesh64 is not run on CUDA\n");
    }
    for (ccl4j_backend backend : backends) {
        ccl4j_context c = nullptr;
        CHECK(ccl4j_context_create(backend, 0, &c) == CCL4J_SUCCESS);
        const bool cuda = backend == CCL4J_BACKEND_CUDA;
        const std::string on = std::string(" (int64) on backend ") + std::to_string(backend);
        for (const Field* field : {&f, &volume}) {
            const bool flat = field->depth == 1;
            for (int connectivity : flat ? std::vector<int>{4, 8} : std::vector<int>{6, 18, 26}) {
                for (unsigned periodic : {0u, 5u}) {
                    for (auto mode : {ccl4j::MeshMode::Foreground, ccl4j::MeshMode::SameValue}) {
                        ccl4j_mesh m = abi_mesh(*field);
                        ccl4j_mesh_options o{};
                        o.connectivity = connectivity;
                        o.periodic = periodic;
                        o.mode = mode == ccl4j::MeshMode::SameValue ? CCL4J_MESH_SAME_VALUE : CCL4J_MESH_FOREGROUND;
                        std::vector<int64_t> wide(size_t(field->n()), kPoison);
                        ccl4j_timings t;
                        const std::string what = describe(*field, connectivity, periodic, mode) + on;
                        CHECK_MSG(ccl4j_label_mesh64(c, &m, field->data(), &o, wide.data(), &t) == CCL4J_SUCCESS,
                                  what + ": " + ccl4j_context_error_message(c));
                        std::vector<int32_t> labels(wide.size());
                        narrow(wide, labels.data());
                        check_labels(labels, reference(mesh_of(*field, connectivity, periodic, mode), *field), what);
                        CHECK_MSG(t.algorithm == (cuda ? CCL4J_ALGORITHM_MESH_UNION_FIND : CCL4J_ALGORITHM_MESH_CPU_PARALLEL),
                                  what + ": timings algorithm");
                    }
                }
            }
        }
        // Only the algorithms that write int64 labels take them, and the message names those.
        ccl4j_mesh m = abi_mesh(f);
        std::vector<int64_t> wide(size_t(f.n()));
        ccl4j_mesh_options o{};
        o.algorithm = cuda ? CCL4J_ALGORITHM_MESH_KOMURA : CCL4J_ALGORITHM_MESH_CPU_RASTER;
        CHECK_MSG(ccl4j_label_mesh64(c, &m, f.data(), &o, wide.data(), nullptr) == CCL4J_UNSUPPORTED &&
                      std::string(ccl4j_context_error_message(c)).find(cuda ? "by MESH_UNION_FIND" : "by MESH_CPU_PARALLEL") !=
                          std::string::npos,
                  "int64 labels from an algorithm without them" + on + ": " + ccl4j_context_error_message(c));
        CHECK(ccl4j_label_mesh64(c, &m, f.data(), nullptr, nullptr, nullptr) == CCL4J_INVALID_ARGUMENT);

        // Memory needs: the labels at 4 and 8 bytes a cell; a packed copy for a strided mesh on the CPU.
        ccl4j_memory_needs needs;
        for (int32_t bytes : {4, 8}) {
            CHECK(ccl4j_mesh_memory_needs(c, &m, nullptr, bytes, &needs) == CCL4J_SUCCESS);
            CHECK_MSG(needs.labels_bytes == f.n() * bytes, "labels_bytes" + on);
            CHECK_MSG(needs.host_bytes == 0, "host_bytes of a dense mesh" + on);
            CHECK_MSG(cuda ? needs.device_bytes >= f.n() * (1 + bytes) && needs.device_available > 0
                           : needs.device_bytes == 0 && needs.device_available == 0,
                      "device needs" + on);
        }
        ccl4j_mesh strided = m;
        strided.row_stride = m.width + 3;
        CHECK(ccl4j_mesh_memory_needs(c, &strided, nullptr, 8, &needs) == CCL4J_SUCCESS);
        CHECK_MSG(needs.host_bytes == (cuda ? 0 : f.n()), "host_bytes of a strided mesh" + on);
        CHECK(ccl4j_mesh_memory_needs(c, &m, nullptr, 3, &needs) == CCL4J_INVALID_ARGUMENT);
        CHECK(ccl4j_mesh_memory_needs(c, &m, nullptr, 8, nullptr) == CCL4J_INVALID_ARGUMENT);
        ccl4j_mesh huge = m;
        huge.width = huge.height = huge.depth = 1 << 14;  // 2^42 cells
        CHECK(ccl4j_mesh_memory_needs(c, &huge, nullptr, 4, &needs) == CCL4J_INVALID_ARGUMENT);
        CHECK(ccl4j_mesh_memory_needs(c, &huge, nullptr, 8, &needs) == CCL4J_SUCCESS);
        CHECK_MSG(needs.labels_bytes == (int64_t(1) << 45), "labels_bytes of 2^42 cells" + on);
        // 2^42 cells fit no device and no host: refused with the figures before the cells or the
        // labels are touched (neither pointer is valid memory of that size). On the CPU the
        // strided mesh's packed copy is what does not fit.
        huge.row_stride = huge.width + 1;
        const int64_t stand_in = 0;
        auto* nowhere = reinterpret_cast<int64_t*>(uintptr_t(1) << 40);
        const ccl4j_status status = ccl4j_label_mesh64(c, &huge, &stand_in, nullptr, nowhere, nullptr);
        const std::string message = ccl4j_context_error_message(c);
        CHECK_MSG(status == CCL4J_OUT_OF_MEMORY && message.find(cuda ? "of device memory" : "of host memory") !=
                                                       std::string::npos &&
                      message.find("GB (") != std::string::npos,
                  "a mesh that does not fit" + on + ": " + message);
        ccl4j_context_destroy(c);
    }
}

int main() {
    random_fields();
    cell_types();
    constant_fields();
    wrap_around();
    iteration_limits();
    serpentines();
    neighbourhoods();
    slab_counts();
    abi();
    abi_int64();
    single_layer();
    strided();
    strided_errors();
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
