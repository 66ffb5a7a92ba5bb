// The measurement pass: each run of equal labels along a row adds its exact coordinate sums
// (closed forms over the run), its faces and its border cells' perimeter weights to its row with
// relaxed atomics; the 128-bit sums as two 64-bit words, the carry of the low one added to the
// high one, so that every thread's additions commute and the sums are exact.
#include "cpu/measurements.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "ccl4j.h"
#include "common/parallel.hpp"

namespace ccl4j::cpu {
namespace {

struct Wide {
    uint64_t low = 0, high = 0;
};

// The accumulators of a row while threads add to it.
struct Sums {
    int64_t size = 0;
    Wide first[3], second[6];
    int64_t faces[3] = {0, 0, 0};
    int64_t perimeter[2][3] = {{0, 0, 0}, {0, 0, 0}};
};

void add(int64_t& target, int64_t v) {
    if (v) __atomic_fetch_add(&target, v, __ATOMIC_RELAXED);
}

void add(Wide& target, __int128 v) {
    const uint64_t low = static_cast<uint64_t>(v);
    const uint64_t before = __atomic_fetch_add(&target.low, low, __ATOMIC_RELAXED);
    const uint64_t carry = before + low < before ? 1 : 0;
    const uint64_t high = static_cast<uint64_t>(static_cast<unsigned __int128>(v) >> 64) + carry;
    if (high) __atomic_fetch_add(&target.high, high, __ATOMIC_RELAXED);
}

__int128 value(const Wide& w) { return static_cast<__int128>((static_cast<unsigned __int128>(w.high) << 64) | w.low); }

// sum of m^2 for m in [0, last]
__int128 squares_to(int64_t last) { return static_cast<__int128>(last) * (last + 1) * (2 * last + 1) / 6; }

template <class L>
struct Pass {
    const Mesh& mesh;
    const L* labels;
    L background;

    L at(int64_t x, int64_t y, int64_t z) const {
        if (x < 0 || y < 0 || z < 0 || x >= mesh.width || y >= mesh.height || z >= mesh.depth) return background;
        return labels[x + mesh.width * (y + int64_t(mesh.height) * z)];
    }

    // Whether cell (x, y) of label l has a neighbour outside it (4: edge neighbours only).
    bool border(int32_t x, int32_t y, L l, bool eight) const {
        for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
                if ((dx || dy) && (eight || !(dx && dy)) && at(x + dx, y + dy, 0) != l) return true;
            }
        }
        return false;
    }

    // The perimeter weight class of border cell (x, y) of label l: 0 (weight 1), 1 (sqrt 2),
    // 2 ((1 + sqrt 2) / 2) or -1 (none), from its edge (a) and diagonal (b) neighbours that are
    // border cells of l.
    int weight(int32_t x, int32_t y, L l, bool eight) const {
        int a = 0, b = 0;
        for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
                if ((dx || dy) && at(x + dx, y + dy, 0) == l && border(x + dx, y + dy, l, eight)) ++(dx && dy ? b : a);
            }
        }
        if ((a == 2 || a == 3) && b <= 2) return 0;
        if ((a == 0 && b == 2) || (a == 1 && b == 3)) return 1;
        if (a == 1 && (b == 1 || b == 2)) return 2;
        return -1;
    }

    void add_run(Sums& row, int32_t start, int32_t end, int32_t y, int32_t z, L l) const {
        const int64_t n = end - start;
        const __int128 sx = static_cast<__int128>(int64_t(start) + end - 1) * n / 2;
        const __int128 sxx = squares_to(end - 1) - (start > 0 ? squares_to(start - 1) : 0);
        add(row.size, n);
        add(row.first[0], sx);
        add(row.first[1], static_cast<__int128>(y) * n);
        add(row.first[2], static_cast<__int128>(z) * n);
        add(row.second[0], sxx);
        add(row.second[1], static_cast<__int128>(int64_t(y) * y) * n);
        add(row.second[2], static_cast<__int128>(int64_t(z) * z) * n);
        add(row.second[3], sx * y);
        add(row.second[4], sx * z);
        add(row.second[5], static_cast<__int128>(int64_t(y) * z) * n);
        int64_t faces[3] = {2, 0, 0}, counts[2][3] = {{0, 0, 0}, {0, 0, 0}};
        for (int32_t x = start; x < end; ++x) {
            faces[1] += (at(x, y - 1, z) != l) + (at(x, y + 1, z) != l);
            if (mesh.depth > 1) {
                faces[2] += (at(x, y, z - 1) != l) + (at(x, y, z + 1) != l);
                continue;
            }
            for (int e = 0; e < 2; ++e) {
                if (!border(x, y, l, e == 1)) continue;
                const int w = weight(x, y, l, e == 1);
                if (w >= 0) ++counts[e][w];
            }
        }
        for (int a = 0; a < 3; ++a) add(row.faces[a], faces[a]);
        for (int e = 0; e < 2; ++e) {
            for (int w = 0; w < 3; ++w) add(row.perimeter[e][w], counts[e][w]);
        }
    }
};

template <class L>
std::vector<MeasureRow> measures(const Mesh& mesh, const L* labels, int32_t numbering, const std::vector<int64_t>& first,
                                 int threads) {
    const L background = numbering == CCL4J_NUMBERING_RASTER ? 0 : -1;
    // canonical labels: the rows by first cell (a SIZE table's rows are not in raster order)
    std::vector<int64_t> by_first;
    if (numbering == CCL4J_NUMBERING_CANONICAL) {
        by_first.resize(first.size());
        std::iota(by_first.begin(), by_first.end(), int64_t(0));
        std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    }
    auto row_of = [&](L l) -> int64_t {
        if (numbering == CCL4J_NUMBERING_RASTER) return l - 1;
        if (numbering == CCL4J_NUMBERING_SIZE) return l;
        return by_first[std::lower_bound(by_first.begin(), by_first.end(), int64_t(l),
                                         [&](int64_t row, int64_t value) { return first[row] < value; }) -
                        by_first.begin()];
    };
    std::vector<Sums> sums(first.size());
    const Pass<L> pass{mesh, labels, background};
    const int64_t lines = int64_t(mesh.height) * mesh.depth;
    parallel::for_chunks(int64_t(0), lines, 16, threads, [&](int, int64_t from, int64_t to) {
        for (int64_t line = from; line < to; ++line) {
            const int32_t y = static_cast<int32_t>(line % mesh.height), z = static_cast<int32_t>(line / mesh.height);
            const L* row = labels + line * mesh.width;
            for (int32_t x = 0; x < mesh.width;) {
                const L l = row[x];
                const int32_t start = x;
                while (x < mesh.width && row[x] == l) ++x;
                if (l != background) pass.add_run(sums[row_of(l)], start, x, y, z, l);
            }
        }
    });
    std::vector<MeasureRow> rows(sums.size());
    parallel::for_each(size_t(0), sums.size(), threads, [&](size_t r) {
        const Sums& s = sums[r];
        MeasureRow& m = rows[r];
        m.size = s.size;
        for (int a = 0; a < 3; ++a) {
            m.first[a] = value(s.first[a]);
            m.faces[a] = s.faces[a];
        }
        for (int p = 0; p < 6; ++p) m.second[p] = value(s.second[p]);
        for (int e = 0; e < 2; ++e) {
            for (int w = 0; w < 3; ++w) m.perimeter[e][w] = s.perimeter[e][w];
        }
    });
    return rows;
}

}  // namespace

std::vector<MeasureRow> mesh_measures(const Mesh& mesh, const int32_t* labels, int32_t numbering,
                                      const std::vector<int64_t>& first, int threads) {
    return measures(mesh, labels, numbering, first, threads);
}

std::vector<MeasureRow> mesh_measures(const Mesh& mesh, const int64_t* labels, int32_t numbering,
                                      const std::vector<int64_t>& first, int threads) {
    return measures(mesh, labels, numbering, first, threads);
}

}  // namespace ccl4j::cpu
