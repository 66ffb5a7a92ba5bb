// Tests of the measurement columns of mesh tables (ccl4j/statistics.h, "Measurements") through
// libccl4j.so on the CPU backends, against references computed here from the canonical labels:
// central moments by two passes in long double, exposed faces cell by cell, and perimeters the
// way scikit-image's perimeter works on a whole image (erode the component's mask, convolve its
// border with the weights 1, 2, 10 and look the codes up), so that the library's per-cell
// classification is checked against another formulation. Every numbering, int32 and int64
// labels, 2D and 3D, hand-computed cases, and the refusal of measurement columns of a table made
// without them. Prints every failure and "N passed, M failed".
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"

namespace {

using namespace ccl4j::test;

struct Expected {
    int32_t first = 0;
    int64_t size = 0;
    double moment[6] = {};  // xx, yy, zz, xy, xz, yz
    double perimeter[2] = {};
    int64_t faces[3] = {};
};

struct Grid {
    int32_t w, h, d;
    std::vector<int32_t> labels;  // canonical
    int32_t at(int64_t x, int64_t y, int64_t z) const {
        if (x < 0 || y < 0 || z < 0 || x >= w || y >= h || z >= d) return -1;
        return labels[x + w * (y + int64_t(h) * z)];
    }
};

// scikit-image's perimeter of the mask of component l (2D): erosion with the cross (4) or the
// square (8) and zeros outside, border = mask minus eroded, codes = border convolved with
// [[10, 2, 10], [2, 1, 2], [10, 2, 10]] (zeros outside), summed through the weights of the codes.
double skimage_perimeter(const Grid& g, int32_t l, bool eight) {
    auto in = [&](int64_t x, int64_t y) { return g.at(x, y, 0) == l; };
    std::vector<int> border(size_t(g.w) * g.h, 0);
    for (int32_t y = 0; y < g.h; ++y) {
        for (int32_t x = 0; x < g.w; ++x) {
            if (!in(x, y)) continue;
            bool eroded = true;
            for (int dy = -1; dy <= 1; ++dy) {
                for (int dx = -1; dx <= 1; ++dx) {
                    if ((eight || dx == 0 || dy == 0) && !in(x + dx, y + dy)) eroded = false;
                }
            }
            border[x + size_t(g.w) * y] = eroded ? 0 : 1;
        }
    }
    const double root2 = std::sqrt(2.0);
    std::map<int, double> weights = {{5, 1},  {7, 1},  {15, 1},     {17, 1},     {25, 1},
                                     {27, 1}, {21, root2}, {33, root2}, {13, (1 + root2) / 2}, {23, (1 + root2) / 2}};
    const int kernel[3][3] = {{10, 2, 10}, {2, 1, 2}, {10, 2, 10}};
    std::map<int, int64_t> histogram;
    for (int32_t y = 0; y < g.h; ++y) {
        for (int32_t x = 0; x < g.w; ++x) {
            int code = 0;
            for (int dy = -1; dy <= 1; ++dy) {
                for (int dx = -1; dx <= 1; ++dx) {
                    const int64_t nx = x + dx, ny = y + dy;
                    if (nx >= 0 && ny >= 0 && nx < g.w && ny < g.h) code += kernel[dy + 1][dx + 1] * border[nx + size_t(g.w) * ny];
                }
            }
            ++histogram[code];
        }
    }
    double total = 0;
    for (const auto& [code, count] : histogram) {
        if (weights.count(code)) total += double(count) * weights[code];
    }
    return total;
}

std::vector<Expected> reference(const Grid& g) {
    std::map<int32_t, Expected> rows;
    std::map<int32_t, long double> sum[3];
    for (int32_t z = 0; z < g.d; ++z) {
        for (int32_t y = 0; y < g.h; ++y) {
            for (int32_t x = 0; x < g.w; ++x) {
                const int32_t l = g.at(x, y, z);
                if (l < 0) continue;
                Expected& e = rows[l];
                e.first = l;
                ++e.size;
                sum[0][l] += x;
                sum[1][l] += y;
                sum[2][l] += z;
                e.faces[0] += (g.at(x - 1, y, z) != l) + (g.at(x + 1, y, z) != l);
                e.faces[1] += (g.at(x, y - 1, z) != l) + (g.at(x, y + 1, z) != l);
                if (g.d > 1) e.faces[2] += (g.at(x, y, z - 1) != l) + (g.at(x, y, z + 1) != l);
            }
        }
    }
    std::map<int32_t, long double[6]> moments;
    for (int32_t z = 0; z < g.d; ++z) {
        for (int32_t y = 0; y < g.h; ++y) {
            for (int32_t x = 0; x < g.w; ++x) {
                const int32_t l = g.at(x, y, z);
                if (l < 0) continue;
                const long double n = rows[l].size;
                const long double dx = x - sum[0][l] / n, dy = y - sum[1][l] / n, dz = z - sum[2][l] / n;
                long double* m = moments[l];
                m[0] += dx * dx;
                m[1] += dy * dy;
                m[2] += dz * dz;
                m[3] += dx * dy;
                m[4] += dx * dz;
                m[5] += dy * dz;
            }
        }
    }
    std::vector<Expected> out;
    for (auto& [l, e] : rows) {
        for (int p = 0; p < 6; ++p) e.moment[p] = double(moments[l][p]);
        if (g.d == 1) {
            e.perimeter[0] = skimage_perimeter(g, l, false);
            e.perimeter[1] = skimage_perimeter(g, l, true);
        }
        out.push_back(e);
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

bool close(double got, double want) { return std::fabs(got - want) <= 1e-9 * std::max(1.0, std::fabs(want)); }

// The context's table against the expected rows (raster order; `numbering` orders the table).
void check_table(ccl4j_context context, std::vector<Expected> rows, int32_t numbering, const std::string& what) {
    if (numbering == CCL4J_NUMBERING_SIZE) {
        std::stable_sort(rows.begin(), rows.end(), [](const Expected& a, const Expected& b) { return a.size > b.size; });
    }
    const int64_t k = int64_t(rows.size());
    const auto first = column<int64_t>(context, CCL4J_STAT_FIRST, k);
    std::vector<double> moments[6], perimeters[2];
    std::vector<int64_t> faces[3];
    for (int p = 0; p < 6; ++p) moments[p] = column<double>(context, CCL4J_STAT_MOMENT_XX + p, k);
    perimeters[0] = column<double>(context, CCL4J_STAT_PERIMETER, k);
    perimeters[1] = column<double>(context, CCL4J_STAT_PERIMETER_8, k);
    for (int a = 0; a < 3; ++a) faces[a] = column<int64_t>(context, CCL4J_STAT_FACES_X + a, k);
    int wrong = 0;
    for (size_t r = 0; r < rows.size() && wrong < 3; ++r) {
        const Expected& e = rows[r];
        bool ok = first[r] == e.first;
        std::string got;
        for (int p = 0; p < 6; ++p) {
            ok = ok && close(moments[p][r], e.moment[p]);
            got += " m" + std::to_string(p) + " " + std::to_string(moments[p][r]) + "/" + std::to_string(e.moment[p]);
        }
        for (int n = 0; n < 2; ++n) {
            ok = ok && close(perimeters[n][r], e.perimeter[n]);
            got += " p" + std::to_string(n) + " " + std::to_string(perimeters[n][r]) + "/" + std::to_string(e.perimeter[n]);
        }
        for (int a = 0; a < 3; ++a) {
            ok = ok && faces[a][r] == e.faces[a];
            got += " f" + std::to_string(a) + " " + std::to_string(faces[a][r]) + "/" + std::to_string(e.faces[a]);
        }
        if (!ok) ++wrong;
        CHECK_MSG(ok, what + ": row " + std::to_string(r) + " (first " + std::to_string(e.first) + ") differs:" + got);
    }
}

void random_case(std::mt19937& rng, int32_t w, int32_t h, int32_t d, int32_t connectivity, double fill,
                 ccl4j_context context) {
    const int64_t n = int64_t(w) * h * d;
    std::bernoulli_distribution on(fill);
    std::vector<uint8_t> cells(n);
    for (auto& c : cells) c = on(rng) ? 1 : 0;
    const ccl4j_mesh mesh{w, h, d, CCL4J_CELL_U8, 0, 0};
    ccl4j_mesh_options options{};
    options.connectivity = connectivity;
    Grid g{w, h, d, std::vector<int32_t>(n)};
    CHECK(ccl4j_label_mesh(context, &mesh, cells.data(), &options, g.labels.data(), nullptr) == CCL4J_SUCCESS);
    const std::vector<Expected> rows = reference(g);
    const std::string what = std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(d) + " conn " +
                             std::to_string(connectivity) + " fill " + std::to_string(fill);
    for (int32_t numbering : {CCL4J_NUMBERING_CANONICAL, CCL4J_NUMBERING_RASTER, CCL4J_NUMBERING_SIZE}) {
        ccl4j_statistics_options s{};
        s.numbering = numbering;
        s.measurements = 1;
        const std::string named = what + " numbering " + std::to_string(numbering);
        std::vector<int32_t> labels(n, kPoison);
        int64_t k = -1;
        CHECK_MSG(ccl4j_label_mesh_statistics(context, &mesh, cells.data(), &options, &s, nullptr, labels.data(), &k,
                                              nullptr) == CCL4J_SUCCESS,
                  named + ": " + ccl4j_context_error_message(context));
        CHECK(k == int64_t(rows.size()));
        if (k == int64_t(rows.size())) check_table(context, rows, numbering, named + " labelled");
        std::vector<int64_t> wide(n, kPoison);
        k = -1;
        CHECK(ccl4j_label_mesh64_statistics(context, &mesh, cells.data(), &options, &s, nullptr, wide.data(), &k,
                                            nullptr) == CCL4J_SUCCESS);
        if (k == int64_t(rows.size())) check_table(context, rows, numbering, named + " int64");
        // from the canonical labels, with and without labels out (the rows then found by first cell)
        for (bool out : {false, true}) {
            std::vector<int32_t> relabelled(n, kPoison);
            k = -1;
            CHECK(ccl4j_mesh_statistics(context, &mesh, cells.data(), &options, g.labels.data(), &s, nullptr,
                                        out ? relabelled.data() : nullptr, &k) == CCL4J_SUCCESS);
            if (k == int64_t(rows.size())) check_table(context, rows, numbering, named + (out ? " out" : " no out"));
        }
    }
}

// Small shapes whose values are worked out by hand.
void hand_cases(ccl4j_context context) {
    // a 3x3 square and, apart, a single cell and a 2-cell diagonal (8-connected), in 8 x 5
    const int32_t w = 8, h = 5;
    const char* picture[h] = {"###.....", "###..#..", "###.....", "......#.", ".......#"};
    std::vector<uint8_t> cells(w * h);
    for (int32_t y = 0; y < h; ++y) {
        for (int32_t x = 0; x < w; ++x) cells[x + w * y] = picture[y][x] == '#';
    }
    const ccl4j_mesh mesh{w, h, 1, CCL4J_CELL_U8, 0, 0};
    ccl4j_mesh_options options{};
    options.connectivity = 8;
    ccl4j_statistics_options s{};
    s.numbering = CCL4J_NUMBERING_RASTER;
    s.measurements = 1;
    std::vector<int32_t> labels(w * h);
    int64_t k = 0;
    CHECK(ccl4j_label_mesh_statistics(context, &mesh, cells.data(), &options, &s, nullptr, labels.data(), &k, nullptr) ==
          CCL4J_SUCCESS);
    CHECK(k == 3);
    if (k != 3) return;
    const auto xx = column<double>(context, CCL4J_STAT_MOMENT_XX, k);
    const auto xy = column<double>(context, CCL4J_STAT_MOMENT_XY, k);
    const auto perimeter = column<double>(context, CCL4J_STAT_PERIMETER, k);
    const auto faces_x = column<int64_t>(context, CCL4J_STAT_FACES_X, k);
    const auto faces_y = column<int64_t>(context, CCL4J_STAT_FACES_Y, k);
    // the square: x offsets -1, 0, 1 in three rows: 6; no xy; 8 border cells of weight 1; 6 + 6 faces
    CHECK(xx[0] == 6.0 && xy[0] == 0.0 && perimeter[0] == 8.0 && faces_x[0] == 6 && faces_y[0] == 6);
    // a single cell: no moments, no perimeter (its code, 1, weighs nothing), 2 + 2 faces
    CHECK(xx[1] == 0.0 && perimeter[1] == 0.0 && faces_x[1] == 2 && faces_y[1] == 2);
    // the diagonal pair (6, 3), (7, 4): xx = xy = 2 * 0.25; each cell a border cell with one
    // diagonal border neighbour (code 11, weight 0)
    CHECK(xx[2] == 0.5 && xy[2] == 0.5 && perimeter[2] == 0.0 && faces_x[2] == 4);

    // without measurements the columns are refused
    s.measurements = 0;
    CHECK(ccl4j_label_mesh_statistics(context, &mesh, cells.data(), &options, &s, nullptr, labels.data(), &k, nullptr) ==
          CCL4J_SUCCESS);
    double value = 0;
    CHECK(ccl4j_statistics_column(context, CCL4J_STAT_MOMENT_XX, 0, 1, &value) == CCL4J_INVALID_ARGUMENT);
    CHECK(std::string(ccl4j_context_error_message(context)).find("measurements") != std::string::npos);
}

}  // namespace

int main() {
    ccl4j_context serial = nullptr, parallel = nullptr;
    if (ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &serial) != CCL4J_SUCCESS ||
        ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &parallel) != CCL4J_SUCCESS) {
        std::fprintf(stderr, "cannot create the CPU contexts\n");
        return 1;
    }
    run("hand cases", [&] {
        hand_cases(serial);
        hand_cases(parallel);
    });
    run("random meshes", [&] {
        std::mt19937 rng(47);
        for (ccl4j_context context : {serial, parallel}) {
            for (double fill : {0.3, 0.55, 0.8}) {
                random_case(rng, 37, 29, 1, 4, fill, context);
                random_case(rng, 37, 29, 1, 8, fill, context);
                random_case(rng, 13, 11, 9, 6, fill, context);
                random_case(rng, 13, 11, 9, 26, fill, context);
            }
        }
    });
    ccl4j_context_destroy(serial);
    ccl4j_context_destroy(parallel);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
