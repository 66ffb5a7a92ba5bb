// Labelling an edge list on the GPU without a CSR: the edges are copied as they are, every
// vertex starts as its own tree, one thread links each edge (ECL-CC's find with intermediate
// pointer jumping and its CAS hooking, cuda/ecl_cc_kernels.cuh, whose invariant makes the roots
// the canonical labels), and every vertex is then pointed at its root. Each id is read once and
// checked before it is used; the first edge with one out of range is kept by atomicMin and
// reported after the call.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "common/edges.hpp"
#include "common/memory.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/ecl_cc_kernels.cuh"

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

__global__ void link(const int32_t* __restrict__ sources, const int32_t* __restrict__ targets, int64_t edge_count,
                     int32_t stride, int32_t n, Parents parents, unsigned long long* bad) {
    int32_t known_root = -1;
    const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < edge_count; e += step) {
        const int32_t u = ecl::read_only(sources + e * stride);
        const int32_t v = ecl::read_only(targets + e * stride);
        if (static_cast<uint32_t>(u) >= static_cast<uint32_t>(n) || static_cast<uint32_t>(v) >= static_cast<uint32_t>(n)) {
            atomicMin(bad, static_cast<unsigned long long>(e));
            continue;
        }
        if (u == v) continue;
        const int32_t u_root = ecl::find_representative(parents, u, known_root);
        const int32_t v_root = ecl::find_representative(parents, v, known_root);
        if (u_root != v_root) ecl::unite(parents, v_root, u_root);
    }
}

int64_t device_available(DeviceState& state, const EdgeWorkspace& work) {
    size_t free = 0, total = 0;
    CCL4J_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return static_cast<int64_t>(free + work.edges.capacity() + work.labels.capacity());
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
    check_memory(static_cast<int64_t>(edge_bytes + label_bytes), device_available(state, work),
                 "labelling " + std::to_string(edges.edge_count) + " edges on the GPU", "device");
    work.edges.reserve(edge_bytes > 0 ? edge_bytes : 1, "edge arrays");
    work.labels.reserve(label_bytes, "labels");
    work.bad.reserve(sizeof(unsigned long long), "edge check");
    int32_t* device_sources = work.edges.as<int32_t>();
    int32_t* device_targets = interleaved ? device_sources + 1 : device_sources + span / sizeof(int32_t);
    int32_t* parent = work.labels.as<int32_t>();
    auto* bad = work.bad.as<unsigned long long>();

    const int block = block_or_default(options.block_size);
    const int vertex_grid = grid_size(state, block, n);
    const int edge_grid = resident_grid(state, link, block);
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
                                  link<<<edge_grid, block, 0, state.stream>>>(device_sources, device_targets,
                                                                              edges.edge_count, edges.stride, n,
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
