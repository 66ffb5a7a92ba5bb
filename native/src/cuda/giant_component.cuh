// Finding Afforest's giant component on the device, shared by the in-memory plan (afforest.cu)
// and the streamed one (graph_stream.cu): the most frequent root among the sampled vertices, and a
// bitmap of the vertices whose root is the giant one.
#pragma once

#include <cstdint>

#include "common/afforest_sampling.hpp"
#include "cuda/ecl_cc_kernels.cuh"

namespace ccl4j::cuda::afforest_device {

// Walks from v to its root without changing the tree.
__device__ __forceinline__ int32_t root_of(const ecl::Parents& parents, int32_t v) {
    for (int32_t parent = parents.load(v); parent != v; parent = parents.load(v)) v = parent;
    return v;
}

// Called by all afforest::kSamples threads of a one-block kernel: each walks from its sampled
// vertex (afforest::sampled_vertex, as on the CPU) to its root and counts how many of the block's
// roots equal its own; every thread gets the root counted most often (the smallest of those on a
// tie) and its count.
__device__ inline void most_frequent_root(int32_t n, const ecl::Parents& parents, int32_t& root, uint32_t& count) {
    __shared__ int32_t roots[afforest::kSamples];
    __shared__ unsigned long long best;  // count << 32 | (INT32_MAX - root): the largest wins
    const int32_t mine = root_of(parents, afforest::sampled_vertex(static_cast<int>(threadIdx.x), n));
    roots[threadIdx.x] = mine;
    if (threadIdx.x == 0) best = 0;
    __syncthreads();
    uint32_t mine_count = 0;
    for (int i = 0; i < afforest::kSamples; ++i) mine_count += roots[i] == mine;
    atomicMax(&best, static_cast<unsigned long long>(mine_count) << 32 | static_cast<uint32_t>(INT32_MAX - mine));
    __syncthreads();
    root = INT32_MAX - static_cast<int32_t>(static_cast<uint32_t>(best));
    count = static_cast<uint32_t>(best >> 32);
}

// Every vertex pointed at its root (as ecl::point_to_roots) and bit v of the bitmap set when that
// root is *giant; a warp writes the word of its 32 vertices. Without a giant component (*giant <
// 0), nothing: link's finds halve the paths they walk anyway, and a pass that only flattened the
// trees measured slower than leaving them to link (disjoint_5m and bond2d_4096_p05 on an H100).
static __global__ void point_to_roots_and_mark(int32_t n, ecl::Parents parents, const int32_t* __restrict__ giant_root,
                                               uint32_t* __restrict__ bitmap) {
    const int32_t giant = *giant_root;
    if (giant < 0) return;
    const uint32_t lane = threadIdx.x % 32;
    int32_t known_root = -1;
    for (uint32_t base = ecl::thread_index() - lane; base < static_cast<uint32_t>(n); base += ecl::thread_count()) {
        const int32_t v = static_cast<int32_t>(base + lane);
        int32_t root = -1;
        if (v < n) {
            root = parents.load(v);
            while (root != v && root != known_root) {
                const int32_t next = parents.load(root);
                if (next == root) {
                    known_root = root;
                    break;
                }
                parents.store(v, next);
                root = next;
            }
        }
        const uint32_t word = __ballot_sync(0xffffffffu, root == giant);
        if (lane == 0) bitmap[base / 32] = word;
    }
}

}  // namespace ccl4j::cuda::afforest_device
