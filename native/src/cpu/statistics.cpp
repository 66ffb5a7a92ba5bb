// Per-component statistics on the CPU. Two passes over the labels: the roots (entries labelled
// with their own index) numbered in raster order by a parallel count and prefix, then one pass
// that gathers each run of equal labels along a row (or of consecutive vertices) and adds it to
// its row with atomics: most components lie in one thread's share, so the atomics rarely
// contend, and a large one costs one update per run rather than per cell. The SIZE numbering
// sorts the rows and relabels in a third pass.
#include "cpu/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/parallel.hpp"

namespace ccl4j::cpu {
namespace {

// ---- atomic updates of a row (relaxed: the pass's end is the only synchronisation needed) ----

template <class T>
void add(T& target, T value) {
    __atomic_fetch_add(&target, value, __ATOMIC_RELAXED);
}

void add(double& target, double value) {
    double seen, next;
    __atomic_load(&target, &seen, __ATOMIC_RELAXED);
    do {
        next = seen + value;
    } while (!__atomic_compare_exchange(&target, &seen, &next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

template <class T>
void lower(T& target, T value) {
    T seen;
    __atomic_load(&target, &seen, __ATOMIC_RELAXED);
    while (value < seen && !__atomic_compare_exchange(&target, &seen, &value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

template <class T>
void raise(T& target, T value) {
    T seen;
    __atomic_load(&target, &seen, __ATOMIC_RELAXED);
    while (value > seen && !__atomic_compare_exchange(&target, &seen, &value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

// ---- roots in raster order --------------------------------------------------------------------

// The row of every root (entries of other indices are left undefined) and the roots in raster order.
struct Roots {
    std::unique_ptr<int32_t[]> row_of;
    std::vector<int32_t> first;
};

Roots number_roots(const int32_t* labels, int64_t count, int threads) {
    Roots roots;
    roots.row_of.reset(new int32_t[std::max<int64_t>(1, count)]);
    const int parts = static_cast<int>(std::min<int64_t>(parallel::thread_count(threads), std::max<int64_t>(1, count)));
    std::vector<int64_t> below(parts + 1, 0);
    parallel::for_blocks(int64_t(0), count, parts, [&](int part, int64_t first, int64_t last) {
        int64_t n = 0;
        for (int64_t i = first; i < last; ++i) n += labels[i] == i;
        below[part + 1] = n;
    });
    for (int p = 0; p < parts; ++p) below[p + 1] += below[p];
    roots.first.resize(static_cast<size_t>(below[parts]));
    parallel::for_blocks(int64_t(0), count, parts, [&](int part, int64_t first, int64_t last) {
        int64_t row = below[part];
        for (int64_t i = first; i < last; ++i) {
            if (labels[i] != i) continue;
            roots.row_of[i] = static_cast<int32_t>(row);
            roots.first[row++] = static_cast<int32_t>(i);
        }
    });
    return roots;
}

// Row labels, the order of a SIZE table and the final labels of each entry.
struct Numbering {
    int32_t kind;
    std::vector<int32_t> position;  // SIZE: row in raster order -> row of the table

    // The label of the entry whose canonical label is root (background: root < 0).
    int32_t label(int32_t root, const Roots& roots) const {
        switch (kind) {
            case CCL4J_NUMBERING_RASTER: return root < 0 ? 0 : roots.row_of[root] + 1;
            case CCL4J_NUMBERING_SIZE: return root < 0 ? -1 : position[roots.row_of[root]];
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
                        : kind == CCL4J_NUMBERING_RASTER  ? static_cast<int32_t>(r + 1)
                                                          : static_cast<int32_t>(r);
    }
    return numbering;
}

void relabel(const int32_t* labels, int64_t count, const Roots& roots, const Numbering& numbering, int32_t* out,
             int threads) {
    if (!out || (out == labels && numbering.kind == CCL4J_NUMBERING_CANONICAL)) return;
    parallel::for_each(int64_t(0), count, threads, [&](int64_t i) { out[i] = numbering.label(labels[i], roots); });
}

// The rows of cells a thread takes at a time: about 16 K cells.
int64_t rows_per_chunk(int32_t width) { return std::max<int64_t>(1, (int64_t(1) << 14) / width); }

// One run of equal labels along a row, gathered before it is added to its table row.
struct Run {
    int64_t size = 0;
    int64_t intensity_sum = 0;
    double real_sum = 0;
    double low = HUGE_VAL, high = -HUGE_VAL;
};

template <class Value, bool kFloat>
void accumulate_mesh(const Mesh& mesh, const int32_t* labels, const Intensity& intensity, const Roots& roots,
                     MeshRows& rows, int threads) {
    const int32_t w = mesh.width, h = mesh.height, d = mesh.depth;
    const bool three_d = d > 1;
    const auto* values = static_cast<const Value*>(intensity.cells);
    parallel::for_chunks(int64_t(0), int64_t(h) * d, rows_per_chunk(w), threads, [&](int, int64_t first, int64_t last) {
        for (int64_t line = first; line < last; ++line) {
            const int32_t y = static_cast<int32_t>(line % h), z = static_cast<int32_t>(line / h);
            const int32_t* row_labels = labels + line * w;
            const Value* row_values = values + intensity.offset(0, y, z);
            uint32_t faces = (y == 0 ? CCL4J_FACE_Y_MIN : 0u) | (y == h - 1 ? CCL4J_FACE_Y_MAX : 0u);
            if (three_d) faces |= (z == 0 ? CCL4J_FACE_Z_MIN : 0u) | (z == d - 1 ? CCL4J_FACE_Z_MAX : 0u);
            for (int32_t x = 0; x < w;) {
                const int32_t root = row_labels[x];
                if (root < 0) {
                    ++x;
                    continue;
                }
                Run run;
                const int32_t start = x;
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
                const int64_t n = x - start;
                const int32_t r = roots.row_of[root];
                add(rows.size[r], n);
                lower(rows.min[0][r], start);
                raise(rows.max[0][r], x - 1);
                lower(rows.min[1][r], y);
                raise(rows.max[1][r], y);
                lower(rows.min[2][r], z);
                raise(rows.max[2][r], z);
                add(rows.coordinate_sum[0][r], (int64_t(start) + x - 1) * n / 2);
                add(rows.coordinate_sum[1][r], int64_t(y) * n);
                add(rows.coordinate_sum[2][r], int64_t(z) * n);
                const uint32_t touched =
                    faces | (start == 0 ? CCL4J_FACE_X_MIN : 0u) | (x == w ? CCL4J_FACE_X_MAX : 0u);
                if (touched) __atomic_fetch_or(&rows.touches[r], touched, __ATOMIC_RELAXED);
                if constexpr (kFloat) {
                    add(rows.intensity_real_sum[r], run.real_sum);
                } else {
                    add(rows.intensity_sum[r], run.intensity_sum);
                }
                lower(rows.intensity_min[r], run.low);
                raise(rows.intensity_max[r], run.high);
            }
        }
    });
}

}  // namespace

void check_canonical(const int32_t* labels, int64_t count, int threads) {
    const int parts = static_cast<int>(std::min<int64_t>(parallel::thread_count(threads), std::max<int64_t>(1, count)));
    std::vector<int64_t> bad(parts, -1);
    parallel::for_blocks(int64_t(0), count, parts, [&](int part, int64_t first, int64_t last) {
        for (int64_t i = first; i < last; ++i) {
            const int32_t l = labels[i];
            if (l == -1) continue;
            if (l < -1 || l > i || labels[l] != l) {
                bad[part] = i;
                return;
            }
        }
    });
    for (const int64_t i : bad) {
        if (i < 0) continue;
        const int32_t l = labels[i];
        std::string why = l < -1  ? "below -1"
                          : l > i ? "above its own index (a canonical label is the smallest index of its component)"
                                  : "the index of an entry labelled " + std::to_string(labels[l]) +
                                        " (a canonical label's own entry holds it)";
        fail(CCL4J_INVALID_INPUT,
             "labels are not canonical: entry " + std::to_string(i) + " has label " + std::to_string(l) + ", " + why);
    }
}

MeshRows mesh_rows(const Mesh& mesh, const int32_t* labels, const Intensity& intensity, int32_t numbering,
                   int32_t* out, int threads) {
    const int64_t n = mesh.cell_count();
    const Roots roots = number_roots(labels, n, threads);
    MeshRows rows;
    rows.float_intensity = intensity.is_float();
    rows.resize(roots.first.size());
    rows.first = roots.first;
    switch (intensity.type) {
        case IntensityType::U8: accumulate_mesh<uint8_t, false>(mesh, labels, intensity, roots, rows, threads); break;
        case IntensityType::I32: accumulate_mesh<int32_t, false>(mesh, labels, intensity, roots, rows, threads); break;
        case IntensityType::F32: accumulate_mesh<float, true>(mesh, labels, intensity, roots, rows, threads); break;
    }
    const Numbering order = order_rows(rows, numbering);
    relabel(labels, n, roots, order, out, threads);
    return rows;
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
                const int32_t r = roots.row_of[root];
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
