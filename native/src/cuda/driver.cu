// The host driver of the GPU algorithms (driver.hpp).
#include "cuda/driver.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "cuda/cuda_check.hpp"

namespace ccl4j::cuda {

// ---- memory -----------------------------------------------------------------------------------

void DeviceBuffer::reserve(size_t bytes, const char* what) {
    if (bytes <= capacity_) return;
    release();
    void* memory = nullptr;
    check(cudaMalloc(&memory, bytes), ("cudaMalloc of " + std::to_string(bytes) + " bytes for the " + what).c_str());
    data_ = memory;
    capacity_ = bytes;
}

void DeviceBuffer::release() noexcept {
    if (data_ && cudaFree(data_) != cudaSuccess) cudaGetLastError();
    data_ = nullptr;
    capacity_ = 0;
}

std::vector<void*> carve(DeviceBuffer& buffer, std::initializer_list<size_t> bytes, const char* what) {
    constexpr size_t kAlignment = 256;
    size_t total = 0;
    std::vector<size_t> starts;
    for (size_t piece : bytes) {
        starts.push_back(total);
        total += (piece + kAlignment - 1) / kAlignment * kAlignment;
    }
    buffer.reserve(std::max<size_t>(total, 1), what);
    std::vector<void*> pieces;
    for (size_t start : starts) pieces.push_back(buffer.as<char>() + start);
    return pieces;
}

// ---- timing -----------------------------------------------------------------------------------

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
    totals_.clear();
    ended_ = 0;
    CCL4J_CUDA_CHECK(cudaEventRecord(event(0), stream_));
}

void PhaseClock::end_phase(const char* name) {
    CCL4J_CUDA_CHECK(cudaEventRecord(event(pending_.size() + 1), stream_));
    pending_.push_back(name);
    ++ended_;
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

double PhaseClock::total_ms() const {
    double total = 0;
    for (const auto& entry : totals_) total += entry.second;
    return total;
}

// ---- launches ---------------------------------------------------------------------------------

int grid_size(const DeviceState& state, int block, int64_t items) {
    const int64_t resident =
        static_cast<int64_t>(state.multiprocessors) * std::max(1, state.threads_per_multiprocessor / block);
    const int64_t needed = (items + block - 1) / block;
    return static_cast<int>(std::max<int64_t>(1, std::min(resident, needed)));
}

// ---- fixpoint loops ---------------------------------------------------------------------------

namespace {
struct LoopWorkspace final : Workspace {
    DeviceBuffer control;
};
}  // namespace

LoopControl* loop_control(DeviceState& state) {
    DeviceBuffer& control = state.workspace<LoopWorkspace>().control;
    control.reserve(sizeof(LoopControl), "loop control");
    return control.as<LoopControl>();
}

int32_t iterate(DeviceState& state, LoopControl* control, int32_t limit, int64_t max_batch, const std::string& what,
                const std::function<void(int32_t)>& launch) {
    CCL4J_CUDA_CHECK(cudaMemsetAsync(control, 0, sizeof(LoopControl), state.stream));
    int64_t launched = 0;
    for (;;) {
        const int64_t batch = std::clamp<int64_t>(launched / 4, 2, std::max<int64_t>(max_batch, 2));
        const int64_t count = std::min<int64_t>(batch, static_cast<int64_t>(limit) + 1 - launched);
        for (int64_t i = 0; i < count; ++i) launch(static_cast<int32_t>(launched + i));
        launched += count;
        LoopControl seen;
        // Into pageable memory the copy returns once done, after the batch (stream order).
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(&seen, control, sizeof(seen), cudaMemcpyDeviceToHost, state.stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
        state.clock->collect();
        if (seen.finished) return seen.iterations;
        if (launched > limit) {
            fail(CCL4J_NOT_CONVERGED,
                 what + " did not converge within " + std::to_string(limit) + " iterations (max_iterations)");
        }
    }
}

// ---- one labelling call -----------------------------------------------------------------------

namespace {
// Runs a phase and ends it on the clock under its name, unless it ended phases of its own.
int32_t run_phase(PhaseClock& clock, const Phase& phase) {
    const int64_t ended = clock.phases_ended();
    const int32_t iterations = phase.run();
    if (clock.phases_ended() == ended) clock.end_phase(phase.name.c_str());
    return iterations;
}
}  // namespace

void drive(DeviceState& state, const PhasePlan& plan, const std::function<void()>& upload,
           const std::function<void()>& download, PhaseLog& log) {
    PhaseClock& clock = *state.clock;
    clock.start();
    if (upload) {
        upload();
        clock.end_phase("h2d");
    }
    int32_t iterations = 0;
    for (const Phase& phase : plan) iterations += run_phase(clock, phase);
    if (download) {
        download();
        clock.end_phase("d2h");
    }
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    clock.collect();
    clock.log(log);
    log.set_iterations(iterations);
}

// ---- per-phase runs ---------------------------------------------------------------------------

DevicePhaseProgram::DevicePhaseProgram(int device, int64_t label_count)
    : state_(create_state(device)), label_count_(label_count) {}

double DevicePhaseProgram::run_timed(int i, int32_t& iterations) {
    state_->activate();
    PhaseClock& clock = *state_->clock;
    clock.start();
    iterations = run_phase(clock, plan_[i]);
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
    clock.collect();
    return clock.total_ms();
}

void DevicePhaseProgram::run_untimed(int end) {
    state_->activate();
    PhaseClock& clock = *state_->clock;
    clock.start();
    for (int i = 0; i < end; ++i) run_phase(clock, plan_[i]);
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
    clock.collect();
}

void DevicePhaseProgram::read_labels(int32_t* labels) {
    state_->activate();
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, labels_, static_cast<size_t>(label_count_) * sizeof(int32_t),
                                     cudaMemcpyDeviceToHost, state_->stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
}

}  // namespace ccl4j::cuda
