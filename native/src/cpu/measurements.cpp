// The measurement pass on the host: each run of equal labels along a row adds its measures
// (common/measure_run.hpp) to its row with relaxed atomics, the 128-bit sums as two words whose
// low one's carry goes to the high one, so that every thread's additions commute and the sums
// are exact.
#include "cpu/measurements.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "ccl4j.h"
#include "common/measure_run.hpp"
#include "common/parallel.hpp"

namespace ccl4j::cpu {
namespace {

void add(unsigned long long& target, int64_t v) {
    if (v) __atomic_fetch_add(&target, static_cast<unsigned long long>(v), __ATOMIC_RELAXED);
}

void add(WideSum& target, __int128 v) {
    const unsigned long long low = low_word(v);
    const unsigned long long before = __atomic_fetch_add(&target.low, low, __ATOMIC_RELAXED);
    const unsigned long long high = high_word(v) + (before + low < before ? 1 : 0);
    if (high) __atomic_fetch_add(&target.high, high, __ATOMIC_RELAXED);
}

void add(MeasureSums& row, const RunMeasures& m) {
    add(row.size, m.size);
    for (int a = 0; a < 3; ++a) {
        add(row.first[a], m.first[a]);
        add(row.faces[a], m.faces[a]);
    }
    for (int p = 0; p < 6; ++p) add(row.second[p], m.second[p]);
    for (int e = 0; e < 2; ++e) {
        for (int w = 0; w < 3; ++w) add(row.perimeter[e][w], m.perimeter[e][w]);
    }
}

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
    const int32_t w = mesh.width, h = mesh.height, d = mesh.depth;
    const auto at = [&](int64_t x, int64_t y, int64_t z) -> L {
        if (x < 0 || y < 0 || z < 0 || x >= w || y >= h || z >= d) return background;
        return labels[x + w * (y + int64_t(h) * z)];
    };
    std::vector<MeasureSums> sums(first.size(), MeasureSums{});
    const int64_t lines = int64_t(h) * d;
    parallel::for_chunks(int64_t(0), lines, 16, threads, [&](int, int64_t from, int64_t to) {
        for (int64_t line = from; line < to; ++line) {
            const int32_t y = static_cast<int32_t>(line % h), z = static_cast<int32_t>(line / h);
            const L* row = labels + line * w;
            for (int32_t x = 0; x < w;) {
                const L l = row[x];
                const int32_t start = x;
                while (x < w && row[x] == l) ++x;
                if (l == background) continue;
                RunMeasures m;
                measure_run(at, start, x, y, z, l, d > 1, m);
                add(sums[row_of(l)], m);
            }
        }
    });
    std::vector<MeasureRow> rows(sums.size());
    parallel::for_each(size_t(0), sums.size(), threads, [&](size_t r) { rows[r] = measure_row(sums[r]); });
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
