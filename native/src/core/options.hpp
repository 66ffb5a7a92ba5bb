// The options of a labelling call as the algorithms see them: translated from the ABI structs
// (ccl4j_label_options, ccl4j_mesh_options) and validated once, at the boundary (api/options.hpp).
// Plans and kernels take these, never the ABI structs; every value here is already known to be
// valid, so no algorithm checks it again.
#pragma once

#include <cstdint>

#include "ccl4j.h"

namespace ccl4j {

// Graph labelling. algorithm is resolved (never AUTO) and names a graph algorithm of the registry
// (algorithms/registry.hpp).
struct LabelOptions {
    // The defaults of ECL-CC's degree tiers (Jaiganesh & Burtscher 2018): thread tier up to degree
    // 16, warp tier up to 352, block tier above.
    static constexpr int32_t kDefaultWarpThreshold = 16;
    static constexpr int32_t kDefaultBlockThreshold = 352;

    ccl4j_algorithm algorithm = CCL4J_ALGORITHM_ECL_CC;
    bool check_input = false;     // run the O(n + m) input checks first
    int32_t cpu_threads = 0;      // CPU_PARALLEL threads; 0 = all available
    int32_t block_size = 0;       // CUDA threads per block: 0 (the algorithm's default) or 32..1024 in steps of 32
    int32_t warp_threshold = kDefaultWarpThreshold;    // 0 <= warp_threshold <= block_threshold
    int32_t block_threshold = kDefaultBlockThreshold;
    int32_t max_iterations = 0;   // >= 0; 0 = vertex_count + 2, which no correct run exceeds
    int64_t device_memory = 0;    // CUDA: bytes of device memory a call may use; 0 = what is free
    bool across_devices = false;  // STREAMED asked for by name: shared out among a context's devices
    ccl4j_progress_fn progress = nullptr;  // ccl4j_label_graph's listener, or null
    void* progress_user = nullptr;
};

// What the GPU mesh algorithms are tuned with.
struct MeshTuning {
    int32_t block_size = 0;      // threads per block: 0 (the algorithm's default) or 32..1024 in steps of 32
    int32_t tile_size = 0;       // kernel B's tile edge in cells, >= 0; 0 = its default
    int32_t max_iterations = 0;  // >= 0; iterative kernels stop with CCL4J_NOT_CONVERGED; 0 = no correct run exceeds it
};

// Mesh labelling. algorithm is resolved (never AUTO) and names a mesh algorithm of the registry
// that runs on the context's backend. The geometry options (connectivity, periodic boundaries,
// mode) go into the mesh view (common/mesh.hpp), which api_mesh.cpp builds against the mesh.
struct MeshOptions {
    ccl4j_algorithm algorithm = CCL4J_ALGORITHM_MESH_CPU_PARALLEL;
    int32_t cpu_threads = 0;     // CPU_PARALLEL threads; 0 = all available
    MeshTuning tuning;
    int32_t connectivity = 0;    // as given: 0 = face neighbours; checked against the mesh's dimension
    bool periodic[3] = {false, false, false};
    bool same_value = false;     // CCL4J_MESH_SAME_VALUE, else CCL4J_MESH_FOREGROUND
    double delta = 0;            // same-value mode: the largest difference of neighbours that connect
};

}  // namespace ccl4j
