// The row of a root (a cell labelled with its own index) in a table of rows in raster order, on
// the device: the roots before it, from a bit mask of the roots and an inclusive scan of its
// words' counts. Both are n / 8 bytes, which the L2 cache mostly holds, where an array of n ranks
// would not.
#pragma once

#include <cstdint>

namespace ccl4j::cuda {

// Bit b of mask[w] is set when cell 32 w + b is a root; inclusive[w] counts the roots in words 0..w.
struct RootIndex {
    const uint32_t* mask;
    const uint32_t* inclusive;
    // The row of root l: the roots before it.
    __device__ __forceinline__ int32_t row(int32_t l) const {
        const int32_t w = l >> 5;
        return static_cast<int32_t>(__ldg(inclusive + w) - __popc(__ldg(mask + w) >> (l & 31)));
    }
};

}  // namespace ccl4j::cuda
