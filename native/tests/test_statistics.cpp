// Tests of per-component statistics (ccl4j/statistics.h) through libccl4j.so on the CPU backends:
// every column of mesh and graph tables against a reference computed here, cell by cell, from the
// canonical labels; every numbering; 2D and 3D, every connectivity, both modes, periodic axes,
// strided meshes, u8, i32 and f32 intensity grids; and the argument checks (labels that are not
// canonical, unknown numberings and columns, rows outside the table). Prints every failure and
// "N passed, M failed".
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"

namespace {

using namespace ccl4j::test;

// One row as the reference computes it.
struct Row {
    int32_t first = 0;
    int64_t size = 0;
    int32_t min[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, max[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    int64_t coordinate_sum[3] = {0, 0, 0};
    uint32_t touches = 0;
    double sum = 0, low = HUGE_VAL, high = -HUGE_VAL;
    int64_t edges = 0, max_degree = 0;
    int32_t max_vertex = -1;
};

// The reference rows of canonical labels in raster order, summing value(x, y, z).
template <class Value>
std::vector<Row> reference_rows(const std::vector<int32_t>& labels, int32_t w, int32_t h, int32_t d, Value value) {
    std::map<int32_t, Row> rows;
    for (int32_t z = 0; z < d; ++z) {
        for (int32_t y = 0; y < h; ++y) {
            for (int32_t x = 0; x < w; ++x) {
                const int32_t l = labels[x + int64_t(w) * (y + int64_t(h) * z)];
                if (l < 0) continue;
                Row& r = rows[l];
                r.first = l;
                ++r.size;
                const int32_t c[3] = {x, y, z};
                for (int a = 0; a < 3; ++a) {
                    r.min[a] = std::min(r.min[a], c[a]);
                    r.max[a] = std::max(r.max[a], c[a]);
                    r.coordinate_sum[a] += c[a];
                }
                if (x == 0) r.touches |= CCL4J_FACE_X_MIN;
                if (x == w - 1) r.touches |= CCL4J_FACE_X_MAX;
                if (y == 0) r.touches |= CCL4J_FACE_Y_MIN;
                if (y == h - 1) r.touches |= CCL4J_FACE_Y_MAX;
                if (d > 1 && z == 0) r.touches |= CCL4J_FACE_Z_MIN;
                if (d > 1 && z == d - 1) r.touches |= CCL4J_FACE_Z_MAX;
                const double v = value(x, y, z);
                r.sum += v;
                r.low = std::min(r.low, v);
                r.high = std::max(r.high, v);
            }
        }
    }
    std::vector<Row> out;
    for (auto& [label, row] : rows) out.push_back(row);
    return out;
}

// The rows in a numbering, and each row's label.
std::vector<Row> in_numbering(std::vector<Row> rows, int32_t numbering) {
    if (numbering == CCL4J_NUMBERING_SIZE) {
        std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.size > b.size; });
    }
    return rows;
}

int32_t row_label(const std::vector<Row>& rows, size_t r, int32_t numbering) {
    return numbering == CCL4J_NUMBERING_CANONICAL ? rows[r].first
           : numbering == CCL4J_NUMBERING_RASTER  ? static_cast<int32_t>(r + 1)
                                                  : static_cast<int32_t>(r);
}

// The labels of canonical labels in a numbering.
std::vector<int32_t> relabelled(const std::vector<int32_t>& labels, const std::vector<Row>& rows, int32_t numbering) {
    std::map<int32_t, int32_t> of;
    for (size_t r = 0; r < rows.size(); ++r) of[rows[r].first] = row_label(rows, r, numbering);
    std::vector<int32_t> out(labels.size());
    for (size_t i = 0; i < labels.size(); ++i) {
        out[i] = labels[i] >= 0 ? of[labels[i]] : numbering == CCL4J_NUMBERING_RASTER ? 0 : -1;
    }
    return out;
}

template <class T>
std::vector<T> column(ccl4j_context context, int32_t c, int64_t k) {
    std::vector<T> values(static_cast<size_t>(std::max<int64_t>(k, 1)));
    const ccl4j_status s = ccl4j_statistics_column(context, c, 0, k, values.data());
    CHECK_MSG(s == CCL4J_SUCCESS, std::string("column ") + std::to_string(c) + ": " + ccl4j_context_error_message(context));
    values.resize(static_cast<size_t>(k));
    return values;
}

// Every column of the context's mesh table against the expected rows (float sums to 1e-9).
void check_mesh_table(ccl4j_context context, const std::vector<Row>& rows, int32_t numbering, bool float_sums,
                      const std::string& what) {
    const int64_t k = static_cast<int64_t>(rows.size());
    const auto label = column<int64_t>(context, CCL4J_STAT_LABEL, k);
    const auto first = column<int64_t>(context, CCL4J_STAT_FIRST, k);
    const auto size = column<int64_t>(context, CCL4J_STAT_SIZE, k);
    const auto touches = column<uint32_t>(context, CCL4J_STAT_TOUCHES, k);
    const auto sum = column<double>(context, CCL4J_STAT_SUM, k);
    const auto low = column<double>(context, CCL4J_STAT_MIN, k);
    const auto high = column<double>(context, CCL4J_STAT_MAX, k);
    const auto mean = column<double>(context, CCL4J_STAT_MEAN, k);
    std::vector<int32_t> lows[3], highs[3];
    std::vector<double> centroids[3];
    for (int a = 0; a < 3; ++a) {
        lows[a] = column<int32_t>(context, CCL4J_STAT_MIN_X + a, k);
        highs[a] = column<int32_t>(context, CCL4J_STAT_MAX_X + a, k);
        centroids[a] = column<double>(context, CCL4J_STAT_CENTROID_X + a, k);
    }
    int wrong = 0;
    for (size_t r = 0; r < rows.size() && wrong < 3; ++r) {
        const Row& e = rows[r];
        bool ok = label[r] == row_label(rows, r, numbering) && first[r] == e.first && size[r] == e.size &&
                  touches[r] == e.touches && low[r] == e.low && high[r] == e.high;
        for (int a = 0; a < 3; ++a) {
            ok = ok && lows[a][r] == e.min[a] && highs[a][r] == e.max[a] &&
                 centroids[a][r] == double(e.coordinate_sum[a]) / double(e.size);
        }
        const double tolerance = float_sums ? 1e-9 * std::max(1.0, std::fabs(e.sum)) : 0.0;
        ok = ok && std::fabs(sum[r] - e.sum) <= tolerance &&
             std::fabs(mean[r] - e.sum / double(e.size)) <= tolerance / double(e.size);
        if (!ok) ++wrong;
        CHECK_MSG(ok, what + ": row " + std::to_string(r) + " (first cell " + std::to_string(e.first) + ", size " +
                          std::to_string(e.size) + ") differs: got first " + std::to_string(first[r]) + " size " +
                          std::to_string(size[r]) + " label " + std::to_string(label[r]) + " sum " +
                          std::to_string(sum[r]) + " (expected " + std::to_string(e.sum) + ")");
    }
}

struct Case {
    int32_t w, h, d, connectivity;
    uint32_t periodic;
    int32_t mode;
    int32_t cell_type;
    int values;  // cells drawn from 0 .. values - 1
};

// The wrap bits of each component (by first cell), found independently of the library's method:
// a component wraps around a periodic axis when its copies are connected in a mesh of 2 or of 3
// copies of the cells along that axis (with the same boundaries): a loop of winding w along the
// axis joins the copies of a k-fold cover unless k divides w.
std::map<int32_t, uint32_t> wraps_by_cover(ccl4j_context context, const Case& c, const uint8_t* u8,
                                           const int32_t* i32, int64_t row_stride, int64_t layer_stride,
                                           const std::vector<Row>& rows);

void check_wraps(ccl4j_context context, const std::vector<Row>& rows, const std::map<int32_t, uint32_t>& expected,
                 const std::string& what) {
    const auto wraps = column<uint32_t>(context, CCL4J_STAT_WRAPS, int64_t(rows.size()));
    int wrong = 0;
    for (size_t r = 0; r < rows.size(); ++r) wrong += wraps[r] != expected.at(rows[r].first);
    CHECK_MSG(wrong == 0, what + ": " + std::to_string(wrong) + " rows with other wrap bits");
}

void mesh_case(std::mt19937& rng, const Case& c, ccl4j_context serial, ccl4j_context parallel) {
    const int64_t n = int64_t(c.w) * c.h * c.d;
    // the cells lie in a larger buffer: rows padded by 3 cells, layers by one row
    const int64_t row_stride = c.w + 3, layer_stride = row_stride * (c.h + 1);
    const int64_t span = layer_stride * c.d;
    std::uniform_int_distribution<int> draw(0, c.values - 1);
    std::vector<uint8_t> u8(span);
    std::vector<int32_t> i32(span);
    std::vector<float> f32(span);
    for (int64_t i = 0; i < span; ++i) {
        const int v = draw(rng);
        u8[i] = uint8_t(v * 37);
        i32[i] = v == 0 ? 0 : v * 1000003 - 70;
        f32[i] = float(v) * 0.37f - 1.0f / float(1 + i % 7);
    }
    const void* cells = c.cell_type == CCL4J_CELL_U8 ? static_cast<const void*>(u8.data()) : i32.data();
    const ccl4j_mesh mesh{c.w, c.h, c.d, c.cell_type, row_stride, layer_stride};
    ccl4j_mesh_options options{};
    options.connectivity = c.connectivity;
    options.periodic = c.periodic;
    options.mode = c.mode;
    std::vector<int32_t> canonical(n);
    CHECK(ccl4j_label_mesh(serial, &mesh, cells, &options, canonical.data(), nullptr) == CCL4J_SUCCESS);
    const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + "x" + std::to_string(c.d) + " conn " +
                             std::to_string(c.connectivity) + " periodic " + std::to_string(c.periodic) + " mode " +
                             std::to_string(c.mode) + " cell " + std::to_string(c.cell_type);
    auto at = [&](int32_t x, int32_t y, int32_t z) { return x + row_stride * y + layer_stride * z; };
    const std::vector<Row> own = reference_rows(canonical, c.w, c.h, c.d, [&](int32_t x, int32_t y, int32_t z) {
        return c.cell_type == CCL4J_CELL_U8 ? double(u8[at(x, y, z)]) : double(i32[at(x, y, z)]);
    });
    const std::map<int32_t, uint32_t> expected_wraps =
        wraps_by_cover(serial, c, u8.data(), i32.data(), row_stride, layer_stride, own);
    for (ccl4j_context context : {serial, parallel}) {
        for (int32_t numbering : {CCL4J_NUMBERING_CANONICAL, CCL4J_NUMBERING_RASTER, CCL4J_NUMBERING_SIZE}) {
            ccl4j_statistics_options s{};
            s.numbering = numbering;
            std::vector<int32_t> labels(n, kPoison);
            int64_t k = -1;
            ccl4j_timings timings;
            const ccl4j_status status = ccl4j_label_mesh_statistics(context, &mesh, cells, &options, &s, nullptr,
                                                                    labels.data(), &k, &timings);
            CHECK_MSG(status == CCL4J_SUCCESS, what + ": " + ccl4j_context_error_message(context));
            const std::vector<Row> rows = in_numbering(own, numbering);
            CHECK_MSG(k == int64_t(rows.size()), what + ": " + std::to_string(k) + " rows");
            if (k != int64_t(rows.size())) continue;
            check_labels(labels, relabelled(canonical, rows, numbering), what + " labels, numbering " + std::to_string(numbering));
            check_mesh_table(context, rows, numbering, false, what + " numbering " + std::to_string(numbering));
            bool timed = false;
            for (int p = 0; p < timings.phase_count; ++p) timed |= std::strcmp(timings.phases[p].name, "statistics") == 0;
            CHECK_MSG(timed, what + ": no statistics phase in the timings");
            check_wraps(context, rows, expected_wraps, what + " numbering " + std::to_string(numbering));

            // The same table from int64 labels: labelled into them, and from the canonical ones.
            std::vector<int64_t> wide(n, kPoison);
            k = -1;
            CHECK_MSG(ccl4j_label_mesh64_statistics(context, &mesh, cells, &options, &s, nullptr, wide.data(), &k,
                                                    nullptr) == CCL4J_SUCCESS,
                      what + " int64: " + ccl4j_context_error_message(context));
            CHECK_MSG(k == int64_t(rows.size()), what + " int64: " + std::to_string(k) + " rows");
            if (k != int64_t(rows.size())) continue;
            check_labels(wide, relabelled(canonical, rows, numbering), what + " int64 labels, numbering " + std::to_string(numbering));
            check_mesh_table(context, rows, numbering, false, what + " int64, numbering " + std::to_string(numbering));
            check_wraps(context, rows, expected_wraps, what + " int64, numbering " + std::to_string(numbering));
            const std::vector<int64_t> canonical64(canonical.begin(), canonical.end());
            std::vector<int64_t> out64(n, kPoison);
            k = -1;
            CHECK_MSG(ccl4j_mesh64_statistics(context, &mesh, cells, &options, canonical64.data(), &s, nullptr,
                                              out64.data(), &k) == CCL4J_SUCCESS,
                      what + " int64 labels: " + ccl4j_context_error_message(context));
            CHECK(k == int64_t(rows.size()));
            if (k != int64_t(rows.size())) continue;
            check_labels(out64, relabelled(canonical, rows, numbering), what + " int64 out, numbering " + std::to_string(numbering));
            check_mesh_table(context, rows, numbering, false, what + " int64 of labels, numbering " + std::to_string(numbering));
            check_wraps(context, rows, expected_wraps, what + " int64 of labels, numbering " + std::to_string(numbering));
        }
        // The labels made above, with each intensity grid of the statistics options (strided).
        for (int32_t type : {CCL4J_INTENSITY_U8, CCL4J_INTENSITY_I32, CCL4J_INTENSITY_F32}) {
            ccl4j_statistics_options s{CCL4J_NUMBERING_RASTER, type, row_stride, layer_stride, 0};
            const void* grid = type == CCL4J_INTENSITY_U8 ? static_cast<const void*>(u8.data())
                               : type == CCL4J_INTENSITY_I32 ? static_cast<const void*>(i32.data())
                                                             : f32.data();
            const std::vector<Row> rows = reference_rows(canonical, c.w, c.h, c.d, [&](int32_t x, int32_t y, int32_t z) {
                const int64_t i = at(x, y, z);
                return type == CCL4J_INTENSITY_U8 ? double(u8[i]) : type == CCL4J_INTENSITY_I32 ? double(i32[i]) : double(f32[i]);
            });
            std::vector<int32_t> out(n, kPoison);
            int64_t k = -1;
            CHECK_MSG(ccl4j_mesh_statistics(context, &mesh, cells, &options, canonical.data(), &s, grid, out.data(), &k) ==
                          CCL4J_SUCCESS,
                      what + ": " + ccl4j_context_error_message(context));
            CHECK(k == int64_t(rows.size()));
            if (k != int64_t(rows.size())) continue;
            check_labels(out, relabelled(canonical, rows, CCL4J_NUMBERING_RASTER), what + " intensity labels");
            check_mesh_table(context, rows, CCL4J_NUMBERING_RASTER, type == CCL4J_INTENSITY_F32,
                             what + " intensity type " + std::to_string(type));
        }
    }
}

std::map<int32_t, uint32_t> wraps_by_cover(ccl4j_context context, const Case& c, const uint8_t* u8, const int32_t* i32,
                                           int64_t row_stride, int64_t layer_stride, const std::vector<Row>& rows) {
    std::map<int32_t, uint32_t> wraps;
    for (const Row& r : rows) wraps[r.first] = 0;
    const int32_t extent[3] = {c.w, c.h, c.d};
    for (int axis = 0; axis < 3; ++axis) {
        if (!(c.periodic & (1u << axis)) || (axis == 2 && c.d == 1)) continue;
        for (int copies : {2, 3}) {
            int32_t e[3] = {c.w, c.h, c.d};
            e[axis] *= copies;
            const int64_t n = int64_t(e[0]) * e[1] * e[2];
            std::vector<uint8_t> tiled8(n);
            std::vector<int32_t> tiled32(n);
            for (int32_t z = 0; z < e[2]; ++z) {
                for (int32_t y = 0; y < e[1]; ++y) {
                    for (int32_t x = 0; x < e[0]; ++x) {
                        const int64_t from = x % c.w + row_stride * (y % c.h) + layer_stride * (z % c.d);
                        const int64_t to = x + int64_t(e[0]) * (y + int64_t(e[1]) * z);
                        tiled8[to] = u8[from];
                        tiled32[to] = i32[from];
                    }
                }
            }
            const ccl4j_mesh mesh{e[0], e[1], e[2], c.cell_type, 0, 0};
            ccl4j_mesh_options options{};
            options.connectivity = c.connectivity;
            options.periodic = c.periodic;
            options.mode = c.mode;
            std::vector<int32_t> labels(n);
            const void* cells = c.cell_type == CCL4J_CELL_U8 ? static_cast<const void*>(tiled8.data()) : tiled32.data();
            CHECK(ccl4j_label_mesh(context, &mesh, cells, &options, labels.data(), nullptr) == CCL4J_SUCCESS);
            for (const Row& r : rows) {
                const int32_t x = r.first % c.w, y = r.first / c.w % c.h, z = r.first / c.w / c.h;
                int32_t at[3] = {x, y, z};
                at[axis] += extent[axis];  // the same cell in the second copy
                const int64_t copy = at[0] + int64_t(e[0]) * (at[1] + int64_t(e[1]) * at[2]);
                const int64_t original = x + int64_t(e[0]) * (y + int64_t(e[1]) * z);
                if (labels[copy] == labels[original]) wraps[r.first] |= 1u << axis;
            }
        }
    }
    return wraps;
}

void meshes(ccl4j_context serial, ccl4j_context parallel) {
    std::mt19937 rng(17);
    std::vector<Case> cases;
    for (int32_t mode : {CCL4J_MESH_FOREGROUND, CCL4J_MESH_SAME_VALUE}) {
        for (uint32_t periodic : {0u, 1u, 2u, 3u}) {
            for (int32_t conn : {4, 8}) {
                cases.push_back({37, 23, 1, conn, periodic, mode, CCL4J_CELL_U8, mode ? 3 : 2});
                cases.push_back({1, 19, 1, conn, periodic, mode, CCL4J_CELL_I32, 2});
            }
            for (int32_t conn : {6, 26}) {
                cases.push_back({11, 9, 7, conn, periodic | 4u, mode, CCL4J_CELL_I32, mode ? 3 : 2});
                cases.push_back({5, 1, 6, conn, periodic, mode, CCL4J_CELL_U8, 2});
            }
        }
    }
    // a large one, for the parallel accumulation's shares
    cases.push_back({700, 500, 1, 8, 0, CCL4J_MESH_FOREGROUND, CCL4J_CELL_U8, 2});
    for (const Case& c : cases) mesh_case(rng, c, serial, parallel);
}

// A random graph of `n` vertices with `edges` random edges (self-loops and repeats allowed), as
// symmetric CSR with int32 offsets.
void graphs(ccl4j_context serial, ccl4j_context parallel) {
    std::mt19937 rng(5);
    const int32_t n = 2000;
    std::uniform_int_distribution<int32_t> vertex(0, n - 1);
    std::vector<std::vector<int32_t>> adjacency(n);
    for (int e = 0; e < 1500; ++e) {
        const int32_t u = vertex(rng), v = e % 50 == 0 ? u : vertex(rng);
        adjacency[u].push_back(v);
        if (u != v) adjacency[v].push_back(u);
    }
    std::vector<int32_t> offsets{0}, neighbors;
    for (auto& list : adjacency) {
        neighbors.insert(neighbors.end(), list.begin(), list.end());
        offsets.push_back(static_cast<int32_t>(neighbors.size()));
    }
    const ccl4j_csr csr{n, static_cast<int64_t>(neighbors.size()), 4, 0};
    std::vector<int32_t> labels(n);
    CHECK(ccl4j_label_graph(serial, &csr, offsets.data(), neighbors.data(), nullptr, labels.data(), nullptr) ==
          CCL4J_SUCCESS);
    std::map<int32_t, Row> by_label;
    for (int32_t v = 0; v < n; ++v) {
        Row& r = by_label[labels[v]];
        r.first = labels[v];
        ++r.size;
        r.max_vertex = v;
        r.max_degree = std::max<int64_t>(r.max_degree, offsets[v + 1] - offsets[v]);
        for (int32_t a = offsets[v]; a < offsets[v + 1]; ++a) r.edges += neighbors[a] >= v;
    }
    std::vector<Row> raster;
    for (auto& [l, r] : by_label) raster.push_back(r);
    for (ccl4j_context context : {serial, parallel}) {
        for (int32_t numbering : {CCL4J_NUMBERING_CANONICAL, CCL4J_NUMBERING_RASTER, CCL4J_NUMBERING_SIZE}) {
            const std::vector<Row> rows = in_numbering(raster, numbering);
            std::vector<int32_t> out(labels);
            int64_t k = -1;
            CHECK_MSG(ccl4j_graph_statistics(context, &csr, offsets.data(), neighbors.data(), out.data(), numbering,
                                             out.data(), &k) == CCL4J_SUCCESS,
                      ccl4j_context_error_message(context));
            CHECK(k == int64_t(rows.size()));
            if (k != int64_t(rows.size())) continue;
            check_labels(out, relabelled(labels, rows, numbering), "graph labels in numbering " + std::to_string(numbering));
            const auto label = column<int64_t>(context, CCL4J_STAT_LABEL, k);
            const auto first = column<int64_t>(context, CCL4J_STAT_FIRST, k);
            const auto size = column<int64_t>(context, CCL4J_STAT_SIZE, k);
            const auto edges = column<int64_t>(context, CCL4J_STAT_EDGES, k);
            const auto top = column<int32_t>(context, CCL4J_STAT_MAX_VERTEX, k);
            const auto degree = column<int64_t>(context, CCL4J_STAT_MAX_DEGREE, k);
            int wrong = 0;
            for (size_t r = 0; r < rows.size(); ++r) {
                wrong += !(label[r] == row_label(rows, r, numbering) && first[r] == rows[r].first &&
                           size[r] == rows[r].size && edges[r] == rows[r].edges && top[r] == rows[r].max_vertex &&
                           degree[r] == rows[r].max_degree);
            }
            CHECK_MSG(wrong == 0, std::to_string(wrong) + " graph rows differ, numbering " + std::to_string(numbering));
        }
    }
}

// What a caller can get wrong is refused with a message, and nothing is read out of bounds.
void refusals(ccl4j_context context) {
    auto status_of = [](ccl4j_status s) { return s; };
    int64_t k = -1;
    double value = 0;
    // a fresh context holds no table
    ccl4j_context fresh = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &fresh) == CCL4J_SUCCESS);
    CHECK(ccl4j_statistics_column(fresh, CCL4J_STAT_SIZE, 0, 0, &value) == CCL4J_INVALID_ARGUMENT);
    ccl4j_context_destroy(fresh);

    const uint8_t cells[6] = {1, 1, 0, 0, 0, 1};  // two components under 4-connectivity
    const ccl4j_mesh mesh{3, 2, 1, CCL4J_CELL_U8, 0, 0};
    std::vector<int32_t> labels(6);
    CHECK(ccl4j_label_mesh_statistics(context, &mesh, cells, nullptr, nullptr, nullptr, labels.data(), &k, nullptr) ==
          CCL4J_SUCCESS);
    CHECK(k == 2);
    CHECK(ccl4j_statistics_column(context, CCL4J_STAT_EDGES, 0, 1, &value) == CCL4J_INVALID_ARGUMENT);
    CHECK(std::string(ccl4j_context_error_message(context)).find("not a column of a mesh table") != std::string::npos);
    CHECK(ccl4j_statistics_column(context, CCL4J_STAT_SUM, 1, 2, &value) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_statistics_column(context, 99, 0, 1, &value) == CCL4J_INVALID_ARGUMENT);
    ccl4j_statistics_options bad{7, 0, 0, 0, 0};
    CHECK(ccl4j_label_mesh_statistics(context, &mesh, cells, nullptr, &bad, nullptr, labels.data(), &k, nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    // a failed call leaves no table behind
    CHECK(ccl4j_statistics_column(context, CCL4J_STAT_SIZE, 0, 0, &value) == CCL4J_INVALID_ARGUMENT);
    ccl4j_statistics_options typed{CCL4J_NUMBERING_CANONICAL, CCL4J_INTENSITY_F32, 0, 0, 0};
    CHECK(ccl4j_mesh_statistics(context, &mesh, cells, nullptr, labels.data(), &typed, nullptr, nullptr, &k) ==
          CCL4J_INVALID_ARGUMENT);
    // labels that are not canonical: each is named with its entry
    const int32_t not_canonical[][6] = {{0, 0, -1, -1, -1, 4}, {0, 0, -1, -1, -1, -2}, {1, 1, -1, -1, -1, 5}};
    for (const auto& wrong : not_canonical) {
        const ccl4j_status s =
            status_of(ccl4j_mesh_statistics(context, &mesh, cells, nullptr, wrong, nullptr, nullptr, nullptr, &k));
        CHECK(s == CCL4J_INVALID_INPUT);
        CHECK_MSG(std::string(ccl4j_context_error_message(context)).find("not canonical: entry ") != std::string::npos,
                  ccl4j_context_error_message(context));
    }
    const int64_t not_canonical64[][6] = {{0, 0, -1, -1, -1, 4}, {0, 0, -1, -1, -1, int64_t(1) << 40}};
    for (const auto& wrong : not_canonical64) {
        CHECK(ccl4j_mesh64_statistics(context, &mesh, cells, nullptr, wrong, nullptr, nullptr, nullptr, &k) ==
              CCL4J_INVALID_INPUT);
        CHECK_MSG(std::string(ccl4j_context_error_message(context)).find("not canonical: entry 5") != std::string::npos,
                  ccl4j_context_error_message(context));
    }
    // int64 output labels overlapping the input ones
    std::vector<int64_t> wide(12, -1);
    CHECK(ccl4j_mesh64_statistics(context, &mesh, cells, nullptr, wide.data(), nullptr, nullptr, wide.data() + 3, &k) ==
          CCL4J_INVALID_ARGUMENT);
    // a graph whose offsets decrease is refused before its arcs are read
    const int32_t offsets[] = {0, 4, 2, 4};
    const int32_t neighbors[] = {1, 0, 2, 1};
    const ccl4j_csr csr{3, 4, 4, 0};
    const int32_t graph_labels[] = {0, 0, 0};
    CHECK(ccl4j_graph_statistics(context, &csr, offsets, neighbors, graph_labels, 0, nullptr, &k) ==
          CCL4J_INVALID_INPUT);
}

}  // namespace

int main() {
    ccl4j_context serial = nullptr, parallel = nullptr;
    if (ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &serial) != CCL4J_SUCCESS ||
        ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &parallel) != CCL4J_SUCCESS) {
        std::fprintf(stderr, "cannot create the CPU contexts\n");
        return 1;
    }
    run("mesh statistics", [&] { meshes(serial, parallel); });
    run("graph statistics", [&] { graphs(serial, parallel); });
    run("refusals", [&] { refusals(parallel); });
    ccl4j_context_destroy(serial);
    ccl4j_context_destroy(parallel);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
