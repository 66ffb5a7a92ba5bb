// Which components of a mesh with periodic axes wrap around them: percolation on the torus.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/mesh.hpp"

namespace ccl4j::cpu {

// The CCL4J_WRAP_* bits of every table row (`rows` of them). `open` holds the canonical labels of
// the same mesh with every axis open; row_of(i) is the table row of cell i's component. The
// clusters of the open mesh are joined by the bonds that cross a periodic boundary, each with the
// displacement it makes (a union-find with offsets, as Machta et al. and Newman & Ziff track
// percolation); a loop whose displacements do not cancel winds round the torus along the axes
// where they do not, and its component wraps around those axes. Cells hold int32 or int64 labels.
std::vector<uint32_t> mesh_wraps(const Mesh& mesh, const int32_t* open, const std::function<int32_t(int64_t)>& row_of,
                                 int64_t rows);
std::vector<uint32_t> mesh_wraps(const Mesh& mesh, const int64_t* open, const std::function<int32_t(int64_t)>& row_of,
                                 int64_t rows);

}  // namespace ccl4j::cpu
