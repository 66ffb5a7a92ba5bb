// Afforest's sampling (Sutton, Ben-Nun & Barak 2018), the same on the CPU (cpu/afforest.cpp) and
// the GPU (cuda/afforest.cu): how many neighbours each vertex is first linked with, and which
// vertices are drawn to find the component most of them share.
#pragma once

#include <cstdint>

#include "common/host_device.hpp"

namespace ccl4j::afforest {

// The paper's choices: the first two neighbours and 1024 samples find the giant component of its
// graphs; more neighbours link more edges blindly.
constexpr int kSampledArcs = 2;
constexpr int kSamples = 1024;

// Sample i (0 <= i < kSamples) of the vertices [0, n), n > 0: splitmix64 of the i + 1st step of its
// generator, scaled to n, so that every run draws the same vertices on both backends.
CCL4J_HOST_DEVICE int32_t sampled_vertex(int i, int32_t n) {
    uint64_t z = (static_cast<uint64_t>(i) + 1) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
#ifdef __CUDA_ARCH__
    return static_cast<int32_t>(__umul64hi(z, static_cast<uint64_t>(n)));
#else
    return static_cast<int32_t>((static_cast<unsigned __int128>(z) * static_cast<uint64_t>(n)) >> 64);
#endif
}

// Whether a root shared by `count` of the samples right after init is the early giant tree,
// whose vertices then skip sampling: at least half of them.
CCL4J_HOST_DEVICE bool is_early_giant(int64_t count) { return 2 * count >= kSamples; }

}  // namespace ccl4j::afforest
