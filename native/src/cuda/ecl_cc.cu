// ECL-CC on the GPU: buffers, transfers, launches and phase timing (kernels: ecl_cc_kernels.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "cuda/cuda_check.hpp"
#include "cuda/device_state.hpp"
#include "cuda/ecl_cc_kernels.cuh"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {

namespace {

// The paper's settings: 256 threads per block (its degree tiers are LabelOptions' defaults).
constexpr int kDefaultBlockSize = 256;

struct Tuning {
    int block_size;
    int warp_threshold;
    int block_threshold;
};

// The options are validated by the ABI layer (api/options.hpp): block_size is 0 or a multiple of
// 32 up to 1024 (the warp tier needs whole warps), 0 <= warp_threshold <= block_threshold.
Tuning resolve(const LabelOptions& options) {
    return Tuning{options.block_size ? options.block_size : kDefaultBlockSize, options.warp_threshold,
                  options.block_threshold};
}

enum Kernel { kInit, kThreadTier, kWarpTier, kBlockTier, kPointToRoots };

template <class KernelFunction>
int resident_blocks(const DeviceState& state, KernelFunction kernel, int block_size) {
    int per_multiprocessor = 0;
    CCL4J_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block_size, 0));
    return std::max(per_multiprocessor, 1) * state.multiprocessors;
}

// The kernels loop over their work with a grid stride and run as many blocks as are resident on
// the device at once, so that no blocks are launched in waves. Looked up once per state, block
// size and offset width.
template <class Offset>
const std::array<int, 5>& resident_grids(DeviceState& state, int block_size) {
    auto [entry, added] = state.resident_blocks.try_emplace({block_size, static_cast<int>(sizeof(Offset))});
    if (added) {
        entry->second = {resident_blocks(state, ecl::init<Offset>, block_size),
                         resident_blocks(state, ecl::compute_thread_tier<Offset>, block_size),
                         resident_blocks(state, ecl::compute_warp_tier<Offset>, block_size),
                         resident_blocks(state, ecl::compute_block_tier<Offset>, block_size),
                         resident_blocks(state, ecl::point_to_roots, block_size)};
    }
    return entry->second;
}

// Everything a labelling needs before its first timing mark: work buffers and grid sizes, so that
// no allocation or occupancy query falls between the timed launches.
struct Launch {
    int32_t n;
    int32_t offset_width;
    int32_t worklist_entries;
    Tuning tuning;
    std::array<int, 5> grids;
};

// Every vertex takes at most one worklist entry, except the high-degree ones, which take one per
// chunk of arcs: n + ceil(arcs / chunk) entries always suffice.
int32_t worklist_capacity(int32_t n, int64_t arcs) {
    const int64_t capacity = static_cast<int64_t>(n) + (arcs + ecl::kHighChunk - 1) / ecl::kHighChunk;
    if (capacity > INT32_MAX) {
        fail(CCL4J_UNSUPPORTED, "graph too large for the ECL-CC worklist: " + std::to_string(n) + " vertices, " +
                                    std::to_string(arcs) + " arcs");
    }
    return static_cast<int32_t>(capacity);
}

Launch prepare(DeviceState& state, int32_t n, int64_t arcs, int32_t offset_width, const Tuning& tuning) {
    Launch launch{n, offset_width, worklist_capacity(n, arcs), tuning, {}};
    state.parent.reserve(static_cast<size_t>(n) * sizeof(int32_t), "parent array");
    state.worklist.reserve(static_cast<size_t>(launch.worklist_entries) * sizeof(int32_t), "worklist");
    launch.grids = offset_width == 4 ? resident_grids<int32_t>(state, tuning.block_size)
                                     : resident_grids<int64_t>(state, tuning.block_size);
    // A per-vertex kernel needs no more blocks than there are vertices to give them; the worklist
    // kernels get a full resident grid, since the worklist sizes are only known on the device.
    const int64_t vertex_blocks = (static_cast<int64_t>(n) + tuning.block_size - 1) / tuning.block_size;
    for (Kernel kernel : {kInit, kThreadTier, kPointToRoots}) {
        launch.grids[kernel] = static_cast<int>(std::min<int64_t>(launch.grids[kernel], vertex_blocks));
    }
    return launch;
}

// The five phases, each enqueueing its kernels on the state's stream. The labels are left in
// state.parent.
template <class Offset>
PhasePlan kernel_plan(DeviceState& state, const Launch& launch, const Offset* offsets, const int32_t* neighbors) {
    const int block = launch.tuning.block_size;
    const int32_t n = launch.n;
    int32_t* parent = state.parent.as<int32_t>();
    int32_t* counters = state.counters.as<int32_t>();
    const ecl::Parents parents(parent);
    const ecl::Worklist worklist{state.worklist.as<int32_t>(), launch.worklist_entries};
    const cudaStream_t stream = state.stream;
    const auto& grids = launch.grids;
    const Tuning tuning = launch.tuning;

    return {{"init",
             [=] {
                 ecl::init<Offset><<<grids[kInit], block, 0, stream>>>(offsets, neighbors, n, parent, counters);
                 check_launch("ECL-CC init");
                 ecl::point_to_roots<<<grids[kPointToRoots], block, 0, stream>>>(n, parents);
                 check_launch("ECL-CC init (pointing at roots)");
                 return 0;
             }},
            {"compute1",
             [=] {
                 ecl::compute_thread_tier<Offset><<<grids[kThreadTier], block, 0, stream>>>(
                     offsets, neighbors, n, parents, worklist, counters, tuning.warp_threshold,
                     tuning.block_threshold);
                 check_launch("ECL-CC compute1");
                 return 0;
             }},
            {"compute2",
             [=] {
                 ecl::compute_warp_tier<Offset><<<grids[kWarpTier], block, 0, stream>>>(offsets, neighbors, parents,
                                                                                         worklist.entries, counters);
                 check_launch("ECL-CC compute2");
                 return 0;
             }},
            {"compute3",
             [=] {
                 ecl::compute_block_tier<Offset><<<grids[kBlockTier], block, 0, stream>>>(offsets, neighbors, parents,
                                                                                           worklist, counters);
                 check_launch("ECL-CC compute3");
                 return 0;
             }},
            {"finalize", [=] {
                 ecl::point_to_roots<<<grids[kPointToRoots], block, 0, stream>>>(n, parents);
                 check_launch("ECL-CC finalize");
                 return 0;
             }}};
}

PhasePlan kernel_plan(DeviceState& state, const Launch& launch, const void* offsets, const int32_t* neighbors) {
    return launch.offset_width == 4 ? kernel_plan(state, launch, static_cast<const int32_t*>(offsets), neighbors)
                                    : kernel_plan(state, launch, static_cast<const int64_t*>(offsets), neighbors);
}

// Enqueues the phases, marking the end of each (kInitialised .. kFinalised, in order).
void enqueue_kernels(DeviceState& state, const Launch& launch, const void* offsets, const int32_t* neighbors) {
    const PhasePlan plan = kernel_plan(state, launch, offsets, neighbors);
    for (size_t i = 0; i < plan.size(); ++i) {
        plan[i].run();
        state.record(static_cast<Mark>(kInitialised + i));
    }
}

void download_labels(DeviceState& state, int32_t* labels, int32_t n) {
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, state.parent.as<int32_t>(), static_cast<size_t>(n) * sizeof(int32_t),
                                     cudaMemcpyDeviceToHost, state.stream));
    state.record(kDownloaded);
}

// Waits for the call's work (surfacing any fault of the kernels) and logs its phases.
void finish(DeviceState& state, PhaseLog& log, bool uploaded, bool downloaded) {
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    if (uploaded) log.add("h2d", state.elapsed_ms(kStart, kUploaded));
    log.add("init", state.elapsed_ms(kUploaded, kInitialised));
    log.add("compute1", state.elapsed_ms(kInitialised, kComputed1));
    log.add("compute2", state.elapsed_ms(kComputed1, kComputed2));
    log.add("compute3", state.elapsed_ms(kComputed2, kComputed3));
    log.add("finalize", state.elapsed_ms(kComputed3, kFinalised));
    if (downloaded) log.add("d2h", state.elapsed_ms(kFinalised, kDownloaded));
}

// An empty graph launches nothing; its phases are logged as taking no time.
void log_empty(PhaseLog& log, bool uploaded, bool downloaded) {
    if (uploaded) log.add("h2d", 0);
    for (const char* phase : {"init", "compute1", "compute2", "compute3", "finalize"}) log.add(phase, 0);
    if (downloaded) log.add("d2h", 0);
}

size_t offset_bytes(int32_t n, int32_t offset_width) { return (static_cast<size_t>(n) + 1) * offset_width; }
size_t neighbor_bytes(int64_t arcs) { return static_cast<size_t>(arcs) * sizeof(int32_t); }

// Enqueues the copy of a host graph's arrays into two device buffers (sized by the caller).
void enqueue_upload(DeviceState& state, const Graph& graph, DeviceBuffer& offsets, DeviceBuffer& neighbors) {
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(offsets.as<void>(), graph.offsets, offset_bytes(graph.vertex_count, graph.offset_width),
                                     cudaMemcpyHostToDevice, state.stream));
    if (graph.arc_count > 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(neighbors.as<void>(), graph.neighbors, neighbor_bytes(graph.arc_count),
                                         cudaMemcpyHostToDevice, state.stream));
    }
}

}  // namespace

void ecl_cc(DeviceState& state, const Graph& graph, const LabelOptions& options, int32_t* labels,
            PhaseLog& log) {
    const Tuning tuning = resolve(options);
    const int32_t n = graph.vertex_count;
    if (n == 0) {
        log_empty(log, true, true);
        return;
    }
    state.activate();
    state.offsets.reserve(offset_bytes(n, graph.offset_width), "graph offsets");
    state.neighbors.reserve(neighbor_bytes(graph.arc_count), "graph neighbours");
    const Launch launch = prepare(state, n, graph.arc_count, graph.offset_width, tuning);

    state.record(kStart);
    enqueue_upload(state, graph, state.offsets, state.neighbors);
    state.record(kUploaded);
    enqueue_kernels(state, launch, state.offsets.as<void>(), state.neighbors.as<int32_t>());
    download_labels(state, labels, n);
    finish(state, log, true, true);
}

DeviceGraphPtr upload(DeviceState& state, const Graph& graph, double* h2d_ms) {
    state.activate();
    DeviceGraphPtr resident(new DeviceGraph(state.device, graph));
    resident->offsets.reserve(offset_bytes(graph.vertex_count, graph.offset_width), "resident graph offsets");
    resident->neighbors.reserve(neighbor_bytes(graph.arc_count), "resident graph neighbours");
    state.record(kStart);
    enqueue_upload(state, graph, resident->offsets, resident->neighbors);
    state.record(kUploaded);
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    if (h2d_ms) *h2d_ms = state.elapsed_ms(kStart, kUploaded);
    return resident;
}

int32_t vertex_count(const DeviceGraph& graph) { return graph.vertex_count; }

PhasePlan detail::ecl_cc_plan(DeviceState& state, const DeviceCsr& graph, const LabelOptions& options) {
    const Launch launch = prepare(state, graph.vertex_count, graph.arc_count, graph.offset_width, resolve(options));
    return kernel_plan(state, launch, graph.offsets, graph.neighbors);
}

void ecl_cc(DeviceState& state, const DeviceGraph& graph, const LabelOptions& options, int32_t* labels,
            PhaseLog& log) {
    const Tuning tuning = resolve(options);
    if (graph.device != state.device) {
        fail(CCL4J_INVALID_ARGUMENT, "the graph lives on CUDA device " + std::to_string(graph.device) +
                                         ", this context uses device " + std::to_string(state.device));
    }
    const int32_t n = graph.vertex_count;
    const bool download = labels != nullptr;
    if (n == 0) {
        log_empty(log, false, download);
        return;
    }
    state.activate();
    const Launch launch = prepare(state, n, graph.arc_count, graph.offset_width, tuning);

    state.record(kUploaded);  // the graph is already there: the kernels start the timeline
    enqueue_kernels(state, launch, graph.offsets.as<void>(), graph.neighbors.as<int32_t>());
    if (download) download_labels(state, labels, n);
    finish(state, log, false, download);
}

}  // namespace ccl4j::cuda
