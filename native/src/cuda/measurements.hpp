// The measurement columns of a mesh table on the GPU (ccl4j/statistics.h, "Measurements"): one
// pass over the device labels a statistics call leaves in its numbering. Only compiled with
// CCL4J_WITH_CUDA.
#pragma once

#include <cstdint>
#include <vector>

#include "common/statistics.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

struct RootIndex;  // cuda/root_index.cuh

// The k rows, in the table's order, of the device labels of a width x height x depth mesh in
// `numbering` (background 0 for RASTER, else -1): a RASTER label l is row l - 1, a SIZE label row
// l, a CANONICAL label (a root) its row in `roots`. Enqueued on the state's stream; returns once
// the rows are on the host.
std::vector<MeasureRow> mesh_measures(DeviceState& state, int32_t width, int32_t height, int32_t depth,
                                      const int32_t* labels, int32_t numbering, const RootIndex& roots, int32_t k);

}  // namespace ccl4j::cuda
