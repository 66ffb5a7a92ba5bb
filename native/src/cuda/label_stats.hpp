// The book-keeping of label arrays on the GPU (label_stats.cu): the same operations as
// cpu/label_stats.hpp, with CUB's sorts and scans and kernels of our own. The labels are either
// host memory (copied to the device first) or the labels the last labelling of a resident graph
// left on the device. Results are copied into host buffers. Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "ccl4j.h"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

// The labels of the last labelling of a resident graph move out of the labelling's work buffer
// (a swap, no copy) so that later labellings of other graphs cannot overwrite them.
void keep_resident_labels(DeviceState& state, int32_t count);
// Marks the resident labels as gone (a labelling of a resident graph is starting).
void forget_resident_labels(DeviceState& state);
// How many labels are resident; -1 when none.
int32_t resident_label_count(DeviceState& state);

// A label array as the operations take it: host labels, or nullptr for the resident ones.
struct LabelSource {
    const int32_t* host;  // nullptr: the resident labels
    int32_t count;
};

ccl4j_label_summary label_summary(DeviceState& state, const LabelSource& labels);
int64_t label_components(DeviceState& state, const LabelSource& labels, int32_t order, int64_t capacity,
                         int32_t* component_labels, int32_t* sizes);
int64_t label_compact(DeviceState& state, const LabelSource& labels, int32_t order, int32_t* out);
int64_t label_histogram(DeviceState& state, const LabelSource& labels, int32_t binning,
                        int64_t capacity, int32_t* bin_sizes, int32_t* bin_counts);
// offsets: components + 1 entries, members: labelled entries (checked by the caller).
void label_members(DeviceState& state, const LabelSource& labels, int32_t order, int32_t* offsets,
                   int32_t* members);
int64_t label_component_members(DeviceState& state, const LabelSource& labels, int32_t label, int64_t capacity,
                                int32_t* members);
int64_t label_filter(DeviceState& state, const LabelSource& labels, int32_t min_size, int32_t max_size, int32_t* out);

// For kernel-only benchmarks: enqueues on the state's stream the analysis of `count` labels in
// device memory and their compaction in smallest-member order into device_out (count entries);
// the component sizes, in that order, are left on the device (returned). `start` is recorded
// after the host-side preparation, just before the first launch. Neither waits nor checks the labels.
const int32_t* enqueue_compaction(DeviceState& state, const int32_t* device_labels, int32_t count, int32_t* device_out,
                                  cudaEvent_t start);

}  // namespace ccl4j::cuda
