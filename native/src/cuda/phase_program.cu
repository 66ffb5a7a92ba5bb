// The per-phase runs of ccl4j.h on the GPU, and the timed host-to-device copy of the benchmarks.
#include <cuda_runtime.h>

#include <string>

#include "cuda/cuda_check.hpp"
#include "cuda/device_state.hpp"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {
namespace {

class DevicePhaseProgram final : public PhaseProgram {
public:
    DevicePhaseProgram(const DeviceGraph& graph, const LabelOptions& options)
        : state_(create_state(graph.device)), vertex_count_(graph.vertex_count) {
        const detail::DeviceCsr csr{graph.vertex_count, graph.arc_count, graph.offset_width, graph.offsets.as<void>(),
                                    graph.neighbors.as<int32_t>()};
        plan_ = detail::plan(*state_, csr, options);
    }

    // The phase's work between two events of its own stream; a fixpoint loop's waits for the
    // device between its batches of launches count, as they do in a labelling call.
    double run_timed(int i, int32_t& iterations) override {
        state_->activate();
        state_->record(kStart);
        iterations = plan_[i].run();
        state_->record(kFinalised);
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
        return state_->elapsed_ms(kStart, kFinalised);
    }

    void run_untimed(int end) override {
        state_->activate();
        for (int i = 0; i < end; ++i) plan_[i].run();
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
    }

    void read_labels(int32_t* labels) override {
        state_->activate();
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, state_->parent.as<int32_t>(),
                                         static_cast<size_t>(vertex_count_) * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                         state_->stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_->stream));
    }

private:
    DeviceStatePtr state_;
    int32_t vertex_count_;
};

}  // namespace

PhaseProgramPtr phase_program(const DeviceState& state, const DeviceGraph& graph, const LabelOptions& options) {
    if (graph.device != state.device) {
        fail(CCL4J_INVALID_ARGUMENT, "the graph lives on CUDA device " + std::to_string(graph.device) +
                                         ", this context uses device " + std::to_string(state.device));
    }
    return std::make_unique<DevicePhaseProgram>(graph, options);
}

double copy_to_device(DeviceState& state, const void* host, size_t bytes) {
    state.activate();
    state.neighbors.reserve(bytes, "transfer buffer");
    state.record(kStart);
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(state.neighbors.as<void>(), host, bytes, cudaMemcpyHostToDevice, state.stream));
    state.record(kUploaded);
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    return state.elapsed_ms(kStart, kUploaded);
}

}  // namespace ccl4j::cuda
