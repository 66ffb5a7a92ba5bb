// The definitions behind the opaque DeviceState and DeviceGraph of cuda_backend.hpp, shared by
// device.cu (creation, queries) and ecl_cc.cu (labelling).
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>

#include "cuda/cuda_backend.hpp"

namespace ccl4j::cuda {

// Device memory that is reused across calls and only reallocated when it must grow.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() { release(); }

    // Makes room for `bytes` (contents are not kept); `what` names the buffer in error messages.
    void reserve(size_t bytes, const char* what);
    void release() noexcept;
    void swap(DeviceBuffer& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(capacity_, other.capacity_);
    }

    template <class T>
    T* as() const {
        return static_cast<T*>(data_);
    }

private:
    void* data_ = nullptr;
    size_t capacity_ = 0;
};

// Events that bracket the phases of one labelling call, recorded on the state's stream.
enum Mark { kStart, kUploaded, kInitialised, kComputed1, kComputed2, kComputed3, kFinalised, kDownloaded, kMarks };

class DeviceState {
public:
    explicit DeviceState(int device);
    DeviceState(const DeviceState&) = delete;
    DeviceState& operator=(const DeviceState&) = delete;
    ~DeviceState();

    // Makes this state's device current for the calling thread.
    void activate() const;
    // Milliseconds between two recorded marks (both must have completed).
    float elapsed_ms(Mark from, Mark to) const;
    void record(Mark mark);

    const int device;
    int multiprocessors = 0;
    cudaStream_t stream = nullptr;
    std::array<cudaEvent_t, kMarks> marks{};
    // A host graph is copied here; a resident graph brings its own.
    DeviceBuffer offsets;
    DeviceBuffer neighbors;
    // The union-find parents, which become the labels.
    DeviceBuffer parent;
    // ECL-CC's double-sided worklist and its two fill counts.
    DeviceBuffer worklist;
    DeviceBuffer counters;
    // The labels of the last labelling of a resident graph, kept for statistics (label_stats.cu),
    // and their count; -1 when there are none.
    DeviceBuffer resident_labels;
    int32_t resident_label_count = -1;
    // A mesh's cells, its labels, and the loop state of the iterative mesh algorithms (the mesh
    // algorithms also use `parent` as their second label array).
    DeviceBuffer mesh_cells;
    DeviceBuffer mesh_labels;
    DeviceBuffer mesh_control;
    // Blocks of each ECL-CC kernel resident on the device at once, by (block size, offset width):
    // looked up once, so that no occupancy query runs between the timed launches.
    std::map<std::pair<int, int>, std::array<int, 5>> resident_blocks;

private:
    // Frees everything held so far; used by the destructor and by a constructor that fails.
    void destroy() noexcept;
};

class DeviceGraph {
public:
    DeviceGraph(int device, const Graph& host)
        : device(device), vertex_count(host.vertex_count), arc_count(host.arc_count), offset_width(host.offset_width) {}

    const int device;
    const int32_t vertex_count;
    const int64_t arc_count;
    const int32_t offset_width;  // 4 or 8, as uploaded
    DeviceBuffer offsets;
    DeviceBuffer neighbors;
};

}  // namespace ccl4j::cuda
