// The one host driver of the GPU algorithms, graphs and meshes alike: device buffers, the phase
// clock, what a context holds on its device (the definitions behind cuda_backend.hpp's opaque
// DeviceState and DeviceGraph), launch sizes, the fixpoint loop, one labelling call around a
// plan, and the per-phase runs of a plan. The buffers belong to the algorithms that use them, as
// workspaces the state keeps between calls. Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/phase_log.hpp"
#include "common/phases.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_check.hpp"

namespace ccl4j::cuda {

// ---- memory -----------------------------------------------------------------------------------

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
    size_t capacity() const { return capacity_; }

private:
    void* data_ = nullptr;
    size_t capacity_ = 0;
};

// Carves pieces of `bytes` each (aligned to 256 bytes) out of one buffer, growing it if needed;
// returns the start of each piece.
std::vector<void*> carve(DeviceBuffer& buffer, std::initializer_list<size_t> bytes, const char* what);

// ---- timing -----------------------------------------------------------------------------------

// Times named phases with CUDA events on one stream. Phases with the same name add up (the
// kernels of a fixpoint loop, one pass after another). Times are read in collect(), after the
// stream has been synchronized.
class PhaseClock {
public:
    explicit PhaseClock(cudaStream_t stream) : stream_(stream) {}
    PhaseClock(const PhaseClock&) = delete;
    PhaseClock& operator=(const PhaseClock&) = delete;
    ~PhaseClock();

    void start();                      // a new timeline: forgets earlier totals, starts the first phase
    void end_phase(const char* name);  // the end of a phase and the start of the next
    int64_t phases_ended() const { return ended_; }
    void collect();                    // adds up the phases ended since the last collect
    void log(PhaseLog& log) const;     // the totals, in the order the phases first ended
    double total_ms() const;

private:
    cudaEvent_t event(size_t index);

    cudaStream_t stream_;
    std::vector<cudaEvent_t> events_;   // events_[0] starts the first phase not yet collected
    std::vector<const char*> pending_;  // names of the phases ended since, in order
    std::vector<std::pair<std::string, double>> totals_;
    int64_t ended_ = 0;
};

// ---- the state of a context on its device -----------------------------------------------------

// What an algorithm keeps on a state between calls (its buffers, grids looked up once). Each
// algorithm declares its own, in its own file.
struct Workspace {
    virtual ~Workspace() = default;
};

class DeviceState {
public:
    explicit DeviceState(int device);
    DeviceState(const DeviceState&) = delete;
    DeviceState& operator=(const DeviceState&) = delete;
    ~DeviceState();

    // Makes this state's device current for the calling thread.
    void activate() const;

    // The workspace of type T on this state, made on first use and kept until the state goes.
    template <class T>
    T& workspace() {
        std::unique_ptr<Workspace>& slot = workspaces_[std::type_index(typeid(T))];
        if (!slot) slot = std::make_unique<T>();
        return static_cast<T&>(*slot);
    }

    const int device;
    int multiprocessors = 0;
    int threads_per_multiprocessor = 0;
    cudaStream_t stream = nullptr;
    // Times the phases of every call on this state (calls on one state never overlap).
    std::unique_ptr<PhaseClock> clock;

private:
    // Frees everything held so far; used by the destructor and by a constructor that fails.
    void destroy() noexcept;

    std::unordered_map<std::type_index, std::unique_ptr<Workspace>> workspaces_;
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

// ---- launches ---------------------------------------------------------------------------------

// Threads per block: the validated option (a multiple of 32 up to 1024), or 256 for 0.
inline int block_or_default(int32_t block_size) { return block_size ? block_size : 256; }

// Blocks for a grid-stride kernel over `items` items: enough to cover them once, at most as many
// as the device holds at once.
int grid_size(const DeviceState& state, int block, int64_t items);

#ifdef __CUDACC__
// Blocks of `kernel` resident on the state's device at once with `block` threads each: the grid
// of a grid-stride kernel that runs in one wave.
template <class Kernel>
int resident_grid(const DeviceState& state, Kernel kernel, int block) {
    int per_multiprocessor = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return (per_multiprocessor > 1 ? per_multiprocessor : 1) * state.multiprocessors;
}
#endif

// ---- fixpoint loops ---------------------------------------------------------------------------

// A fixpoint loop's state on the device, shared by the loops of graphs and meshes. ring[t % 3] is
// what launch t produced (a change flag, or the size of a frontier): launch t reads
// ring[(t + 2) % 3] and clears ring[(t + 1) % 3] for launch t + 1.
struct LoopControl {
    int32_t ring[3];
    int32_t iterations;  // launches that did work
    int32_t finished;    // the loop is complete: later launches return at once
    int32_t cursor;      // for a loop that walks the vertices (Hawick's Kernel 3)
};

// Runs launch(t) for t = 0, 1, ... in batches that grow by a quarter of the launches so far (2 to
// max_batch), reading the loop's state after each, until it is finished; returns its iterations.
// The launches after the one that finished it return at once on the device, so the host waits a
// few times only. At most limit + 1 launches: the last can only see that launch limit - 1
// finished the loop; past it, Error(CCL4J_NOT_CONVERGED) naming `what`. The phases the launches
// end on the state's clock are collected after every batch.
int32_t iterate(DeviceState& state, LoopControl* control, int32_t limit, int64_t max_batch, const std::string& what,
                const std::function<void(int32_t)>& launch);

// A LoopControl in device memory of its own on the state, reused across calls.
LoopControl* loop_control(DeviceState& state);

// ---- one labelling call -----------------------------------------------------------------------

// One labelling call on state.stream, timed on its clock: upload (phase h2d; none when null), the
// plan's phases, download (phase d2h; none when null); then waits and logs the phases and the
// iterations. A phase is timed under its name unless it ended phases of its own on the clock
// (Hawick's Kernel D times its loop's kernels apart).
void drive(DeviceState& state, const PhasePlan& plan, const std::function<void()>& upload,
           const std::function<void()>& download, PhaseLog& log);

// The per-phase runs of ccl4j.h on the GPU: a plan on a state of its own, so that labelling
// calls on the context's state leave it alone. A subclass builds plan_ over the state and sets
// labels_ to the device labels the plan leaves.
class DevicePhaseProgram : public PhaseProgram {
public:
    // The phase's work between two events of the program's stream; a fixpoint loop's waits for
    // the device between its batches count, as they do in a labelling call.
    double run_timed(int i, int32_t& iterations) override;
    void run_untimed(int end) override;
    void read_labels(int32_t* labels) override;

protected:
    DevicePhaseProgram(int device, int64_t label_count);

    DeviceStatePtr state_;
    const int32_t* labels_ = nullptr;
    int64_t label_count_;
};

}  // namespace ccl4j::cuda
