// bench_mesh: kernel-only times of every GPU mesh algorithm on the random site-percolation fields
// of shared/BENCHMARKS.md (foreground mode, u8 cells), face-connected and fully connected.
//
//   bench_mesh [--runs R] [--budget-s S] [--algorithms NAME,...] [--fields NAME,...] [--seed N] [--statistics]
//
// Fields: 2d_8192_p05, 2d_8192_p06, 2d_16384_p06, 3d_512_p025, 3d_512_p035 (face connectivity, 4
// in 2D, 6 in 3D) and the same with 8 (2D) or 26 (3D) connectivity, 2d_8192_p05_c8, ...,
// 3d_512_p035_c26 (default: all ten), each cell foreground with probability p, drawn from a hash of
// (seed, index); scripts/gpu/cupy-mesh.py draws the same cells for cupy. Algorithms: A, B, C, D,
// komura, union-find (default: all). Kernel time = the CUDA-event time of the algorithm's phases
// (every phase but h2d and d2h); the cells are copied in and the labels out around each run but
// outside that time. Per field: the union-find labels are checked on the CPU (equal across every
// connection of the field's connectivity, each the smallest index of its class, as many classes as
// a CPU union-find finds clusters); every other algorithm's labels must equal them. Kernels A-C
// need a pass per step of a cluster's longest path, so each (field, algorithm) gets a time budget
// of S seconds (default 3): a probe run of at most 64 passes; if it does not converge, one run
// with the pass limit the probe's time per pass fits in the budget ("gave up" if that fails too);
// then up to R timed runs (default 9, after a warm-up) while the budget lasts. A table comes
// last, with cupy's figures from shared/BENCHMARKS.md where it has one for the GPU model ("-"
// where not).
// With --statistics, also labelling + statistics in one call (cuda/statistics.hpp, the union-find,
// numberings canonical, raster and size): kernel time = the labelling's phases and the statistics'
// (stats-roots, stats, stats-order), R runs after a warm-up, beside the union-find's labelling
// alone; each run's row count must be the CPU's cluster count, and its labels the union-find's
// (canonical) or their raster numbering. A second table comes last.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "common/error.hpp"
#include "common/mesh.hpp"
#include "common/parallel.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/mesh_kernels.hpp"
#include "cuda/statistics.hpp"

namespace {

namespace gpu = ccl4j::cuda;
using ccl4j::bench::median;
using ccl4j::bench::kernel_ms;
using ccl4j::bench::split;
using ccl4j::bench::Pinned;

struct FieldSpec {
    const char* name;
    int32_t width, height, depth;
    double p;
    int32_t connectivity;  // 4 or 8 in 2D, 6 or 26 in 3D
    // cupyx.scipy.ndimage.label on an H100 and an H200 (shared/BENCHMARKS.md); 0 where it has none
    double cupy_h100_ms;
    double cupy_h200_ms;
};

const FieldSpec kFields[] = {
    {"2d_8192_p05", 8192, 8192, 1, 0.5, 4, 6.7, 6.4},
    {"2d_8192_p06", 8192, 8192, 1, 0.6, 4, 5.9, 5.8},
    {"2d_16384_p06", 16384, 16384, 1, 0.6, 4, 22.6, 22.4},
    {"3d_512_p025", 512, 512, 512, 0.25, 6, 14.8, 14.5},
    {"3d_512_p035", 512, 512, 512, 0.35, 6, 14.4, 14.0},
    {"2d_8192_p05_c8", 8192, 8192, 1, 0.5, 8, 7.48, 0},
    {"2d_8192_p06_c8", 8192, 8192, 1, 0.6, 8, 7.85, 0},
    {"2d_16384_p06_c8", 16384, 16384, 1, 0.6, 8, 26.5, 0},
    {"3d_512_p025_c26", 512, 512, 512, 0.25, 26, 23.6, 0},
    {"3d_512_p035_c26", 512, 512, 512, 0.35, 26, 23.9, 0},
};

struct AlgorithmSpec {
    const char* name;
    ccl4j_algorithm id;
    bool iterative;
};

const AlgorithmSpec kAlgorithms[] = {
    {"union-find", CCL4J_ALGORITHM_MESH_UNION_FIND, false}, {"komura", CCL4J_ALGORITHM_MESH_KOMURA, false},
    {"D", CCL4J_ALGORITHM_MESH_EQUIVALENCE, true},          {"B", CCL4J_ALGORITHM_MESH_LOCAL, true},
    {"C", CCL4J_ALGORITHM_MESH_DIRECTIONAL, true},          {"A", CCL4J_ALGORITHM_MESH_NEIGHBOR, true},
};

void generate(const FieldSpec& f, uint64_t seed, uint8_t* cells) {
    ccl4j::bench::random_sites(int64_t(f.width) * f.height * f.depth, f.p, seed, cells);
}

// The lower half of the field's neighbourhood: the offsets (dx, dy, dz) of the neighbours that
// come before a cell in index order. Every connection is one cell's link to one of these.
struct Offset {
    int32_t dx, dy, dz;
};

std::vector<Offset> lower_offsets(const FieldSpec& f) {
    const bool full = f.connectivity == 8 || f.connectivity == 26;
    std::vector<Offset> offsets;
    for (int32_t dz = f.depth > 1 ? -1 : 0; dz <= 0; ++dz) {
        for (int32_t dy = -1; dy <= 1; ++dy) {
            for (int32_t dx = -1; dx <= 1; ++dx) {
                const bool before = dz < 0 || (dz == 0 && (dy < 0 || (dy == 0 && dx < 0)));
                const bool face = (dx != 0) + (dy != 0) + (dz != 0) == 1;
                if (before && (full || face)) offsets.push_back({dx, dy, dz});
            }
        }
    }
    return offsets;
}

// Calls visit(j) for each neighbour j of cell i in the lower half of the neighbourhood that lies
// in the field (open boundaries).
template <class Visit>
void for_lower_neighbours(const FieldSpec& f, const std::vector<Offset>& offsets, int64_t i, const Visit& visit) {
    const int64_t plane = int64_t(f.width) * f.height;
    const int64_t x = i % f.width, y = i / f.width % f.height, z = i / plane;
    for (const Offset& o : offsets) {
        if (x + o.dx < 0 || x + o.dx >= f.width || y + o.dy < 0 || y + o.dy >= f.height || z + o.dz < 0) continue;
        visit(i + o.dx + o.dy * int64_t(f.width) + o.dz * plane);
    }
}

// Clusters of the field by a serial union-find with path halving over its connections.
int64_t cpu_clusters(const FieldSpec& f, const uint8_t* cells) {
    const int64_t n = int64_t(f.width) * f.height * f.depth;
    const std::vector<Offset> offsets = lower_offsets(f);
    std::vector<int32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    auto join = [&](int32_t a, int32_t b) {
        a = find(a);
        b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    };
    for (int64_t i = 0; i < n; ++i) {
        if (!cells[i]) continue;
        for_lower_neighbours(f, offsets, i, [&](int64_t j) {
            if (cells[j]) join(int32_t(i), int32_t(j));
        });
    }
    int64_t clusters = 0;
    for (int64_t i = 0; i < n; ++i) clusters += cells[i] && parent[i] == i;
    return clusters;
}

// Checks labels against the cells: background -1, equal across every connection, each label a
// cell of its class no larger than any member and labelling itself. Returns the number of
// classes, or -1 after printing the first fault.
int64_t check_labels(const FieldSpec& f, const uint8_t* cells, const int32_t* labels) {
    const int64_t n = int64_t(f.width) * f.height * f.depth;
    const std::vector<Offset> offsets = lower_offsets(f);
    int64_t classes = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int32_t l = labels[i];
        if (!cells[i]) {
            if (l != -1) return std::printf("    WRONG: background cell %lld labelled %d\n", (long long)i, l), -1;
            continue;
        }
        if (l < 0 || l > i || labels[l] != l || !cells[l]) {
            return std::printf("    WRONG: cell %lld labelled %d\n", (long long)i, l), -1;
        }
        classes += l == i;
        int64_t split = -1;
        for_lower_neighbours(f, offsets, i, [&](int64_t j) {
            if (split < 0 && cells[j] && labels[j] != l) split = j;
        });
        if (split >= 0) {
            return std::printf("    WRONG: cells %lld and %lld labelled %d and %d\n", (long long)i, (long long)split, l,
                               labels[split]),
                   -1;
        }
    }
    return classes;
}

struct Row {
    std::string field;
    std::string algorithm;
    int64_t cells = 0;
    std::string status;  // "ok", "WRONG", "gave up after N passes"
    int runs = 0;
    int32_t iterations = 0;
    double median_ms = 0, min_ms = 0, h2d_ms = 0, d2h_ms = 0;
    std::string phases;  // median per phase
    double cupy_ms = 0;
};

// Labelling + statistics of one numbering beside the labelling alone.
struct StatisticsRow {
    std::string field;
    const char* numbering;
    int64_t cells = 0;
    std::string status;
    double label_ms = 0, median_ms = 0, min_ms = 0;
    std::string phases;  // median per statistics phase
};

// The raster numbering of canonical labels: roots numbered 1, 2, ... in index order, 0 for background.
void raster_of(const int32_t* canonical, int64_t n, int32_t* out) {
    int32_t rows = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int32_t l = canonical[i];
        out[i] = l < 0 ? 0 : l == i ? ++rows : out[l];
    }
}

// Times label_mesh_statistics with the union-find in one numbering and checks it (see the top).
StatisticsRow time_statistics(gpu::DeviceState& state, const ccl4j::Mesh& mesh, const FieldSpec& f, int32_t numbering,
                              const char* name, int runs, int64_t clusters, const int32_t* reference, int32_t* labels,
                              int32_t* expected, double label_ms) {
    StatisticsRow row;
    row.field = f.name;
    row.numbering = name;
    row.cells = mesh.cell_count();
    row.label_ms = label_ms;
    ccl4j_timings t{};
    int64_t rows = 0;
    auto run = [&] {
        ccl4j::PhaseLog log(&t);
        rows = gpu::label_mesh_statistics(state, mesh, CCL4J_ALGORITHM_MESH_UNION_FIND, gpu::MeshTuning{}, nullptr,
                                          numbering, false, labels, log)
                   ->rows();
    };
    run();
    std::vector<double> kernel;
    std::vector<std::vector<double>> phases(t.phase_count);
    for (int r = 0; r < runs; ++r) {
        run();
        kernel.push_back(kernel_ms(t));
        for (int32_t p = 0; p < t.phase_count; ++p) phases[p].push_back(t.phases[p].ms);
    }
    row.median_ms = median(kernel);
    row.min_ms = *std::min_element(kernel.begin(), kernel.end());
    for (int32_t p = 0; p < t.phase_count; ++p) {
        if (std::strncmp(t.phases[p].name, "stats", 5) != 0) continue;
        char part[64];
        std::snprintf(part, sizeof(part), "%s%s %.3f", row.phases.empty() ? "" : ", ", t.phases[p].name,
                      median(phases[p]));
        row.phases += part;
    }
    const size_t bytes = static_cast<size_t>(row.cells) * sizeof(int32_t);
    if (rows != clusters) {
        row.status = "WRONG: " + std::to_string(rows) + " rows";
    } else if (numbering == CCL4J_NUMBERING_CANONICAL) {
        row.status = std::memcmp(labels, reference, bytes) == 0 ? "ok" : "WRONG labels";
    } else if (numbering == CCL4J_NUMBERING_RASTER) {
        raster_of(reference, row.cells, expected);
        row.status = std::memcmp(labels, expected, bytes) == 0 ? "ok" : "WRONG labels";
    } else {
        row.status = "ok";
    }
    return row;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool selected(const std::vector<std::string>& names, const std::string& name) {
    return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

// Whether every name in names is one of specs; prints the first that is not, with the known ones.
template <class Spec, size_t N>
bool known(const std::vector<std::string>& names, const Spec (&specs)[N], const char* what) {
    for (const std::string& name : names) {
        if (std::none_of(specs, specs + N, [&](const Spec& s) { return name == s.name; })) {
            std::string list;
            for (const Spec& s : specs) list += std::string(list.empty() ? "" : ", ") + s.name;
            std::fprintf(stderr, "bench_mesh: unknown %s '%s'; known: %s\n", what, name.c_str(), list.c_str());
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 9;
    double budget_s = 3;
    uint64_t seed = 1;
    bool statistics = false;
    std::vector<std::string> algorithms, fields;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--runs" && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--budget-s" && i + 1 < argc) {
            budget_s = std::atof(argv[++i]);
        } else if (arg == "--algorithms" && i + 1 < argc) {
            algorithms = split(argv[++i]);
        } else if (arg == "--fields" && i + 1 < argc) {
            fields = split(argv[++i]);
        } else if (arg == "--seed" && i + 1 < argc) {
            seed = std::strtoull(argv[++i], nullptr, 10);
        } else if (arg == "--statistics") {
            statistics = true;
        } else {
            std::fprintf(stderr,
                         "usage: bench_mesh [--runs R] [--budget-s S] [--algorithms NAME,...] [--fields NAME,...] "
                         "[--seed N] [--statistics]\n");
            return 2;
        }
    }
    if (!known(fields, kFields, "field") || !known(algorithms, kAlgorithms, "algorithm")) return 2;
    if (gpu::device_count() == 0) {
        std::printf("SKIPPED: no CUDA device\n");
        return 0;
    }
    try {
        ccl4j_device_info info;
        gpu::device_info(0, &info);
        const bool h200 = std::strstr(info.name, "H200") != nullptr;
        gpu::DeviceStatePtr state = gpu::create_state(0);
        std::vector<Row> rows;
        std::vector<StatisticsRow> statistics_rows;
        bool all_ok = true;
        for (const FieldSpec& f : kFields) {
            if (!selected(fields, f.name)) continue;
            const int64_t n = int64_t(f.width) * f.height * f.depth;
            Pinned cells(n);
            Pinned labels(n * sizeof(int32_t));
            Pinned reference(n * sizeof(int32_t));
            generate(f, seed, cells.as<uint8_t>());
            ccl4j::Mesh mesh;
            mesh.width = f.width;
            mesh.height = f.height;
            mesh.depth = f.depth;
            mesh.cell_type = ccl4j::CellType::U8;
            mesh.cells = cells.as<uint8_t>();
            mesh.connectivity = f.connectivity;
            mesh.mode = ccl4j::MeshMode::Foreground;
            const int64_t cpu = cpu_clusters(f, cells.as<uint8_t>());
            // The occupied count and the clusters are what scripts/gpu/cupy-mesh.py compares.
            const int64_t occupied = std::count(cells.as<uint8_t>(), cells.as<uint8_t>() + n, uint8_t{1});
            std::printf("%s: %lld cells, %lld occupied, connectivity %d, %lld clusters (CPU union-find)\n", f.name,
                        (long long)n, (long long)occupied, f.connectivity, (long long)cpu);
            std::fflush(stdout);
            bool have_reference = false;
            double union_find_ms = 0;
            for (const AlgorithmSpec& a : kAlgorithms) {
                if (!selected(algorithms, a.name) && a.id != CCL4J_ALGORITHM_MESH_UNION_FIND) continue;
                Row row;
                row.field = f.name;
                row.algorithm = a.name;
                row.cells = n;
                row.cupy_ms = h200 ? f.cupy_h200_ms : f.cupy_h100_ms;
                const auto start = std::chrono::steady_clock::now();
                gpu::MeshTuning tuning;
                ccl4j_timings t{};
                auto run = [&] {
                    ccl4j::PhaseLog log(&t);
                    gpu::label_mesh(*state, mesh, a.id, tuning, labels.as<int32_t>(), log);
                };
                // Warm-up, and for the iterative kernels the probe of the time a pass takes.
                try {
                    if (a.iterative) tuning.max_iterations = 64;
                    run();
                } catch (const ccl4j::Error& e) {
                    if (e.status() != CCL4J_NOT_CONVERGED) throw;
                    const double per_pass = seconds_since(start) / 64;
                    tuning.max_iterations = static_cast<int32_t>(std::clamp(budget_s / per_pass, 65.0, 2e9));
                    try {
                        run();
                    } catch (const ccl4j::Error& e2) {
                        if (e2.status() != CCL4J_NOT_CONVERGED) throw;
                        row.status = "gave up after " + std::to_string(tuning.max_iterations) + " passes";
                    }
                }
                if (row.status.empty()) {
                    std::vector<double> kernel, h2d, d2h;
                    std::vector<std::vector<double>> phases(t.phase_count);
                    std::vector<std::string> names;
                    for (int32_t p = 0; p < t.phase_count; ++p) names.push_back(t.phases[p].name);
                    while (static_cast<int>(kernel.size()) < runs &&
                           (kernel.empty() || !a.iterative || seconds_since(start) < budget_s)) {
                        run();
                        kernel.push_back(kernel_ms(t));
                        for (int32_t p = 0; p < t.phase_count; ++p) phases[p].push_back(t.phases[p].ms);
                        h2d.push_back(t.phases[0].ms);
                        d2h.push_back(t.phases[t.phase_count - 1].ms);
                    }
                    row.runs = static_cast<int>(kernel.size());
                    row.iterations = t.iterations;
                    row.median_ms = median(kernel);
                    row.min_ms = *std::min_element(kernel.begin(), kernel.end());
                    row.h2d_ms = median(h2d);
                    row.d2h_ms = median(d2h);
                    for (size_t p = 1; p + 1 < names.size(); ++p) {
                        char part[64];
                        std::snprintf(part, sizeof(part), "%s%s %.3f", p > 1 ? ", " : "", names[p].c_str(),
                                      median(phases[p]));
                        row.phases += part;
                    }
                    if (!have_reference) {
                        const int64_t classes = check_labels(f, cells.as<uint8_t>(), labels.as<int32_t>());
                        row.status = classes == cpu ? "ok" : "WRONG";
                        if (classes >= 0 && classes != cpu) {
                            std::printf("    WRONG: %lld clusters, the CPU finds %lld\n", (long long)classes,
                                        (long long)cpu);
                        }
                        std::memcpy(reference.as<int32_t>(), labels.as<int32_t>(), n * sizeof(int32_t));
                        have_reference = true;
                    } else {
                        const bool same = std::memcmp(reference.as<int32_t>(), labels.as<int32_t>(),
                                                      n * sizeof(int32_t)) == 0;
                        row.status = same ? "ok" : "WRONG (differs from union-find)";
                    }
                    all_ok = all_ok && row.status == "ok";
                }
                if (a.id == CCL4J_ALGORITHM_MESH_UNION_FIND) union_find_ms = row.median_ms;
                std::printf("  %-10s %-28s kernel %9.3f ms (min %.3f) %8.2f Gpx/s  iterations %d  runs %d  [%s]\n",
                            a.name, row.status.c_str(), row.median_ms, row.min_ms,
                            row.median_ms > 0 ? n / row.median_ms / 1e6 : 0.0, row.iterations, row.runs,
                            row.phases.c_str());
                std::fflush(stdout);
                rows.push_back(row);
            }
            if (statistics && have_reference) {
                const int32_t numberings[] = {CCL4J_NUMBERING_CANONICAL, CCL4J_NUMBERING_RASTER, CCL4J_NUMBERING_SIZE};
                const char* names[] = {"canonical", "raster", "size"};
                Pinned expected(n * sizeof(int32_t));
                for (int v = 0; v < 3; ++v) {
                    StatisticsRow s = time_statistics(*state, mesh, f, numberings[v], names[v], runs, cpu,
                                                      reference.as<int32_t>(), labels.as<int32_t>(),
                                                      expected.as<int32_t>(), union_find_ms);
                    std::printf("  statistics %-9s %-12s kernel %9.3f ms (min %.3f) %8.2f Gpx/s  x%.2f of labelling  "
                                "[%s]\n",
                                names[v], s.status.c_str(), s.median_ms, s.min_ms, n / s.median_ms / 1e6,
                                s.median_ms / union_find_ms, s.phases.c_str());
                    std::fflush(stdout);
                    all_ok = all_ok && s.status == "ok";
                    statistics_rows.push_back(s);
                }
            }
        }
        std::printf("\nMesh labelling on %s: kernel-only ms (CUDA events over the algorithm's phases), median and "
                    "min of the runs; cupy = cupyx.scipy.ndimage.label on an %s (shared/BENCHMARKS.md)\n",
                    info.name, h200 ? "H200" : "H100");
        std::printf("%-15s %-10s %11s %9s %9s %8s %6s %5s %8s %8s %8s %8s  %s\n", "field", "algorithm", "cells",
                    "median", "min", "Gpx/s", "iters", "runs", "h2d", "d2h", "cupy", "cupy/us", "status");
        for (const Row& r : rows) {
            // "-" where shared/BENCHMARKS.md has no cupy figure for this field on this GPU model
            char cupy[16] = "-", ratio[16] = "-";
            if (r.cupy_ms > 0) {
                std::snprintf(cupy, sizeof(cupy), "%.2f", r.cupy_ms);
                if (r.median_ms > 0) std::snprintf(ratio, sizeof(ratio), "%.2f", r.cupy_ms / r.median_ms);
            }
            std::printf("%-15s %-10s %11lld %9.3f %9.3f %8.2f %6d %5d %8.3f %8.3f %8s %8s  %s\n", r.field.c_str(),
                        r.algorithm.c_str(), (long long)r.cells, r.median_ms, r.min_ms,
                        r.median_ms > 0 ? r.cells / r.median_ms / 1e6 : 0.0, r.iterations, r.runs, r.h2d_ms, r.d2h_ms,
                        cupy, ratio, r.status.c_str());
        }
        if (!statistics_rows.empty()) {
            std::printf("\nLabelling + statistics on %s (union-find, one call, cells on the device): kernel-only ms "
                        "(CUDA events over the labelling's and the statistics' phases), median and min of %d runs, "
                        "beside the union-find's labelling alone (median)\n",
                        info.name, runs);
            std::printf("%-15s %-10s %11s %9s %8s %9s %9s %8s %6s  %-44s %s\n", "field", "numbering", "cells",
                        "label ms", "Gpx/s", "l+s ms", "min", "Gpx/s", "ratio", "statistics phases (median ms)",
                        "status");
            for (const StatisticsRow& r : statistics_rows) {
                std::printf("%-15s %-10s %11lld %9.3f %8.2f %9.3f %9.3f %8.2f %6.2f  %-44s %s\n", r.field.c_str(),
                            r.numbering, (long long)r.cells, r.label_ms, r.cells / r.label_ms / 1e6, r.median_ms,
                            r.min_ms, r.cells / r.median_ms / 1e6, r.median_ms / r.label_ms, r.phases.c_str(),
                            r.status.c_str());
            }
        }
        return all_ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_mesh: %s\n", e.what());
        return 1;
    }
}
