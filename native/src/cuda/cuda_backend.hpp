// The CUDA backend as the rest of the library sees it. Only compiled with CCL4J_WITH_CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ccl4j.h"
#include "common/csr.hpp"
#include "common/edges.hpp"
#include "common/phase_log.hpp"
#include "common/phases.hpp"
#include "core/options.hpp"

namespace ccl4j::cuda {

// CUDA runtime version (e.g. 13000), driver version (0 without a driver), device count (0 when
// there is no driver or no device). None of these throws.
int runtime_version();
int driver_version();
int device_count();
// Fills out for device `index`; throws Error(CCL4J_INVALID_ARGUMENT) for a bad index.
void device_info(int index, ccl4j_device_info* out);

// Page-locked host memory; returns nullptr when it cannot be had (no driver, no memory).
void* pinned_alloc(size_t bytes);
// True if p was returned by pinned_alloc; frees it then.
bool pinned_free(void* p);

// Per-context device state: the device, a stream, events, and device buffers that are reused
// across calls and grown when needed.
class DeviceState;
struct DeviceStateDeleter {
    void operator()(DeviceState* state) const;
};
using DeviceStatePtr = std::unique_ptr<DeviceState, DeviceStateDeleter>;

// Throws Error(CCL4J_BACKEND_UNAVAILABLE) when the device cannot be used.
DeviceStatePtr create_state(int device);

// A graph resident on the device of the state it was created with.
class DeviceGraph;
struct DeviceGraphDeleter {
    void operator()(DeviceGraph* graph) const;
};
using DeviceGraphPtr = std::unique_ptr<DeviceGraph, DeviceGraphDeleter>;

// Uploads; returns the h2d time in ms through h2d_ms.
DeviceGraphPtr upload(DeviceState& state, const Graph& graph, double* h2d_ms);
int32_t vertex_count(const DeviceGraph& graph);
int64_t arc_count(const DeviceGraph& graph);

// Labels a host graph (copied to the device, labels copied back) or a resident graph (labels may
// be nullptr to leave them on the device) with options.algorithm (resolved, not AUTO) on the GPU:
// the registry's CUDA plan run by the driver (graph_label.cu). Phases: h2d (host graphs), the
// plan's, d2h. Error(CCL4J_UNSUPPORTED) for an algorithm without a GPU version.
void label(DeviceState& state, const Graph& graph, const LabelOptions& options, int32_t* labels, PhaseLog& log);
void label(DeviceState& state, const DeviceGraph& graph, const LabelOptions& options, int32_t* labels,
           PhaseLog& log);

// STREAMED (graph_stream.cu): labels a host graph whose arcs cross the bus in blocks, each at
// most once, while it is labelled; only the parent array (4 bytes a vertex) and a bitmap stay on
// the device, within options.device_memory when positive. Phases: init, sample, compress, link,
// finalize, d2h; iterations: the blocks sent. Error(CCL4J_OUT_OF_MEMORY) naming both sizes when
// the parent array and two staging buffers do not fit; Error(CCL4J_INVALID_INPUT) naming the
// offsets or the arc of an id out of range.
void label_streamed(DeviceState& state, const Graph& graph, const LabelOptions& options, int32_t* labels,
                    PhaseLog& log);
// STREAMED across several devices (graph_multi_gpu.cu; states may share a device): the graph's rows
// and arcs shared out among them, each streaming its share into a forest of its own, the forests
// merged over peer copies into the first. Labels and errors as label_streamed's. Phases: init,
// sample, merge samples, compress, broadcast, link, merge forests, finalize, d2h, then each
// device's "sample g" and "link g" (g its place in `states`). One state, or a graph the first
// device reads in place (readable_in_place): label_streamed on the first.
void label_streamed_across(const std::vector<DeviceState*>& states, const Graph& graph, const LabelOptions& options,
                           int32_t* labels, PhaseLog& log);
// Lets each device of `states` read the others' memory directly where the hardware allows (NVLink
// or PCIe peer to peer); elsewhere peer copies go through host memory.
void enable_peer_access(const std::vector<DeviceState*>& states);
// The device memory labelling a host graph in memory takes (its copy, labels, working arrays), and
// what a call may use: `budget` when positive, else the device's free memory.
int64_t in_memory_device_bytes(int64_t vertex_count, int64_t arc_count, int32_t offset_width);
int64_t device_memory_available(DeviceState& state, int64_t budget);
// Whether STREAMED reads the graph's neighbours in place (page-locked memory, and room on the
// device for its offsets and working arrays within `budget`, 0 = the free memory).
bool readable_in_place(const Graph& graph, int64_t budget);

// Labels a host edge list (copied to the device, labels copied back) by the edge-list union-find
// (edge_union_find.cu). Phases: h2d, init, link, finalize, d2h. Error(CCL4J_INVALID_INPUT)
// naming the first edge with an id out of range; Error(CCL4J_OUT_OF_MEMORY) when the edges and
// labels do not fit the device.
void label_edges(DeviceState& state, const EdgeList& edges, const LabelOptions& options, int32_t* labels,
                 PhaseLog& log);

// The per-phase runs of ccl4j.h: the plan of options.algorithm (resolved) on a resident, non-empty
// graph, with a state of its own (stream, events, work buffers) on the graph's device, so that
// labelling calls on `state` leave it alone. The graph must outlive the program.
PhaseProgramPtr phase_program(const DeviceState& state, const DeviceGraph& graph, const LabelOptions& options);

// Copies `bytes` of host memory to a device buffer of its own, waits, and returns the copy's
// time in ms (CUDA events): the transfer benchmark.
double copy_to_device(DeviceState& state, const void* host, size_t bytes);

}  // namespace ccl4j::cuda
