// The measurement pass on the host, as the statistics pass gathers its rows: each thread takes a
// block of whole rows of cells and owns the table rows of the components whose first cell lies in
// it, adding to those in place without atomics; what it meets of components that began in an
// earlier block it gathers apart, and those are added once all are done. The runs of one label
// that follow one another are added up first (common/measure_run.hpp), and to their row at once.
#include "cpu/measurements.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>

#include "ccl4j.h"
#include "common/measure_run.hpp"
#include "common/parallel.hpp"

namespace ccl4j::cpu {
namespace {

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
    std::vector<MeasureRow> rows(first.size());
    const int64_t lines = int64_t(h) * d;
    const int parts = static_cast<int>(std::min<int64_t>(parallel::thread_count(threads), std::max<int64_t>(1, lines)));
    std::vector<std::unordered_map<int64_t, MeasureRow>> foreign(static_cast<size_t>(parts));
    parallel::for_blocks(int64_t(0), lines, parts, [&](int part, int64_t from, int64_t to) {
        auto& others = foreign[part];
        const int64_t owned_from = from * w;  // rows whose first cell lies before it began earlier
        MeasureRow pending;  // of the runs of label `held` met in turn
        L held = background;
        const auto flush = [&] {
            if (held == background) return;
            const int64_t r = row_of(held);
            if (first[r] >= owned_from) {
                rows[r] += pending;
            } else {
                others[r] += pending;
            }
        };
        for (int64_t line = from; line < to; ++line) {
            const int32_t y = static_cast<int32_t>(line % h), z = static_cast<int32_t>(line / h);
            const L* row = labels + line * w;
            for (int32_t x = 0; x < w;) {
                const L l = row[x];
                const int32_t start = x;
                while (x < w && row[x] == l) ++x;
                if (l == background) continue;
                if (l != held) {
                    flush();
                    pending = MeasureRow{};
                    held = l;
                }
                measure_run(at, start, x, y, z, l, d > 1, pending);
            }
        }
        flush();
    });
    for (const auto& others : foreign) {
        for (const auto& [r, m] : others) rows[r] += m;
    }
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
