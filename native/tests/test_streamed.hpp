// What the tests of STREAMED on one device and across several share: its options and the device
// bytes it counts for a graph's parent array and bitmap.
#pragma once

#include <cstdint>

#include "api/options.hpp"
#include "ccl4j.h"

namespace ccl4j::test {

// The device bytes of the parent array and bitmap of n vertices, as the streamed path counts them.
inline int64_t fixed_bytes(int32_t n) { return 4LL * n + (n / 32 + 1) * 4LL + 512; }

// STREAMED within `device_memory` (0: the free memory) on `threads` gathering threads (0: all).
inline LabelOptions streamed(int64_t device_memory, int32_t threads) {
    ccl4j_label_options options{};
    options.algorithm = CCL4J_ALGORITHM_STREAMED;
    options.device_memory = device_memory;
    options.cpu_threads = threads;
    return api::label_options(&options);
}

}  // namespace ccl4j::test
