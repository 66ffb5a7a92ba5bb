// The input checks of a host graph on the GPU (input_check.cu).
#pragma once

#include "common/csr.hpp"
#include "common/phases.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {

// The phase "check": checks `csr`, the device copy of `host`, for offsets in order, ids in range
// and symmetry, and waits for the answer; on a fault, the host's checks of `host` name it (throws
// Error(CCL4J_INVALID_INPUT)). The state and host graph must outlive the phase.
Phase check_phase(DeviceState& state, const detail::DeviceCsr& csr, const Graph& host);

}  // namespace ccl4j::cuda
