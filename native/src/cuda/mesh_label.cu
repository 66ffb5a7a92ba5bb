// ccl4j::cuda::label_mesh: one labelling call of a GPU mesh algorithm (copies in, the algorithm's
// kernels, copies out) and its per-phase runs, both run by the driver (driver.hpp); the same call
// with the statistics' stages added (label_mesh_with, cuda/statistics.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "common/validate.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/mesh_device.cuh"
#include "cuda/statistics.hpp"

namespace ccl4j::cuda {

void copy_grid(DeviceState& state, void* target, const Grid& g) {
    cudaStream_t stream = state.stream;
    const size_t row_bytes = static_cast<size_t>(g.width) * g.cell_bytes;
    const bool dense = (g.height == 1 || g.row_step == g.width) &&
                       (g.depth == 1 || g.layer_step == static_cast<int64_t>(g.width) * g.height);
    if (dense) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(target, g.cells, row_bytes * g.height * g.depth, cudaMemcpyDefault, stream));
        return;
    }
    // A single row per layer: its row stride is never used, the rows lie a layer apart.
    const int64_t row_step = g.height == 1 ? g.layer_step : g.row_step;
    const size_t pitch = static_cast<size_t>(row_step) * g.cell_bytes;
    int max_pitch = 0;
    CCL4J_CUDA_CHECK(cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, state.device));
    if (pitch > static_cast<size_t>(max_pitch)) {
        fail(CCL4J_UNSUPPORTED, "rows " + std::to_string(row_step) + " cells (" + std::to_string(pitch) +
                                    " bytes) apart are beyond the device's copy pitch limit of " +
                                    std::to_string(max_pitch) + " bytes (row_stride " + std::to_string(g.row_step) +
                                    ", layer_stride " + std::to_string(g.layer_step) + ")");
    }
    auto* source = static_cast<char*>(const_cast<void*>(g.cells));
    if (g.layer_step % row_step == 0) {
        cudaMemcpy3DParms p{};
        p.srcPtr = make_cudaPitchedPtr(source, pitch, row_bytes, static_cast<size_t>(g.layer_step / row_step));
        p.dstPtr = make_cudaPitchedPtr(target, row_bytes, row_bytes, static_cast<size_t>(g.height));
        p.extent = make_cudaExtent(row_bytes, static_cast<size_t>(g.height), static_cast<size_t>(g.depth));
        p.kind = cudaMemcpyDefault;
        CCL4J_CUDA_CHECK(cudaMemcpy3DAsync(&p, stream));
        return;
    }
    const size_t layer_bytes = row_bytes * g.height;
    for (int32_t z = 0; z < g.depth; ++z) {
        CCL4J_CUDA_CHECK(cudaMemcpy2DAsync(static_cast<char*>(target) + layer_bytes * z, row_bytes,
                                           source + static_cast<size_t>(g.layer_step) * g.cell_bytes * z, pitch,
                                           row_bytes, static_cast<size_t>(g.height), cudaMemcpyDefault, stream));
    }
}

namespace {

// What the ABI layer has validated already is checked again here, so that no launch ever sees a
// mesh it cannot index: sizes, pointer, strides, connectivity, and a cell count that int32 labels
// hold. The tuning is validated once, by the ABI layer (api/options.hpp).
void check_call(const Mesh& m, const void* labels) {
    if (m.width < 1 || m.height < 1 || m.depth < 1) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh dimensions must be positive, got " + std::to_string(m.width) + "x" +
                                         std::to_string(m.height) + "x" + std::to_string(m.depth));
    }
    if (m.cell_count() > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh of " + std::to_string(m.cell_count()) + " cells: at most 2^31 - 1");
    }
    if (!m.cells || !labels) fail(CCL4J_INVALID_ARGUMENT, "mesh cells or labels are null");
    if (m.cell_type != CellType::U8 && m.cell_type != CellType::I32) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown cell type " + std::to_string(static_cast<int>(m.cell_type)));
    }
    check_strides(m.width, m.height, m.depth, static_cast<int32_t>(m.cell_type), m.row_stride, m.layer_stride);
    const bool planar = m.connectivity == 4 || m.connectivity == 8;
    if (!planar && m.connectivity != 6 && m.connectivity != 26) {
        fail(CCL4J_INVALID_ARGUMENT, "connectivity must be 4, 8, 6 or 26, got " + std::to_string(m.connectivity));
    }
    if (planar && m.depth != 1) {
        fail(CCL4J_INVALID_ARGUMENT, "connectivity " + std::to_string(m.connectivity) + " is for 2D meshes, depth is " +
                                         std::to_string(m.depth));
    }
    if (m.mode != MeshMode::Foreground && m.mode != MeshMode::SameValue) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown mesh mode " + std::to_string(static_cast<int>(m.mode)));
    }
}

// The meshes' buffers on a state: the cells, the labels, and a second label array.
struct MeshWorkspace final : Workspace {
    DeviceBuffer cells;
    DeviceBuffer labels;
    DeviceBuffer scratch;
};

// Reserves the mesh's buffers on `state` and describes the call the algorithms see; the cells
// are still to be copied to call.cells.
mesh::Call prepare(DeviceState& state, const Mesh& m, const MeshTuning& tuning) {
    const int64_t n = m.cell_count();
    state.activate();
    MeshWorkspace& work = state.workspace<MeshWorkspace>();
    const size_t label_bytes = static_cast<size_t>(n) * sizeof(int32_t);
    work.cells.reserve(static_cast<size_t>(n) * static_cast<size_t>(m.cell_type), "mesh cells");
    work.labels.reserve(label_bytes, "mesh labels");
    work.scratch.reserve(statistics_scratch_bytes(n), "mesh scratch labels");
    // Every pass of an iterative algorithm moves a label at least one cell further along a path
    // of its cluster, and the last pass only finds nothing to change: n + 1 passes at most.
    const int32_t bound = static_cast<int32_t>(std::min<int64_t>(n + 1, INT32_MAX));
    // On a single layer the 3D stencils connect what the planar ones do (their neighbours in z
    // are absent or, periodic, the layer itself): 6 acts as 4, 26 as 8.
    const int32_t connectivity = m.depth == 1 && m.connectivity == 6    ? 4
                                 : m.depth == 1 && m.connectivity == 26 ? 8
                                                                        : m.connectivity;
    return mesh::Call{state,
                      mesh::Geometry{m.width, m.height, m.depth, connectivity, m.periodic[0], m.periodic[1],
                                     m.periodic[2], m.mode == MeshMode::SameValue},
                      m.cell_type,
                      work.cells.as<void>(),
                      work.labels.as<int32_t>(),
                      work.scratch.as<int32_t>(),
                      tuning,
                      tuning.max_iterations ? tuning.max_iterations : bound};
}

// Enqueues the copy of the mesh's cells into the dense buffer `target` (copy_grid).
void copy_cells(DeviceState& state, void* target, const Mesh& m) {
    copy_grid(state, target,
              Grid{m.cells, static_cast<size_t>(m.cell_type), m.width, m.height, m.depth, m.row_step(), m.layer_step()});
}

// The registry's CUDA plan of a mesh algorithm: the one place the CUDA backend reads the table
// for meshes.
PhasePlan plan_of(mesh::Call& call, ccl4j_algorithm algorithm) {
    return algorithms::cuda_mesh_algorithm(algorithm).mesh_cuda(call);
}

void check_algorithm(ccl4j_algorithm algorithm) { algorithms::cuda_mesh_algorithm(algorithm); }

// A mesh algorithm's plan on a state of its own, over a copy of the cells made once.
class MeshPhaseProgram final : public DevicePhaseProgram {
public:
    MeshPhaseProgram(int device, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning)
        : DevicePhaseProgram(device, m.cell_count()), tuning_(tuning), call_(prepare(*state_, m, tuning_)) {
        plan_ = plan_of(call_, algorithm);
        labels_ = call_.labels;
        copy_cells(*state_, const_cast<void*>(call_.cells), m);
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
    }

private:
    MeshTuning tuning_;
    mesh::Call call_;
};

}  // namespace

void label_mesh(DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                int32_t* labels, PhaseLog& log) {
    label_mesh_with(state, m, algorithm, tuning, nullptr, nullptr, labels, log);
}

void label_mesh_with(DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                     const std::function<void()>& upload, const MeshPhases& phases, int32_t* labels, PhaseLog& log) {
    check_algorithm(algorithm);
    check_call(m, labels);
    const size_t label_bytes = static_cast<size_t>(m.cell_count()) * sizeof(int32_t);
    mesh::Call call = prepare(state, m, tuning);
    PhasePlan plan = plan_of(call, algorithm);
    if (phases) phases(call, plan);
    drive(
        state, plan,
        [&] {
            copy_cells(state, const_cast<void*>(call.cells), m);
            if (upload) upload();
        },
        [&] {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, call.labels, label_bytes, cudaMemcpyDefault, state.stream));
        },
        log);
}

PhaseProgramPtr mesh_phase_program(const DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm,
                                   const MeshTuning& tuning) {
    check_algorithm(algorithm);
    check_call(m, m.cells);
    return std::make_unique<MeshPhaseProgram>(state.device, m, algorithm, tuning);
}

}  // namespace ccl4j::cuda
