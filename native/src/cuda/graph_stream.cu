// STREAMED: a host graph labelled on the GPU without ever being on it whole. The parent array
// (4 bytes a vertex) and a bitmap (1 bit a vertex) stay on the device; the arcs cross the bus in
// blocks, each arc at most once, through a ring of page-locked staging buffers: host threads
// gather a block while the block before it is uploaded (one copy stream) and linked (the state's
// stream). ECL-CC's union-find (ecl_cc_kernels.cuh) links them, so the roots are the canonical
// labels whatever order the blocks arrive in.
//
// Afforest's sampling (Sutton, Ben-Nun & Barak 2018) decides what need not cross at all:
//   init     parent[v] = v;
//   sample   the first kSampleSlots arcs of every row, linked from both ends;
//   compress the giant component's root (the most frequent root among afforest::kSamples
//            vertices, if at least 1 / kGiantShare of them have it), every vertex pointed at its
//            root and the bitmap of the giant component's vertices, which comes back to the host;
//   link     the rest of the rows outside the giant component: arc {v, u} hooked when u < v or u
//            is inside (whose row is not sent);
//   finalize every vertex pointed at its root; d2h the labels.
// Every edge {u, v} is hooked: in sample when it is among the first arcs of a row; else from the
// row of the larger end when both are outside; from the outside end when one is inside; not at all
// when both are inside (joined already). The rows of the giant component's vertices past their
// sampled arcs never leave the host.
#include "cuda/graph_stream.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/afforest_sampling.hpp"
#include "common/validate.hpp"
#include "cuda/giant_component.cuh"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {
namespace stream {

__global__ void init_parents(int32_t n, int32_t* parent) {
    for (uint32_t v = ecl::thread_index(); v < static_cast<uint32_t>(n); v += ecl::thread_count()) {
        parent[v] = static_cast<int32_t>(v);
    }
}

__global__ void link_sampled(const int32_t* __restrict__ slots, int32_t first_row, int64_t slot_count,
                             ecl::Parents parents) {
    const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < slot_count; i += step) {
        const int32_t u = ecl::read_only(slots + i);
        const int32_t v = first_row + static_cast<int32_t>(i / kSampleSlots);
        if (u != kEmptySlot && u != v) hook(parents, v, u);
    }
}

__global__ void link_rows(const int32_t* __restrict__ arcs, int32_t arc_count, const int32_t* __restrict__ segments,
                          int32_t segment_count, int32_t n, ecl::Parents parents, const uint32_t* __restrict__ bitmap,
                          const int32_t* __restrict__ giant_root, unsigned long long* bad) {
    const bool giant = *giant_root >= 0;
    for (int32_t i = static_cast<int32_t>(ecl::thread_index()); i < arc_count; i += static_cast<int32_t>(ecl::thread_count())) {
        int32_t low = 0, high = segment_count - 1;  // the last segment starting at or before i
        while (low < high) {
            const int32_t middle = (low + high + 1) / 2;
            if (ecl::read_only(segments + 2 * middle + 1) <= i) low = middle; else high = middle - 1;
        }
        const int32_t v = ecl::read_only(segments + 2 * low);
        const int32_t u = ecl::read_only(arcs + i);
        if (static_cast<uint32_t>(u) >= static_cast<uint32_t>(n)) {
            atomicMin(bad, static_cast<unsigned long long>(v));
            continue;
        }
        const bool inside = giant && ((ecl::read_only(reinterpret_cast<const int32_t*>(bitmap) + (u >> 5)) >> (u & 31)) & 1);
        if (u != v && (u < v || inside)) hook(parents, v, u);
    }
}

__global__ void find_giant(int32_t n, ecl::Parents parents, int32_t* giant_root) {
    int32_t root;
    uint32_t count;
    afforest_device::most_frequent_root(n, parents, root, count);
    if (threadIdx.x == 0) *giant_root = count * kGiantShare >= afforest::kSamples ? root : -1;
}

__global__ void merge_forest(int32_t n, ecl::Parents parents, const int32_t* __restrict__ other) {
    for (uint32_t v = ecl::thread_index(); v < static_cast<uint32_t>(n); v += ecl::thread_count()) {
        const int32_t u = ecl::read_only(other + v);
        if (u != static_cast<int32_t>(v)) hook(parents, static_cast<int32_t>(v), u);
    }
}

Room make_room(DeviceState& state, int32_t n, int64_t budget, int threads, bool merging) {
    state.activate();
    StreamWorkspace& work = state.workspace<StreamWorkspace>();
    DeviceBuffer& parent = device_labels(state);
    // What this call may use: the budget, or what is free once the copies of in-memory calls and an
    // earlier ring are let go.
    release_graph_copy(state);
    const int64_t held = static_cast<int64_t>(parent.capacity() + work.bitmap.capacity() + work.scalars.capacity() +
                                              work.merge.capacity() + work.slots.size() * work.slot_bytes);
    const int64_t available = budget > 0 ? budget : device_free() + held;
    const size_t forest = merging ? static_cast<size_t>(n) * sizeof(int32_t) : 0;
    const RingShape shape = ring_shape(n, available - static_cast<int64_t>(forest), threads, budget);
    // The team a call may use follows the host's load from call to call: a ring with room for as
    // many threads is kept (page-locking a new one costs far more than labelling a small graph),
    // so long as it fits where the shape's would.
    const size_t slots = 2 * static_cast<size_t>(shape.threads);
    const bool keep = work.slot_bytes == shape.slot_bytes && work.slots.size() >= slots &&
                      static_cast<int64_t>(work.slots.size() * work.slot_bytes) <=
                          available - static_cast<int64_t>(forest + fixed_bytes(n));
    if (!keep) work.release_slots();  // before the parent array grows into its room
    if (!merging) work.merge.release();
    parent.reserve(static_cast<size_t>(n) * sizeof(int32_t), "parent array");
    work.bitmap.reserve((static_cast<size_t>(n) / 32 + 1) * sizeof(uint32_t), "giant-component bitmap");
    work.scalars.reserve(16, "giant root and input check");
    if (merging) work.merge.reserve(forest, "another device's forest");
    if (!keep) work.ring(slots, shape.slot_bytes);
    return {&work, parent.as<int32_t>(), shape.threads};
}

}  // namespace stream

namespace {

using namespace stream;

template <class Offset>
void stream_graph(DeviceState& state, const CsrView<Offset>& graph, const LabelOptions& options, int32_t* labels,
                  PhaseLog& log) {
    const int32_t n = graph.vertex_count;
    const Room room = make_room(state, n, options.device_memory, parallel::team_size(options.cpu_threads), false);
    StreamWorkspace& work = *room.work;
    int32_t* parent = room.parent;
    Streamer<Offset> streamer(state, work, graph, Share{0, n, 0, graph.arc_count}, room.threads, parent,
                              log.progress());
    const int block = block_or_default(options.block_size);

    Stopwatch clock;
    if (options.check_input) {
        check_input(Graph{n, graph.arc_count, sizeof(Offset), graph.offsets, graph.neighbors}, options.cpu_threads);
        log.add("check", clock.lap());
    }
    init_parents<<<grid_size(state, block, n), block, 0, state.stream>>>(n, parent);
    check_launch("STREAMED init");
    CCL4J_CUDA_CHECK(cudaMemsetAsync(work.scalars.as<char>() + 8, 0xff, 8, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("init", clock.lap());

    int64_t blocks = streamer.sample();
    log.add("sample", clock.lap());

    const ecl::Parents parents(parent);
    find_giant<<<1, afforest::kSamples, 0, state.stream>>>(n, parents, work.scalars.as<int32_t>());
    check_launch("STREAMED compress (giant component)");
    afforest_device::point_to_roots_and_mark<<<grid_size(state, block, n), block, 0, state.stream>>>(
        n, parents, work.scalars.as<int32_t>(), work.bitmap.as<uint32_t>());
    check_launch("STREAMED compress");
    int32_t giant_root = -1;
    std::vector<uint32_t> bitmap(static_cast<size_t>(n) / 32 + 1);
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&giant_root, work.scalars.as<int32_t>(), sizeof(giant_root), cudaMemcpyDeviceToHost,
                                     state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    if (giant_root >= 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(bitmap.data(), work.bitmap.as<uint32_t>(), bitmap.size() * sizeof(uint32_t),
                                         cudaMemcpyDeviceToHost, state.stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    }
    log.add("compress", clock.lap());

    blocks += streamer.link(bitmap, giant_root >= 0);
    unsigned long long bad = 0;
    CCL4J_CUDA_CHECK(cudaMemcpy(&bad, work.scalars.as<char>() + 8, sizeof(bad), cudaMemcpyDeviceToHost));
    if (bad != ~0ull) streamer.report_bad_row(bad);
    log.add("link", clock.lap());

    ecl::point_to_roots<<<grid_size(state, block, n), block, 0, state.stream>>>(n, parents);
    check_launch("STREAMED finalize");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("finalize", clock.lap());
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, parent, static_cast<size_t>(n) * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                     state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("d2h", clock.lap());
    log.set_iterations(static_cast<int32_t>(std::min<int64_t>(blocks, INT32_MAX)));
}

// The device memory of reading in place: parent array, offsets, Afforest's worklist and bitmap.
int64_t in_place_bytes(const Graph& graph) {
    const int64_t n = graph.vertex_count;
    return n * 4 + (n + 1) * graph.offset_width + (n + graph.arc_count / ecl::kHighChunk + 1) * 4 + n / 8 + 4096;
}

// Neighbours in page-locked memory are not copied at all: Afforest's kernels read them across the
// bus where they lie (zero-copy), the offsets copied first. Sampling reads the first arcs of
// every row, and link only the rows outside the giant component, so most of a graph with a giant
// component never crosses. Phases: h2d (the offsets), Afforest's, d2h.
void read_in_place(DeviceState& state, const Graph& graph, const int32_t* neighbors, const LabelOptions& options,
                   int32_t* labels, PhaseLog& log) {
    const int32_t n = graph.vertex_count;
    release_graph_copy(state);
    StreamWorkspace& work = state.workspace<StreamWorkspace>();
    const size_t offset_bytes = (static_cast<size_t>(n) + 1) * graph.offset_width;
    work.offsets.reserve(offset_bytes, "graph offsets");
    DeviceBuffer& parent = device_labels(state);
    parent.reserve(static_cast<size_t>(n) * sizeof(int32_t), "labels");
    const detail::DeviceCsr csr{n, graph.arc_count, graph.offset_width, work.offsets.as<void>(), neighbors};
    const PhasePlan plan = detail::afforest_plan(state, csr, parent.as<int32_t>(), options);
    drive(
        state, plan,
        [&] {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(work.offsets.as<void>(), graph.offsets, offset_bytes, cudaMemcpyHostToDevice,
                                             state.stream));
        },
        [&] {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, parent.as<int32_t>(), static_cast<size_t>(n) * sizeof(int32_t),
                                             cudaMemcpyDeviceToHost, state.stream));
        },
        log);
}

}  // namespace

int64_t in_memory_device_bytes(int64_t vertex_count, int64_t arc_count, int32_t offset_width) {
    // The copy of the CSR, the labels, and the worklist and bitmap of ECL-CC and Afforest.
    const int64_t n = vertex_count;
    if (n == 0) return 0;
    return (n + 1) * offset_width + arc_count * 4 + n * 4 + (n + arc_count / ecl::kHighChunk + 1) * 4 + n / 8 + 4096;
}

int64_t device_memory_available(DeviceState& state, int64_t budget) {
    if (budget > 0) return budget;
    state.activate();
    return device_free();
}

bool readable_in_place(const Graph& graph, int64_t budget) {
    if (graph.vertex_count == 0 || !device_view(graph.neighbors)) return false;
    return in_place_bytes(graph) <= (budget > 0 ? budget : device_free());
}

void label_streamed(DeviceState& state, const Graph& graph, const LabelOptions& options, int32_t* labels,
                    PhaseLog& log) {
    if (graph.vertex_count == 0) {
        for (const char* phase : {"init", "sample", "compress", "link", "finalize", "d2h"}) log.add(phase, 0);
        return;
    }
    state.activate();
    if (readable_in_place(graph, options.device_memory)) {
        if (options.check_input) {
            Stopwatch check;
            check_input(graph, options.cpu_threads);
            log.add("check", check.lap());
        }
        return read_in_place(state, graph, device_view(graph.neighbors), options, labels, log);
    }
    graph.visit([&](const auto& csr) { stream_graph(state, csr, options, labels, log); });
}

}  // namespace ccl4j::cuda
