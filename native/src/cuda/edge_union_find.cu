// Labelling an edge list on the GPU without a CSR: the edges are copied as they are, every
// vertex starts as its own tree, one thread links each edge (ECL-CC's find with intermediate
// pointer jumping and its CAS hooking, cuda/ecl_cc_kernels.cuh, whose invariant makes the roots
// the canonical labels), and every vertex is then pointed at its root. Each id is read once and
// checked before it is used; the first edge with one out of range is kept by atomicMin and
// reported after the call.
//
// An edge list that does not fit the device with its labels (or options.device_memory) is streamed
// instead: only the parent array stays on the device. From page-locked memory the link kernel reads
// the edges where they lie (zero copy: each once, in order, so the reads coalesce); from any other
// memory host threads copy blocks of them into one of two page-locked staging buffers while the
// other is uploaded and linked (the ring of graph_stream.cuh). Blocks are linked with STREAMED's
// hook, which finds the representative again after a failed swap: nothing flattens the trees
// between blocks.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "common/edges.hpp"
#include "common/memory.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/ecl_cc_kernels.cuh"
#include "cuda/graph_stream.cuh"

namespace ccl4j::cuda {
namespace {

using ecl::Parents;

// The buffers of the edge-list union-find on a state, kept between calls.
struct EdgeWorkspace final : Workspace {
    DeviceBuffer edges;   // the copied spans of the two arrays (one span when interleaved)
    DeviceBuffer labels;
    DeviceBuffer bad;     // the smallest index of an edge with an id out of range, or ~0
};

__global__ void init(int32_t n, int32_t* parent) {
    for (uint32_t v = ecl::thread_index(); v < static_cast<uint32_t>(n); v += ecl::thread_count()) {
        parent[v] = static_cast<int32_t>(v);
    }
}

// Edges [0, edge_count) of a list or of a block of one, whose first is edge first_edge of the
// list. A list linked in one launch joins with ECL-CC's unite; one linked in blocks with STREAMED's
// hook, which finds the representative again after a failed swap: nothing flattens the trees
// between blocks.
template <bool kInBlocks>
__global__ void link(const int32_t* __restrict__ sources, const int32_t* __restrict__ targets, int64_t edge_count,
                     int32_t stride, int64_t first_edge, int32_t n, Parents parents, unsigned long long* bad) {
    int32_t known_root = -1;
    const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < edge_count; e += step) {
        const int32_t u = ecl::read_only(sources + e * stride);
        const int32_t v = ecl::read_only(targets + e * stride);
        if (static_cast<uint32_t>(u) >= static_cast<uint32_t>(n) || static_cast<uint32_t>(v) >= static_cast<uint32_t>(n)) {
            atomicMin(bad, static_cast<unsigned long long>(first_edge + e));
            continue;
        }
        if (u == v) continue;
        if constexpr (kInBlocks) {
            stream::hook(parents, u, v);
        } else {
            const int32_t u_root = ecl::find_representative(parents, u, known_root);
            const int32_t v_root = ecl::find_representative(parents, v, known_root);
            if (u_root != v_root) ecl::unite(parents, v_root, u_root);
        }
    }
}

// What the call may use: the budget, or the free memory with what the workspaces hold.
int64_t device_available(const EdgeWorkspace& work, const LabelOptions& options) {
    if (options.device_memory > 0) return options.device_memory;
    return stream::device_free() + static_cast<int64_t>(work.edges.capacity() + work.labels.capacity());
}

// Links the edges: in place from page-locked memory, else through a ring of two staging buffers
// within `spare` bytes of device memory.
void link_streamed(DeviceState& state, const EdgeList& edges, int64_t spare, int threads, Parents parents,
                   unsigned long long* bad) {
    const int32_t n = edges.vertex_count;
    const int block = 256;
    const int grid = resident_grid(state, link<true>, block);
    const int32_t* sources = stream::device_view(edges.sources);
    const int32_t* targets = stream::device_view(edges.targets);
    if (sources && targets) {
        link<true><<<grid, block, 0, state.stream>>>(sources, targets, edges.edge_count, edges.stride, 0, n, parents, bad);
        check_launch("edge union-find, linking in place");
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
        return;
    }
    stream::StreamWorkspace& ring = state.workspace<stream::StreamWorkspace>();
    const size_t slot_bytes = std::min<size_t>(stream::kMaxSlotBytes * 4, static_cast<size_t>(spare / 2)) / 16 * 16;
    ring.ring(2, slot_bytes);
    const int64_t per_block = static_cast<int64_t>(slot_bytes / (2 * sizeof(int32_t)));
    for (int64_t first = 0, b = 0; first < edges.edge_count; first += per_block, ++b) {
        stream::Slot& slot = ring.slots[static_cast<size_t>(b % 2)];
        CCL4J_CUDA_CHECK(cudaEventSynchronize(slot.done));
        const int64_t count = std::min(per_block, edges.edge_count - first);
        auto* pairs = reinterpret_cast<int32_t*>(slot.host);
        // Host threads copy the block as pairs while the device uploads and links the other one.
        parallel::for_blocks(int64_t{0}, count, threads, [&](int, int64_t from, int64_t to) {
            for (int64_t e = from; e < to; ++e) {
                pairs[2 * e] = edges.sources[(first + e) * edges.stride];
                pairs[2 * e + 1] = edges.targets[(first + e) * edges.stride];
            }
        });
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(slot.device.as<char>(), slot.host, static_cast<size_t>(count) * 8,
                                         cudaMemcpyHostToDevice, ring.copy));
        CCL4J_CUDA_CHECK(cudaEventRecord(slot.uploaded, ring.copy));
        CCL4J_CUDA_CHECK(cudaStreamWaitEvent(state.stream, slot.uploaded, 0));
        const auto* device = slot.device.as<int32_t>();
        link<true><<<grid, block, 0, state.stream>>>(device, device + 1, count, 2, first, n, parents, bad);
        check_launch("edge union-find, linking a block");
        CCL4J_CUDA_CHECK(cudaEventRecord(slot.done, state.stream));
    }
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
}

// The edge list streamed (see the top of the file). Phases: init, link, finalize, d2h.
void label_streamed(DeviceState& state, EdgeWorkspace& work, const EdgeList& edges, const LabelOptions& options,
                    int64_t available, int32_t* labels, PhaseLog& log) {
    const int32_t n = edges.vertex_count;
    const size_t label_bytes = static_cast<size_t>(n) * sizeof(int32_t);
    // Without a budget, a staging ring held from an earlier call is room too (it is reused or freed).
    const stream::StreamWorkspace& ring = state.workspace<stream::StreamWorkspace>();
    const int64_t fixed = static_cast<int64_t>(label_bytes + sizeof(unsigned long long));
    const int64_t need = fixed + 2 * static_cast<int64_t>(stream::kMinSlotBytes);
    const int64_t room =
        available + (options.device_memory > 0 ? 0 : static_cast<int64_t>(ring.slots.size() * ring.slot_bytes));
    if (need > room) {
        fail(CCL4J_OUT_OF_MEMORY, "streaming " + std::to_string(edges.edge_count) + " edges over " + std::to_string(n) +
                                      " vertices needs at least " + byte_size(need) + " of device memory (" +
                                      byte_size(static_cast<int64_t>(label_bytes)) + " for its parent array); " +
                                      (options.device_memory > 0 ? "the budget (device_memory) allows " : "the device has ") +
                                      byte_size(room));
    }
    work.edges.release();  // room for the ring
    work.labels.reserve(label_bytes, "labels");
    work.bad.reserve(sizeof(unsigned long long), "edge check");
    int32_t* parent = work.labels.as<int32_t>();
    auto* bad = work.bad.as<unsigned long long>();
    const int block = block_or_default(options.block_size);

    Stopwatch clock;
    CCL4J_CUDA_CHECK(cudaMemsetAsync(bad, 0xff, sizeof(*bad), state.stream));
    init<<<grid_size(state, block, n), block, 0, state.stream>>>(n, parent);
    check_launch("edge union-find init");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("init", clock.lap());
    link_streamed(state, edges, room - fixed, parallel::team_size(options.cpu_threads), Parents(parent), bad);
    unsigned long long first_bad = 0;
    CCL4J_CUDA_CHECK(cudaMemcpy(&first_bad, bad, sizeof(first_bad), cudaMemcpyDeviceToHost));
    if (first_bad != ~0ull) fail_on_bad_edge(edges, static_cast<int64_t>(first_bad));
    log.add("link", clock.lap());
    ecl::point_to_roots<<<resident_grid(state, ecl::point_to_roots, block), block, 0, state.stream>>>(n, Parents(parent));
    check_launch("edge union-find finalize");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("finalize", clock.lap());
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, parent, label_bytes, cudaMemcpyDeviceToHost, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("d2h", clock.lap());
}

}  // namespace

void label_edges(DeviceState& state, const EdgeList& edges, const LabelOptions& options, int32_t* labels,
                 PhaseLog& log) {
    const int32_t n = edges.vertex_count;
    if (n == 0) {
        for (const char* phase : {"h2d", "init", "link", "finalize", "d2h"}) log.add(phase, 0);
        return;
    }
    state.activate();
    EdgeWorkspace& work = state.workspace<EdgeWorkspace>();
    // Interleaved pairs go over as one span; other arrays each as its own span.
    const bool interleaved = edges.targets == edges.sources + 1;
    const size_t span = edges.span_bytes();
    const size_t edge_bytes = edges.edge_count == 0 ? 0 : interleaved ? span + sizeof(int32_t) : 2 * span;
    const size_t label_bytes = static_cast<size_t>(n) * sizeof(int32_t);
    const int64_t available = device_available(work, options);
    if (static_cast<int64_t>(edge_bytes + label_bytes) > available) {
        return label_streamed(state, work, edges, options, available, labels, log);
    }
    work.edges.reserve(edge_bytes > 0 ? edge_bytes : 1, "edge arrays");
    work.labels.reserve(label_bytes, "labels");
    work.bad.reserve(sizeof(unsigned long long), "edge check");
    int32_t* device_sources = work.edges.as<int32_t>();
    int32_t* device_targets = interleaved ? device_sources + 1 : device_sources + span / sizeof(int32_t);
    int32_t* parent = work.labels.as<int32_t>();
    auto* bad = work.bad.as<unsigned long long>();

    const int block = block_or_default(options.block_size);
    const int vertex_grid = grid_size(state, block, n);
    const int edge_grid = resident_grid(state, link<false>, block);
    const PhasePlan plan{{"init",
                          [&] {
                              CCL4J_CUDA_CHECK(cudaMemsetAsync(bad, 0xff, sizeof(*bad), state.stream));
                              init<<<vertex_grid, block, 0, state.stream>>>(n, parent);
                              CCL4J_CUDA_CHECK(cudaGetLastError());
                              return 0;
                          }},
                         {"link",
                          [&] {
                              if (edges.edge_count > 0) {
                                  link<false><<<edge_grid, block, 0, state.stream>>>(
                                      device_sources, device_targets, edges.edge_count, edges.stride, 0, n,
                                      Parents(parent), bad);
                                  CCL4J_CUDA_CHECK(cudaGetLastError());
                              }
                              return 0;
                          }},
                         {"finalize", [&] {
                              ecl::point_to_roots<<<resident_grid(state, ecl::point_to_roots, block), block, 0,
                                                    state.stream>>>(n, Parents(parent));
                              CCL4J_CUDA_CHECK(cudaGetLastError());
                              return 0;
                          }}};
    const auto upload = [&] {
        if (edges.edge_count == 0) return;
        if (interleaved) {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(device_sources, edges.sources, edge_bytes, cudaMemcpyHostToDevice,
                                             state.stream));
        } else {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(device_sources, edges.sources, span, cudaMemcpyHostToDevice, state.stream));
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(device_targets, edges.targets, span, cudaMemcpyHostToDevice, state.stream));
        }
    };
    const auto download = [&] {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, parent, label_bytes, cudaMemcpyDeviceToHost, state.stream));
    };
    drive(state, plan, upload, download, log);
    unsigned long long first_bad = 0;
    CCL4J_CUDA_CHECK(cudaMemcpy(&first_bad, bad, sizeof(first_bad), cudaMemcpyDeviceToHost));
    if (first_bad != ~0ull) fail_on_bad_edge(edges, static_cast<int64_t>(first_bad));
}

}  // namespace ccl4j::cuda
