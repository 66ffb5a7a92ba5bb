// Per-component statistics on the GPU (ccl4j/statistics.h): the tables stay on the device, and
// only the columns asked for are copied out (StatisticsTable::copy_column). Only compiled with
// CCL4J_WITH_CUDA; the ABI layer (api/api_statistics.cpp) validates every argument first.
#pragma once

#include <cstdint>

#include "ccl4j.h"
#include "common/csr.hpp"
#include "common/mesh.hpp"
#include "common/phase_log.hpp"
#include "common/statistics.hpp"
#include "core/options.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

// Labels a host mesh with a GPU algorithm (as label_mesh) and computes its table on the device in
// the pass that writes the final labels in `numbering`; copies those labels to `labels` (host).
// intensity: nullptr for the mesh's own cells (already on the device), else a host grid of the
// mesh's extents that is copied there. Phases: the labelling's, the statistics', d2h.
StatisticsTablePtr label_mesh_statistics(DeviceState& state, const Mesh& mesh, ccl4j_algorithm algorithm,
                                         const MeshTuning& tuning, const Intensity* intensity, int32_t numbering,
                                         int32_t* labels, PhaseLog& log);

// The table of canonical host labels of a host mesh (checked canonical by the caller); out (host,
// may be labels or nullptr) receives the labels in `numbering`.
StatisticsTablePtr mesh_statistics(DeviceState& state, const Mesh& mesh, const int32_t* labels,
                                   const Intensity& intensity, int32_t numbering, int32_t* out);

// The table of canonical host labels of a host CSR graph (checked by the caller).
StatisticsTablePtr graph_statistics(DeviceState& state, const Graph& graph, const int32_t* labels, int32_t numbering,
                                    int32_t* out);

}  // namespace ccl4j::cuda
