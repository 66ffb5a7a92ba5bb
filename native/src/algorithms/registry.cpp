// The table of algorithms (registry.hpp). One entry per algorithm; the small adapters below fit
// each backend's plan function to the table's signatures.
#include "algorithms/registry.hpp"

#include <string>

#include "common/error.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cpu/mesh_cpu.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/graph_kernels.hpp"
#include "cuda/mesh_kernels.hpp"
#endif

namespace ccl4j::algorithms {
namespace {

// ---- CPU adapters -------------------------------------------------------------------------------

// ECL-CC's and Afforest's CPU plans do not log; labelling logs each phase's time around it.
PhasePlan logged(PhasePlan plan, PhaseLog& log) {
    for (Phase& phase : plan) {
        phase.run = [run = std::move(phase.run), name = phase.name, &log] {
            Stopwatch watch;
            const int32_t iterations = run();
            log.add(name.c_str(), watch.lap());
            return iterations;
        };
    }
    return plan;
}
PhasePlan ecl_cc_cpu(const Graph& g, const LabelOptions&, int threads, int32_t* labels, PhaseLog& log) {
    return logged(cpu::ecl_cc_plan(g, labels, threads), log);
}
PhasePlan afforest_cpu(const Graph& g, const LabelOptions&, int threads, int32_t* labels, PhaseLog& log) {
    return logged(cpu::afforest_plan(g, labels, threads), log);
}
PhasePlan hawick_reference_cpu(const Graph& g, const LabelOptions&, int, int32_t* labels, PhaseLog& log) {
    return cpu::hawick_reference_plan(g, labels, log);
}
// Hawick's kernels and Komura's algorithm are serial on both CPU backends.
PhasePlan hawick_edge_cpu(const Graph& g, const LabelOptions& o, int, int32_t* labels, PhaseLog& log) {
    return cpu::hawick_edge_plan(g, labels, o.max_iterations, log);
}
PhasePlan hawick_vertex_cpu(const Graph& g, const LabelOptions& o, int, int32_t* labels, PhaseLog& log) {
    return cpu::hawick_vertex_plan(g, labels, o.max_iterations, log);
}
PhasePlan hawick_bfs_cpu(const Graph& g, const LabelOptions& o, int, int32_t* labels, PhaseLog& log) {
    return cpu::hawick_bfs_plan(g, labels, o.max_iterations, log);
}
PhasePlan komura_cpu(const Graph& g, const LabelOptions&, int, int32_t* labels, PhaseLog& log) {
    return cpu::komura_plan(g, labels, log);
}
PhasePlan mesh_raster_cpu(const Mesh& m, const MeshOptions& o, int, int32_t* labels, PhaseLog& log) {
    return cpu::mesh_raster_plan(m, labels, o.tuning.max_iterations, log);
}
PhasePlan mesh_equivalence_cpu(const Mesh& m, const MeshOptions& o, int, int32_t* labels, PhaseLog& log) {
    return cpu::mesh_equivalence_plan(m, labels, o.tuning.max_iterations, log);
}
PhasePlan mesh_parallel_cpu(const Mesh& m, const MeshOptions&, int threads, int32_t* labels, PhaseLog& log) {
    return cpu::mesh_parallel_plan(m, labels, threads, log);
}
PhasePlan mesh_parallel_cpu_wide(const Mesh& m, const MeshOptions&, int threads, int64_t* labels, PhaseLog& log) {
    return cpu::mesh_parallel_plan(m, labels, threads, log);
}

// ---- entries ------------------------------------------------------------------------------------

Algorithm graph(ccl4j_algorithm id, const char* name, unsigned backends, GraphCpuPlan cpu,
                std::vector<std::string> cuda_phases = {}, GraphCudaPlan cuda = nullptr) {
    Algorithm a{id, name, Kind::Graph, backends, std::move(cuda_phases)};
    a.graph_cpu = cpu;
    a.graph_cuda = cuda;
    return a;
}

Algorithm streamed(ccl4j_algorithm id, const char* name, GraphStreamedRun run) {
    Algorithm a{id, name, Kind::Graph, kCuda, {"init", "sample", "compress", "link", "finalize"}};
    a.graph_streamed = run;
    return a;
}

Algorithm mesh(ccl4j_algorithm id, const char* name, MeshCpuPlan cpu, MeshCudaPlan cuda,
               MeshCpuWidePlan cpu_wide = nullptr, MeshCudaPlan cuda_wide = nullptr, MeshCudaPlan cuda_tree = nullptr) {
    Algorithm a{id, name, Kind::Mesh, cpu ? kCpu : kCuda, {}};
    a.mesh_cpu = cpu;
    a.mesh_cuda = cuda;
    a.mesh_cpu_wide = cpu_wide;
    a.mesh_cuda_wide = cuda_wide;
    a.mesh_cuda_tree = cuda_tree;
    return a;
}

// The CUDA functions of an entry, or null in a build without CUDA.
#ifdef CCL4J_WITH_CUDA
#define CCL4J_CUDA_FN(f) (f)
#else
#define CCL4J_CUDA_FN(f) nullptr
#endif

std::vector<Algorithm> table() {
    return {
        // Graph algorithms (CSR): papers and phases in cpu/cpu_algorithms.hpp and cuda/graph_kernels.hpp.
        graph(CCL4J_ALGORITHM_ECL_CC, "ECL_CC", kCpu | kCuda, ecl_cc_cpu,
              {"init", "compute1", "compute2", "compute3", "finalize"}, CCL4J_CUDA_FN(cuda::detail::ecl_cc_plan)),
        graph(CCL4J_ALGORITHM_CPU_REFERENCE, "CPU_REFERENCE", kCpu, hawick_reference_cpu),
        graph(CCL4J_ALGORITHM_HAWICK_EDGE, "HAWICK_EDGE", kCpu | kCuda, hawick_edge_cpu, {"init", "propagate"},
              CCL4J_CUDA_FN(cuda::detail::hawick_edge_plan)),
        graph(CCL4J_ALGORITHM_HAWICK_VERTEX, "HAWICK_VERTEX", kCpu | kCuda, hawick_vertex_cpu, {"init", "propagate"},
              CCL4J_CUDA_FN(cuda::detail::hawick_vertex_plan)),
        graph(CCL4J_ALGORITHM_HAWICK_BFS, "HAWICK_BFS", kCpu | kCuda, hawick_bfs_cpu, {"init", "search"},
              CCL4J_CUDA_FN(cuda::detail::hawick_bfs_plan)),
        graph(CCL4J_ALGORITHM_KOMURA, "KOMURA", kCpu | kCuda, komura_cpu,
              {"init", "analysis1", "reduction", "analysis2"}, CCL4J_CUDA_FN(cuda::detail::komura_plan)),
        graph(CCL4J_ALGORITHM_AFFOREST, "AFFOREST", kCpu | kCuda, afforest_cpu,
              {"init", "sample", "compress", "link", "finalize"}, CCL4J_CUDA_FN(cuda::detail::afforest_plan)),
        streamed(CCL4J_ALGORITHM_STREAMED, "STREAMED", CCL4J_CUDA_FN(cuda::label_streamed)),
        // Mesh algorithms: GPU ones in cuda/mesh_device.cuh, CPU ones in cpu/mesh_cpu.hpp.
        mesh(CCL4J_ALGORITHM_MESH_NEIGHBOR, "MESH_NEIGHBOR", nullptr, CCL4J_CUDA_FN(cuda::mesh::neighbour_propagation)),
        mesh(CCL4J_ALGORITHM_MESH_LOCAL, "MESH_LOCAL", nullptr, CCL4J_CUDA_FN(cuda::mesh::local_propagation)),
        mesh(CCL4J_ALGORITHM_MESH_DIRECTIONAL, "MESH_DIRECTIONAL", nullptr,
             CCL4J_CUDA_FN(cuda::mesh::directional_propagation)),
        mesh(CCL4J_ALGORITHM_MESH_EQUIVALENCE, "MESH_EQUIVALENCE", nullptr, CCL4J_CUDA_FN(cuda::mesh::label_equivalence)),
        mesh(CCL4J_ALGORITHM_MESH_KOMURA, "MESH_KOMURA", nullptr, CCL4J_CUDA_FN(cuda::mesh::komura_lattice)),
        mesh(CCL4J_ALGORITHM_MESH_UNION_FIND, "MESH_UNION_FIND", nullptr, CCL4J_CUDA_FN(cuda::mesh::block_union_find),
             nullptr, CCL4J_CUDA_FN(cuda::mesh::block_union_find_wide), CCL4J_CUDA_FN(cuda::mesh::block_union_find_tree)),
        mesh(CCL4J_ALGORITHM_MESH_CPU_RASTER, "MESH_CPU_RASTER", mesh_raster_cpu, nullptr),
        mesh(CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE, "MESH_CPU_EQUIVALENCE", mesh_equivalence_cpu, nullptr),
        mesh(CCL4J_ALGORITHM_MESH_CPU_PARALLEL, "MESH_CPU_PARALLEL", mesh_parallel_cpu, nullptr, mesh_parallel_cpu_wide),
    };
}

#undef CCL4J_CUDA_FN

}  // namespace

const std::vector<Algorithm>& all() {
    static const std::vector<Algorithm> algorithms = table();
    return algorithms;
}

const Algorithm* find(ccl4j_algorithm id) {
    for (const Algorithm& a : all()) {
        if (a.id == id) return &a;
    }
    return nullptr;
}

ccl4j_algorithm default_graph_algorithm(bool cuda, int64_t vertex_count, int64_t arc_count, HostGraphPlace place) {
    // The CPU: Afforest (BENCHMARKS.md, "CPU_PARALLEL against GAPBS"). The GPU: Afforest where a
    // vertex has more than three arcs on average, beyond the two it samples and the one ECL-CC's
    // init follows; with fewer there is nothing for it to skip, and ECL-CC's one pass over the
    // arcs is faster (BENCHMARKS.md, "Afforest on the GPU").
    if (!cuda) return CCL4J_ALGORITHM_AFFOREST;
    // A graph that does not fit the device crosses the bus in blocks; one in page-locked memory
    // with at least 48 arcs a vertex is read in place, where sampling leaves most of its arcs on
    // the host: end-to-end 4.4 ms against 13.6 ms copied (kron21, 80 arcs a vertex). Below, the
    // reads of every row's first arcs across the bus (about 0.5 G rows a second and pass) cost
    // about what copying the rows does: 223.7 against 194.7 ms copied at 46 arcs a vertex
    // (2.2 G arcs), 8.0 against 6.4 ms at 16 (powerlaw_2e22), though 4.0 against 6.3 ms on
    // rmat22, whose many empty rows cost nothing (BENCHMARKS.md, "Graphs larger than the GPU",
    // "Larger than the GPU: 46 G arcs").
    if (!place.fits || (place.readable_in_place && arc_count >= 48 * vertex_count)) return CCL4J_ALGORITHM_STREAMED;
    return arc_count > 3 * vertex_count ? CCL4J_ALGORITHM_AFFOREST : CCL4J_ALGORITHM_ECL_CC;
}

ccl4j_algorithm default_mesh_algorithm(bool cuda) {
    return cuda ? CCL4J_ALGORITHM_MESH_UNION_FIND : CCL4J_ALGORITHM_MESH_CPU_PARALLEL;
}

ccl4j_algorithm first_id(Kind kind) {
    ccl4j_algorithm first = INT32_MAX;
    for (const Algorithm& a : all()) {
        if (a.kind == kind && a.id < first) first = a.id;
    }
    return first;
}

ccl4j_algorithm last_id(Kind kind) {
    ccl4j_algorithm last = 0;
    for (const Algorithm& a : all()) {
        if (a.kind == kind && a.id > last) last = a.id;
    }
    return last;
}

const Algorithm& cuda_graph_algorithm(ccl4j_algorithm id, bool resident) {
    const Algorithm* a = find(id);
    if (a && a->graph_streamed && resident) {
        fail(CCL4J_UNSUPPORTED, a->label() + " labels host graphs as they cross the bus; a graph on the device is "
                                             "labelled in place by AUTO, ECL_CC or AFFOREST");
    }
    if (!a || a->kind != Kind::Graph || !(a->graph_cuda || a->graph_streamed)) {
        fail(CCL4J_UNSUPPORTED, "algorithm " + std::to_string(id) + " has no CUDA implementation");
    }
    return *a;
}

const Algorithm& cuda_mesh_algorithm(ccl4j_algorithm id) {
    const Algorithm* a = find(id);
    if (!a || a->kind != Kind::Mesh || !a->mesh_cuda) {
        fail(CCL4J_UNSUPPORTED, "algorithm " + std::to_string(id) + " is not a CUDA mesh algorithm");
    }
    return *a;
}

void check_wide_labels(const Algorithm& algorithm, bool cuda) {
    const auto writes_wide = [cuda](const Algorithm& a) {
        return cuda ? a.mesh_cuda_wide != nullptr : a.mesh_cpu_wide != nullptr;
    };
    if (writes_wide(algorithm)) return;
    std::string writers;
    for (const Algorithm& a : all()) {
        if (writes_wide(a)) writers += (writers.empty() ? "" : ", ") + std::string(a.name);
    }
    fail(CCL4J_UNSUPPORTED, algorithm.label() + " writes int32 labels only; int64 labels (ccl4j_label_mesh64) are " +
                                (cuda ? "written on CUDA by " : "written on the CPU backends by ") + writers);
}

}  // namespace ccl4j::algorithms
