// Per-component statistics (ccl4j/statistics.h) as the backends compute them: the intensity a
// mesh table sums, the raw sums a table holds, and the table a context keeps between a
// statistics call and the copies of its columns.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ccl4j.h"
#include "common/measure_run.hpp"
#include "common/mesh.hpp"

namespace ccl4j {

enum class IntensityType : int32_t { U8 = 1, I32 = 2, F32 = 3, U16 = 4 };  // the ABI's CCL4J_INTENSITY_*

inline size_t intensity_bytes(IntensityType type) {
    return type == IntensityType::U8 ? 1 : type == IntensityType::U16 ? 2 : 4;
}

// The grid a mesh table sums: the mesh's extents, strides of its own (validated by the ABI layer).
struct Intensity {
    IntensityType type = IntensityType::U8;
    const void* cells = nullptr;  // cell (0, 0, 0)
    int64_t row_step = 0;         // cells from one row to the next (never 0 here)
    int64_t layer_step = 0;

    int64_t offset(int32_t x, int32_t y, int32_t z) const { return x + row_step * y + layer_step * z; }
    // The value of a cell, exactly: integer types as int64 (floats are not read this way).
    int64_t integer(int64_t at) const {
        switch (type) {
            case IntensityType::U8: return static_cast<const uint8_t*>(cells)[at];
            case IntensityType::U16: return static_cast<const uint16_t*>(cells)[at];
            default: return static_cast<const int32_t*>(cells)[at];
        }
    }
    float real(int64_t at) const { return static_cast<const float*>(cells)[at]; }
    bool is_float() const { return type == IntensityType::F32; }
};

// The intensity type of a mesh's own cells.
inline IntensityType intensity_type(CellType type) {
    switch (type) {
        case CellType::U8: return IntensityType::U8;
        case CellType::U16: return IntensityType::U16;
        case CellType::I32: return IntensityType::I32;
        case CellType::F32: return IntensityType::F32;
    }
    return IntensityType::U8;
}

// The intensity a mesh's own cells give (its cell type and strides).
inline Intensity own_intensity(const Mesh& mesh) {
    return {intensity_type(mesh.cell_type), mesh.cells, mesh.row_step(), mesh.layer_step()};
}

enum class TableKind { Mesh, Graph };

// The rows of a mesh table in the table's numbering, as the backends leave them on the host:
// exact sums, from which the derived columns (centroids, means) are computed in one way for all.
struct MeshRows {
    std::vector<int64_t> label, first;  // int64: the canonical labels of int64 label arrays
    std::vector<int64_t> size;
    std::vector<int32_t> min[3], max[3];
    std::vector<int64_t> coordinate_sum[3];
    std::vector<uint32_t> touches;
    // integer intensities: exact sums; float ones: double sums (intensity_real)
    std::vector<int64_t> intensity_sum;
    std::vector<double> intensity_real_sum;
    std::vector<double> intensity_min, intensity_max;
    bool float_intensity = false;

    // Room for k rows, each field of which the backend then writes.
    void resize(size_t k);
    // The permutation of rows: rows[r] becomes row r.
    void permute(const std::vector<int32_t>& rows);
};

struct GraphRows {
    std::vector<int64_t> label, first;
    std::vector<int32_t> max_vertex;
    std::vector<int64_t> size, edges, max_degree;

    void resize(size_t k);
    void permute(const std::vector<int32_t>& rows);
};

// A table a context keeps until its next statistics call.
class StatisticsTable {
public:
    virtual ~StatisticsTable() = default;
    virtual TableKind kind() const = 0;
    virtual int64_t rows() const = 0;
    // Copies rows [first, first + count) of a CCL4J_STAT_* column of this kind into out (checked
    // by the caller: the column belongs to the kind, the rows exist).
    virtual void copy_column(int32_t column, int64_t first, int64_t count, void* out) const = 0;
    // Whether it has the measurement columns (CCL4J_STAT_MOMENT_XX .. CCL4J_STAT_FACES_Z).
    virtual bool measured() const { return false; }
};

using StatisticsTablePtr = std::unique_ptr<StatisticsTable>;

// A table in host memory.
StatisticsTablePtr host_table(MeshRows rows);
StatisticsTablePtr host_table(GraphRows rows);

// A mesh table with its CCL4J_STAT_WRAPS column (one value per row, in the table's order): the
// other columns are the table's.
StatisticsTablePtr with_wraps(StatisticsTablePtr table, std::vector<uint32_t> wraps);

// A mesh table with the measurement columns, from one MeasureRow per row (in the table's order).
StatisticsTablePtr with_measures(StatisticsTablePtr table, std::vector<MeasureRow> rows);

// The central second moment of a row, for product p (0 = xx, 1 = yy, 2 = zz, 3 = xy, 4 = xz,
// 5 = yz): (size * sum ab - sum a * sum b) / size, the numerator exact.
double central_moment(const MeasureRow& row, int p);

// A perimeter column's value from the weight counts of one neighbourhood.
double perimeter_of(const int64_t counts[3]);

// The bytes of one value of a column; 0 when the column does not belong to the kind.
int column_width(TableKind kind, int32_t column);

// The derived columns, computed in this one way by every backend: a centroid coordinate and a mean
// are a sum over the size, both as doubles.
inline double ratio(int64_t sum, int64_t size) { return static_cast<double>(sum) / static_cast<double>(size); }
inline double ratio(double sum, int64_t size) { return sum / static_cast<double>(size); }

// Rows of a numbering: the order in which the components of sizes (in raster order) stand as rows
// of a SIZE table: largest first, equal sizes in raster order.
std::vector<int32_t> size_order(const std::vector<int64_t>& sizes);

}  // namespace ccl4j
