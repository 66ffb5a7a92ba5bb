// The host tables of ccl4j/statistics.h: rows in host memory, their permutation into a
// numbering, and the columns copied out of them.
#include "common/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "common/error.hpp"

namespace ccl4j {
namespace {

template <class T>
void permute_column(std::vector<T>& column, const std::vector<int32_t>& rows) {
    if (column.empty()) return;
    std::vector<T> moved(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) moved[r] = column[rows[r]];
    column.swap(moved);
}

template <class T>
void copy_rows(const std::vector<T>& column, int64_t first, int64_t count, void* out) {
    std::memcpy(out, column.data() + first, static_cast<size_t>(count) * sizeof(T));
}

// Fills out[i] = f(row first + i) for a derived column.
template <class F>
void derive_rows(int64_t first, int64_t count, void* out, F f) {
    auto* values = static_cast<double*>(out);
    for (int64_t i = 0; i < count; ++i) values[i] = f(static_cast<size_t>(first + i));
}

class HostMeshTable final : public StatisticsTable {
public:
    explicit HostMeshTable(MeshRows rows) : rows_(std::move(rows)) {}
    TableKind kind() const override { return TableKind::Mesh; }
    int64_t rows() const override { return static_cast<int64_t>(rows_.first.size()); }

    void copy_column(int32_t column, int64_t first, int64_t count, void* out) const override {
        const MeshRows& r = rows_;
        switch (column) {
            case CCL4J_STAT_LABEL: return copy_rows(r.label, first, count, out);
            case CCL4J_STAT_FIRST: return copy_rows(r.first, first, count, out);
            case CCL4J_STAT_SIZE: return copy_rows(r.size, first, count, out);
            case CCL4J_STAT_MIN_X: case CCL4J_STAT_MIN_Y: case CCL4J_STAT_MIN_Z:
                return copy_rows(r.min[column - CCL4J_STAT_MIN_X], first, count, out);
            case CCL4J_STAT_MAX_X: case CCL4J_STAT_MAX_Y: case CCL4J_STAT_MAX_Z:
                return copy_rows(r.max[column - CCL4J_STAT_MAX_X], first, count, out);
            case CCL4J_STAT_CENTROID_X: case CCL4J_STAT_CENTROID_Y: case CCL4J_STAT_CENTROID_Z: {
                const std::vector<int64_t>& sum = r.coordinate_sum[column - CCL4J_STAT_CENTROID_X];
                return derive_rows(first, count, out, [&](size_t i) { return ratio(sum[i], r.size[i]); });
            }
            case CCL4J_STAT_TOUCHES: return copy_rows(r.touches, first, count, out);
            case CCL4J_STAT_SUM: return derive_rows(first, count, out, [&](size_t i) { return sum(i); });
            case CCL4J_STAT_MIN: return derive_rows(first, count, out, [&](size_t i) { return extreme(r.intensity_min, i); });
            case CCL4J_STAT_MAX: return derive_rows(first, count, out, [&](size_t i) { return extreme(r.intensity_max, i); });
            case CCL4J_STAT_MEAN:
                return derive_rows(first, count, out, [&](size_t i) {
                    return r.float_intensity ? ratio(r.intensity_real_sum[i], r.size[i])
                                             : ratio(r.intensity_sum[i], r.size[i]);
                });
            default: fail(CCL4J_INTERNAL_ERROR, "mesh table has no column " + std::to_string(column));
        }
    }

private:
    // NaN intensities take no part in MIN and MAX (NumPy's nanmin and nanmax): a component whose
    // every intensity is NaN is left at the neutral +inf and -inf by the backends, and has NaN.
    double extreme(const std::vector<double>& column, size_t i) const {
        return rows_.intensity_min[i] > rows_.intensity_max[i] ? std::nan("") : column[i];
    }

    double sum(size_t i) const {
        return rows_.float_intensity ? rows_.intensity_real_sum[i] : static_cast<double>(rows_.intensity_sum[i]);
    }
    MeshRows rows_;
};

class HostGraphTable final : public StatisticsTable {
public:
    explicit HostGraphTable(GraphRows rows) : rows_(std::move(rows)) {}
    TableKind kind() const override { return TableKind::Graph; }
    int64_t rows() const override { return static_cast<int64_t>(rows_.first.size()); }

    void copy_column(int32_t column, int64_t first, int64_t count, void* out) const override {
        switch (column) {
            case CCL4J_STAT_LABEL: return copy_rows(rows_.label, first, count, out);
            case CCL4J_STAT_FIRST: return copy_rows(rows_.first, first, count, out);
            case CCL4J_STAT_SIZE: return copy_rows(rows_.size, first, count, out);
            case CCL4J_STAT_EDGES: return copy_rows(rows_.edges, first, count, out);
            case CCL4J_STAT_MAX_VERTEX: return copy_rows(rows_.max_vertex, first, count, out);
            case CCL4J_STAT_MAX_DEGREE: return copy_rows(rows_.max_degree, first, count, out);
            default: fail(CCL4J_INTERNAL_ERROR, "graph table has no column " + std::to_string(column));
        }
    }

private:
    GraphRows rows_;
};

class WrapsTable final : public StatisticsTable {
public:
    WrapsTable(StatisticsTablePtr table, std::vector<uint32_t> wraps) : table_(std::move(table)), wraps_(std::move(wraps)) {}
    TableKind kind() const override { return table_->kind(); }
    int64_t rows() const override { return table_->rows(); }
    bool measured() const override { return table_->measured(); }
    void copy_column(int32_t column, int64_t first, int64_t count, void* out) const override {
        if (column == CCL4J_STAT_WRAPS) return copy_rows(wraps_, first, count, out);
        table_->copy_column(column, first, count, out);
    }

private:
    StatisticsTablePtr table_;
    std::vector<uint32_t> wraps_;
};

class MeasuresTable final : public StatisticsTable {
public:
    MeasuresTable(StatisticsTablePtr table, std::vector<MeasureRow> rows) : table_(std::move(table)), rows_(std::move(rows)) {}
    TableKind kind() const override { return table_->kind(); }
    int64_t rows() const override { return table_->rows(); }
    bool measured() const override { return true; }
    void copy_column(int32_t column, int64_t first, int64_t count, void* out) const override {
        if (column >= CCL4J_STAT_MOMENT_XX && column <= CCL4J_STAT_MOMENT_YZ) {
            return derive_rows(first, count, out,
                               [&](size_t i) { return central_moment(rows_[i], column - CCL4J_STAT_MOMENT_XX); });
        }
        if (column == CCL4J_STAT_PERIMETER || column == CCL4J_STAT_PERIMETER_8) {
            const int n = column == CCL4J_STAT_PERIMETER ? 0 : 1;
            return derive_rows(first, count, out, [&](size_t i) { return perimeter_of(rows_[i].perimeter[n]); });
        }
        if (column >= CCL4J_STAT_FACES_X && column <= CCL4J_STAT_FACES_Z) {
            auto* values = static_cast<int64_t*>(out);
            for (int64_t i = 0; i < count; ++i) values[i] = rows_[first + i].faces[column - CCL4J_STAT_FACES_X];
            return;
        }
        table_->copy_column(column, first, count, out);
    }

private:
    StatisticsTablePtr table_;
    std::vector<MeasureRow> rows_;
};

}  // namespace

StatisticsTablePtr with_measures(StatisticsTablePtr table, std::vector<MeasureRow> rows) {
    return std::make_unique<MeasuresTable>(std::move(table), std::move(rows));
}

double central_moment(const MeasureRow& row, int p) {
    static constexpr int kA[6] = {0, 1, 2, 0, 0, 1}, kB[6] = {0, 1, 2, 1, 2, 2};
    const __int128 numerator = row.size * row.second[p] - row.first[kA[p]] * row.first[kB[p]];
    return static_cast<double>(numerator) / static_cast<double>(row.size);
}

double perimeter_of(const int64_t counts[3]) {
    const double root2 = std::sqrt(2.0);
    return static_cast<double>(counts[0]) + static_cast<double>(counts[1]) * root2 +
           static_cast<double>(counts[2]) * ((1 + root2) / 2);
}

StatisticsTablePtr with_wraps(StatisticsTablePtr table, std::vector<uint32_t> wraps) {
    return std::make_unique<WrapsTable>(std::move(table), std::move(wraps));
}

void MeshRows::resize(size_t k) {
    label.resize(k);
    first.resize(k);
    size.resize(k);
    for (int a = 0; a < 3; ++a) {
        min[a].resize(k);
        max[a].resize(k);
        coordinate_sum[a].resize(k);
    }
    touches.resize(k);
    if (float_intensity) {
        intensity_real_sum.resize(k);
    } else {
        intensity_sum.resize(k);
    }
    intensity_min.resize(k);
    intensity_max.resize(k);
}

void MeshRows::permute(const std::vector<int32_t>& rows) {
    permute_column(first, rows);
    permute_column(size, rows);
    for (int a = 0; a < 3; ++a) {
        permute_column(min[a], rows);
        permute_column(max[a], rows);
        permute_column(coordinate_sum[a], rows);
    }
    permute_column(touches, rows);
    permute_column(intensity_sum, rows);
    permute_column(intensity_real_sum, rows);
    permute_column(intensity_min, rows);
    permute_column(intensity_max, rows);
}

void GraphRows::resize(size_t k) {
    label.resize(k);
    first.resize(k);
    max_vertex.assign(k, -1);
    size.assign(k, 0);
    edges.assign(k, 0);
    max_degree.assign(k, 0);
}

void GraphRows::permute(const std::vector<int32_t>& rows) {
    permute_column(first, rows);
    permute_column(max_vertex, rows);
    permute_column(size, rows);
    permute_column(edges, rows);
    permute_column(max_degree, rows);
}

StatisticsTablePtr host_table(MeshRows rows) { return std::make_unique<HostMeshTable>(std::move(rows)); }
StatisticsTablePtr host_table(GraphRows rows) { return std::make_unique<HostGraphTable>(std::move(rows)); }

int column_width(TableKind kind, int32_t column) {
    switch (column) {
        case CCL4J_STAT_LABEL: case CCL4J_STAT_FIRST: case CCL4J_STAT_SIZE: return 8;
        default: break;
    }
    if (kind == TableKind::Mesh) {
        if (column >= CCL4J_STAT_MIN_X && column <= CCL4J_STAT_MAX_Z) return 4;
        if (column >= CCL4J_STAT_CENTROID_X && column <= CCL4J_STAT_CENTROID_Z) return 8;
        if (column == CCL4J_STAT_TOUCHES || column == CCL4J_STAT_WRAPS) return 4;
        if (column >= CCL4J_STAT_SUM && column <= CCL4J_STAT_MEAN) return 8;
        if (column >= CCL4J_STAT_MOMENT_XX && column <= CCL4J_STAT_FACES_Z) return 8;
        return 0;
    }
    if (column == CCL4J_STAT_EDGES || column == CCL4J_STAT_MAX_DEGREE) return 8;
    if (column == CCL4J_STAT_MAX_VERTEX) return 4;
    return 0;
}

std::vector<int32_t> size_order(const std::vector<int64_t>& sizes) {
    std::vector<int32_t> rows(sizes.size());
    std::iota(rows.begin(), rows.end(), 0);
    // rows start in raster order, so a stable sort keeps equal sizes in it
    std::stable_sort(rows.begin(), rows.end(), [&](int32_t a, int32_t b) { return sizes[a] > sizes[b]; });
    return rows;
}

}  // namespace ccl4j
