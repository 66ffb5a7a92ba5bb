// Tests of the GPU mesh algorithms (kernels A-D, Komura's lattice algorithm, block union-find)
// against a breadth-first search written here: random fields of several densities, every
// connectivity, open and periodic axes (lengths 1 and 2 included), both modes and cell types,
// single rows and columns, all-background and all-foreground meshes, sizes that are no multiple
// of a block or tile, Hawick's spiral (two one-pixel spirals: exactly 2 clusters in same-value
// mode), tuning (block and tile sizes), strided meshes (padded rows and layers, from pageable,
// pinned and device memory), iteration limits, and the rejections. Every label is poisoned before
// a run. Without a CUDA device it prints "SKIPPED: no CUDA device" and passes.
// With --quick, a smaller set (for compute-sanitizer). Prints every failure and
// "N passed, M failed" last.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "api/options.hpp"
#include "ccl4j.h"
#include "check.hpp"
#include "common/mesh.hpp"
#include "cuda/cuda_backend.hpp"
#include "cpu/mesh_cpu.hpp"
#include "cuda/mesh_kernels.hpp"

namespace {

using ccl4j::CellType;
using ccl4j::Mesh;
using ccl4j::MeshMode;
using ccl4j::PhaseLog;
using namespace ccl4j::test;
namespace gpu = ccl4j::cuda;

struct Algorithm {
    const char* name;
    ccl4j_algorithm id;
    std::vector<std::string> phases;  // between h2d and d2h
    bool iterative;
};

const std::vector<Algorithm> kAlgorithms = {
    {"A", CCL4J_ALGORITHM_MESH_NEIGHBOR, {"init", "propagate"}, true},
    {"B", CCL4J_ALGORITHM_MESH_LOCAL, {"init", "propagate"}, true},
    {"C", CCL4J_ALGORITHM_MESH_DIRECTIONAL, {"init", "propagate"}, true},
    {"D", CCL4J_ALGORITHM_MESH_EQUIVALENCE, {"init", "scan", "analysis", "labelling"}, true},
    {"komura", CCL4J_ALGORITHM_MESH_KOMURA, {"init", "analysis1", "reduction", "analysis2"}, false},
    {"union-find", CCL4J_ALGORITHM_MESH_UNION_FIND, {"local", "merge", "finalize"}, false},
};

// A mesh with its own cells (u8 or i32 values held as int32 here, narrowed for u8).
struct Field {
    int32_t width = 1, height = 1, depth = 1;
    std::vector<int32_t> values;
    std::vector<uint8_t> bytes;  // the u8 copy

    int64_t size() const { return int64_t(width) * height * depth; }
    Mesh mesh(CellType type, int connectivity, const bool periodic[3], MeshMode mode) {
        Mesh m;
        m.width = width;
        m.height = height;
        m.depth = depth;
        m.cell_type = type;
        if (type == CellType::U8) {
            bytes.assign(values.begin(), values.end());
            m.cells = bytes.data();
        } else {
            m.cells = values.data();
        }
        m.connectivity = connectivity;
        for (int a = 0; a < 3; ++a) m.periodic[a] = periodic[a];
        m.mode = mode;
        return m;
    }
};

// Cells drawn from {0, 1, ..., kinds - 1} (foreground: 0 with probability 1 - p, else 1..kinds-1),
// scaled for i32 so that values beyond a byte appear: value * 40000 - 3 for non-zero values.
Field random_field(int32_t w, int32_t h, int32_t d, double p, int kinds, bool wide, std::mt19937& rng) {
    Field f;
    f.width = w;
    f.height = h;
    f.depth = d;
    std::uniform_real_distribution<double> coin(0, 1);
    std::uniform_int_distribution<int> kind(1, kinds - 1);
    f.values.resize(f.size());
    for (auto& v : f.values) {
        const int k = coin(rng) < p ? kind(rng) : 0;
        v = wide && k ? k * 40000 - 3 : k;
    }
    return f;
}

// Hawick's spiral: a one-pixel wall of 1s winding inwards, the corridor of 0s between its turns.
Field spiral(int32_t n) {
    Field f;
    f.width = f.height = n;
    f.values.assign(size_t(n) * n, 0);
    int32_t x = 0, y = 0;
    f.values[0] = 1;
    std::vector<int32_t> lengths = {n - 1, n - 1, n - 1};
    for (int32_t l = n - 3; l > 0; l -= 2) lengths.insert(lengths.end(), {l, l});
    const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
    for (size_t s = 0; s < lengths.size(); ++s) {
        for (int32_t i = 0; i < lengths[s]; ++i) {
            x += dx[s % 4];
            y += dy[s % 4];
            f.values[size_t(x) + size_t(n) * y] = 1;
        }
    }
    return f;
}

// The reference: a breadth-first search from every unlabelled labelled cell in index order, so
// each cluster gets the index of its smallest cell.
std::vector<int32_t> reference(const Field& f, int connectivity, const bool periodic[3], MeshMode mode) {
    const int32_t dims[3] = {f.width, f.height, f.depth};
    std::vector<int32_t> labels(f.size(), -1);
    auto is_labelled = [&](int64_t i) { return mode == MeshMode::SameValue || f.values[i] != 0; };
    std::vector<int> offsets;  // (dx, dy, dz) triples of the stencil
    for (int dz = -1; dz <= 1; ++dz) {
        for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
                const int manhattan = (dx != 0) + (dy != 0) + (dz != 0);
                bool use = manhattan > 0;
                if (connectivity == 4) use = use && dz == 0 && manhattan == 1;
                if (connectivity == 8) use = use && dz == 0;
                if (connectivity == 6) use = use && manhattan == 1;
                if (connectivity == 18) use = use && manhattan <= 2;
                if (use) offsets.insert(offsets.end(), {dx, dy, dz});
            }
        }
    }
    for (int64_t start = 0; start < f.size(); ++start) {
        if (labels[start] >= 0 || !is_labelled(start)) continue;
        labels[start] = static_cast<int32_t>(start);
        std::deque<int64_t> queue = {start};
        while (!queue.empty()) {
            const int64_t i = queue.front();
            queue.pop_front();
            const int32_t c[3] = {static_cast<int32_t>(i % f.width), static_cast<int32_t>(i / f.width % f.height),
                                  static_cast<int32_t>(i / f.width / f.height)};
            for (size_t o = 0; o < offsets.size(); o += 3) {
                int32_t n[3];
                bool exists = true;
                for (int a = 0; a < 3; ++a) {
                    n[a] = c[a] + offsets[o + a];
                    if (n[a] < 0 || n[a] >= dims[a]) {
                        if (!periodic[a]) exists = false;
                        n[a] = (n[a] + dims[a]) % dims[a];
                    }
                }
                if (!exists) continue;
                const int64_t j = n[0] + int64_t(f.width) * (n[1] + int64_t(f.height) * n[2]);
                if (labels[j] >= 0 || !is_labelled(j)) continue;
                const bool joined = mode == MeshMode::SameValue ? f.values[i] == f.values[j] : true;
                if (!joined) continue;
                labels[j] = static_cast<int32_t>(start);
                queue.push_back(j);
            }
        }
    }
    return labels;
}

std::string describe(const Field& f, const char* algorithm, CellType type, int connectivity, const bool periodic[3],
                     MeshMode mode, const std::string& extra = "") {
    char text[256];
    std::snprintf(text, sizeof(text), "%s %dx%dx%d %s c%d periodic %d%d%d %s%s", algorithm, f.width, f.height, f.depth,
                  type == CellType::U8 ? "u8" : "i32", connectivity, periodic[0], periodic[1], periodic[2],
                  mode == MeshMode::SameValue ? "same-value" : "foreground", extra.c_str());
    return text;
}

// Runs one algorithm and compares with the expected labels, phases and iterations.
void check_run(gpu::DeviceState& state, Field& f, const Algorithm& algorithm, CellType type, int connectivity,
               const bool periodic[3], MeshMode mode, const std::vector<int32_t>& expected,
               const gpu::MeshTuning& tuning = {}) {
    const Mesh m = f.mesh(type, connectivity, periodic, mode);
    std::vector<int32_t> labels(f.size(), kPoison);
    ccl4j_timings timings{};
    PhaseLog log(&timings);
    const std::string what = describe(f, algorithm.name, type, connectivity, periodic, mode,
                                      tuning.tile_size || tuning.block_size
                                          ? " tile " + std::to_string(tuning.tile_size) + " block " +
                                                std::to_string(tuning.block_size)
                                          : "");
    try {
        gpu::label_mesh(state, m, algorithm.id, tuning, labels.data(), log);
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, what + ": " + e.what());
        return;
    }
    check_labels(labels, expected, what);
    std::vector<std::string> phases = {"h2d"};
    phases.insert(phases.end(), algorithm.phases.begin(), algorithm.phases.end());
    phases.push_back("d2h");
    check_phases(timings, phases, what);
    if (algorithm.id == CCL4J_ALGORITHM_MESH_UNION_FIND) {
        // The same into int64 labels, its trees built in them.
        std::vector<int64_t> wide(f.size(), kPoison);
        ccl4j_timings wide_timings{};
        PhaseLog wide_log(&wide_timings);
        try {
            gpu::label_mesh(state, m, algorithm.id, tuning, wide.data(), wide_log);
        } catch (const ccl4j::Error& e) {
            CHECK_MSG(false, what + " int64: " + e.what());
            return;
        }
        narrow(wide, labels.data());
        check_labels(labels, expected, what + " int64");
        check_phases(wide_timings, phases, what + " int64");
    }
    if (algorithm.iterative) {
        CHECK_MSG(timings.iterations >= 1 && timings.iterations <= f.size() + 1, what + ": iterations");
    } else {
        CHECK_MSG(timings.iterations == 0, what + ": iterations");
    }
}

// Every algorithm, both cell types and both modes on one field shape, with the periodic choices given.
void check_field(gpu::DeviceState& state, Field& f, const std::vector<int>& connectivities,
                 const std::vector<std::vector<bool>>& periodics, bool skip_slow = false) {
    for (int connectivity : connectivities) {
        for (const auto& p : periodics) {
            const bool periodic[3] = {p[0], p[1], p[2]};
            for (MeshMode mode : {MeshMode::Foreground, MeshMode::SameValue}) {
                const std::vector<int32_t> expected = reference(f, connectivity, periodic, mode);
                for (CellType type : {CellType::U8, CellType::I32}) {
                    for (const Algorithm& a : kAlgorithms) {
                        if (skip_slow && (a.id == CCL4J_ALGORITHM_MESH_NEIGHBOR || a.id == CCL4J_ALGORITHM_MESH_LOCAL ||
                                          a.id == CCL4J_ALGORITHM_MESH_DIRECTIONAL)) {
                            continue;
                        }
                        check_run(state, f, a, type, connectivity, periodic, mode, expected);
                    }
                }
            }
        }
    }
}

std::vector<std::vector<bool>> periodic_choices(bool three_d, std::mt19937& rng, bool all) {
    std::vector<std::vector<bool>> choices;
    const int axes = three_d ? 3 : 2;
    for (int bits = 0; bits < (1 << axes); ++bits) {
        if (!all && bits != 0 && bits != (1 << axes) - 1 && rng() % 3 != 0) continue;
        choices.push_back({bool(bits & 1), bool(bits & 2), bool(bits & 4)});
    }
    return choices;
}

int64_t clusters(const std::vector<int32_t>& labels) {
    int64_t count = 0;
    for (size_t i = 0; i < labels.size(); ++i) count += labels[i] == static_cast<int32_t>(i);
    return count;
}

void run_tests(gpu::DeviceState& state, bool quick) {
    std::mt19937 rng(20261122);
    // 2D shapes: single cells, rows, columns, axes of length 1 and 2, sizes that are no multiple of
    // a warp, block or tile (32 x 32 union-find tiles, 16 x 16 kernel B tiles).
    const std::vector<std::pair<int32_t, int32_t>> shapes2d =
        quick ? std::vector<std::pair<int32_t, int32_t>>{{1, 1}, {37, 1}, {1, 29}, {2, 2}, {45, 38}}
              : std::vector<std::pair<int32_t, int32_t>>{{1, 1},  {53, 1},  {1, 47},  {2, 1},   {1, 2},  {2, 2},
                                                          {2, 33}, {33, 2},  {37, 29}, {67, 45}, {64, 64}, {97, 70}};
    const std::vector<double> densities = quick ? std::vector<double>{0.6} : std::vector<double>{0.3, 0.6, 0.9};
    for (auto [w, h] : shapes2d) {
        for (double p : densities) {
            for (bool wide : {false, true}) {
                Field f = random_field(w, h, 1, p, 3, wide, rng);
                check_field(state, f, {4, 8}, periodic_choices(false, rng, !quick));
            }
        }
    }
    // 3D stencils on a single layer (they act as 4 and 8) and 3D shapes.
    {
        Field f = random_field(23, 19, 1, 0.6, 3, false, rng);
        check_field(state, f, {6, 18, 26}, {{false, false, false}, {true, true, true}});
    }
    const std::vector<std::array<int32_t, 3>> shapes3d =
        quick ? std::vector<std::array<int32_t, 3>>{{1, 1, 5}, {9, 5, 4}, {35, 10, 9}}
              : std::vector<std::array<int32_t, 3>>{{1, 1, 1},  {1, 1, 7},   {2, 2, 2},   {1, 6, 1},
                                                     {5, 7, 3},  {33, 9, 10}, {17, 13, 11}, {40, 12, 19},
                                                     {35, 37, 18}};
    const std::vector<double> densities3d = quick ? std::vector<double>{0.3} : std::vector<double>{0.2, 0.35, 0.7};
    for (auto [w, h, d] : shapes3d) {
        for (double p : densities3d) {
            Field f = random_field(w, h, d, p, 3, p > 0.5, rng);
            check_field(state, f, {6, 18, 26}, periodic_choices(true, rng, !quick && w * h * d < 2000));
        }
    }
    // All background and all foreground (0 and one non-zero value everywhere).
    for (int32_t value : {0, 5}) {
        Field f2 = random_field(70, 33, 1, 0, 2, false, rng);
        Field f3 = random_field(34, 9, 9, 0, 2, false, rng);
        for (Field* f : {&f2, &f3}) {
            for (auto& v : f->values) v = value;
            check_field(state, *f, f == &f2 ? std::vector<int>{4, 8} : std::vector<int>{6, 18, 26},
                        {{false, false, false}, {true, true, true}});
        }
    }
    // Hawick's spiral: 2 clusters in same-value mode, whatever the connectivity.
    for (int32_t n : quick ? std::vector<int32_t>{41} : std::vector<int32_t>{12, 41, 100}) {
        Field f = spiral(n);
        const bool open[3] = {false, false, false};
        for (int connectivity : {4, 8}) {
            const std::vector<int32_t> expected = reference(f, connectivity, open, MeshMode::SameValue);
            CHECK_MSG(clusters(expected) == 2, "spiral " + std::to_string(n) + ": the reference finds 2 clusters");
            for (const Algorithm& a : kAlgorithms) {
                check_run(state, f, a, CellType::U8, connectivity, open, MeshMode::SameValue, expected);
            }
        }
    }
    // Larger fields near the percolation thresholds, where clusters cross many tiles (the fast
    // algorithms only: kernels A-C need a pass per cell of a cluster's length).
    {
        Field f2 = random_field(quick ? 300 : 1000, quick ? 200 : 777, 1, 0.59, 2, false, rng);
        check_field(state, f2, {4, 8}, {{false, false, false}, {true, true, false}}, true);
        Field f3 = random_field(quick ? 50 : 100, quick ? 40 : 90, quick ? 30 : 70, 0.31, 2, true, rng);
        check_field(state, f3, {6, 18, 26}, {{false, false, false}, {true, true, true}}, true);
    }
    // Tuning: tile sizes of kernel B, block sizes of the one-thread-per-cell kernels.
    {
        Field f2 = random_field(75, 61, 1, 0.6, 3, false, rng);
        Field f3 = random_field(21, 18, 13, 0.35, 3, false, rng);
        const bool periodic[3] = {true, false, true};
        for (Field* f : {&f2, &f3}) {
            const bool flat = f->depth == 1;
            const int connectivity = flat ? 8 : 26;
            const std::vector<int32_t> expected = reference(*f, connectivity, periodic, MeshMode::Foreground);
            for (int32_t tile : flat ? std::vector<int32_t>{1, 4, 7, 32} : std::vector<int32_t>{2, 5, 10}) {
                gpu::MeshTuning tuning;
                tuning.tile_size = tile;
                check_run(state, *f, kAlgorithms[1], CellType::U8, connectivity, periodic, MeshMode::Foreground,
                          expected, tuning);
            }
            for (int32_t block : {32, 96, 1024}) {
                gpu::MeshTuning tuning;
                tuning.block_size = block;
                for (const Algorithm& a : kAlgorithms) {
                    check_run(state, *f, a, CellType::I32, connectivity, periodic, MeshMode::Foreground, expected,
                              tuning);
                }
            }
        }
    }
}

// ---- strided meshes ----------------------------------------------------------------------------

// Where the cells of a strided mesh come from: pageable or pinned host memory, or device memory.
enum class Memory { Pageable, Pinned, Device };

const char* memory_name(Memory memory) {
    return memory == Memory::Pageable ? "pageable" : memory == Memory::Pinned ? "pinned" : "device";
}

// A buffer of `bytes` in `memory`, filled from `host`, freed with the object.
class Buffer {
public:
    Buffer(Memory memory, const std::vector<uint8_t>& host) : memory_(memory), bytes_(host.size()) {
        if (memory == Memory::Pageable) {
            pageable_ = host;
            data_ = pageable_.data();
        } else if (memory == Memory::Pinned) {
            data_ = ccl4j::cuda::pinned_alloc(bytes_);
            if (data_) std::memcpy(data_, host.data(), bytes_);
        } else {
            if (cudaMalloc(&data_, bytes_) != cudaSuccess) data_ = nullptr;
            if (data_ && cudaMemcpy(data_, host.data(), bytes_, cudaMemcpyHostToDevice) != cudaSuccess) data_ = nullptr;
        }
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() {
        if (memory_ == Memory::Pinned && data_) ccl4j::cuda::pinned_free(data_);
        if (memory_ == Memory::Device && data_) cudaFree(data_);
    }
    uint8_t* data() const { return static_cast<uint8_t*>(data_); }

private:
    Memory memory_;
    size_t bytes_;
    std::vector<uint8_t> pageable_;
    void* data_ = nullptr;
};

// The bytes of a field's cells placed in a larger buffer: `first` cells before the first, rows
// row_stride cells apart, layers layer_stride apart, the buffer ending with the last cell (so a
// copy that read past the region would leave its allocation). The gaps hold non-zero cells that
// would join clusters if they were read.
std::vector<uint8_t> embed(const Field& f, CellType type, int64_t first, int64_t row_stride, int64_t layer_stride) {
    const size_t cell = static_cast<size_t>(type);
    const int64_t span = first + layer_stride * (f.depth - 1) + row_stride * (f.height - 1) + f.width;
    std::vector<uint8_t> bytes(static_cast<size_t>(span) * cell, uint8_t(0x3C));
    for (int32_t z = 0; z < f.depth; ++z) {
        for (int32_t y = 0; y < f.height; ++y) {
            for (int32_t x = 0; x < f.width; ++x) {
                const int32_t v = f.values[size_t(x) + size_t(f.width) * (y + size_t(f.height) * z)];
                uint8_t* at = &bytes[static_cast<size_t>(first + x + row_stride * y + layer_stride * z) * cell];
                if (type == CellType::U8) {
                    *at = static_cast<uint8_t>(v);
                } else {
                    std::memcpy(at, &v, sizeof(v));
                }
            }
        }
    }
    return bytes;
}

// Strided meshes give the labels of the same cells dense, whichever way the copy gathers them:
// padded rows (one pitched 3D copy), layers a whole number of rows apart (3D), layers apart by
// other amounts (a 2D copy per layer), single-row layers (rows a layer apart); from pageable,
// pinned and device memory, with the region at the end of its buffer.
void check_strided(gpu::DeviceState& state, bool quick) {
    std::mt19937 rng(4242);
    std::vector<Field> fields = {random_field(45, 38, 1, 0.6, 3, true, rng), random_field(17, 13, 11, 0.35, 3, true, rng),
                                 random_field(9, 1, 7, 0.6, 3, false, rng), random_field(1, 12, 5, 0.6, 3, false, rng)};
    if (!quick) fields.push_back(random_field(300, 211, 1, 0.59, 2, false, rng));
    for (Field& f : fields) {
        const bool three_d = f.depth > 1;
        const int connectivity = three_d ? 26 : 8;
        const bool periodic[3] = {true, !three_d, three_d};
        const int64_t w = f.width, h = f.height;
        // {first, row_stride, layer_stride}
        const std::vector<std::array<int64_t, 3>> layouts = {
            {3, w + 5, (w + 5) * h}, {0, w + 2, (w + 2) * (h + 3)}, {7, w, w * h + 13}, {1, w + 1, (w + 1) * h + 5}};
        for (MeshMode mode : {MeshMode::Foreground, MeshMode::SameValue}) {
            const std::vector<int32_t> expected = reference(f, connectivity, periodic, mode);
            for (CellType type : {CellType::U8, CellType::I32}) {
                for (const auto& layout : layouts) {
                    const std::vector<uint8_t> host = embed(f, type, layout[0], layout[1], layout[2]);
                    for (Memory memory : {Memory::Pageable, Memory::Pinned, Memory::Device}) {
                        Buffer buffer(memory, host);
                        CHECK_MSG(buffer.data() != nullptr, std::string("a ") + memory_name(memory) + " buffer");
                        if (!buffer.data()) continue;
                        Mesh m = f.mesh(type, connectivity, periodic, mode);
                        m.cells = buffer.data() + layout[0] * static_cast<int64_t>(type);
                        m.row_stride = layout[1];
                        m.layer_stride = layout[2];
                        for (const Algorithm& a : kAlgorithms) {
                            // Every algorithm from pageable memory; the others only change the copy.
                            if (memory != Memory::Pageable && a.id != CCL4J_ALGORITHM_MESH_UNION_FIND) continue;
                            const std::string what =
                                describe(f, a.name, type, connectivity, periodic, mode,
                                         std::string(" strided ") + memory_name(memory) + " first " +
                                             std::to_string(layout[0]) + " rows " + std::to_string(layout[1]) +
                                             " layers " + std::to_string(layout[2]));
                            std::vector<int32_t> labels(f.size(), kPoison);
                            PhaseLog log(nullptr);
                            try {
                                gpu::label_mesh(state, m, a.id, {}, labels.data(), log);
                                check_labels(labels, expected, what);
                                // The per-phase program gathers the cells the same way.
                                if (a.id == CCL4J_ALGORITHM_MESH_UNION_FIND) {
                                    ccl4j::PhaseProgramPtr program = gpu::mesh_phase_program(state, m, a.id, {});
                                    program->run_untimed(static_cast<int>(program->plan().size()));
                                    std::fill(labels.begin(), labels.end(), kPoison);
                                    program->read_labels(labels.data());
                                    check_labels(labels, expected, what + " (per-phase program)");
                                }
                            } catch (const ccl4j::Error& e) {
                                CHECK_MSG(false, what + ": " + e.what());
                            }
                        }
                    }
                }
            }
        }
    }
}

// Iteration limits and rejections.
void check_limits_and_errors(gpu::DeviceState& state) {
    // A spiral: every iterative algorithm needs more than one pass (the last one only confirms).
    Field f = spiral(31);
    const bool open[3] = {false, false, false};
    const Mesh m = f.mesh(CellType::U8, 4, open, MeshMode::Foreground);
    std::vector<int32_t> labels(f.size());
    const std::vector<int32_t> expected = reference(f, 4, open, MeshMode::Foreground);
    for (const Algorithm& a : kAlgorithms) {
        if (!a.iterative) continue;
        gpu::MeshTuning tuning;
        tuning.max_iterations = 1;
        PhaseLog log(nullptr);
        check_fails([&] { gpu::label_mesh(state, m, a.id, tuning, labels.data(), log); }, CCL4J_NOT_CONVERGED,
                    std::string(a.name) + " with max_iterations 1 on a spiral");
        // The documented bound, cells + 1, is always enough (the passes kernel A takes depend on
        // the order its threads run in, so no smaller limit is certain).
        tuning.max_iterations = static_cast<int32_t>(f.size() + 1);
        std::fill(labels.begin(), labels.end(), kPoison);
        try {
            gpu::label_mesh(state, m, a.id, tuning, labels.data(), log);
            check_labels(labels, expected, std::string(a.name) + " with max_iterations = cells + 1");
        } catch (const ccl4j::Error& e) {
            CHECK_MSG(false, std::string(a.name) + " with max_iterations = cells + 1: " + e.what());
        }
    }
    PhaseLog log(nullptr);
    for (ccl4j_algorithm other : {CCL4J_ALGORITHM_AUTO, CCL4J_ALGORITHM_ECL_CC, CCL4J_ALGORITHM_MESH_CPU_RASTER,
                                  CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE, CCL4J_ALGORITHM_MESH_CPU_PARALLEL}) {
        check_fails([&] { gpu::label_mesh(state, m, other, {}, labels.data(), log); }, CCL4J_UNSUPPORTED,
                    "algorithm " + std::to_string(other));
    }
    auto rejects = [&](Mesh bad, gpu::MeshTuning tuning, ccl4j_algorithm algorithm, const std::string& what) {
        check_fails([&] { gpu::label_mesh(state, bad, algorithm, tuning, labels.data(), log); },
                    CCL4J_INVALID_ARGUMENT, what);
    };
    Mesh bad = m;
    bad.connectivity = 5;
    rejects(bad, {}, CCL4J_ALGORITHM_MESH_UNION_FIND, "connectivity 5");
    bad = m;
    bad.depth = 2;
    rejects(bad, {}, CCL4J_ALGORITHM_MESH_UNION_FIND, "connectivity 4 on a 3D mesh");
    bad = m;
    bad.cells = nullptr;
    rejects(bad, {}, CCL4J_ALGORITHM_MESH_UNION_FIND, "null cells");
    bad = m;
    bad.width = 0;
    rejects(bad, {}, CCL4J_ALGORITHM_MESH_UNION_FIND, "width 0");
    bad = m;
    bad.width = bad.height = 65536;
    rejects(bad, {}, CCL4J_ALGORITHM_MESH_UNION_FIND, "2^32 cells");
    // Block size and iteration limit are validated once, where the ABI layer translates them.
    auto refused = [&](ccl4j_mesh_options abi, const std::string& what) {
        check_fails([&] { ccl4j::api::mesh_options(&abi, CCL4J_BACKEND_CUDA); }, CCL4J_INVALID_ARGUMENT, what);
    };
    ccl4j_mesh_options abi{};
    abi.algorithm = CCL4J_ALGORITHM_MESH_NEIGHBOR;
    abi.block_size = 48;
    refused(abi, "block size 48");
    gpu::MeshTuning tuning;
    tuning.tile_size = 33;
    rejects(m, tuning, CCL4J_ALGORITHM_MESH_LOCAL, "tile size 33 in 2D");
    tuning.tile_size = 11;
    std::mt19937 rng(1);
    Field cube = random_field(12, 12, 12, 0.5, 2, false, rng);
    rejects(cube.mesh(CellType::U8, 6, open, MeshMode::Foreground), tuning, CCL4J_ALGORITHM_MESH_LOCAL,
            "tile size 11 in 3D");
    abi = {};
    abi.algorithm = CCL4J_ALGORITHM_MESH_EQUIVALENCE;
    abi.max_iterations = -1;
    refused(abi, "max_iterations -1");
    bad = m;
    bad.row_stride = m.width - 1;
    rejects(bad, {}, CCL4J_ALGORITHM_MESH_UNION_FIND, "rows that overlap");
    bad = m;
    bad.layer_stride = -1;
    rejects(bad, {}, CCL4J_ALGORITHM_MESH_UNION_FIND, "a negative layer stride");
    // Rows 2^31 bytes apart are past every device's copy pitch: refused before anything is read.
    bad = m;
    bad.row_stride = int64_t(1) << 31;
    check_fails([&] { gpu::label_mesh(state, bad, CCL4J_ALGORITHM_MESH_UNION_FIND, {}, labels.data(), log); },
                CCL4J_UNSUPPORTED, "rows beyond the copy pitch limit");
    // Int64 labels only from the union-find; a mesh that cannot fit the device is refused with the
    // figures before anything is allocated or read (2^42 cells, from a stand-in cells pointer).
    std::vector<int64_t> wide(labels.size());
    check_fails([&] { gpu::label_mesh(state, m, CCL4J_ALGORITHM_MESH_KOMURA, {}, wide.data(), log); },
                CCL4J_UNSUPPORTED, "int64 labels from Komura's algorithm");
    bad = m;
    bad.width = bad.height = bad.depth = 1 << 14;
    bad.connectivity = 6;
    check_fails([&] { gpu::label_mesh(state, bad, CCL4J_ALGORITHM_MESH_UNION_FIND, {}, wide.data(), log); },
                CCL4J_OUT_OF_MEMORY, "a mesh larger than the device");
    // The state still works after the rejections.
    std::fill(labels.begin(), labels.end(), kPoison);
    gpu::label_mesh(state, m, CCL4J_ALGORITHM_MESH_UNION_FIND, {}, labels.data(), log);
    check_labels(labels, expected, "union-find after the rejections");
}

// u16 and f32 cells, f32 in same-value mode with a tolerance delta (NaN, -0.0 and infinities among
// the cells): every algorithm, int32 and int64 labels, against the CPU's parallel union-find
// (which test_mesh checks against its reference on the same kinds of field).
template <class T>
void check_typed(gpu::DeviceState& state, const std::vector<T>& cells, int32_t w, int32_t h, int32_t d, CellType type,
                 double delta, const char* name) {
    for (int connectivity : d == 1 ? std::vector<int>{4, 8} : std::vector<int>{6, 18, 26}) {
        for (bool periodic : {false, true}) {
            for (MeshMode mode : {MeshMode::Foreground, MeshMode::SameValue}) {
                Mesh m;
                m.width = w;
                m.height = h;
                m.depth = d;
                m.cell_type = type;
                m.cells = cells.data();
                m.connectivity = connectivity;
                for (bool& p : m.periodic) p = periodic;
                m.mode = mode;
                m.delta = mode == MeshMode::SameValue ? delta : 0;
                std::vector<int32_t> expected(cells.size());
                ccl4j_timings cpu_timings{};
                PhaseLog cpu_log(&cpu_timings);
                ccl4j::cpu::mesh_parallel(m, expected.data(), 2, cpu_log);
                for (const Algorithm& a : kAlgorithms) {
                    const std::string what = std::string(a.name) + " " + std::to_string(w) + "x" + std::to_string(h) +
                                             "x" + std::to_string(d) + " " + name + " c" + std::to_string(connectivity) +
                                             (periodic ? " periodic" : "") +
                                             (mode == MeshMode::SameValue ? " same-value delta " + std::to_string(m.delta)
                                                                          : " foreground");
                    std::vector<int32_t> labels(cells.size(), kPoison);
                    std::vector<int64_t> wide(cells.size(), kPoison);
                    ccl4j_timings timings{};
                    PhaseLog log(&timings);
                    try {
                        gpu::label_mesh(state, m, a.id, {}, labels.data(), log);
                        check_labels(labels, expected, what);
                        if (a.id == CCL4J_ALGORITHM_MESH_UNION_FIND) {
                            gpu::label_mesh(state, m, a.id, {}, wide.data(), log);
                            narrow(wide, labels.data());
                            check_labels(labels, expected, what + " int64");
                        }
                    } catch (const ccl4j::Error& e) {
                        CHECK_MSG(false, what + ": " + e.what());
                    }
                }
            }
        }
    }
}

void check_cell_types(gpu::DeviceState& state, bool quick) {
    std::mt19937 rng(47);
    std::uniform_int_distribution<int> coin(0, 2);
    std::normal_distribution<float> step(0, 1);
    std::vector<std::array<int32_t, 3>> shapes = {{37, 23, 1}, {300, 200, 1}, {13, 11, 7}, {70, 40, 33}};
    if (quick) shapes = {{37, 23, 1}, {13, 11, 7}};
    for (const auto& s : shapes) {
        const size_t n = size_t(s[0]) * s[1] * s[2];
        std::vector<uint16_t> u16(n);
        for (auto& v : u16) v = coin(rng) == 0 ? 0 : uint16_t(65535 - coin(rng) * 40000);
        check_typed(state, u16, s[0], s[1], s[2], CellType::U16, 0, "u16");
        std::vector<float> f32(n);
        float walk = 0;
        for (auto& v : f32) v = walk += step(rng);
        f32[3] = f32[4] = std::nanf("");
        f32[5] = -0.0f;
        f32[6] = 0.0f;
        f32[n - 1] = f32[n - 2] = INFINITY;
        for (double delta : {0.0, 0.5, 1.5}) check_typed(state, f32, s[0], s[1], s[2], CellType::F32, delta, "f32");
    }
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
        run_tests(*state, quick);
        check_cell_types(*state, quick);
        check_strided(*state, quick);
        check_limits_and_errors(*state);
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(false, std::string("unexpected error: ") + e.what());
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
