// One labelling call of a GPU graph algorithm (host or resident graph), its per-phase runs, and
// the graph transfers: the registry's CUDA graph plans, run by the driver (driver.hpp).
#include <cuda_runtime.h>

#include <string>

#include "algorithms/registry.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {
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

// The registry's CUDA plan of options.algorithm: the one place the CUDA backend reads the table
// for graphs.
PhasePlan cuda_plan(DeviceState& state, const detail::DeviceCsr& graph, int32_t* labels, const LabelOptions& options) {
    return algorithms::cuda_graph_algorithm(options.algorithm).graph_cuda(state, graph, labels, options);
}

// An empty graph launches nothing; its phases are logged as taking no time.
void log_empty(PhaseLog& log, const LabelOptions& options, bool uploaded, bool downloaded) {
    if (uploaded) log.add("h2d", 0);
    for (const std::string& phase : algorithms::cuda_graph_algorithm(options.algorithm).cuda_phases) {
        log.add(phase.c_str(), 0);
    }
    if (downloaded) log.add("d2h", 0);
}

void check_device(const DeviceState& state, const DeviceGraph& graph) {
    if (graph.device != state.device) {
        fail(CCL4J_INVALID_ARGUMENT, "the graph lives on CUDA device " + std::to_string(graph.device) +
                                         ", this context uses device " + std::to_string(state.device));
    }
}

detail::DeviceCsr csr_of(const DeviceGraph& graph) {
    return {graph.vertex_count, graph.arc_count, graph.offset_width, graph.offsets.as<void>(),
            graph.neighbors.as<int32_t>()};
}

// Enqueues the copy of a host graph's arrays into two device buffers (sized by the caller).
void enqueue_upload(const DeviceState& state, const Graph& graph, DeviceBuffer& offsets, DeviceBuffer& neighbors) {
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(offsets.as<void>(), graph.offsets, offset_bytes(graph.vertex_count, graph.offset_width),
                                     cudaMemcpyHostToDevice, state.stream));
    if (graph.arc_count > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(neighbors.as<void>(), graph.neighbors, neighbor_bytes(graph.arc_count),
                                         cudaMemcpyHostToDevice, state.stream));
    }
}

std::function<void()> download_to(const DeviceState& state, int32_t* host, const DeviceBuffer& labels, int32_t n) {
    if (!host) return nullptr;
    return [&state, host, &labels, n] {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(host, labels.as<int32_t>(), label_bytes(n), cudaMemcpyDeviceToHost, state.stream));
    };
}

// A graph plan's per-phase runs on a state of its own, over a resident graph.
class GraphPhaseProgram final : public DevicePhaseProgram {
public:
    GraphPhaseProgram(const DeviceGraph& graph, const LabelOptions& options)
        : DevicePhaseProgram(graph.device, graph.vertex_count) {
        DeviceBuffer& labels = state_->workspace<GraphWorkspace>().labels;
        labels.reserve(label_bytes(graph.vertex_count), "labels");
        labels_ = labels.as<int32_t>();
        plan_ = cuda_plan(*state_, csr_of(graph), labels.as<int32_t>(), options);
    }
};

}  // namespace

void label(DeviceState& state, const Graph& graph, const LabelOptions& options, int32_t* labels, PhaseLog& log) {
    const int32_t n = graph.vertex_count;
    if (n == 0) return log_empty(log, options, true, true);
    state.activate();
    GraphWorkspace& work = state.workspace<GraphWorkspace>();
    work.offsets.reserve(offset_bytes(n, graph.offset_width), "graph offsets");
    work.neighbors.reserve(neighbor_bytes(graph.arc_count), "graph neighbours");
    work.labels.reserve(label_bytes(n), "labels");
    const detail::DeviceCsr csr{n, graph.arc_count, graph.offset_width, work.offsets.as<void>(),
                                work.neighbors.as<int32_t>()};
    const PhasePlan phases = cuda_plan(state, csr, work.labels.as<int32_t>(), options);
    drive(state, phases, [&] { enqueue_upload(state, graph, work.offsets, work.neighbors); },
          download_to(state, labels, work.labels, n), log);
}

void label(DeviceState& state, const DeviceGraph& graph, const LabelOptions& options, int32_t* labels,
           PhaseLog& log) {
    check_device(state, graph);
    const int32_t n = graph.vertex_count;
    if (n == 0) return log_empty(log, options, false, labels != nullptr);
    state.activate();
    DeviceBuffer& device_labels = state.workspace<GraphWorkspace>().labels;
    device_labels.reserve(label_bytes(n), "labels");
    const PhasePlan phases = cuda_plan(state, csr_of(graph), device_labels.as<int32_t>(), options);
    drive(state, phases, nullptr, download_to(state, labels, device_labels, n), log);
}

DeviceBuffer& device_labels(DeviceState& state) { return state.workspace<GraphWorkspace>().labels; }

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

PhaseProgramPtr phase_program(const DeviceState& state, const DeviceGraph& graph, const LabelOptions& options) {
    check_device(state, graph);
    return std::make_unique<GraphPhaseProgram>(graph, options);
}

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
