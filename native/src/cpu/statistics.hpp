// Per-component statistics on the CPU (ccl4j/statistics.h), in parallel: the rows of a mesh's or a
// graph's canonical labels, in a numbering, with the labels rewritten in it.
#pragma once

#include <cstdint>

#include "common/csr.hpp"
#include "common/mesh.hpp"
#include "common/statistics.hpp"

namespace ccl4j::cpu {

// Throws Error(CCL4J_INVALID_INPUT) naming the first entry that is not a canonical label: each is
// -1 or a label l <= its own index whose own entry is l.
void check_canonical(const int32_t* labels, int64_t count, int threads);
void check_canonical(const int64_t* labels, int64_t count, int threads);

// The rows of a mesh's canonical labels (the mesh's extents; its cells are not read), summing
// `intensity`; out (may be labels, or nullptr) receives the labels in `numbering`.
// int64 labels (int64 out) number the rows alike. Error(CCL4J_UNSUPPORTED) beyond INT32_MAX rows.
MeshRows mesh_rows(const Mesh& mesh, const int32_t* labels, const Intensity& intensity, int32_t numbering,
                   int32_t* out, int threads);
MeshRows mesh_rows(const Mesh& mesh, const int64_t* labels, const Intensity& intensity, int32_t numbering,
                   int64_t* out, int threads);

// The rows of a graph's canonical labels; out as above.
GraphRows graph_rows(const Graph& graph, const int32_t* labels, int32_t numbering, int32_t* out, int threads);

}  // namespace ccl4j::cpu
