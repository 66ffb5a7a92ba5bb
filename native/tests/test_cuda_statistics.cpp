// Tests of the GPU statistics (cuda/statistics.hpp) against the CPU engine (cpu/statistics.hpp):
// every column of every table and the labels in every numbering, from the fused call
// (label_mesh_statistics) and from host labels (mesh_statistics), on random 2D and 3D fields
// (connectivity 4, 8, 6 and 26; foreground and same-value mode; u8 and i32 cells; open and
// periodic axes; sizes that are no multiple of a tile; a checkerboard of a component per cell;
// columns along z whose partial rows overflow the scratch buffer, so that tiles are done again;
// a percolating field; strided meshes and intensity grids of types U8, I32 and F32), and on
// random graphs with int32 and int64 offsets (graph_statistics); the measurement columns (the GPU's
// pass over its labels against the host pass over the CPU's, and through the ABI against a CPU
// context's). Everything must be equal bit
// for bit but the SUM and MEAN of F32 intensities (1e-9 relative). Every label is poisoned before
// a run. Without a CUDA device it prints "SKIPPED: no CUDA device" and passes. With --quick, a
// smaller set (for compute-sanitizer). Prints every failure and "N passed, M failed" last.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"
#include "common/csr.hpp"
#include "common/mesh.hpp"
#include "common/statistics.hpp"
#include "cpu/measurements.hpp"
#include "cpu/statistics.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/mesh_kernels.hpp"
#include "cuda/statistics.hpp"

namespace {

using ccl4j::CellType;
using ccl4j::Intensity;
using ccl4j::IntensityType;
using ccl4j::Mesh;
using ccl4j::MeshMode;
using ccl4j::PhaseLog;
using ccl4j::StatisticsTable;
using namespace ccl4j::test;
namespace gpu = ccl4j::cuda;
namespace cpu = ccl4j::cpu;

const int32_t kNumberings[] = {CCL4J_NUMBERING_CANONICAL, CCL4J_NUMBERING_RASTER, CCL4J_NUMBERING_SIZE};
const char* const kNumberingNames[] = {"canonical", "raster", "size"};

// Compares every column of a GPU table with the CPU's, all rows at once and one range of rows.
void compare_tables(const StatisticsTable& got, const StatisticsTable& want, bool real, const std::string& what) {
    CHECK_MSG(got.kind() == want.kind(), what + ": kind");
    CHECK_MSG(got.rows() == want.rows(), what + ": " + std::to_string(got.rows()) + " rows, expected " +
                                             std::to_string(want.rows()));
    if (got.kind() != want.kind() || got.rows() != want.rows()) return;
    const int64_t k = want.rows();
    if (k == 0) return;
    CHECK_MSG(got.measured() == want.measured(), what + ": measurement columns");
    const int32_t last = want.measured() && got.measured() ? CCL4J_STAT_FACES_Z : CCL4J_STAT_MAX_DEGREE;
    for (int32_t column = 0; column <= last; ++column) {
        if (column == CCL4J_STAT_WRAPS) continue;  // (the ABI layer's, after these functions)
        const int width = ccl4j::column_width(want.kind(), column);
        if (width == 0) continue;
        std::vector<char> a(static_cast<size_t>(k) * width, 0x5a), b(static_cast<size_t>(k) * width, 0x3c);
        got.copy_column(column, 0, k, a.data());
        want.copy_column(column, 0, k, b.data());
        const bool approximate = real && (column == CCL4J_STAT_SUM || column == CCL4J_STAT_MEAN);
        int64_t bad = -1;
        for (int64_t r = 0; r < k && bad < 0; ++r) {
            if (approximate) {
                double x, y;
                std::memcpy(&x, a.data() + r * width, 8);
                std::memcpy(&y, b.data() + r * width, 8);
                if (std::isnan(x) != std::isnan(y) || (!std::isnan(y) && !(std::fabs(x - y) <= 1e-9 * std::max(1.0, std::fabs(y))))) bad = r;
            } else if (std::memcmp(a.data() + r * width, b.data() + r * width, width) != 0) {
                bad = r;
            }
        }
        CHECK_MSG(bad < 0, what + ": column " + std::to_string(column) + " differs at row " + std::to_string(bad) +
                               " of " + std::to_string(k));
        // A range of rows is that part of the whole column.
        const int64_t first = k / 3, count = std::max<int64_t>(1, k / 2);
        std::vector<char> part(static_cast<size_t>(count) * width);
        got.copy_column(column, first, count, part.data());
        CHECK_MSG(std::memcmp(part.data(), a.data() + first * width, part.size()) == 0,
                  what + ": rows " + std::to_string(first) + ".. of column " + std::to_string(column));
    }
}

// A random field; values 0..kinds-1 (foreground: 0 with probability 1 - p).
struct Field {
    int32_t width = 1, height = 1, depth = 1;
    std::vector<int32_t> values;
    int64_t size() const { return int64_t(width) * height * depth; }
};

Field random_field(int32_t w, int32_t h, int32_t d, double p, int kinds, std::mt19937& rng) {
    Field f{w, h, d, {}};
    std::uniform_real_distribution<double> coin(0, 1);
    std::uniform_int_distribution<int> kind(1, std::max(1, kinds - 1));
    f.values.resize(f.size());
    for (auto& v : f.values) v = coin(rng) < p ? kind(rng) : 0;
    return f;
}

Field checkerboard(int32_t w, int32_t h) {
    Field f{w, h, 1, {}};
    f.values.resize(f.size());
    for (int64_t i = 0; i < f.size(); ++i) f.values[i] = (i % w + i / w) % 2;
    return f;
}

// Columns along z over a checkerboard of x and y: each column's parts in the tiles below its
// first are more partial rows than the scratch buffer holds, so that tiles are done again.
Field columns(int32_t w, int32_t h, int32_t d) {
    Field f{w, h, d, {}};
    f.values.resize(f.size());
    for (int64_t i = 0; i < f.size(); ++i) f.values[i] = (i % w + i / w % h) % 2;
    return f;
}

// A mesh's cells as stored: dense or with padded rows and layers, u8 or i32 (i32 values spread
// beyond a byte, negative ones included).
struct Stored {
    std::vector<uint8_t> bytes;
    std::vector<int32_t> words;
    Mesh mesh;
};

Stored store(const Field& f, CellType type, int connectivity, bool periodic, MeshMode mode, int64_t pad) {
    Stored s;
    Mesh& m = s.mesh;
    m.width = f.width;
    m.height = f.height;
    m.depth = f.depth;
    m.cell_type = type;
    m.connectivity = connectivity;
    for (bool& axis : m.periodic) axis = periodic;
    m.mode = mode;
    if (pad) {
        m.row_stride = f.width + pad;
        m.layer_stride = m.row_stride * f.height + pad;
    }
    const int64_t span = (f.depth - 1) * m.layer_step() + (f.height - 1) * m.row_step() + f.width;
    s.bytes.assign(span, 77);
    s.words.assign(span, 77);
    for (int32_t z = 0; z < f.depth; ++z) {
        for (int32_t y = 0; y < f.height; ++y) {
            for (int32_t x = 0; x < f.width; ++x) {
                const int32_t v = f.values[x + int64_t(f.width) * (y + int64_t(f.height) * z)];
                const int64_t at = x + m.row_step() * y + m.layer_step() * z;
                s.bytes[at] = static_cast<uint8_t>(v);
                s.words[at] = v ? v * 70001 - 500000 : 0;
            }
        }
    }
    m.cells = type == CellType::U8 ? static_cast<const void*>(s.bytes.data()) : s.words.data();
    return s;
}

// An intensity grid of the field's extents with padded rows: random values of the type.
struct Grid {
    std::vector<uint8_t> bytes;
    std::vector<int32_t> words;
    std::vector<float> reals;
    Intensity intensity;
};

Grid random_grid(const Field& f, IntensityType type, std::mt19937& rng) {
    Grid g;
    const int64_t row_step = f.width + 3, layer_step = row_step * f.height + 5;
    const int64_t span = (f.depth - 1) * layer_step + (f.height - 1) * row_step + f.width;
    std::uniform_int_distribution<int32_t> word(INT32_MIN, INT32_MAX);
    std::uniform_real_distribution<float> real(-1000.0f, 1000.0f);
    g.intensity.type = type;
    g.intensity.row_step = row_step;
    g.intensity.layer_step = layer_step;
    if (type == IntensityType::U8) {
        g.bytes.resize(span);
        for (auto& v : g.bytes) v = static_cast<uint8_t>(word(rng));
        g.intensity.cells = g.bytes.data();
    } else if (type == IntensityType::I32) {
        g.words.resize(span);
        for (auto& v : g.words) v = word(rng);
        g.intensity.cells = g.words.data();
    } else {
        g.reals.resize(span);
        for (auto& v : g.reals) v = real(rng);
        g.intensity.cells = g.reals.data();
    }
    return g;
}

// NaN intensities (both signs) in a float grid: each cell's with probability `share`, and every
// other value replaced by `constant` unless it is NaN (a tile of one number and some NaNs must not
// pass for uniform). NaN takes no part in MIN/MAX and makes SUM/MEAN NaN, on both sides.
void add_nans(Grid& g, double share, float constant, std::mt19937& rng) {
    std::bernoulli_distribution nan(share);
    for (size_t i = 0; i < g.reals.size(); ++i) {
        if (nan(rng)) {
            g.reals[i] = std::copysign(std::numeric_limits<float>::quiet_NaN(), (i & 1) ? -1.0f : 1.0f);
        } else if (!std::isnan(constant)) {
            g.reals[i] = constant;
        }
    }
}

std::string describe(const Mesh& m, const char* intensity) {
    char text[200];
    std::snprintf(text, sizeof(text), "%dx%dx%d %s c%d periodic %d %s%s intensity %s", m.width, m.height, m.depth,
                  m.cell_type == CellType::U8 ? "u8" : "i32", m.connectivity, m.periodic[0],
                  m.mode == MeshMode::SameValue ? "same-value" : "foreground", m.dense() ? "" : " strided",
                  intensity);
    return text;
}

// One mesh and intensity: the GPU's tables and labels (fused and from host labels) in every
// numbering against the CPU's.
void check_mesh(gpu::DeviceState& state, const Mesh& m, const Intensity* grid, ccl4j_algorithm algorithm,
                const char* intensity_name) {
    const std::string what = describe(m, intensity_name);
    const int64_t n = m.cell_count();
    const Intensity in = grid ? *grid : ccl4j::own_intensity(m);
    std::vector<int32_t> canonical(n, kPoison);
    ccl4j_timings timings{};
    gpu::MeshTuning tuning;
    try {
        PhaseLog log(&timings);
        gpu::label_mesh(state, m, algorithm, tuning, canonical.data(), log);
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, what + ": labelling: " + e.what());
        return;
    }
    for (int v = 0; v < 3; ++v) {
        const int32_t numbering = kNumberings[v];
        const std::string run = what + " " + kNumberingNames[v];
        std::vector<int32_t> expected(n, kPoison);
        ccl4j::StatisticsTablePtr want =
            ccl4j::host_table(cpu::mesh_rows(m, canonical.data(), in, numbering, expected.data(), 0));
        // with the measurement columns, which the GPU computes on its own
        std::vector<int64_t> firsts(static_cast<size_t>(want->rows()));
        if (!firsts.empty()) want->copy_column(CCL4J_STAT_FIRST, 0, want->rows(), firsts.data());
        want = ccl4j::with_measures(std::move(want), cpu::mesh_measures(m, expected.data(), numbering, firsts, 0));
        try {
            std::vector<int32_t> labels(n, kPoison);
            PhaseLog log(&timings);
            const ccl4j::StatisticsTablePtr got =
                gpu::label_mesh_statistics(state, m, algorithm, tuning, grid, numbering, true, labels.data(), log);
            check_labels(labels, expected, run + " fused: labels");
            compare_tables(*got, *want, in.is_float(), run + " fused");
            bool named = false;
            for (int32_t p = 0; p < timings.phase_count; ++p) named |= std::strcmp(timings.phases[p].name, "stats") == 0;
            CHECK_MSG(named && std::strcmp(timings.phases[timings.phase_count - 1].name, "d2h") == 0,
                      run + " fused: phases");
        } catch (const ccl4j::Error& e) {
            CHECK_MSG(false, run + " fused: " + e.what());
        }
        try {
            std::vector<int32_t> out(n, kPoison);
            const ccl4j::StatisticsTablePtr got =
                gpu::mesh_statistics(state, m, canonical.data(), in, numbering, true, out.data());
            check_labels(out, expected, run + " host labels: labels");
            compare_tables(*got, *want, in.is_float(), run + " host labels");
            // In place: out is the labels themselves.
            std::vector<int32_t> same = canonical;
            gpu::mesh_statistics(state, m, same.data(), in, numbering, false, same.data());
            check_labels(same, expected, run + " host labels in place");
        } catch (const ccl4j::Error& e) {
            CHECK_MSG(false, run + " host labels: " + e.what());
        }
    }
}

void check_meshes(gpu::DeviceState& state, bool quick) {
    std::mt19937 rng(17);
    struct Shape {
        int32_t w, h, d;
        int connectivity[2];
    };
    const std::vector<Shape> shapes =
        quick ? std::vector<Shape>{{67, 45, 1, {4, 8}}, {21, 13, 9, {6, 26}}}
              : std::vector<Shape>{{67, 45, 1, {4, 8}},   {300, 200, 1, {4, 8}}, {1, 50, 1, {4, 8}},
                                   {50, 1, 1, {4, 8}},    {129, 33, 1, {4, 8}},  {21, 13, 9, {6, 26}},
                                   {40, 40, 40, {6, 26}}, {1, 1, 30, {6, 26}},   {130, 5, 3, {6, 26}}};
    for (const Shape& s : shapes) {
        for (int c : s.connectivity) {
            for (MeshMode mode : {MeshMode::Foreground, MeshMode::SameValue}) {
                const Field f = random_field(s.w, s.h, s.d, 0.55, mode == MeshMode::SameValue ? 3 : 2, rng);
                for (CellType type : {CellType::U8, CellType::I32}) {
                    for (bool periodic : {false, true}) {
                        const Stored stored = store(f, type, c, periodic, mode, 0);
                        check_mesh(state, stored.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own");
                    }
                }
            }
        }
    }
    // Strided cells and intensity grids of every type; another algorithm's labels.
    for (const Shape& s : shapes) {
        const Field f = random_field(s.w, s.h, s.d, 0.6, 4, rng);
        const Stored stored = store(f, CellType::I32, s.connectivity[0], false, MeshMode::Foreground, 2);
        check_mesh(state, stored.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own");
        const char* names[] = {"", "u8", "i32", "f32"};
        for (IntensityType type : {IntensityType::U8, IntensityType::I32, IntensityType::F32}) {
            const Grid g = random_grid(f, type, rng);
            check_mesh(state, stored.mesh, &g.intensity, CCL4J_ALGORITHM_MESH_UNION_FIND,
                       names[static_cast<int>(type)]);
        }
        struct NanCase { double share; float constant; const char* name; };
        const float random_values = std::numeric_limits<float>::quiet_NaN();
        for (const NanCase& n : {NanCase{0.3, random_values, "f32 with NaNs"}, NanCase{0.05, 7.0f, "f32 7 with NaNs"},
                                 NanCase{1.0, random_values, "f32 all NaN"}}) {
            Grid g = random_grid(f, IntensityType::F32, rng);
            add_nans(g, n.share, n.constant, rng);
            check_mesh(state, stored.mesh, &g.intensity, CCL4J_ALGORITHM_MESH_UNION_FIND, n.name);
        }
        check_mesh(state, stored.mesh, nullptr, CCL4J_ALGORITHM_MESH_KOMURA, "own (komura)");
    }
    // More rows than a tile's table holds (a checkerboard: a cluster per foreground cell), an
    // empty field, a full one, and a percolating cluster over many tiles.
    const Field board = checkerboard(quick ? 200 : 515, quick ? 64 : 300);
    const Stored stored_board = store(board, CellType::U8, 4, false, MeshMode::Foreground, 0);
    check_mesh(state, stored_board.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own (checkerboard)");
    const Field pillars = columns(quick ? 20 : 40, quick ? 20 : 40, 64);
    const Stored stored_pillars = store(pillars, CellType::U8, 6, false, MeshMode::Foreground, 0);
    check_mesh(state, stored_pillars.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own (columns)");
    const Grid pillar_intensity = random_grid(pillars, IntensityType::F32, rng);
    check_mesh(state, stored_pillars.mesh, &pillar_intensity.intensity, CCL4J_ALGORITHM_MESH_UNION_FIND,
               "f32 (columns)");
    const Field empty = random_field(70, 30, 1, 0.0, 2, rng);
    const Stored stored_empty = store(empty, CellType::U8, 8, false, MeshMode::Foreground, 0);
    check_mesh(state, stored_empty.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own (empty)");
    const Field full = random_field(70, 30, 2, 1.0, 2, rng);
    const Stored stored_full = store(full, CellType::U8, 6, true, MeshMode::Foreground, 0);
    check_mesh(state, stored_full.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own (full)");
    if (!quick) {
        const Field large = random_field(4100, 1000, 1, 0.65, 2, rng);  // more tiles than a grid holds
        const Stored stored_large = store(large, CellType::U8, 4, false, MeshMode::Foreground, 0);
        const Grid g = random_grid(large, IntensityType::F32, rng);
        check_mesh(state, stored_large.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own (percolating)");
        check_mesh(state, stored_large.mesh, &g.intensity, CCL4J_ALGORITHM_MESH_UNION_FIND, "f32 (percolating)");
        const Field cube = random_field(300, 300, 100, 0.35, 2, rng);
        const Stored stored_cube = store(cube, CellType::U8, 6, false, MeshMode::Foreground, 0);
        check_mesh(state, stored_cube.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own (percolating)");
    }
}

// A random CSR graph: symmetric edges, some self-loops, some one-way arcs and repeated arcs;
// canonical labels of its components (arcs joined either way) by a union-find.
struct RandomGraph {
    int32_t n = 0;
    std::vector<int32_t> offsets;
    std::vector<int64_t> wide;
    std::vector<int32_t> neighbors;
    std::vector<int32_t> labels;

    ccl4j::Graph view(bool offsets64) const {
        return ccl4j::Graph{n, static_cast<int64_t>(neighbors.size()), offsets64 ? 8 : 4,
                            offsets64 ? static_cast<const void*>(wide.data()) : offsets.data(), neighbors.data()};
    }
};

RandomGraph random_graph(int32_t n, int64_t edges, std::mt19937& rng) {
    RandomGraph g;
    g.n = n;
    std::vector<std::vector<int32_t>> adjacency(n);
    std::uniform_int_distribution<int32_t> vertex(0, std::max(0, n - 1));
    std::uniform_int_distribution<int> kind(0, 9);
    for (int64_t e = 0; n > 0 && e < edges; ++e) {
        const int32_t u = vertex(rng);
        // mostly nearby vertices, so that a warp's lanes share components
        const int32_t v = kind(rng) < 7 ? std::min(n - 1, u + 1 + vertex(rng) % 4) : vertex(rng);
        const int k = kind(rng);
        if (k == 0) {
            adjacency[u].push_back(u);
        } else if (k == 1) {
            adjacency[u].push_back(v);
        } else {
            adjacency[u].push_back(v);
            adjacency[v].push_back(u);
        }
    }
    g.offsets.push_back(0);
    for (auto& list : adjacency) {
        g.neighbors.insert(g.neighbors.end(), list.begin(), list.end());
        g.offsets.push_back(static_cast<int32_t>(g.neighbors.size()));
    }
    g.wide.assign(g.offsets.begin(), g.offsets.end());
    std::vector<int32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (int32_t u = 0; u < n; ++u) {
        for (int32_t a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
            const int32_t x = find(u), y = find(g.neighbors[a]);
            if (x != y) parent[std::max(x, y)] = std::min(x, y);
        }
    }
    g.labels.resize(n);
    for (int32_t v = 0; v < n; ++v) g.labels[v] = find(v);
    return g;
}

void check_graphs(gpu::DeviceState& state, bool quick) {
    std::mt19937 rng(29);
    const std::vector<std::pair<int32_t, int64_t>> sizes =
        quick ? std::vector<std::pair<int32_t, int64_t>>{{0, 0}, {1, 1}, {1000, 700}}
              : std::vector<std::pair<int32_t, int64_t>>{{0, 0},         {1, 1},         {33, 10},
                                                         {1000, 700},    {1000, 3000},   {100000, 60000},
                                                         {200000, 400000}};
    for (const auto& [n, edges] : sizes) {
        const RandomGraph g = random_graph(n, edges, rng);
        for (bool offsets64 : {false, true}) {
            const ccl4j::Graph view = g.view(offsets64);
            for (int v = 0; v < 3; ++v) {
                const std::string what = "graph " + std::to_string(n) + " vertices " +
                                         std::to_string(g.neighbors.size()) + " arcs " +
                                         (offsets64 ? "int64" : "int32") + " offsets " + kNumberingNames[v];
                std::vector<int32_t> expected(n, kPoison), out(n, kPoison);
                const ccl4j::StatisticsTablePtr want =
                    ccl4j::host_table(cpu::graph_rows(view, g.labels.data(), kNumberings[v], expected.data(), 0));
                try {
                    const ccl4j::StatisticsTablePtr got =
                        gpu::graph_statistics(state, view, g.labels.data(), kNumberings[v], out.data());
                    check_labels(out, expected, what + ": labels");
                    compare_tables(*got, *want, false, what);
                } catch (const ccl4j::Error& e) {
                    CHECK_MSG(false, what + ": " + e.what());
                }
            }
        }
    }
}

// A single cell and a single vertex, each on a state of its own, so that no earlier call has
// grown its buffers: the root index needs more than one int32 of scratch even then.
void check_single_cells() {
    std::mt19937 rng(5);
    for (MeshMode mode : {MeshMode::Foreground, MeshMode::SameValue}) {
        gpu::DeviceStatePtr fresh = gpu::create_state(0);
        const Field f = random_field(1, 1, 1, 1.0, 2, rng);
        const Stored stored = store(f, CellType::U8, 4, false, mode, 0);
        check_mesh(*fresh, stored.mesh, nullptr, CCL4J_ALGORITHM_MESH_UNION_FIND, "own, fresh state");
    }
    gpu::DeviceStatePtr fresh = gpu::create_state(0);
    const RandomGraph g = random_graph(1, 0, rng);
    std::vector<int32_t> expected(1, kPoison), out(1, kPoison);
    const ccl4j::StatisticsTablePtr want = ccl4j::host_table(
        cpu::graph_rows(g.view(false), g.labels.data(), CCL4J_NUMBERING_CANONICAL, expected.data(), 0));
    try {
        const ccl4j::StatisticsTablePtr got =
            gpu::graph_statistics(*fresh, g.view(false), g.labels.data(), CCL4J_NUMBERING_CANONICAL, out.data());
        check_labels(out, expected, "graph of 1 vertex, fresh state: labels");
        compare_tables(*got, *want, false, "graph of 1 vertex, fresh state");
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, std::string("graph of 1 vertex, fresh state: ") + e.what());
    }
}

// A table is unreadable once a later statistics call has reused its memory.
void check_stale_table(gpu::DeviceState& state) {
    std::mt19937 rng(3);
    const RandomGraph g = random_graph(100, 80, rng);
    const ccl4j::StatisticsTablePtr old =
        gpu::graph_statistics(state, g.view(false), g.labels.data(), CCL4J_NUMBERING_RASTER, nullptr);
    gpu::graph_statistics(state, g.view(false), g.labels.data(), CCL4J_NUMBERING_SIZE, nullptr);
    std::vector<int64_t> sizes(old->rows());
    check_fails([&] { old->copy_column(CCL4J_STAT_SIZE, 0, old->rows(), sizes.data()); }, CCL4J_INVALID_ARGUMENT,
                "a stale table");
}

// Every column of the table a context holds (k rows), as bytes; the measurements too when `measured`.
std::vector<std::vector<char>> abi_columns(ccl4j_context context, int64_t k, bool measured = false) {
    std::vector<std::vector<char>> columns;
    for (int32_t column = 0; column <= (measured ? CCL4J_STAT_FACES_Z : CCL4J_STAT_WRAPS); ++column) {
        const int width = ccl4j::column_width(ccl4j::TableKind::Mesh, column);
        if (width == 0) continue;
        columns.emplace_back(static_cast<size_t>(std::max<int64_t>(k, 1)) * width, 0);
        CHECK_MSG(ccl4j_statistics_column(context, column, 0, k, columns.back().data()) == CCL4J_SUCCESS,
                  ccl4j_context_error_message(context));
    }
    return columns;
}

// int64 labels through the ABI: a CUDA context labels them on the device and sums the table on the
// host; labels and every column equal a CPU context's.
void check_wide_labels() {
    std::mt19937 rng(11);
    ccl4j_context cuda = nullptr, cpu = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &cuda) == CCL4J_SUCCESS);
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &cpu) == CCL4J_SUCCESS);
    struct Shape3 { int32_t w, h, d, connectivity; int32_t periodic; };
    for (const Shape3 s : {Shape3{301, 203, 1, 8, 0}, Shape3{64, 50, 1, 4, 3}, Shape3{40, 33, 29, 26, 0},
                           Shape3{31, 30, 17, 6, 7}}) {
        const int64_t n = int64_t(s.w) * s.h * s.d;
        std::bernoulli_distribution occupied(0.45);
        std::vector<uint8_t> cells(n);
        for (uint8_t& c : cells) c = occupied(rng) ? 1 : 0;
        const ccl4j_mesh mesh{s.w, s.h, s.d, CCL4J_CELL_U8, 0, 0};
        ccl4j_mesh_options options{};
        options.connectivity = s.connectivity;
        options.periodic = static_cast<uint32_t>(s.periodic);
        for (int32_t numbering : {CCL4J_NUMBERING_CANONICAL, CCL4J_NUMBERING_RASTER, CCL4J_NUMBERING_SIZE}) {
            const std::string what = "int64 " + std::to_string(s.w) + "x" + std::to_string(s.h) + "x" +
                                     std::to_string(s.d) + " conn " + std::to_string(s.connectivity) + " numbering " +
                                     std::to_string(numbering);
            ccl4j_statistics_options o{numbering, CCL4J_INTENSITY_NONE, 0, 0, 0};
            std::vector<int64_t> got(n, kPoison), want(n, kPoison);
            int64_t k_got = -1, k_want = -2;
            CHECK_MSG(ccl4j_label_mesh64_statistics(cuda, &mesh, cells.data(), &options, &o, nullptr, got.data(), &k_got,
                                                    nullptr) == CCL4J_SUCCESS,
                      what + ": " + ccl4j_context_error_message(cuda));
            CHECK_MSG(ccl4j_label_mesh64_statistics(cpu, &mesh, cells.data(), &options, &o, nullptr, want.data(), &k_want,
                                                    nullptr) == CCL4J_SUCCESS,
                      what + ": " + ccl4j_context_error_message(cpu));
            CHECK_MSG(k_got == k_want, what + ": rows");
            CHECK_MSG(got == want, what + ": labels");
            if (k_got == k_want) CHECK_MSG(abi_columns(cuda, k_got) == abi_columns(cpu, k_want), what + ": columns");
        }
    }
    ccl4j_context_destroy(cuda);
    ccl4j_context_destroy(cpu);
}

// Measurements through the ABI: a CUDA context's table (its fused pass, and from host labels with
// and without labels out) has the measurement columns of a CPU context's, bit for bit.
void check_measurements() {
    std::mt19937 rng(13);
    ccl4j_context cuda = nullptr, cpu = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &cuda) == CCL4J_SUCCESS);
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &cpu) == CCL4J_SUCCESS);
    struct Shape3 { int32_t w, h, d, connectivity; };
    for (const Shape3 s : {Shape3{301, 203, 1, 8}, Shape3{64, 50, 1, 4}, Shape3{40, 33, 29, 26}, Shape3{31, 30, 17, 6}}) {
        const int64_t n = int64_t(s.w) * s.h * s.d;
        std::bernoulli_distribution occupied(0.55);
        std::vector<uint8_t> cells(n);
        for (uint8_t& c : cells) c = occupied(rng) ? 1 : 0;
        const ccl4j_mesh mesh{s.w, s.h, s.d, CCL4J_CELL_U8, 0, 0};
        ccl4j_mesh_options options{};
        options.connectivity = s.connectivity;
        std::vector<int32_t> canonical(n);
        CHECK(ccl4j_label_mesh(cpu, &mesh, cells.data(), &options, canonical.data(), nullptr) == CCL4J_SUCCESS);
        for (int32_t numbering : {CCL4J_NUMBERING_CANONICAL, CCL4J_NUMBERING_RASTER, CCL4J_NUMBERING_SIZE}) {
            const std::string what = "measurements " + std::to_string(s.w) + "x" + std::to_string(s.h) + "x" +
                                     std::to_string(s.d) + " conn " + std::to_string(s.connectivity) + " numbering " +
                                     std::to_string(numbering);
            ccl4j_statistics_options o{numbering, CCL4J_INTENSITY_NONE, 0, 0, 1};
            std::vector<int32_t> got(n, kPoison), want(n, kPoison);
            int64_t k_got = -1, k_want = -2;
            CHECK_MSG(ccl4j_label_mesh_statistics(cuda, &mesh, cells.data(), &options, &o, nullptr, got.data(), &k_got,
                                                  nullptr) == CCL4J_SUCCESS,
                      what + ": " + ccl4j_context_error_message(cuda));
            CHECK_MSG(ccl4j_label_mesh_statistics(cpu, &mesh, cells.data(), &options, &o, nullptr, want.data(), &k_want,
                                                  nullptr) == CCL4J_SUCCESS,
                      what + ": " + ccl4j_context_error_message(cpu));
            CHECK_MSG(k_got == k_want && got == want, what + ": rows and labels");
            if (k_got != k_want) continue;
            const auto expected = abi_columns(cpu, k_want, true);
            CHECK_MSG(abi_columns(cuda, k_got, true) == expected, what + ": columns of the fused call");
            for (bool out : {false, true}) {
                std::vector<int32_t> relabelled(n, kPoison);
                CHECK_MSG(ccl4j_mesh_statistics(cuda, &mesh, cells.data(), &options, canonical.data(), &o, nullptr,
                                                out ? relabelled.data() : nullptr, &k_got) == CCL4J_SUCCESS,
                          what + ": " + ccl4j_context_error_message(cuda));
                CHECK_MSG(k_got == k_want && abi_columns(cuda, k_got, true) == expected,
                          what + (out ? ": columns from labels, out" : ": columns from labels"));
            }
        }
    }
    ccl4j_context_destroy(cuda);
    ccl4j_context_destroy(cpu);
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    if (gpu::device_count() == 0) {
        std::printf("SKIPPED: no CUDA device\n");
        return 0;
    }
    try {
        gpu::DeviceStatePtr state = gpu::create_state(0);
        run("meshes", [&] { check_meshes(*state, quick); });
        run("graphs", [&] { check_graphs(*state, quick); });
        run("stale table", [&] { check_stale_table(*state); });
        run("single cells", [] { check_single_cells(); });
        run("int64 labels", [] { check_wide_labels(); });
        run("measurements", [] { check_measurements(); });
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, std::string("unexpected error: ") + e.what());
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
