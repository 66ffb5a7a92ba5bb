// The GPU mesh algorithms (kernels A-D, Komura's lattice algorithm, block union-find) as the ABI
// layer calls them. Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cstdint>
#include <functional>

#include "ccl4j.h"
#include "common/mesh.hpp"
#include "common/phase_log.hpp"
#include "common/phases.hpp"
#include "core/options.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

// Block size, tile size and iteration limit, validated by the ABI layer (api/options.hpp).
using ccl4j::MeshTuning;

// The plans of the GPU mesh algorithms (mesh_device.cuh), as the registry lists them.
namespace mesh {
struct Call;
PhasePlan neighbour_propagation(Call& call);
PhasePlan local_propagation(Call& call);
PhasePlan directional_propagation(Call& call);
PhasePlan label_equivalence(Call& call);
PhasePlan komura_lattice(Call& call);
PhasePlan block_union_find(Call& call);
PhasePlan block_union_find_wide(Call& call);
PhasePlan block_union_find_tree(Call& call);
}  // namespace mesh

// Labels a validated host-resident mesh with one of the CCL4J_ALGORITHM_MESH_* GPU algorithms:
// copies the cells to the device, labels them, copies the canonical labels (see common/mesh.hpp)
// back to `labels` (host, cell_count entries). Phases: h2d, the algorithm's kernels, d2h.
// Throws Error(CCL4J_UNSUPPORTED) for an algorithm that does not run on the GPU.
void label_mesh(DeviceState& state, const Mesh& mesh, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                int32_t* labels, PhaseLog& log);
// The same into int64 labels (ccl4j_label_mesh64) by the algorithm's wide plan, for meshes of any
// cell count; Error(CCL4J_UNSUPPORTED) when it has none.
void label_mesh(DeviceState& state, const Mesh& mesh, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                int64_t* labels, PhaseLog& log);

// label_mesh for a mesh whose dense cells are made on the device (m.cells is not read): the
// first phase, `fill_phase`, runs fill(cells) to enqueue what writes them into the labelling's
// own cell buffer (no h2d); `phases` (may be null) appends phases that run on the canonical
// labels in call.labels (call.scratch is free for them); labels (host, may be nullptr to leave
// them on the device) receive them in phase d2h.
void label_mesh_on_device(DeviceState& state, const Mesh& mesh, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                          const char* fill_phase, const std::function<void(void* cells)>& fill,
                          const std::function<void(mesh::Call& call, PhasePlan& plan)>& phases, int32_t* labels,
                          PhaseLog& log);

// The device memory a labelling call needs (its buffers on a state; label_bytes 4 or 8), and what
// the call can use on `state` now: the device's free memory plus the mesh buffers the state holds.
int64_t mesh_device_bytes(const Mesh& mesh, int label_bytes);
int64_t mesh_device_available(DeviceState& state);

// The algorithm's kernels as a per-phase program (ccl4j.h's per-phase runs) on a state of its
// own on state's device: the cells are copied there once, here; the labels are read from the
// device. Phases as in mesh_device.cuh (no h2d, d2h); a fixpoint loop is one phase.
PhaseProgramPtr mesh_phase_program(const DeviceState& state, const Mesh& mesh, ccl4j_algorithm algorithm,
                                   const MeshTuning& tuning);

}  // namespace ccl4j::cuda
