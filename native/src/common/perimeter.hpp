// scikit-image's perimeter (ccl4j/statistics.h, "Measurements") cell by cell, for the host and the
// device: a cell of label l lies on the border of its component when one of its 4 (or 8)
// neighbours is not l, and a border cell weighs by how many of its edge (a) and diagonal (b)
// neighbours are border cells of l, the codes 1 + 2a + 10b that scikit-image convolves. Whether a
// neighbour is on the border depends on its own neighbours: a cell's class is decided by the 5 x 5
// cells around it, given as a window of 25 bits (bit 5 c + r for column c = dx + 2, row
// r = dy + 2: whether that cell is l), which a pass along a row slides a column at a time.
#pragma once

#include <cstdint>

#include "common/host_device.hpp"

namespace ccl4j {

// The weight classes of a border cell: counts are kept per class and weighed once, at the end.
enum PerimeterWeight : int { kStraight = 0, kDiagonal = 1, kBend = 2, kNoWeight = -1 };

CCL4J_HOST_DEVICE uint32_t window_bit(int c, int r) { return 1u << (5 * c + r); }

// Whether window cell (c, r) is set in `bits`, as 0 or 1.
CCL4J_HOST_DEVICE int window_at(uint32_t bits, int c, int r) { return (bits >> (5 * c + r)) & 1; }

// The weight class of the window's centre (which is l): none unless it is on the border; straight
// (1) for two or three edge neighbours on the border and at most two diagonal ones (codes 5, 7,
// 15, 17, 25, 27), diagonal (sqrt 2) for none and two or one and three (21, 33), a bend
// ((1 + sqrt 2) / 2) for one and one or two (13, 23); none otherwise. The border cells of the
// inner 3 x 3 cells come at once from shifted windows: a neighbour (c + dc, r + dr) is 5 dc + dr
// bits away.
CCL4J_HOST_DEVICE int perimeter_weight(uint32_t same, bool eight) {
    uint32_t inside = (same >> 5) & (same << 5) & (same >> 1) & (same << 1);  // every edge neighbour is l
    if (eight) inside &= (same >> 6) & (same << 6) & (same >> 4) & (same << 4);
    const uint32_t border = same & ~inside;  // (right for the inner 3 x 3 cells, which are all it reads)
    if (!window_at(border, 2, 2)) return kNoWeight;
    const int a = window_at(border, 1, 2) + window_at(border, 3, 2) + window_at(border, 2, 1) + window_at(border, 2, 3);
    const int b = window_at(border, 1, 1) + window_at(border, 1, 3) + window_at(border, 3, 1) + window_at(border, 3, 3);
    if ((a == 2 || a == 3) && b <= 2) return kStraight;
    if ((a == 0 && b == 2) || (a == 1 && b == 3)) return kDiagonal;
    if (a == 1 && (b == 1 || b == 2)) return kBend;
    return kNoWeight;
}

}  // namespace ccl4j
