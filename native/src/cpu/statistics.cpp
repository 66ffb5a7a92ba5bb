// Per-component statistics on the CPU. Two passes over the labels: the roots (entries labelled
// with their own index) numbered in raster order by a parallel count and prefix, then one pass
// over shares of rows that gathers the runs of each component in a thread's partial row and adds
// that to the table with atomics (graphs: runs of consecutive vertices, added directly). A final
// pass writes the labels in the numbering (the SIZE numbering sorts the rows first).
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

// What a thread has gathered of one table row: the runs it met of that component.
struct Partial {
    int32_t row = -1;
    int64_t size = 0;
    int32_t min[3], max[3];
    int64_t coordinate_sum[3];
    uint32_t touches = 0;
    int64_t intensity_sum = 0;
    double real_sum = 0, low = HUGE_VAL, high = -HUGE_VAL;

    void start(int32_t r) {
        *this = Partial{};
        row = r;
        for (int a = 0; a < 3; ++a) {
            min[a] = INT32_MAX;
            max[a] = INT32_MIN;
            coordinate_sum[a] = 0;
        }
    }
};

// A thread's partial rows, direct-mapped by row: the runs of a component within a thread's share
// meet in its slot and reach the table in one atomic update per field when the slot is taken by
// another row or the share ends. Components are small and local in most fields, so most rows are
// updated once or twice instead of once per run.
class PartialRows {
public:
    explicit PartialRows(MeshRows& rows) : rows_(rows), slots_(kSlots) {}

    Partial& slot(int32_t row) {
        Partial& p = slots_[row & (kSlots - 1)];
        if (p.row != row) {
            if (p.row >= 0) flush(p);
            p.start(row);
        }
        return p;
    }

    void flush_all() {
        for (Partial& p : slots_) {
            if (p.row >= 0) flush(p);
            p.row = -1;
        }
    }

private:
    static constexpr int32_t kSlots = 1024;

    void flush(const Partial& p) {
        const int32_t r = p.row;
        add(rows_.size[r], p.size);
        for (int a = 0; a < 3; ++a) {
            lower(rows_.min[a][r], p.min[a]);
            raise(rows_.max[a][r], p.max[a]);
            add(rows_.coordinate_sum[a][r], p.coordinate_sum[a]);
        }
        if (p.touches) __atomic_fetch_or(&rows_.touches[r], p.touches, __ATOMIC_RELAXED);
        if (rows_.float_intensity) {
            add(rows_.intensity_real_sum[r], p.real_sum);
        } else {
            add(rows_.intensity_sum[r], p.intensity_sum);
        }
        lower(rows_.intensity_min[r], p.low);
        raise(rows_.intensity_max[r], p.high);
    }

    MeshRows& rows_;
    std::vector<Partial> slots_;
};

template <class Value, bool kFloat>
void accumulate_mesh(const Mesh& mesh, const int32_t* labels, const Intensity& intensity, const Roots& roots,
                     MeshRows& rows, int threads) {
    const int32_t w = mesh.width, h = mesh.height, d = mesh.depth;
    const bool three_d = d > 1;
    const auto* values = static_cast<const Value*>(intensity.cells);
    parallel::for_chunks(int64_t(0), int64_t(h) * d, rows_per_chunk(w), threads, [&](int, int64_t first, int64_t last) {
        PartialRows partial(rows);
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
                Partial& p = partial.slot(roots.row_of[root]);
                const int32_t start = x;
                for (; x < w && row_labels[x] == root; ++x) {
                    const Value v = row_values[x];
                    if constexpr (kFloat) {
                        p.real_sum += v;
                    } else {
                        p.intensity_sum += v;
                    }
                    p.low = std::min(p.low, static_cast<double>(v));
                    p.high = std::max(p.high, static_cast<double>(v));
                }
                const int64_t n = x - start;
                p.size += n;
                p.min[0] = std::min(p.min[0], start);
                p.max[0] = std::max(p.max[0], x - 1);
                p.min[1] = std::min(p.min[1], y);
                p.max[1] = std::max(p.max[1], y);
                p.min[2] = std::min(p.min[2], z);
                p.max[2] = std::max(p.max[2], z);
                p.coordinate_sum[0] += (int64_t(start) + x - 1) * n / 2;
                p.coordinate_sum[1] += int64_t(y) * n;
                p.coordinate_sum[2] += int64_t(z) * n;
                p.touches |= faces | (start == 0 ? CCL4J_FACE_X_MIN : 0u) | (x == w ? CCL4J_FACE_X_MAX : 0u);
            }
        }
        partial.flush_all();
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
