// scikit-image's perimeter (ccl4j/statistics.h, "Measurements") cell by cell, for the host and the
// device: a cell of label l lies on the border of its component when one of its 4 (or 8)
// neighbours is not l, and a border cell weighs by how many of its edge (a) and diagonal (b)
// neighbours are border cells of l, the codes 1 + 2a + 10b that scikit-image convolves.
#pragma once

#include <cstdint>

#include "common/host_device.hpp"

namespace ccl4j {

// The weight classes of a border cell: counts are kept per class and weighed once, at the end.
enum PerimeterWeight : int { kStraight = 0, kDiagonal = 1, kBend = 2, kNoWeight = -1 };

// Whether cell (x, y) of label l has a neighbour that is not l; at(x, y) is a cell's label, one
// that is not l outside the grid.
template <class At, class L>
CCL4J_HOST_DEVICE bool perimeter_border(const At& at, int64_t x, int64_t y, L l, bool eight) {
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            if ((dx || dy) && (eight || !(dx && dy)) && at(x + dx, y + dy) != l) return true;
        }
    }
    return false;
}

// The weight class of border cell (x, y) of label l: straight (1) for two or three edge
// neighbours on the border and at most two diagonal ones (codes 5, 7, 15, 17, 25, 27), diagonal
// (sqrt 2) for none and two or one and three (21, 33), a bend ((1 + sqrt 2) / 2) for one and one
// or two (13, 23); none otherwise.
template <class At, class L>
CCL4J_HOST_DEVICE int perimeter_weight(const At& at, int64_t x, int64_t y, L l, bool eight) {
    int a = 0, b = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            if ((dx || dy) && at(x + dx, y + dy) == l && perimeter_border(at, x + dx, y + dy, l, eight)) {
                if (dx && dy) {
                    ++b;
                } else {
                    ++a;
                }
            }
        }
    }
    if ((a == 2 || a == 3) && b <= 2) return kStraight;
    if ((a == 0 && b == 2) || (a == 1 && b == 3)) return kDiagonal;
    if (a == 1 && (b == 1 || b == 2)) return kBend;
    return kNoWeight;
}

}  // namespace ccl4j
