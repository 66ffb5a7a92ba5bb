// Per-component statistics on the GPU (ccl4j/statistics.h): the tables stay on the device, and
// only the columns asked for are copied out (StatisticsTable::copy_column). Only compiled with
// CCL4J_WITH_CUDA; the ABI layer (api/api_statistics.cpp) validates every argument first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "ccl4j.h"
#include "common/csr.hpp"
#include "common/mesh.hpp"
#include "common/phase_log.hpp"
#include "common/phases.hpp"
#include "common/statistics.hpp"
#include "core/options.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

// Labels a host mesh with a GPU algorithm (as label_mesh) and computes its table on the device in
// the pass that writes the final labels in `numbering`; copies those labels to `labels` (host).
// intensity: nullptr for the mesh's own cells (already on the device), else a host grid of the
// mesh's extents that is copied there. With `measure`, the table has the measurement columns,
// from a pass over the final labels on the device (cuda/measurements.hpp). Phases: the
// labelling's, the statistics', measurements, d2h.
StatisticsTablePtr label_mesh_statistics(DeviceState& state, const Mesh& mesh, ccl4j_algorithm algorithm,
                                         const MeshTuning& tuning, const Intensity* intensity, int32_t numbering,
                                         bool measure, int32_t* labels, PhaseLog& log);

// The table of canonical host labels of a host mesh (checked canonical by the caller); out (host,
// may be labels or nullptr) receives the labels in `numbering`; `measure` as above.
StatisticsTablePtr mesh_statistics(DeviceState& state, const Mesh& mesh, const int32_t* labels,
                                   const Intensity& intensity, int32_t numbering, bool measure, int32_t* out);

// The table of canonical host labels of a host CSR graph (checked by the caller).
StatisticsTablePtr graph_statistics(DeviceState& state, const Graph& graph, const int32_t* labels, int32_t numbering,
                                    int32_t* out);

// ---- what statistics.cu takes from mesh_label.cu ----------------------------------------------

namespace mesh {
struct Call;  // mesh_device.cuh
}

// A grid of cells of any type in host or device memory, x fastest: cell (x, y, z) lies
// x + row_step * y + layer_step * z cells after `cells`.
struct Grid {
    const void* cells;
    size_t cell_bytes;
    int32_t width, height, depth;
    int64_t row_step, layer_step;
};

// Enqueues on state.stream the copy of a grid into the dense device buffer `target`: one copy
// for a dense grid, else a pitched 3D copy when the layer stride is a whole number of rows, else
// one 2D copy per layer. Error(CCL4J_UNSUPPORTED) when the rows lie further apart than the
// device's copy pitch limit.
void copy_grid(DeviceState& state, void* target, const Grid& grid);

// The bytes of the scratch array the statistics of `cells` cells or vertices take: one int32 per
// cell, but at least the root index (a bit mask of the roots and its scan, two words for 32
// cells), which a single cell would overrun. label_mesh's scratch array has this size.
size_t statistics_scratch_bytes(int64_t cells);

// label_mesh (mesh_kernels.hpp) with more work in the same call: `upload` (may be null) enqueues
// copies after the cells' copy, inside phase h2d; `phases` (may be null) appends phases to the
// algorithm's plan, which run on the canonical labels in call.labels before they are copied to
// `labels` (call.scratch is free for them by then).
// With `tree` (for an algorithm with has_tree_plan), the plan is the algorithm's tree plan
// (algorithms::Algorithm::mesh_cuda_tree) and `phases` write call.labels from the tree it leaves
// in call.scratch.
using MeshPhases = std::function<void(mesh::Call& call, PhasePlan& plan)>;
void label_mesh_with(DeviceState& state, const Mesh& mesh, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                     const std::function<void()>& upload, const MeshPhases& phases, int32_t* labels, PhaseLog& log,
                     bool tree = false);
bool has_tree_plan(ccl4j_algorithm algorithm);

}  // namespace ccl4j::cuda
