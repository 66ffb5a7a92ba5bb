// The host driver of the GPU algorithms (driver.hpp).
#include "cuda/driver.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/input_check.hpp"

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

// ---- graphs -----------------------------------------------------------------------------------

namespace {

// The driver's buffers for graphs: a host graph's copy, and the labels every plan writes.
struct GraphWorkspace final : Workspace {
    DeviceBuffer offsets;
    DeviceBuffer neighbors;
    DeviceBuffer labels;
};

// The transfer benchmark's target.
struct TransferWorkspace final : Workspace {
    DeviceBuffer target;
};

size_t offset_bytes(int32_t n, int32_t offset_width) { return (static_cast<size_t>(n) + 1) * offset_width; }
size_t neighbor_bytes(int64_t arcs) { return static_cast<size_t>(arcs) * sizeof(int32_t); }
size_t label_bytes(int32_t n) { return static_cast<size_t>(n) * sizeof(int32_t); }

// An empty graph launches nothing; its phases are logged as taking no time.
void log_empty(PhaseLog& log, const std::vector<std::string>& phases, bool uploaded, bool downloaded) {
    if (uploaded) log.add("h2d", 0);
    for (const std::string& phase : phases) log.add(phase.c_str(), 0);
    if (downloaded) log.add("d2h", 0);
}

// Enqueues the copy of a host graph's arrays into two device buffers (sized by the caller).
void enqueue_upload(const DeviceState& state, const Graph& graph, DeviceBuffer& offsets, DeviceBuffer& neighbors) {
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(offsets.as<void>(), graph.offsets,
                                     offset_bytes(graph.vertex_count, graph.offset_width), cudaMemcpyHostToDevice,
                                     state.stream));
    if (graph.arc_count > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(neighbors.as<void>(), graph.neighbors, neighbor_bytes(graph.arc_count),
                                         cudaMemcpyHostToDevice, state.stream));
    }
}

std::function<void()> download_to(const DeviceState& state, int32_t* host, const DeviceBuffer& labels, int32_t n) {
    if (!host) return nullptr;
    return [&state, host, &labels, n] {
        CCL4J_CUDA_CHECK(
            cudaMemcpyAsync(host, labels.as<int32_t>(), label_bytes(n), cudaMemcpyDeviceToHost, state.stream));
    };
}

}  // namespace

void check_same_device(const DeviceState& state, const DeviceGraph& graph) {
    if (graph.device != state.device) {
        fail(CCL4J_INVALID_ARGUMENT, "the graph lives on CUDA device " + std::to_string(graph.device) +
                                         ", this context uses device " + std::to_string(state.device));
    }
}

detail::DeviceCsr csr_of(const DeviceGraph& graph) {
    return {graph.vertex_count, graph.arc_count, graph.offset_width, graph.offsets.as<void>(),
            graph.neighbors.as<int32_t>()};
}

void run_graph(DeviceState& state, const Graph& graph, bool check_input, const std::vector<std::string>& phases,
               const GraphPlanBuilder& build, int32_t* labels, PhaseLog& log) {
    const int32_t n = graph.vertex_count;
    if (n == 0) return log_empty(log, phases, true, true);
    state.activate();
    GraphWorkspace& work = state.workspace<GraphWorkspace>();
    work.offsets.reserve(offset_bytes(n, graph.offset_width), "graph offsets");
    work.neighbors.reserve(neighbor_bytes(graph.arc_count), "graph neighbours");
    work.labels.reserve(label_bytes(n), "labels");
    const detail::DeviceCsr csr{n, graph.arc_count, graph.offset_width, work.offsets.as<void>(),
                                work.neighbors.as<int32_t>()};
    PhasePlan plan = build(state, csr, work.labels.as<int32_t>());
    if (check_input) plan.insert(plan.begin(), check_phase(state, csr, graph));
    drive(state, plan, [&] { enqueue_upload(state, graph, work.offsets, work.neighbors); },
          download_to(state, labels, work.labels, n), log);
}

void run_graph(DeviceState& state, const DeviceGraph& graph, const std::vector<std::string>& phases,
               const GraphPlanBuilder& build, int32_t* labels, PhaseLog& log) {
    check_same_device(state, graph);
    const int32_t n = graph.vertex_count;
    if (n == 0) return log_empty(log, phases, false, labels != nullptr);
    state.activate();
    DeviceBuffer& device_labels = state.workspace<GraphWorkspace>().labels;
    device_labels.reserve(label_bytes(n), "labels");
    const PhasePlan plan = build(state, csr_of(graph), device_labels.as<int32_t>());
    drive(state, plan, nullptr, download_to(state, labels, device_labels, n), log);
}

DeviceBuffer& device_labels(DeviceState& state) { return state.workspace<GraphWorkspace>().labels; }

void release_graph_copy(DeviceState& state) {
    GraphWorkspace& work = state.workspace<GraphWorkspace>();
    work.offsets.release();
    work.neighbors.release();
}

DeviceGraphPtr upload(DeviceState& state, const Graph& graph, double* h2d_ms) {
    state.activate();
    DeviceGraphPtr resident(new DeviceGraph(state.device, graph));
    resident->offsets.reserve(offset_bytes(graph.vertex_count, graph.offset_width), "resident graph offsets");
    resident->neighbors.reserve(neighbor_bytes(graph.arc_count), "resident graph neighbours");
    PhaseClock& clock = *state.clock;
    clock.start();
    enqueue_upload(state, graph, resident->offsets, resident->neighbors);
    clock.end_phase("h2d");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    clock.collect();
    if (h2d_ms) *h2d_ms = clock.total_ms();
    return resident;
}

int32_t vertex_count(const DeviceGraph& graph) { return graph.vertex_count; }
int64_t arc_count(const DeviceGraph& graph) { return graph.arc_count; }

double copy_to_device(DeviceState& state, const void* host, size_t bytes) {
    state.activate();
    DeviceBuffer& target = state.workspace<TransferWorkspace>().target;
    target.reserve(bytes, "transfer buffer");
    PhaseClock& clock = *state.clock;
    clock.start();
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(target.as<void>(), host, bytes, cudaMemcpyHostToDevice, state.stream));
    clock.end_phase("h2d");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    clock.collect();
    return clock.total_ms();
}

}  // namespace ccl4j::cuda
