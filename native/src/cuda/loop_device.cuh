// The kernels' side of a fixpoint loop (driver.hpp: LoopControl, iterate), shared by the graph
// loops (Hawick's kernels, the distances' levels) and the mesh loops (mesh_hawick.cu). Only
// compiled with CCL4J_WITH_CUDA, and only included by .cu files.
#pragma once

#include <cstdint>

#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {

// What the kernels of launch t of a loop know of it. iterate() zeroes the control before the
// first launch, so that launch t is the (t + 1)-th to do work.
struct LoopLaunch {
    LoopControl* control;
    int32_t t;      // launch number, from 0
    int32_t limit;  // launches numbered limit or higher do no work (the iteration limit)

    // ring[(t + k) % 3], in unsigned arithmetic (t + k may exceed INT32_MAX).
    __device__ int32_t* ring(uint32_t k) const { return &control->ring[(static_cast<uint32_t>(t) + k) % 3]; }
    // What launch t - 1 produced (a change flag, a frontier's size), and where launch t puts its own.
    __device__ int32_t previous() const { return detail::load_relaxed(ring(2)); }
    __device__ int32_t* output() const { return ring(0); }
    __device__ bool finished() const { return detail::load_relaxed(&control->finished) != 0; }
    // Ends the loop: later launches return at once.
    __device__ void finish() const {
        if (detail::thread_index() == 0) detail::store_relaxed(&control->finished, 1);
    }
    // Called by every thread: false past the limit; otherwise clears the next launch's ring entry
    // and counts this launch.
    __device__ bool start() const {
        if (t >= limit) return false;
        if (detail::thread_index() == 0) {
            detail::store_relaxed(ring(1), 0);
            detail::store_relaxed(&control->iterations, t + 1);
        }
        return true;
    }
    // The first kernel of a launch of a loop that ends at the first launch after one that changed
    // nothing: false once it has ended (this launch ends it when the previous changed nothing) or
    // past the limit. Every thread of the grid gets the same answer.
    __device__ bool begin() const {
        if (finished()) return false;
        if (t > 0 && previous() == 0) {
            finish();
            return false;
        }
        return start();
    }
    // The later kernels of the same launch: whether the first one ran.
    __device__ bool active() const { return t < limit && !finished(); }
    // This launch changed something.
    __device__ void changed() const { detail::store_relaxed(output(), 1); }
};

}  // namespace ccl4j::cuda
