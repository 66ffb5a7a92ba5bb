// ccl4j::cuda::label_mesh: one labelling call of a GPU mesh algorithm (copies in, the algorithm's
// kernels, copies out), and the host-side glue the algorithms of mesh_*.cu share.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <cstdint>
#include <string>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "common/validate.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/mesh_device.cuh"

namespace ccl4j::cuda {
namespace mesh {

// ---- PhaseClock -------------------------------------------------------------------------------

PhaseClock::~PhaseClock() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
    cudaGetLastError();
}

cudaEvent_t PhaseClock::event(size_t index) {
    while (events_.size() <= index) {
        cudaEvent_t e = nullptr;
        CCL4J_CUDA_CHECK(cudaEventCreate(&e));
        events_.push_back(e);
    }
    return events_[index];
}

void PhaseClock::start() {
    pending_.clear();
    CCL4J_CUDA_CHECK(cudaEventRecord(event(0), stream_));
}

void PhaseClock::end_phase(const char* name) {
    CCL4J_CUDA_CHECK(cudaEventRecord(event(pending_.size() + 1), stream_));
    pending_.push_back(name);
}

void PhaseClock::collect() {
    for (size_t i = 0; i < pending_.size(); ++i) {
        float ms = 0;
        CCL4J_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
        auto total = std::find_if(totals_.begin(), totals_.end(), [&](const auto& t) { return t.first == pending_[i]; });
        if (total == totals_.end()) {
            totals_.emplace_back(pending_[i], ms);
        } else {
            total->second += ms;
        }
    }
    // The last event recorded starts the next phase.
    std::swap(events_[0], events_[pending_.size()]);
    pending_.clear();
}

void PhaseClock::log(PhaseLog& log) const {
    for (const auto& [name, ms] : totals_) log.add(name.c_str(), ms);
}

// ---- the iteration loop -----------------------------------------------------------------------

LoopControl* loop_control(DeviceState& state) {
    state.mesh_control.reserve(sizeof(LoopControl), "mesh loop control");
    return state.mesh_control.as<LoopControl>();
}

int32_t iterate(Call& call, const char* batch_phase, int64_t max_batch, LoopControl* control,
                const std::function<void(int32_t)>& launch_pass) {
    cudaStream_t stream = call.state.stream;
    CCL4J_CUDA_CHECK(cudaMemsetAsync(control, 0, sizeof(LoopControl), stream));
    // A batch grows by a quarter of the passes so far: the launches after the loop has ended
    // (they return at once) stay a small part of the work, and the host waits a few times only.
    int64_t launched = 0;
    for (;;) {
        const int64_t batch = std::clamp<int64_t>(launched / 4, 2, max_batch);
        const int64_t count = std::min<int64_t>(batch, static_cast<int64_t>(call.limit) + 1 - launched);
        for (int64_t i = 0; i < count; ++i) launch_pass(static_cast<int32_t>(launched + i));
        launched += count;
        if (batch_phase) call.clock.end_phase(batch_phase);
        LoopControl seen;
        // Into pageable memory the copy returns once done, after the batch (stream order).
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(&seen, control, sizeof(seen), cudaMemcpyDeviceToHost, stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(stream));
        call.clock.collect();
        if (seen.done) return seen.iterations;
        // Launch `limit` can only find that pass limit - 1 ended the loop.
        if (launched > call.limit) {
            fail(CCL4J_NOT_CONVERGED,
                 "the mesh labelling did not converge within " + std::to_string(call.limit) + " iterations (max_iterations)");
        }
    }
}

}  // namespace mesh

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

// Reserves the mesh's buffers on `state` and describes the call the algorithms see; the cells
// are still to be copied to state.mesh_cells.
mesh::Call prepare(DeviceState& state, const Mesh& m, const MeshTuning& tuning, mesh::PhaseClock& clock) {
    const int64_t n = m.cell_count();
    state.activate();
    const size_t label_bytes = static_cast<size_t>(n) * sizeof(int32_t);
    state.mesh_cells.reserve(static_cast<size_t>(n) * static_cast<size_t>(m.cell_type), "mesh cells");
    state.mesh_labels.reserve(label_bytes, "mesh labels");
    state.parent.reserve(label_bytes, "mesh scratch labels");
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
                      state.mesh_cells.as<void>(),
                      state.mesh_labels.as<int32_t>(),
                      state.parent.as<int32_t>(),
                      tuning,
                      tuning.max_iterations ? tuning.max_iterations : bound,
                      clock};
}

// Enqueues the copy of the mesh's cells into the dense buffer `target` (host or device source,
// pinned or pageable). A strided mesh is gathered by the copy itself: one pitched 3D copy when the
// layer stride is a whole number of rows, else one 2D copy per layer.
void copy_cells(void* target, const Mesh& m, cudaStream_t stream) {
    const size_t cell = static_cast<size_t>(m.cell_type);
    const size_t row_bytes = static_cast<size_t>(m.width) * cell;
    if (m.dense()) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(target, m.cells, row_bytes * m.height * m.depth, cudaMemcpyDefault, stream));
        return;
    }
    // A single row per layer: its row stride is never used, the rows lie a layer apart.
    const int64_t row_step = m.height == 1 ? m.layer_step() : m.row_step();
    const size_t pitch = static_cast<size_t>(row_step) * cell;
    int device = 0, max_pitch = 0;
    CCL4J_CUDA_CHECK(cudaGetDevice(&device));
    CCL4J_CUDA_CHECK(cudaDeviceGetAttribute(&max_pitch, cudaDevAttrMaxPitch, device));
    if (pitch > static_cast<size_t>(max_pitch)) {
        fail(CCL4J_UNSUPPORTED, "rows " + std::to_string(row_step) + " cells (" + std::to_string(pitch) +
                                    " bytes) apart are beyond the device's copy pitch limit of " +
                                    std::to_string(max_pitch) + " bytes (row_stride " + std::to_string(m.row_step()) +
                                    ", layer_stride " + std::to_string(m.layer_step()) + ")");
    }
    auto* source = static_cast<char*>(const_cast<void*>(m.cells));
    if (m.layer_step() % row_step == 0) {
        cudaMemcpy3DParms p{};
        p.srcPtr = make_cudaPitchedPtr(source, pitch, row_bytes, static_cast<size_t>(m.layer_step() / row_step));
        p.dstPtr = make_cudaPitchedPtr(target, row_bytes, row_bytes, static_cast<size_t>(m.height));
        p.extent = make_cudaExtent(row_bytes, static_cast<size_t>(m.height), static_cast<size_t>(m.depth));
        p.kind = cudaMemcpyDefault;
        CCL4J_CUDA_CHECK(cudaMemcpy3DAsync(&p, stream));
        return;
    }
    const size_t layer_bytes = row_bytes * m.height;
    for (int32_t z = 0; z < m.depth; ++z) {
        CCL4J_CUDA_CHECK(cudaMemcpy2DAsync(static_cast<char*>(target) + layer_bytes * z, row_bytes,
                                           source + static_cast<size_t>(m.layer_step()) * cell * z, pitch, row_bytes,
                                           static_cast<size_t>(m.height), cudaMemcpyDefault, stream));
    }
}

// The registry's CUDA plan of a mesh algorithm: the one place the CUDA backend reads the table
// for meshes.
PhasePlan plan_of(mesh::Call& call, ccl4j_algorithm algorithm) {
    return algorithms::cuda_mesh_algorithm(algorithm).mesh_cuda(call);
}

void check_algorithm(ccl4j_algorithm algorithm) { algorithms::cuda_mesh_algorithm(algorithm); }

// A mesh algorithm's plan on a state of its own, over a copy of the cells made once. Each phase
// is timed by events of its own around it (a fixpoint loop's waits for the device between its
// batches count, as in a labelling call); the call's phase clock is read after every phase so
// that its events do not pile up.
class MeshPhaseProgram final : public PhaseProgram {
public:
    MeshPhaseProgram(int device, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning)
        : state_(create_state(device)),
          tuning_(tuning),
          clock_(state_->stream),
          call_(prepare(*state_, m, tuning_, clock_)),
          cell_count_(m.cell_count()) {
        plan_ = plan_of(call_, algorithm);
        copy_cells(state_->mesh_cells.as<void>(), m, state_->stream);
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
    }

    double run_timed(int i, int32_t& iterations) override {
        state_->activate();
        clock_.start();
        state_->record(kStart);
        iterations = plan_[i].run();
        state_->record(kFinalised);
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
        clock_.collect();
        return state_->elapsed_ms(kStart, kFinalised);
    }

    void run_untimed(int end) override {
        state_->activate();
        clock_.start();
        for (int i = 0; i < end; ++i) plan_[i].run();
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
        clock_.collect();
    }

    void read_labels(int32_t* labels) override {
        state_->activate();
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, call_.labels, static_cast<size_t>(cell_count_) * sizeof(int32_t),
                                         cudaMemcpyDeviceToHost, state_->stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
    }

private:
    DeviceStatePtr state_;
    MeshTuning tuning_;
    mesh::PhaseClock clock_;
    mesh::Call call_;
    int64_t cell_count_;
};

}  // namespace

void label_mesh(DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm, const MeshTuning& tuning,
                int32_t* labels, PhaseLog& log) {
    check_algorithm(algorithm);
    check_call(m, labels);
    const size_t label_bytes = static_cast<size_t>(m.cell_count()) * sizeof(int32_t);
    mesh::PhaseClock clock(state.stream);
    mesh::Call call = prepare(state, m, tuning, clock);
    const PhasePlan plan = plan_of(call, algorithm);

    clock.start();
    copy_cells(state.mesh_cells.as<void>(), m, state.stream);
    clock.end_phase("h2d");
    int32_t iterations = 0;
    for (const Phase& phase : plan) iterations += phase.run();

    CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, call.labels, label_bytes, cudaMemcpyDefault, state.stream));
    clock.end_phase("d2h");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    clock.collect();
    clock.log(log);
    log.set_iterations(iterations);
}

PhaseProgramPtr mesh_phase_program(const DeviceState& state, const Mesh& m, ccl4j_algorithm algorithm,
                                   const MeshTuning& tuning) {
    check_algorithm(algorithm);
    check_call(m, m.cells);
    return std::make_unique<MeshPhaseProgram>(state.device, m, algorithm, tuning);
}

}  // namespace ccl4j::cuda
