// The translation of the ABI's option structs into the internal option types (core/options.hpp):
// the one place where options are validated. The ABI functions call these first; nothing below
// the ABI checks an option again.
#pragma once

#include "ccl4j.h"
#include "common/distances.hpp"
#include "core/options.hpp"

namespace ccl4j::api {

// Graph labelling options (NULL = all defaults): checks every field, resolves AUTO to
// `automatic` (labelling passes the backend's default algorithm; the lattice runs pass Komura) and the tier thresholds to
// their defaults. Throws Error(CCL4J_INVALID_ARGUMENT) naming what is wrong.
LabelOptions label_options(const ccl4j_label_options* options, ccl4j_algorithm automatic = CCL4J_ALGORITHM_ECL_CC);

// Mesh labelling options (NULL = all defaults) for a context on `backend` (CUDA or a CPU one):
// checks every field that does not depend on the mesh, and that the algorithm is a mesh
// algorithm that runs on the backend (Error(CCL4J_UNSUPPORTED) when it does not); resolves AUTO.
// The connectivity is checked against the mesh where the mesh view is built (api_mesh.cpp).
MeshOptions mesh_options(const ccl4j_mesh_options* options, ccl4j_backend backend);

// "CUDA", "CPU_PARALLEL", ...: for messages.
const char* backend_name(ccl4j_backend backend);

// Threads per CUDA block: 0 (the algorithm's default) or a multiple of 32 up to 1024 (the
// kernels work on whole warps). Throws Error(CCL4J_INVALID_ARGUMENT) otherwise.
int32_t checked_block_size(int32_t block_size);

// Distances options (NULL = defaults) for a context on `backend`: the algorithm (AUTO resolved to
// BFS; Floyd-Warshall on the CPU backends only, Error(CCL4J_UNSUPPORTED) on CUDA) and the threads.
DistanceOptions distance_options(const ccl4j_distance_options* options, ccl4j_backend backend);

}  // namespace ccl4j::api
