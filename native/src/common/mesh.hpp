// A 2D or 3D mesh of cells as the mesh algorithms see it, validated by the ABI layer.
#pragma once

#include <cstdint>

namespace ccl4j {

// The ABI's CCL4J_CELL_* values.
enum class CellType : int32_t { U8 = 1, U16 = 2, I32 = 4, F32 = 5 };

constexpr int32_t cell_bytes(CellType type) { return type == CellType::U8 ? 1 : type == CellType::U16 ? 2 : 4; }

// Which cells are labelled and which neighbours are connected.
enum class MeshMode : int32_t {
    Foreground = 0,  // non-zero cells are labelled, zero cells get label -1; all non-zero neighbours connect
    SameValue = 1,   // every cell is labelled; neighbours connect when their values differ by at most delta
};

struct Mesh {
    int32_t width = 0;   // x, fastest-varying
    int32_t height = 1;  // y
    int32_t depth = 1;   // z; 1 for a 2D mesh
    CellType cell_type = CellType::U8;
    const void* cells = nullptr;  // cell (0, 0, 0); x fastest (host or device memory)
    // Cell (x, y, z) is at cells[x + row_step() * y + layer_step() * z]; 0 means dense. Only the
    // copy to the device reads strides: the algorithms need dense cells (dense() is true).
    int64_t row_stride = 0;    // cells from one row to the next; 0 = width
    int64_t layer_stride = 0;  // cells from one layer to the next; 0 = row_step() * height
    int32_t connectivity = 4;  // 4 or 8 in 2D (depth == 1; the ABI maps 6, 18 and 26 there), 6, 18 or 26 in 3D
    bool periodic[3] = {false, false, false};  // wrap-around per axis x, y, z
    MeshMode mode = MeshMode::Foreground;
    // SameValue: the largest difference |a - b| (in double) of neighbours that connect; 0: equal.
    double delta = 0;

    int64_t cell_count() const { return int64_t(width) * height * depth; }
    bool is_3d() const { return depth > 1 || connectivity == 6 || connectivity == 18 || connectivity == 26; }
    int64_t row_step() const { return row_stride ? row_stride : width; }
    int64_t layer_step() const { return layer_stride ? layer_stride : row_step() * height; }
    int64_t cell_size() const { return cell_bytes(cell_type); }
    // Whether the cells lie back to back, x fastest (a single row or layer's stride does not matter).
    bool dense() const {
        return (height == 1 || row_step() == width) && (depth == 1 || layer_step() == int64_t(width) * height);
    }
};

// Labels are canonical: each labelled cell gets the smallest linear index x + width * (y + height * z)
// of its cluster; background cells (Foreground mode, value 0) get -1.

}  // namespace ccl4j
