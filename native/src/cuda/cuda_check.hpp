// Turns CUDA failures into ccl4j::Error: allocation failures are CCL4J_OUT_OF_MEMORY, everything
// else CCL4J_DEVICE_ERROR; the message names the call and carries CUDA's own error string.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "common/error.hpp"

namespace ccl4j::cuda {

inline void check(cudaError_t status, const char* call) {
    if (status == cudaSuccess) return;
    // Clear the error so that it is not reported again by the next check (sticky errors stay).
    cudaGetLastError();
    const ccl4j_status code = status == cudaErrorMemoryAllocation ? CCL4J_OUT_OF_MEMORY : CCL4J_DEVICE_ERROR;
    fail(code, std::string(call) + " failed: " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

// After a kernel launch: launch failures (bad configuration, no kernel image for the device).
inline void check_launch(const char* kernel) { check(cudaGetLastError(), (std::string("launch of ") + kernel).c_str()); }

}  // namespace ccl4j::cuda

// Checks a CUDA runtime call, naming it in the message.
#define CCL4J_CUDA_CHECK(call) ::ccl4j::cuda::check((call), #call)
