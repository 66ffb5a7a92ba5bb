// The contacts between the labels of a mesh on the GPU (contacts.cu). Only compiled with
// CCL4J_WITH_CUDA.
#pragma once

#include <cstdint>
#include <optional>

#include "common/contacts.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

// The contacts of dense host labels of shape s, computed on the device: rows ascending by pair.
// Error(CCL4J_INVALID_INPUT) names the first label outside [-1, cell count). Empty when the mesh
// has more than INT32_MAX contacts of neighbouring cells, more than one sort of the device's
// takes (Error(CCL4J_OUT_OF_MEMORY) when its keys do not fit): the caller computes them on the
// host instead. The keys' memory is freed before it returns, so that no labelling finds the
// device short of it.
std::optional<contacts::Rows> mesh_contacts(DeviceState& state, const int32_t* labels, const contacts::Shape& s);

}  // namespace ccl4j::cuda
