// Per-component statistics on the CPU. Two passes over the labels: the roots (entries labelled
// with their own index) numbered in raster order by a parallel count and prefix, then one pass
// that adds each run of equal labels along a row to its table row: meshes by blocks of rows whose
// threads own the components that begin in them (no atomics), graphs by runs of consecutive
// vertices added with atomics. A final pass writes the labels in the numbering (the SIZE
// numbering sorts the rows first).
#include "cpu/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/error.hpp"
#include "common/parallel.hpp"

namespace ccl4j::cpu {
namespace {

// ---- atomic updates of a graph row (relaxed: the pass's end is the only synchronisation needed) ----

template <class T>
void add(T& target, T value) {
    __atomic_fetch_add(&target, value, __ATOMIC_RELAXED);
}

template <class T>
void raise(T& target, T value) {
    T seen;
    __atomic_load(&target, &seen, __ATOMIC_RELAXED);
    while (value > seen && !__atomic_compare_exchange(&target, &seen, &value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

// ---- roots in raster order --------------------------------------------------------------------

// The roots in raster order, and the row of a root as its rank among them: a bit per entry (set
// for the roots) and the roots in the words before each word, n / 4 bytes in all, where an array
// of rows would take 4 bytes an entry (34 GB for 2048^3 int64 labels).
struct Roots {
    std::vector<uint64_t> mask;
    std::vector<int64_t> below;
    std::vector<int64_t> first;

    int32_t row(int64_t root) const {
        const int64_t w = root >> 6;
        const uint64_t before = mask[w] & ((uint64_t(1) << (root & 63)) - 1);
        return static_cast<int32_t>(below[w] + __builtin_popcountll(before));
    }
};

template <class L>
Roots number_roots(const L* labels, int64_t count, int threads) {
    Roots roots;
    const int64_t words = (count + 63) / 64;
    roots.mask.assign(static_cast<size_t>(std::max<int64_t>(1, words)), 0);
    roots.below.assign(static_cast<size_t>(std::max<int64_t>(1, words)), 0);
    const int parts = static_cast<int>(std::min<int64_t>(parallel::thread_count(threads), std::max<int64_t>(1, words)));
    std::vector<int64_t> below(parts + 1, 0);
    parallel::for_blocks(int64_t(0), words, parts, [&](int part, int64_t first, int64_t last) {
        int64_t n = 0;
        for (int64_t w = first; w < last; ++w) {
            uint64_t bits = 0;
            const int64_t end = std::min(count, (w + 1) * 64);
            for (int64_t i = w * 64; i < end; ++i) bits |= uint64_t(labels[i] == i) << (i & 63);
            roots.mask[w] = bits;
            n += __builtin_popcountll(bits);
        }
        below[part + 1] = n;
    });
    for (int p = 0; p < parts; ++p) below[p + 1] += below[p];
    const int64_t k = below[parts];
    if (k > INT32_MAX) {
        fail(CCL4J_UNSUPPORTED, "the labels have " + std::to_string(k) + " components; a statistics table holds at most " +
                                    std::to_string(INT32_MAX) + " rows");
    }
    roots.first.resize(static_cast<size_t>(k));
    parallel::for_blocks(int64_t(0), words, parts, [&](int part, int64_t first, int64_t last) {
        int64_t row = below[part];
        for (int64_t w = first; w < last; ++w) {
            roots.below[w] = row;
            for (uint64_t bits = roots.mask[w]; bits; bits &= bits - 1) roots.first[row++] = w * 64 + __builtin_ctzll(bits);
        }
    });
    return roots;
}

// Row labels, the order of a SIZE table and the final labels of each entry.
struct Numbering {
    int32_t kind;
    std::vector<int32_t> position;  // SIZE: row in raster order -> row of the table

    // The label of the entry whose canonical label is root (background: root < 0).
    int64_t label(int64_t root, const Roots& roots) const {
        switch (kind) {
            case CCL4J_NUMBERING_RASTER: return root < 0 ? 0 : roots.row(root) + int64_t(1);
            case CCL4J_NUMBERING_SIZE: return root < 0 ? -1 : position[roots.row(root)];
            default: return root;
        }
    }
};

// Orders the rows of a SIZE table (rows.permute) and fills the label column.
template <class Rows>
Numbering order_rows(Rows& rows, int32_t kind) {
    Numbering numbering{kind, {}};
    const size_t k = rows.first.size();
    if (kind == CCL4J_NUMBERING_SIZE) {
        const std::vector<int32_t> order = size_order(rows.size);
        numbering.position.resize(k);
        for (size_t r = 0; r < k; ++r) numbering.position[order[r]] = static_cast<int32_t>(r);
        rows.permute(order);
    }
    for (size_t r = 0; r < k; ++r) {
        rows.label[r] = kind == CCL4J_NUMBERING_CANONICAL ? rows.first[r]
                        : kind == CCL4J_NUMBERING_RASTER  ? static_cast<int64_t>(r + 1)
                                                          : static_cast<int64_t>(r);
    }
    return numbering;
}

template <class L>
void relabel(const L* labels, int64_t count, const Roots& roots, const Numbering& numbering, L* out, int threads) {
    if (!out || (out == labels && numbering.kind == CCL4J_NUMBERING_CANONICAL)) return;
    parallel::for_each(int64_t(0), count, threads,
                       [&](int64_t i) { out[i] = static_cast<L>(numbering.label(labels[i], roots)); });
}

// What a thread has gathered of a row that another thread owns.
struct Partial {
    int64_t size = 0;
    int32_t min[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
    int32_t max[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    int64_t coordinate_sum[3] = {0, 0, 0};
    uint32_t touches = 0;
    int64_t intensity_sum = 0;
    double real_sum = 0, low = HUGE_VAL, high = -HUGE_VAL;
};

// One run of a component along a row: cells [start, end) of row (y, z), with its intensity.
struct Run {
    int32_t start, end, y, z;
    uint32_t touches;
    int64_t intensity_sum;
    double real_sum, low, high;
};

// Adds a run to a row or to a partial row (the same fields).
template <class Row>
void add_run(Row& r, const Run& run) {
    const int64_t n = run.end - run.start;
    r.size += n;
    r.min[0] = std::min(r.min[0], run.start);
    r.max[0] = std::max(r.max[0], run.end - 1);
    r.min[1] = std::min(r.min[1], run.y);
    r.max[1] = std::max(r.max[1], run.y);
    r.min[2] = std::min(r.min[2], run.z);
    r.max[2] = std::max(r.max[2], run.z);
    r.coordinate_sum[0] += (int64_t(run.start) + run.end - 1) * n / 2;
    r.coordinate_sum[1] += int64_t(run.y) * n;
    r.coordinate_sum[2] += int64_t(run.z) * n;
    r.touches |= run.touches;
    r.intensity_sum += run.intensity_sum;
    r.real_sum += run.real_sum;
    r.low = std::min(r.low, run.low);
    r.high = std::max(r.high, run.high);
}

void merge(Partial& row, const Partial& p) {
    row.size += p.size;
    for (int a = 0; a < 3; ++a) {
        row.min[a] = std::min(row.min[a], p.min[a]);
        row.max[a] = std::max(row.max[a], p.max[a]);
        row.coordinate_sum[a] += p.coordinate_sum[a];
    }
    row.touches |= p.touches;
    row.intensity_sum += p.intensity_sum;
    row.real_sum += p.real_sum;
    row.low = std::min(row.low, p.low);
    row.high = std::max(row.high, p.high);
}

// The rows as gathered (a struct per row, so that a run's update touches one or two cache lines)
// into the table's columns.
void to_columns(const std::vector<Partial>& gathered, MeshRows& rows, int threads) {
    parallel::for_each(size_t(0), gathered.size(), threads, [&](size_t r) {
        const Partial& p = gathered[r];
        rows.size[r] = p.size;
        for (int a = 0; a < 3; ++a) {
            rows.min[a][r] = p.min[a];
            rows.max[a][r] = p.max[a];
            rows.coordinate_sum[a][r] = p.coordinate_sum[a];
        }
        rows.touches[r] = p.touches;
        if (rows.float_intensity) {
            rows.intensity_real_sum[r] = p.real_sum;
        } else {
            rows.intensity_sum[r] = p.intensity_sum;
        }
        rows.intensity_min[r] = p.low;
        rows.intensity_max[r] = p.high;
    });
}

// Each thread takes a block of whole rows of cells and owns the table rows of the components
// whose first cell lies in its block: it updates those in place, without atomics, since no other
// thread writes them; what it meets of components that began in an earlier block (those reaching
// across a block's first plane, few) it gathers apart, and those are merged once all are done.
template <class L, class Value, bool kFloat>
void accumulate_mesh(const Mesh& mesh, const L* labels, const Intensity& intensity, const Roots& roots,
                     std::vector<Partial>& rows, int threads) {
    const int32_t w = mesh.width, h = mesh.height, d = mesh.depth;
    const int64_t lines = int64_t(h) * d;
    const bool three_d = d > 1;
    const auto* values = static_cast<const Value*>(intensity.cells);
    const int parts = static_cast<int>(std::min<int64_t>(parallel::thread_count(threads), lines));
    std::vector<std::unordered_map<int32_t, Partial>> foreign(parts);
    parallel::for_blocks(int64_t(0), lines, parts, [&](int part, int64_t first, int64_t last) {
        // the rows this block owns: those of the roots in its cells
        const auto begin = std::lower_bound(roots.first.begin(), roots.first.end(), first * w);
        const int64_t own_from = begin - roots.first.begin();
        auto& others = foreign[part];
        for (int64_t line = first; line < last; ++line) {
            const int32_t y = static_cast<int32_t>(line % h), z = static_cast<int32_t>(line / h);
            const L* row_labels = labels + line * w;
            const Value* row_values = values + intensity.offset(0, y, z);
            uint32_t faces = (y == 0 ? CCL4J_FACE_Y_MIN : 0u) | (y == h - 1 ? CCL4J_FACE_Y_MAX : 0u);
            if (three_d) faces |= (z == 0 ? CCL4J_FACE_Z_MIN : 0u) | (z == d - 1 ? CCL4J_FACE_Z_MAX : 0u);
            for (int32_t x = 0; x < w;) {
                const L root = row_labels[x];
                if (root < 0) {
                    ++x;
                    continue;
                }
                Run run{x, x, y, z, 0, 0, 0.0, HUGE_VAL, -HUGE_VAL};
                for (; x < w && row_labels[x] == root; ++x) {
                    const Value v = row_values[x];
                    if constexpr (kFloat) {
                        run.real_sum += v;
                    } else {
                        run.intensity_sum += v;
                    }
                    run.low = std::min(run.low, static_cast<double>(v));
                    run.high = std::max(run.high, static_cast<double>(v));
                }
                run.end = x;
                run.touches = faces | (run.start == 0 ? CCL4J_FACE_X_MIN : 0u) | (x == w ? CCL4J_FACE_X_MAX : 0u);
                const int32_t r = roots.row(root);
                if (r >= own_from) {
                    add_run(rows[r], run);
                } else {
                    add_run(others[r], run);
                }
            }
        }
    });
    for (const auto& others : foreign) {
        for (const auto& [r, p] : others) merge(rows[r], p);
    }
}

template <class L>
void check_canonical_labels(const L* labels, int64_t count, int threads) {
    const int parts = static_cast<int>(std::min<int64_t>(parallel::thread_count(threads), std::max<int64_t>(1, count)));
    std::vector<int64_t> bad(parts, -1);
    parallel::for_blocks(int64_t(0), count, parts, [&](int part, int64_t first, int64_t last) {
        for (int64_t i = first; i < last; ++i) {
            const L l = labels[i];
            if (l == -1) continue;
            if (l < -1 || l > i || labels[l] != l) {
                bad[part] = i;
                return;
            }
        }
    });
    for (const int64_t i : bad) {
        if (i < 0) continue;
        const L l = labels[i];
        std::string why = l < -1  ? "below -1"
                          : l > i ? "above its own index (a canonical label is the smallest index of its component)"
                                  : "the index of an entry labelled " + std::to_string(labels[l]) +
                                        " (a canonical label's own entry holds it)";
        fail(CCL4J_INVALID_INPUT,
             "labels are not canonical: entry " + std::to_string(i) + " has label " + std::to_string(l) + ", " + why);
    }
}

template <class L>
MeshRows rows_of_mesh(const Mesh& mesh, const L* labels, const Intensity& intensity, int32_t numbering, L* out,
                      int threads) {
    const int64_t n = mesh.cell_count();
    const Roots roots = number_roots(labels, n, threads);
    std::vector<Partial> gathered(roots.first.size());
    switch (intensity.type) {
        case IntensityType::U8: accumulate_mesh<L, uint8_t, false>(mesh, labels, intensity, roots, gathered, threads); break;
        case IntensityType::U16: accumulate_mesh<L, uint16_t, false>(mesh, labels, intensity, roots, gathered, threads); break;
        case IntensityType::I32: accumulate_mesh<L, int32_t, false>(mesh, labels, intensity, roots, gathered, threads); break;
        case IntensityType::F32: accumulate_mesh<L, float, true>(mesh, labels, intensity, roots, gathered, threads); break;
    }
    MeshRows rows;
    rows.float_intensity = intensity.is_float();
    rows.resize(roots.first.size());
    rows.first = roots.first;
    to_columns(gathered, rows, threads);
    const Numbering order = order_rows(rows, numbering);
    relabel(labels, n, roots, order, out, threads);
    return rows;
}

}  // namespace

void check_canonical(const int32_t* labels, int64_t count, int threads) { check_canonical_labels(labels, count, threads); }
void check_canonical(const int64_t* labels, int64_t count, int threads) { check_canonical_labels(labels, count, threads); }

MeshRows mesh_rows(const Mesh& mesh, const int32_t* labels, const Intensity& intensity, int32_t numbering,
                   int32_t* out, int threads) {
    return rows_of_mesh(mesh, labels, intensity, numbering, out, threads);
}

MeshRows mesh_rows(const Mesh& mesh, const int64_t* labels, const Intensity& intensity, int32_t numbering,
                   int64_t* out, int threads) {
    return rows_of_mesh(mesh, labels, intensity, numbering, out, threads);
}

GraphRows graph_rows(const Graph& graph, const int32_t* labels, int32_t numbering, int32_t* out, int threads) {
    const int32_t n = graph.vertex_count;
    const Roots roots = number_roots(labels, n, threads);
    GraphRows rows;
    rows.resize(roots.first.size());
    rows.first = roots.first;
    graph.visit([&](auto csr) {
        parallel::for_chunks(int32_t(0), n, int64_t(1) << 14, threads, [&](int, int32_t first, int32_t last) {
            for (int32_t v = first; v < last;) {
                const int32_t root = labels[v];
                if (root < 0) {  // not a component (entries a filter removed)
                    ++v;
                    continue;
                }
                int64_t size = 0, edges = 0, max_degree = 0;
                int32_t top = v;
                for (; v < last && labels[v] == root; ++v) {
                    ++size;
                    top = v;
                    max_degree = std::max(max_degree, csr.degree(v));
                    for (auto a = csr.begin(v); a < csr.end(v); ++a) edges += csr.neighbors[a] >= v;
                }
                const int32_t r = roots.row(root);
                add(rows.size[r], size);
                add(rows.edges[r], edges);
                raise(rows.max_vertex[r], top);
                raise(rows.max_degree[r], max_degree);
            }
        });
    });
    const Numbering order = order_rows(rows, numbering);
    relabel(labels, n, roots, order, out, threads);
    return rows;
}

}  // namespace ccl4j::cpu
