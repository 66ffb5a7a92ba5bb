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
#include "common/memory.hpp"
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
// mesh it cannot index: sizes, pointer, strides, connectivity, and a cell count that the labels
// (int32, or int64 when `wide`) hold. The tuning is validated once, by the ABI layer (api/options.hpp).
void check_shape(const Mesh& m, bool wide);

void check_call(const Mesh& m, const void* labels, bool wide) {
    if (!m.cells || !labels) fail(CCL4J_INVALID_ARGUMENT, "mesh cells or labels are null");
    check_shape(m, wide);
}

// check_call without the pointers: a mesh whose cells are made on the device has none yet.
void check_shape(const Mesh& m, bool wide) {
    if (m.width < 1 || m.height < 1 || m.depth < 1) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh dimensions must be positive, got " + std::to_string(m.width) + "x" +
                                         std::to_string(m.height) + "x" + std::to_string(m.depth));
    }
    if (!wide && m.cell_count() > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh of " + std::to_string(m.cell_count()) +
                                         " cells: int32 labels hold at most 2^31 - 1 (ccl4j_label_mesh64 takes more)");
    }
    if (m.cell_type != CellType::U8 && m.cell_type != CellType::U16 && m.cell_type != CellType::I32 &&
        m.cell_type != CellType::F32) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown cell type " + std::to_string(static_cast<int>(m.cell_type)));
    }
    check_strides(m.width, m.height, m.depth, cell_bytes(m.cell_type), m.row_stride, m.layer_stride);
    const bool planar = m.connectivity == 4 || m.connectivity == 8;
    if (!planar && m.connectivity != 6 && m.connectivity != 18 && m.connectivity != 26) {
        fail(CCL4J_INVALID_ARGUMENT, "connectivity must be 4, 8, 6, 18 or 26, got " + std::to_string(m.connectivity));
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

// The device memory the call needs is there, or the call fails before it allocates anything.
void check_memory(DeviceState& state, const Mesh& m, int label_bytes) {
    ccl4j::check_memory(mesh_device_bytes(m, label_bytes), mesh_device_available(state),
                        "labelling a " + std::to_string(m.width) + "x" + std::to_string(m.height) + "x" +
                            std::to_string(m.depth) + " mesh with int" + std::to_string(8 * label_bytes) +
                            " labels on the GPU (device " + std::to_string(state.device) + ")",
                        "device");
}

// Reserves the mesh's buffers on `state` and describes the call the algorithms see; the cells
// are still to be copied to call.cells. A wide call (int64 labels) has only the cells and the
// int64 labels, in which the wide plans build their trees.
mesh::Call prepare(DeviceState& state, const Mesh& m, const MeshTuning& tuning, bool wide) {
    const int64_t n = m.cell_count();
    state.activate();
    check_memory(state, m, wide ? 8 : 4);
    MeshWorkspace& work = state.workspace<MeshWorkspace>();
    if (wide) work.scratch.release();  // kept from an earlier call; a wide call needs the room
    work.cells.reserve(static_cast<size_t>(n) * static_cast<size_t>(m.cell_size()), "mesh cells");
    work.labels.reserve(static_cast<size_t>(n) * (wide ? sizeof(int64_t) : sizeof(int32_t)), "mesh labels");
    if (!wide) work.scratch.reserve(statistics_scratch_bytes(n), "mesh scratch labels");
    // Every pass of an iterative algorithm moves a label at least one cell further along a path
    // of its cluster, and the last pass only finds nothing to change: n + 1 passes at most.
    const int32_t bound = static_cast<int32_t>(std::min<int64_t>(n + 1, INT32_MAX));
    // On a single layer the 3D stencils connect what the planar ones do (their neighbours in z
    // are absent or, periodic, the layer itself): 6 acts as 4, 26 as 8.
    const int32_t connectivity = m.depth == 1 && m.connectivity == 6    ? 4
                                 : m.depth == 1 && (m.connectivity == 18 || m.connectivity == 26) ? 8
                                                                        : m.connectivity;
    return mesh::Call{state,
                      mesh::Geometry{m.width, m.height, m.depth, connectivity, m.periodic[0], m.periodic[1],
                                     m.periodic[2], m.mode == MeshMode::SameValue, m.delta},
                      m.cell_type,
                      work.cells.as<void>(),
                      wide ? nullptr : work.labels.as<int32_t>(),
                      wide ? nullptr : work.scratch.as<int32_t>(),
                      tuning,
                      tuning.max_iterations ? tuning.max_iterations : bound,
                      wide ? work.labels.as<int64_t>() : nullptr};
}

// Enqueues the copy of the mesh's cells into the dense buffer `target` (copy_grid).
void copy_cells(DeviceState& state, void* target, const Mesh& m) {
    copy_grid(state, target,
              Grid{m.cells, static_cast<size_t>(m.cell_size()), m.width, m.height, m.depth, m.row_step(), m.layer_step()});
}

// The registry's CUDA plan of a mesh algorithm (its wide one for a wide call): the one place the
// CUDA backend reads the table for meshes.
PhasePlan plan_of(mesh::Call& call, ccl4j_algorithm algorithm, bool tree = false) {
    const algorithms::Algorithm& a = algorithms::cuda_mesh_algorithm(algorithm);
    if (tree) return a.mesh_cuda_tree(call);
    return call.wide_labels ? a.mesh_cuda_wide(call) : a.mesh_cuda(call);
}

void check_algorithm(ccl4j_algorithm algorithm) { algorithms::cuda_mesh_algorithm(algorithm); }

// A mesh algorithm's plan on a state of its own, over a copy of the cells made once.
class MeshPhaseProgram final : public DevicePhaseProgram {
public:
    MeshPhaseProgram(int device, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning)
        : DevicePhaseProgram(device, m.cell_count()), tuning_(tuning), call_(prepare(*state_, m, tuning_, false)) {
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

bool has_tree_plan(ccl4j_algorithm algorithm) {
    return algorithms::cuda_mesh_algorithm(algorithm).mesh_cuda_tree != nullptr;
}

void label_mesh(DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                int64_t* labels, PhaseLog& log) {
    algorithms::check_wide_labels(algorithms::cuda_mesh_algorithm(algorithm), true);
    check_call(m, labels, true);
    mesh::Call call = prepare(state, m, tuning, true);
    PhasePlan plan = plan_of(call, algorithm);
    drive(
        state, plan, [&] { copy_cells(state, const_cast<void*>(call.cells), m); },
        [&] {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, call.wide_labels, static_cast<size_t>(m.cell_count()) * sizeof(int64_t),
                                             cudaMemcpyDefault, state.stream));
        },
        log);
}

int64_t mesh_device_bytes(const Mesh& m, int label_bytes) {
    const int64_t n = m.cell_count();
    const int64_t cells = n * m.cell_size();
    if (label_bytes == 8) return cells + n * 8;
    return cells + n * 4 + static_cast<int64_t>(statistics_scratch_bytes(n));
}

int64_t mesh_device_available(DeviceState& state) {
    state.activate();
    size_t free = 0, total = 0;
    CCL4J_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    const MeshWorkspace& work = state.workspace<MeshWorkspace>();
    return static_cast<int64_t>(free + work.cells.capacity() + work.labels.capacity() + work.scratch.capacity());
}

void label_mesh_with(DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                     const std::function<void()>& upload, const MeshPhases& phases, int32_t* labels, PhaseLog& log,
                     bool tree) {
    check_algorithm(algorithm);
    check_call(m, labels, false);
    const size_t label_bytes = static_cast<size_t>(m.cell_count()) * sizeof(int32_t);
    mesh::Call call = prepare(state, m, tuning, false);
    PhasePlan plan = plan_of(call, algorithm, tree);
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

void label_mesh_on_device(DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                          const char* fill_phase, const std::function<void(void* cells)>& fill,
                          const std::function<void(mesh::Call& call, PhasePlan& plan)>& phases, int32_t* labels,
                          PhaseLog& log) {
    check_algorithm(algorithm);
    check_shape(m, false);
    const size_t label_bytes = static_cast<size_t>(m.cell_count()) * sizeof(int32_t);
    mesh::Call call = prepare(state, m, tuning, false);
    PhasePlan plan = plan_of(call, algorithm);
    void* cells = const_cast<void*>(call.cells);
    plan.insert(plan.begin(), Phase{fill_phase, [&fill, cells] {
                                        fill(cells);
                                        return int32_t{0};
                                    }});
    if (phases) phases(call, plan);
    std::function<void()> download;
    if (labels) {
        download = [&] {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, call.labels, label_bytes, cudaMemcpyDefault, state.stream));
        };
    }
    drive(state, plan, nullptr, download, log);
}

PhaseProgramPtr mesh_phase_program(const DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm,
                                   const MeshTuning& tuning) {
    check_algorithm(algorithm);
    check_call(m, m.cells, false);
    return std::make_unique<MeshPhaseProgram>(state.device, m, algorithm, tuning);
}

}  // namespace ccl4j::cuda
