// One labelling call of a GPU graph algorithm and its per-phase runs: the registry's CUDA graph
// plans, read here and nowhere else, run by the driver (driver.hpp).
#include <memory>

#include "algorithms/registry.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {
namespace {

// The entry of an algorithm that runs on a copy of the graph on the device.
const algorithms::Algorithm& entry(const LabelOptions& options) {
    return algorithms::cuda_graph_algorithm(options.algorithm, true);
}

// The registry's CUDA plan of options.algorithm as the driver builds it.
GraphPlanBuilder builder(const LabelOptions& options) {
    const algorithms::GraphCudaPlan plan = entry(options).graph_cuda;
    return [plan, &options](DeviceState& state, const detail::DeviceCsr& graph, int32_t* labels) {
        return plan(state, graph, labels, options);
    };
}

// A graph plan's per-phase runs on a state of its own, over a resident graph.
class GraphPhaseProgram final : public DevicePhaseProgram {
public:
    GraphPhaseProgram(const DeviceGraph& graph, const LabelOptions& options)
        : DevicePhaseProgram(graph.device, graph.vertex_count) {
        DeviceBuffer& labels = device_labels(*state_);
        labels.reserve(static_cast<size_t>(graph.vertex_count) * sizeof(int32_t), "labels");
        labels_ = labels.as<int32_t>();
        plan_ = builder(options)(*state_, csr_of(graph), labels.as<int32_t>());
    }
};

}  // namespace

void label(DeviceState& state, const Graph& graph, const LabelOptions& options, int32_t* labels, PhaseLog& log) {
    const algorithms::Algorithm& algorithm = algorithms::cuda_graph_algorithm(options.algorithm);
    if (algorithm.graph_streamed) return algorithm.graph_streamed(state, graph, options, labels, log);
    run_graph(state, graph, options.check_input, entry(options).cuda_phases, builder(options), labels, log);
}

void label(DeviceState& state, const DeviceGraph& graph, const LabelOptions& options, int32_t* labels,
           PhaseLog& log) {
    run_graph(state, graph, entry(options).cuda_phases, builder(options), labels, log);
}

PhaseProgramPtr phase_program(const DeviceState& state, const DeviceGraph& graph, const LabelOptions& options) {
    check_same_device(state, graph);
    return std::make_unique<GraphPhaseProgram>(graph, options);
}

}  // namespace ccl4j::cuda
