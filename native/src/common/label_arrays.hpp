// What the CPU and GPU book-keeping of labels (cpu/label_stats, cuda/label_stats) share: the
// message for a label outside [-1, count) and the bin of a component size in the log2 histogram.
#pragma once

#include <cstdint>
#include <string>

#include "common/error.hpp"

namespace ccl4j {

[[noreturn]] inline void fail_bad_label(int64_t index, int32_t value, int64_t count) {
    fail(CCL4J_INVALID_INPUT, "label array: entry " + std::to_string(index) + " has label " + std::to_string(value) +
                                  ", outside -1 .. " + std::to_string(count - 1));
}

// floor(log2(size)) for size >= 1: the bin of the log2 histogram.
inline int log2_bin(int32_t size) { return 31 - __builtin_clz(static_cast<uint32_t>(size)); }

}  // namespace ccl4j
