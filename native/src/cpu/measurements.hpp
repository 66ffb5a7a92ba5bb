// The measurement columns of a mesh table (ccl4j/statistics.h, "Measurements") on the host, for
// every backend: one parallel pass over the labels in a table's numbering, after the table.
#pragma once

#include <cstdint>
#include <vector>

#include "common/mesh.hpp"
#include "common/statistics.hpp"

namespace ccl4j::cpu {

// One row per table row from the mesh's labels in `numbering` (background -1, or 0 for RASTER):
// a RASTER label l is row l - 1, a SIZE label row l, a CANONICAL label the row whose first cell
// it is. `first`: the table's FIRST column, in the table's order.
std::vector<MeasureRow> mesh_measures(const Mesh& mesh, const int32_t* labels, int32_t numbering,
                                      const std::vector<int64_t>& first, int threads);
std::vector<MeasureRow> mesh_measures(const Mesh& mesh, const int64_t* labels, int32_t numbering,
                                      const std::vector<int64_t>& first, int threads);

}  // namespace ccl4j::cpu
