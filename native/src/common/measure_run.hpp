// What one run of a component's cells along a row adds to its measurement row (ccl4j/statistics.h,
// "Measurements"), for the host and the device: exact coordinate sums in closed form, exposed
// faces and the border cells' perimeter weights.
#pragma once

#include <cstdint>

#include "common/host_device.hpp"
#include "common/perimeter.hpp"

namespace ccl4j {

// The measures of a component (a row of the measurement columns), or a run's share of them: exact
// sums of the coordinates and of their products, the exposed faces per axis, and the border cells
// of each perimeter weight.
struct MeasureRow {
    int64_t size = 0;
    __int128 first[3] = {0, 0, 0};            // x, y, z
    __int128 second[6] = {0, 0, 0, 0, 0, 0};  // xx, yy, zz, xy, xz, yz
    int64_t faces[3] = {0, 0, 0};
    int64_t perimeter[2][3] = {{0, 0, 0}, {0, 0, 0}};  // [neighbourhood 4, 8][PerimeterWeight]

    CCL4J_HOST_DEVICE MeasureRow& operator+=(const MeasureRow& o) {
        size += o.size;
        for (int a = 0; a < 3; ++a) {
            first[a] += o.first[a];
            faces[a] += o.faces[a];
        }
        for (int p = 0; p < 6; ++p) second[p] += o.second[p];
        for (int e = 0; e < 2; ++e) {
            for (int w = 0; w < 3; ++w) perimeter[e][w] += o.perimeter[e][w];
        }
        return *this;
    }
};

// The sum of i^2 for i in [0, m]: m (m + 1) (2m + 1) / 6, the divisions done on the factors (one of
// m, m + 1 is even, one of m, m + 1, 2m + 1 a multiple of 3), so that only products are 128-bit.
CCL4J_HOST_DEVICE __int128 squares_to(int64_t m) {
    if (m <= 0) return 0;
    int64_t a = m, b = m + 1, c = 2 * m + 1;
    if (a % 2 == 0) {
        a /= 2;
    } else {
        b /= 2;
    }
    if (a % 3 == 0) {
        a /= 3;
    } else if (b % 3 == 0) {
        b /= 3;
    } else {
        c /= 3;
    }
    return static_cast<__int128>(a) * b * c;
}

// Adds to m the measures of cells [start, end) of row (y, z), all labelled l (a run, or a piece of
// one); at(x, y, z) is a cell's label, one that is not l outside the grid. The perimeter only in
// 2D. (A pass adds the runs of one label that follow one another into one MeasureRow, and that
// to the label's row once: one set of atomics where the runs of a large component come in turn.)
template <class At, class L>
CCL4J_HOST_DEVICE void measure_run(const At& at, int32_t start, int32_t end, int32_t y, int32_t z, L l, bool three_d,
                                   MeasureRow& m) {
    const int64_t n = int64_t(end) - start;
    // (start + end - 1) n / 2 in 64 bits: their sum is odd, so one of the two is even
    const int64_t ends = int64_t(start) + end - 1;
    const int64_t sx = ends % 2 == 0 ? ends / 2 * n : ends * (n / 2);
    m.size += n;
    m.first[0] += sx;
    m.first[1] += int64_t(y) * n;
    m.first[2] += int64_t(z) * n;
    m.second[0] += squares_to(end - 1) - squares_to(int64_t(start) - 1);
    m.second[1] += static_cast<__int128>(int64_t(y) * y) * n;
    m.second[2] += static_cast<__int128>(int64_t(z) * z) * n;
    m.second[3] += static_cast<__int128>(sx) * y;
    m.second[4] += static_cast<__int128>(sx) * z;
    m.second[5] += static_cast<__int128>(int64_t(y) * z) * n;
    m.faces[0] += (at(int64_t(start) - 1, y, z) != l) + (at(end, y, z) != l);
    if (three_d) {
        for (int32_t x = start; x < end; ++x) {
            m.faces[1] += (at(x, int64_t(y) - 1, z) != l) + (at(x, int64_t(y) + 1, z) != l);
            m.faces[2] += (at(x, y, int64_t(z) - 1) != l) + (at(x, y, int64_t(z) + 1) != l);
        }
        return;
    }
    // 2D: the 5 x 5 window of cells that are l around each cell, slid along the run a column at a time
    const auto column = [&](int64_t cx) {
        uint32_t bits = 0;
        for (int r = 0; r < 5; ++r) bits |= uint32_t(at(cx, int64_t(y) + r - 2, z) == l) << r;
        return bits;
    };
    uint32_t same = 0;
    for (int c = 0; c < 5; ++c) same |= column(int64_t(start) + c - 2) << (5 * c);
    for (int32_t x = start; x < end; ++x) {
        if (x > start) same = (same >> 5) | (column(int64_t(x) + 2) << 20);
        m.faces[1] += !window_at(same, 2, 1) + !window_at(same, 2, 3);
        for (int e = 0; e < 2; ++e) {
            const int w = perimeter_weight(same, e == 1);
            if (w != kNoWeight) ++m.perimeter[e][w];
        }
    }
}

}  // namespace ccl4j
