// The one table of algorithms: id -> name, kind (graph or mesh), the backends it runs on, and the
// plan each backend builds. Labelling, per-phase runs and the option checks of the ABI all read
// it, so that adding an algorithm is its own files plus one entry in registry.cpp (and one Java
// enum constant of the same name; see CONTRIBUTING.md).
//
// Each backend reads the table in one place:
//   CPU graph plans   api::cpu_graph_plan (api/api.cpp)
//   CPU mesh plans    cpu_plan (api/api_mesh.cpp)
//   CUDA graph plans  entry and builder (cuda/graph_label.cu)
//   CUDA mesh plans   plan_of (cuda/mesh_label.cu)
// and the one GPU host driver (cuda/driver.hpp) runs the CUDA plans of both kinds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "common/csr.hpp"
#include "common/mesh.hpp"
#include "common/phase_log.hpp"
#include "common/phases.hpp"
#include "core/options.hpp"

namespace ccl4j::cuda {
class DeviceState;
namespace detail {
struct DeviceCsr;
}
namespace mesh {
struct Call;
}
}  // namespace ccl4j::cuda

namespace ccl4j::algorithms {

enum class Kind { Graph, Mesh };

// Backend bits of Algorithm::backends.
constexpr unsigned kCpu = 1;   // CPU_PARALLEL and CPU_SERIAL
constexpr unsigned kCuda = 2;  // CUDA

// A graph algorithm's CPU plan for graph.vertex_count > 0 or not; threads is 1 on CPU_SERIAL and
// options.cpu_threads (0 = all) on CPU_PARALLEL. Its phases log their times (and a fixpoint loop
// its iterations) to `log`; running them in order is a labelling call.
using GraphCpuPlan = PhasePlan (*)(const Graph& graph, const LabelOptions& options, int threads, int32_t* labels,
                                   PhaseLog& log);
// A graph algorithm's CUDA plan for a non-empty graph on the device: the phases enqueue their work
// on state.stream and leave the canonical labels in `labels` (device; cuda/graph_kernels.hpp).
using GraphCudaPlan = PhasePlan (*)(cuda::DeviceState& state, const cuda::detail::DeviceCsr& graph, int32_t* labels,
                                    const LabelOptions& options);
// A graph algorithm that labels a host graph on the GPU without a copy of it there (STREAMED):
// the whole call, phases logged to `log`.
using GraphStreamedRun = void (*)(cuda::DeviceState& state, const Graph& graph, const LabelOptions& options,
                                  int32_t* labels, PhaseLog& log);
// A mesh algorithm's CPU plan over a dense mesh; threads as for graphs.
using MeshCpuPlan = PhasePlan (*)(const Mesh& mesh, const MeshOptions& options, int threads, int32_t* labels,
                                  PhaseLog& log);
// The same into int64 labels (ccl4j_label_mesh64), for meshes of any cell count.
using MeshCpuWidePlan = PhasePlan (*)(const Mesh& mesh, const MeshOptions& options, int threads, int64_t* labels,
                                      PhaseLog& log);
// A mesh algorithm's CUDA plan over the call's buffers (cuda/mesh_device.cuh): into call.labels,
// or for a wide entry into call.wide_labels.
using MeshCudaPlan = PhasePlan (*)(cuda::mesh::Call& call);

struct Algorithm {
    ccl4j_algorithm id;  // CCL4J_ALGORITHM_<name> of ccl4j.h
    const char* name;    // as ccl4j.h and Java's Algorithm enum name it, e.g. "HAWICK_EDGE"
    Kind kind;
    unsigned backends;   // kCpu | kCuda; what the algorithm runs on in a build with CUDA
    // The CUDA plan's phases as labelling logs them between h2d and d2h (graph algorithms; an
    // empty graph logs them as 0 ms). The CPU plans name their phases themselves.
    std::vector<std::string> cuda_phases;
    // Null where the backend has no version, or (CUDA) the library was built without it.
    GraphCpuPlan graph_cpu = nullptr;
    GraphCudaPlan graph_cuda = nullptr;
    GraphStreamedRun graph_streamed = nullptr;
    MeshCpuPlan mesh_cpu = nullptr;
    MeshCudaPlan mesh_cuda = nullptr;
    // Int64 labels (ccl4j_label_mesh64): null where the algorithm writes int32 labels only.
    MeshCpuWidePlan mesh_cpu_wide = nullptr;
    MeshCudaPlan mesh_cuda_wide = nullptr;
    // The CUDA plan without its finalize, leaving a union-find tree in call.scratch whose cells
    // point into their own tiles (cuda::mesh::block_union_find_tree), from which statistics
    // finalize the labels and compute the rows in one pass; null where the algorithm leaves none.
    MeshCudaPlan mesh_cuda_tree = nullptr;

    bool runs_on_cpu() const { return (backends & kCpu) != 0; }
    bool runs_on_cuda() const { return (backends & kCuda) != 0; }
    bool has_cuda_version() const { return graph_cuda || graph_streamed || mesh_cuda; }
    // "MESH_KOMURA (20)": for messages.
    std::string label() const { return std::string(name) + " (" + std::to_string(id) + ")"; }
};

// Every algorithm, graph ones first, each kind in increasing id.
const std::vector<Algorithm>& all();

// The algorithm with this id; nullptr for AUTO and unknown ids.
const Algorithm* find(ccl4j_algorithm id);

// Where a host graph labelled on CUDA lies: whether its copy fits the device memory the call may
// use, and whether the GPU can read its neighbours in place (page-locked memory). A resident graph
// fits and is not read in place.
struct HostGraphPlace {
    bool fits = true;
    bool readable_in_place = false;
};

// What AUTO labels a graph of vertex_count vertices and arc_count arcs with on a backend (cuda:
// a CUDA context), and a mesh with.
ccl4j_algorithm default_graph_algorithm(bool cuda, int64_t vertex_count, int64_t arc_count,
                                        HostGraphPlace place = {});
ccl4j_algorithm default_mesh_algorithm(bool cuda);

// The smallest and largest id of a kind, for messages.
ccl4j_algorithm first_id(Kind kind);
ccl4j_algorithm last_id(Kind kind);

// The entry of a graph algorithm for the CUDA backend. Throws Error(CCL4J_UNSUPPORTED) when it
// has no CUDA version (Hawick's CPU reference, a mesh algorithm, or a build without CUDA), or
// (resident: a graph already on the device) streams host graphs only.
const Algorithm& cuda_graph_algorithm(ccl4j_algorithm id, bool resident = false);
// The entry of a GPU mesh algorithm; Error(CCL4J_UNSUPPORTED) for any other id.
const Algorithm& cuda_mesh_algorithm(ccl4j_algorithm id);
// Throws Error(CCL4J_UNSUPPORTED) unless the mesh algorithm writes int64 labels on the backend.
void check_wide_labels(const Algorithm& algorithm, bool cuda);

}  // namespace ccl4j::algorithms
