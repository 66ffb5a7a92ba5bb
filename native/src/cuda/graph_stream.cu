// STREAMED: a host graph labelled on the GPU without ever being on it whole. The parent array
// (4 bytes a vertex) and a bitmap (1 bit a vertex) stay on the device; the arcs cross the bus in
// blocks, each arc at most once, through a ring of page-locked staging buffers: host threads
// gather a block while the block before it is uploaded (one copy stream) and linked (the state's
// stream). ECL-CC's union-find (ecl_cc_kernels.cuh) links them, so the roots are the canonical
// labels whatever order the blocks arrive in.
//
// Afforest's sampling (Sutton, Ben-Nun & Barak 2018) decides what need not cross at all:
//   init     parent[v] = v;
//   sample   the first kSampleSlots arcs of every row, linked from both ends;
//   compress the giant component's root (the most frequent root among afforest::kSamples
//            vertices, if at least 1 / kGiantShare of them have it), every vertex pointed at its
//            root and the bitmap of the giant component's vertices, which comes back to the host;
//   link     the rest of the rows outside the giant component: arc {v, u} hooked when u < v or u
//            is inside (whose row is not sent);
//   finalize every vertex pointed at its root; d2h the labels.
// Every edge {u, v} is hooked: in sample when it is among the first arcs of a row; else from the
// row of the larger end when both are outside; from the outside end when one is inside; not at all
// when both are inside (joined already). The rows of the giant component's vertices past their
// sampled arcs never leave the host.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "common/afforest_sampling.hpp"
#include "common/error.hpp"
#include "common/memory.hpp"
#include "common/parallel.hpp"
#include "common/validate.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/ecl_cc_kernels.cuh"
#include "cuda/giant_component.cuh"
#include "cuda/graph_kernels.hpp"

namespace ccl4j::cuda {
namespace {

// Three sampled arcs join a 3-D grid (its rows start -nx*ny, -nx, -1) and a 2-D one into one tree,
// where Afforest's two leave a 3-D grid in columns; on power-law graphs the third costs 4 bytes a
// vertex.
constexpr int kSampleSlots = 3;
constexpr int32_t kEmptySlot = -1;
constexpr int kGiantShare = 8;  // as afforest.cu: a giant component holds >= 1 / kGiantShare of the samples
// Blocks of a few MiB keep every gathering thread busy on graphs of a few million vertices and
// still cross the bus at full speed.
constexpr int kMaxGatherThreads = 16;
constexpr size_t kMaxSlotBytes = size_t{4} << 20;
constexpr size_t kMinSlotBytes = 256;

// ---- kernels ----------------------------------------------------------------------------------

__global__ void init_parents(int32_t n, int32_t* parent) {
    for (uint32_t v = ecl::thread_index(); v < static_cast<uint32_t>(n); v += ecl::thread_count()) {
        parent[v] = static_cast<int32_t>(v);
    }
}

// Joins the trees of v and u. Unlike ecl::unite, a failed hook finds the new representative again
// (halving the path) instead of climbing one parent at a time: blocks arrive in any order with no
// flattening pass between them, and on a path linked block by block the trees are long chains.
__device__ __forceinline__ void hook(const ecl::Parents& parents, int32_t v, int32_t u) {
    int32_t no_cache = -1;
    int32_t a = ecl::find_representative(parents, v, no_cache);
    int32_t b = ecl::find_representative(parents, u, no_cache);
    while (a != b) {
        if (a > b) {
            const int32_t t = a;
            a = b;
            b = t;
        }
        const int32_t seen = parents.compare_exchange(b, b, a);  // the larger under the smaller
        if (seen == b) return;
        b = ecl::find_representative(parents, seen, no_cache);
        a = ecl::find_representative(parents, a, no_cache);
    }
}

// A sample block: rows first_row.. of kSampleSlots neighbours each, kEmptySlot past a row's end
// (the host checked the ids).
__global__ void link_sampled(const int32_t* __restrict__ slots, int32_t first_row, int64_t slot_count,
                             ecl::Parents parents) {
    const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < slot_count; i += step) {
        const int32_t u = ecl::read_only(slots + i);
        const int32_t v = first_row + static_cast<int32_t>(i / kSampleSlots);
        if (u != kEmptySlot && u != v) hook(parents, v, u);
    }
}

// A link block: arcs[0, arc_count) in segments, segment s = the arcs [segments[2s + 1],
// segments[2s + 3]) of row segments[2s] (the last one ending at arc_count). An id out of range
// is not used; the smallest row holding one is kept in *bad.
__global__ void link_rows(const int32_t* __restrict__ arcs, int32_t arc_count, const int32_t* __restrict__ segments,
                          int32_t segment_count, int32_t n, ecl::Parents parents, const uint32_t* __restrict__ bitmap,
                          const int32_t* __restrict__ giant_root, unsigned long long* bad) {
    const bool giant = *giant_root >= 0;
    for (int32_t i = static_cast<int32_t>(ecl::thread_index()); i < arc_count; i += static_cast<int32_t>(ecl::thread_count())) {
        int32_t low = 0, high = segment_count - 1;  // the last segment starting at or before i
        while (low < high) {
            const int32_t middle = (low + high + 1) / 2;
            if (ecl::read_only(segments + 2 * middle + 1) <= i) low = middle; else high = middle - 1;
        }
        const int32_t v = ecl::read_only(segments + 2 * low);
        const int32_t u = ecl::read_only(arcs + i);
        if (static_cast<uint32_t>(u) >= static_cast<uint32_t>(n)) {
            atomicMin(bad, static_cast<unsigned long long>(v));
            continue;
        }
        const bool inside = giant && ((ecl::read_only(reinterpret_cast<const int32_t*>(bitmap) + (u >> 5)) >> (u & 31)) & 1);
        if (u != v && (u < v || inside)) hook(parents, v, u);
    }
}

__global__ void find_giant(int32_t n, ecl::Parents parents, int32_t* giant_root) {
    int32_t root;
    uint32_t count;
    afforest_device::most_frequent_root(n, parents, root, count);
    if (threadIdx.x == 0) *giant_root = count * kGiantShare >= afforest::kSamples ? root : -1;
}

// ---- the staging ring -------------------------------------------------------------------------

// A page-locked buffer and its device twin; `done` is recorded after the kernel that read the twin.
struct Slot {
    char* host = nullptr;
    DeviceBuffer device;
    cudaEvent_t uploaded = nullptr;
    cudaEvent_t done = nullptr;
};

struct StreamWorkspace final : Workspace {
    DeviceBuffer offsets;  // read in place: the copy of the offsets
    DeviceBuffer bitmap;
    DeviceBuffer scalars;  // the giant root (int32) and the first bad row (unsigned long long)
    std::vector<Slot> slots;
    size_t slot_bytes = 0;
    cudaStream_t copy = nullptr;

    void release_slots() noexcept {
        for (Slot& slot : slots) {
            if (slot.done) cudaEventSynchronize(slot.done);
            if (slot.host) cudaFreeHost(slot.host);
            if (slot.uploaded) cudaEventDestroy(slot.uploaded);
            if (slot.done) cudaEventDestroy(slot.done);
        }
        slots.clear();
        slot_bytes = 0;
        cudaGetLastError();
    }
    ~StreamWorkspace() override {
        release_slots();
        if (copy) cudaStreamDestroy(copy);
        cudaGetLastError();
    }

    // `count` slots of `bytes` each, reused when the ring already has that shape.
    void ring(size_t count, size_t bytes) {
        if (!copy) CCL4J_CUDA_CHECK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
        if (slots.size() == count && slot_bytes == bytes) return;
        release_slots();
        slots = std::vector<Slot>(count);
        slot_bytes = bytes;
        for (Slot& slot : slots) {
            void* host = nullptr;
            check(cudaMallocHost(&host, bytes), ("cudaMallocHost of " + std::to_string(bytes) +
                                                 " bytes for a staging buffer").c_str());
            slot.host = static_cast<char*>(host);
            slot.device.reserve(bytes, "staging buffer");
            CCL4J_CUDA_CHECK(cudaEventCreateWithFlags(&slot.uploaded, cudaEventDisableTiming));
            CCL4J_CUDA_CHECK(cudaEventCreateWithFlags(&slot.done, cudaEventDisableTiming));
        }
    }
};

// The shape of the ring for a budget: threads that gather, two slots each, and the slot size.
struct RingShape {
    int threads;
    size_t slot_bytes;
};

size_t fixed_bytes(int32_t n) {
    return static_cast<size_t>(n) * sizeof(int32_t) + (static_cast<size_t>(n) / 32 + 1) * sizeof(uint32_t) + 512;
}

RingShape ring_shape(int32_t n, int64_t available, int threads, int64_t budget) {
    const int64_t fixed = static_cast<int64_t>(fixed_bytes(n));
    const int64_t minimum = fixed + 2 * static_cast<int64_t>(kMinSlotBytes);
    if (available < minimum) {
        fail(CCL4J_OUT_OF_MEMORY,
             "streaming a graph of " + std::to_string(n) + " vertices needs at least " + byte_size(minimum) +
                 " of device memory (" + byte_size(fixed) + " for its parent array and bitmap); " +
                 (budget > 0 ? "the budget (device_memory) allows " : "the device has ") + byte_size(available));
    }
    const int64_t spare = available - fixed;
    int t = std::clamp(threads, 1, kMaxGatherThreads);
    while (t > 1 && spare / (2 * t) < static_cast<int64_t>(kMinSlotBytes)) --t;
    const size_t bytes = std::min<size_t>(kMaxSlotBytes, static_cast<size_t>(spare / (2 * t))) / 16 * 16;
    return {t, bytes};
}

// ---- gathering and submitting -----------------------------------------------------------------

template <class Offset>
class Streamer {
public:
    Streamer(DeviceState& state, StreamWorkspace& work, const CsrView<Offset>& graph, int threads, int32_t* parent)
        : state_(state), work_(work), graph_(graph), threads_(threads), parents_(parent),
          giant_root_(work.scalars.as<int32_t>()),
          bad_(reinterpret_cast<unsigned long long*>(work.scalars.as<char>() + 8)),
          block_(block_or_default(0)) {}

    // The sample pass: rows in blocks of whole rows, kSampleSlots ids each, checked here.
    int64_t sample() {
        const int64_t rows_per_block = static_cast<int64_t>(work_.slot_bytes / (kSampleSlots * sizeof(int32_t)));
        const int64_t blocks = (graph_.vertex_count + rows_per_block - 1) / rows_per_block;
        std::atomic<int64_t> next{0};
        run_workers([&](int worker) {
            int turn = 0;
            for (int64_t b; !stop_ && (b = next++) < blocks;) {
                Slot& slot = take(worker, turn++);
                const int32_t first = static_cast<int32_t>(b * rows_per_block);
                const int32_t last = static_cast<int32_t>(std::min<int64_t>(first + rows_per_block, graph_.vertex_count));
                auto* slots = reinterpret_cast<int32_t*>(slot.host);
                for (int32_t v = first; v < last; ++v) {
                    const Offset begin = graph_.offsets[v], end = graph_.offsets[v + 1];
                    check_row(v, begin, end);
                    for (int j = 0; j < kSampleSlots; ++j) {
                        int32_t u = kEmptySlot;
                        if (begin + j < end) {
                            u = graph_.neighbors[begin + j];
                            if (static_cast<uint32_t>(u) >= static_cast<uint32_t>(graph_.vertex_count)) {
                                bad_id(v, static_cast<int64_t>(begin) + j, u);
                            }
                        }
                        slots[static_cast<int64_t>(v - first) * kSampleSlots + j] = u;
                    }
                }
                const int64_t count = static_cast<int64_t>(last - first) * kSampleSlots;
                submit(slot, count * sizeof(int32_t), 0, [&](const char* device) {
                    link_sampled<<<grid(count), block_, 0, state_.stream>>>(reinterpret_cast<const int32_t*>(device),
                                                                          first, count, parents_);
                });
            }
        });
        return blocks;
    }

    // The link pass: the arcs past the sampled ones of the rows outside the giant component, in
    // chunks of the CSR's arc positions claimed by the threads; a thread fills a slot across
    // chunks and sends it when full. Returns the blocks sent.
    int64_t link(const std::vector<uint32_t>& bitmap, bool giant) {
        const int64_t m = graph_.arc_count;
        // A slot holds arcs and segments (two ints each), at least one segment per arc.
        const int32_t arc_room = static_cast<int32_t>(work_.slot_bytes / sizeof(int32_t) / 2);
        const int32_t segment_room = arc_room / 2;
        const int64_t chunk = std::max<int64_t>(arc_room, 1 << 16);
        const int64_t chunks = (m + chunk - 1) / chunk;
        std::atomic<int64_t> next{0};
        std::atomic<int64_t> sent{0};
        run_workers([&](int worker) {
            int turn = 0;
            Slot* slot = nullptr;
            int32_t arcs = 0, segments = 0;
            const auto flush = [&] {
                if (arcs == 0) return;
                const int32_t a = arcs, s = segments;
                submit(*slot, a * sizeof(int32_t), 2 * static_cast<size_t>(s) * sizeof(int32_t),
                       [&](const char* device) {
                           link_rows<<<grid(a), block_, 0, state_.stream>>>(
                               reinterpret_cast<const int32_t*>(device), a,
                               reinterpret_cast<const int32_t*>(device + work_.slot_bytes / 2), s,
                               graph_.vertex_count, parents_, work_.bitmap.as<uint32_t>(), giant_root_, bad_);
                       });
                ++sent;
                slot = nullptr;
                arcs = segments = 0;
            };
            for (int64_t c; !stop_ && (c = next++) < chunks;) {
                const int64_t first_arc = c * chunk, end_arc = std::min(m, first_arc + chunk);
                // The row holding arc first_arc: the last row starting at or before it.
                int32_t v = static_cast<int32_t>(
                    std::upper_bound(graph_.offsets, graph_.offsets + graph_.vertex_count + 1, static_cast<Offset>(first_arc)) -
                    graph_.offsets - 1);
                for (; v < graph_.vertex_count && static_cast<int64_t>(graph_.offsets[v]) < end_arc; ++v) {
                    const Offset begin = graph_.offsets[v], end = graph_.offsets[v + 1];
                    if (giant && ((bitmap[v >> 5] >> (v & 31)) & 1)) continue;
                    int64_t from = std::max<int64_t>(first_arc, static_cast<int64_t>(begin) + kSampleSlots);
                    const int64_t to = std::min<int64_t>(end_arc, end);
                    while (from < to) {
                        if (slot && (arcs == arc_room || segments == segment_room)) flush();
                        if (!slot) slot = &take(worker, turn++);
                        const int32_t take_arcs = static_cast<int32_t>(std::min<int64_t>(to - from, arc_room - arcs));
                        auto* arc_area = reinterpret_cast<int32_t*>(slot->host);
                        auto* segment_area = reinterpret_cast<int32_t*>(slot->host + work_.slot_bytes / 2);
                        segment_area[2 * segments] = v;
                        segment_area[2 * segments + 1] = arcs;
                        ++segments;
                        std::copy_n(graph_.neighbors + from, take_arcs, arc_area + arcs);
                        arcs += take_arcs;
                        from += take_arcs;
                    }
                }
            }
            if (slot) flush();
        });
        return sent;
    }

private:
    // Runs part(worker) on the gathering threads, each with the state's device current; the first
    // failure stops the others at their next block and is rethrown once every block they sent is done.
    template <class Part>
    void run_workers(const Part& part) {
        std::exception_ptr failure;
        std::mutex failure_lock;
        parallel::run(threads_, [&](int worker) {
            try {
                state_.activate();
                part(worker);
            } catch (...) {
                stop_ = true;
                std::lock_guard<std::mutex> lock(failure_lock);
                if (!failure) failure = std::current_exception();
            }
        });
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state_.stream));
        if (failure) std::rethrow_exception(failure);
    }

    // A worker's slot for its next block, once the device is done with what it held.
    Slot& take(int worker, int turn) {
        Slot& slot = work_.slots[static_cast<size_t>(2 * worker + turn % 2)];
        CCL4J_CUDA_CHECK(cudaEventSynchronize(slot.done));
        return slot;
    }

    // Uploads the slot's first `front` bytes and its `back` bytes from the middle on the copy
    // stream, and enqueues launch(device copy) on the state's stream after them.
    template <class Launch>
    void submit(Slot& slot, size_t front, size_t back, const Launch& launch) {
        std::lock_guard<std::mutex> lock(submit_lock_);
        const size_t middle = work_.slot_bytes / 2;
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(slot.device.as<char>(), slot.host, front, cudaMemcpyHostToDevice, work_.copy));
        if (back > 0) {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(slot.device.as<char>() + middle, slot.host + middle, back,
                                             cudaMemcpyHostToDevice, work_.copy));
        }
        CCL4J_CUDA_CHECK(cudaEventRecord(slot.uploaded, work_.copy));
        CCL4J_CUDA_CHECK(cudaStreamWaitEvent(state_.stream, slot.uploaded, 0));
        launch(slot.device.as<char>());
        check_launch("STREAMED link");
        CCL4J_CUDA_CHECK(cudaEventRecord(slot.done, state_.stream));
    }

    int grid(int64_t items) const { return grid_size(state_, block_, items); }

    // The sample pass reads every offset before link relies on them (offsets[0] == 0 and
    // offsets[n] == m are checked on entry): a row whose range runs backwards or past the arcs
    // stops the call before any arc of it is read.
    void check_row(int32_t v, Offset begin, Offset end) const {
        if (begin < 0 || begin > end || static_cast<int64_t>(end) > graph_.arc_count) {
            fail(CCL4J_INVALID_INPUT, "offsets[" + std::to_string(v) + "] = " + std::to_string(begin) + " and offsets[" +
                                          std::to_string(v + 1) + "] = " + std::to_string(end) +
                                          " are not a range of the " + std::to_string(graph_.arc_count) + " arcs");
        }
    }

    [[noreturn]] void bad_id(int32_t v, int64_t arc, int32_t u) const {
        fail(CCL4J_INVALID_INPUT, "neighbors[" + std::to_string(arc) + "] = " + std::to_string(u) + " (an arc of vertex " +
                                      std::to_string(v) + ") is outside [0, " + std::to_string(graph_.vertex_count) + ")");
    }

public:
    // After the link pass: the first arc of the smallest row the device found an id out of range in.
    void report_bad_row(unsigned long long row) const {
        const auto v = static_cast<int32_t>(row);
        for (int64_t arc = graph_.offsets[v]; arc < static_cast<int64_t>(graph_.offsets[v + 1]); ++arc) {
            const int32_t u = graph_.neighbors[arc];
            if (static_cast<uint32_t>(u) >= static_cast<uint32_t>(graph_.vertex_count)) bad_id(v, arc, u);
        }
    }

private:
    DeviceState& state_;
    StreamWorkspace& work_;
    const CsrView<Offset> graph_;
    const int threads_;
    const ecl::Parents parents_;
    int32_t* const giant_root_;
    unsigned long long* const bad_;
    const int block_;
    std::mutex submit_lock_;
    std::atomic<bool> stop_{false};
};

// The free memory of the current device.
int64_t device_free() {
    size_t free = 0, total = 0;
    CCL4J_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return static_cast<int64_t>(free);
}

template <class Offset>
void stream_graph(DeviceState& state, const CsrView<Offset>& graph, const LabelOptions& options, int32_t* labels,
                  PhaseLog& log) {
    const int32_t n = graph.vertex_count;
    StreamWorkspace& work = state.workspace<StreamWorkspace>();
    DeviceBuffer& parent_buffer = device_labels(state);
    // What this call may use: the budget, or what is free once the copies of in-memory calls and an
    // earlier ring are let go.
    release_graph_copy(state);
    const int64_t held = static_cast<int64_t>(parent_buffer.capacity() + work.bitmap.capacity() + work.scalars.capacity() +
                                              work.slots.size() * work.slot_bytes);
    const int64_t available = options.device_memory > 0 ? options.device_memory : device_free() + held;
    const RingShape shape = ring_shape(n, available, parallel::team_size(options.cpu_threads), options.device_memory);
    if (work.slots.size() != 2 * static_cast<size_t>(shape.threads) || work.slot_bytes != shape.slot_bytes) {
        work.release_slots();  // before the parent array grows into its room
    }
    parent_buffer.reserve(static_cast<size_t>(n) * sizeof(int32_t), "parent array");
    work.bitmap.reserve((static_cast<size_t>(n) / 32 + 1) * sizeof(uint32_t), "giant-component bitmap");
    work.scalars.reserve(16, "giant root and input check");
    work.ring(2 * static_cast<size_t>(shape.threads), shape.slot_bytes);
    int32_t* parent = parent_buffer.as<int32_t>();
    Streamer<Offset> streamer(state, work, graph, shape.threads, parent);
    const int block = block_or_default(options.block_size);

    Stopwatch clock;
    if (options.check_input) {
        check_input(Graph{n, graph.arc_count, sizeof(Offset), graph.offsets, graph.neighbors}, options.cpu_threads);
        log.add("check", clock.lap());
    }
    init_parents<<<grid_size(state, block, n), block, 0, state.stream>>>(n, parent);
    check_launch("STREAMED init");
    CCL4J_CUDA_CHECK(cudaMemsetAsync(work.scalars.as<char>() + 8, 0xff, 8, state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("init", clock.lap());

    int64_t blocks = streamer.sample();
    log.add("sample", clock.lap());

    const ecl::Parents parents(parent);
    find_giant<<<1, afforest::kSamples, 0, state.stream>>>(n, parents, work.scalars.as<int32_t>());
    check_launch("STREAMED compress (giant component)");
    afforest_device::point_to_roots_and_mark<<<grid_size(state, block, n), block, 0, state.stream>>>(
        n, parents, work.scalars.as<int32_t>(), work.bitmap.as<uint32_t>());
    check_launch("STREAMED compress");
    int32_t giant_root = -1;
    std::vector<uint32_t> bitmap(static_cast<size_t>(n) / 32 + 1);
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&giant_root, work.scalars.as<int32_t>(), sizeof(giant_root), cudaMemcpyDeviceToHost,
                                     state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    if (giant_root >= 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(bitmap.data(), work.bitmap.as<uint32_t>(), bitmap.size() * sizeof(uint32_t),
                                         cudaMemcpyDeviceToHost, state.stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    }
    log.add("compress", clock.lap());

    blocks += streamer.link(bitmap, giant_root >= 0);
    unsigned long long bad = 0;
    CCL4J_CUDA_CHECK(cudaMemcpy(&bad, work.scalars.as<char>() + 8, sizeof(bad), cudaMemcpyDeviceToHost));
    if (bad != ~0ull) streamer.report_bad_row(bad);
    log.add("link", clock.lap());

    ecl::point_to_roots<<<grid_size(state, block, n), block, 0, state.stream>>>(n, parents);
    check_launch("STREAMED finalize");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("finalize", clock.lap());
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, parent, static_cast<size_t>(n) * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                     state.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(state.stream));
    log.add("d2h", clock.lap());
    log.set_iterations(static_cast<int32_t>(std::min<int64_t>(blocks, INT32_MAX)));
}

// The device address of host memory the GPU reads in place (page-locked and mapped into its
// address space), or null.
const int32_t* device_view(const int32_t* host) {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, host) != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
    }
    return attributes.type == cudaMemoryTypeHost ? static_cast<const int32_t*>(attributes.devicePointer) : nullptr;
}

// The device memory of reading in place: parent array, offsets, Afforest's worklist and bitmap.
int64_t in_place_bytes(const Graph& graph) {
    const int64_t n = graph.vertex_count;
    return n * 4 + (n + 1) * graph.offset_width + (n + graph.arc_count / ecl::kHighChunk + 1) * 4 + n / 8 + 4096;
}

// Neighbours in page-locked memory are not copied at all: Afforest's kernels read them across the
// bus where they lie (zero-copy), the offsets copied first. Sampling reads the first arcs of
// every row, and link only the rows outside the giant component, so most of a graph with a giant
// component never crosses. Phases: h2d (the offsets), Afforest's, d2h.
void read_in_place(DeviceState& state, const Graph& graph, const int32_t* neighbors, const LabelOptions& options,
                   int32_t* labels, PhaseLog& log) {
    const int32_t n = graph.vertex_count;
    release_graph_copy(state);
    StreamWorkspace& work = state.workspace<StreamWorkspace>();
    const size_t offset_bytes = (static_cast<size_t>(n) + 1) * graph.offset_width;
    work.offsets.reserve(offset_bytes, "graph offsets");
    DeviceBuffer& parent = device_labels(state);
    parent.reserve(static_cast<size_t>(n) * sizeof(int32_t), "labels");
    const detail::DeviceCsr csr{n, graph.arc_count, graph.offset_width, work.offsets.as<void>(), neighbors};
    const PhasePlan plan = detail::afforest_plan(state, csr, parent.as<int32_t>(), options);
    drive(
        state, plan,
        [&] {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(work.offsets.as<void>(), graph.offsets, offset_bytes, cudaMemcpyHostToDevice,
                                             state.stream));
        },
        [&] {
            CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, parent.as<int32_t>(), static_cast<size_t>(n) * sizeof(int32_t),
                                             cudaMemcpyDeviceToHost, state.stream));
        },
        log);
}

}  // namespace

int64_t in_memory_device_bytes(int64_t vertex_count, int64_t arc_count, int32_t offset_width) {
    // The copy of the CSR, the labels, and the worklist and bitmap of ECL-CC and Afforest.
    const int64_t n = vertex_count;
    if (n == 0) return 0;
    return (n + 1) * offset_width + arc_count * 4 + n * 4 + (n + arc_count / ecl::kHighChunk + 1) * 4 + n / 8 + 4096;
}

int64_t device_memory_available(DeviceState& state, int64_t budget) {
    if (budget > 0) return budget;
    state.activate();
    return device_free();
}

bool readable_in_place(const Graph& graph, int64_t budget) {
    if (graph.vertex_count == 0 || !device_view(graph.neighbors)) return false;
    return in_place_bytes(graph) <= (budget > 0 ? budget : device_free());
}

void label_streamed(DeviceState& state, const Graph& graph, const LabelOptions& options, int32_t* labels,
                    PhaseLog& log) {
    if (graph.vertex_count == 0) {
        for (const char* phase : {"init", "sample", "compress", "link", "finalize", "d2h"}) log.add(phase, 0);
        return;
    }
    state.activate();
    if (readable_in_place(graph, options.device_memory)) {
        if (options.check_input) {
            Stopwatch check;
            check_input(graph, options.cpu_threads);
            log.add("check", check.lap());
        }
        return read_in_place(state, graph, device_view(graph.neighbors), options, labels, log);
    }
    graph.visit([&](const auto& csr) { stream_graph(state, csr, options, labels, log); });
}

}  // namespace ccl4j::cuda
