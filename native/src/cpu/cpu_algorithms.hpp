// CPU labelling algorithms. Each writes canonical labels (smallest vertex id of the component)
// for graph.vertex_count vertices and records its phases in the log.
#pragma once

#include <cstdint>

#include "common/csr.hpp"
#include "common/phase_log.hpp"
#include "common/phases.hpp"

namespace ccl4j::cpu {

// ECL-CC (Jaiganesh & Burtscher 2018), one thread.
void ecl_cc_serial(const Graph& graph, int32_t* labels, PhaseLog& log);

// ECL-CC on `threads` threads; threads = 0 uses the free ones (parallel::team_size).
void ecl_cc_parallel(const Graph& graph, int32_t* labels, int threads, PhaseLog& log);

// ECL-CC's phases on `parent` (vertex_count entries), which ends up holding the labels: init,
// compute, finalize. threads = 1 gives the serial version, 0 the free processors; the plan is what
// the two functions above run.
PhasePlan ecl_cc_plan(const Graph& graph, int32_t* parent, int threads);

// Afforest (Sutton, Ben-Nun & Barak 2018) on `parent` (vertex_count entries), which ends up
// holding the labels: init, sample, compress, link, finalize (cpu/afforest.cpp). threads = 1 is
// serial, 0 uses the free processors (parallel::team_size).
PhasePlan afforest_plan(const Graph& graph, int32_t* parent, int threads);

// Hawick, Leist & Playne 2010, Algorithm 1: colour each uncoloured vertex's component by
// depth-first search, with an explicit stack (no recursion). Phases: label.
void hawick_reference(const Graph& graph, int32_t* labels, PhaseLog& log);
// As a plan: label.
PhasePlan hawick_reference_plan(const Graph& graph, int32_t* labels, PhaseLog& log);

}  // namespace ccl4j::cpu

namespace ccl4j::cpu {

// The iteration limit of a fixpoint loop: max_iterations, or vertex_count + 2 when it is 0 (no
// correct run of Hawick's kernels needs more). Clamped so that iteration numbers fit in int32_t.
inline int32_t iteration_limit(int32_t max_iterations, int32_t vertex_count) {
    const int64_t limit = max_iterations > 0 ? max_iterations : static_cast<int64_t>(vertex_count) + 2;
    return static_cast<int32_t>(limit < INT32_MAX - 1 ? limit : INT32_MAX - 1);
}

// Hawick, Leist & Playne 2010, Kernels 1-3 (section 4.3) as serial loops with the same steps as
// the GPU versions. Each throws Error(CCL4J_NOT_CONVERGED) when its loop would need more than
// iteration_limit(max_iterations, n) iterations, and reports the iterations it ran in the log.
//
// The *_plan forms here and above (except ecl_cc_plan) build the same work as phases
// (common/phases.hpp) over the graph's arrays and `labels`, which must outlive the plan; each
// phase logs what the whole call logs for it to `log` (which must outlive the plan too), a
// fixpoint loop is one phase (the whole loop; it returns its iterations), and running the phases
// in order is the whole call.

// Kernel 1: sweeps over the edge list lowering the larger colour of each edge to the smaller,
// each sweep followed by the resolution of colour chains (the analysis of Kernel D, section
// 5.2.4), until a sweep changes nothing. Phases: init, propagate.
void hawick_edge(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log);
// As a plan: init, propagate.
PhasePlan hawick_edge_plan(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log);

// Kernel 2: the same on the adjacency lists of the vertices flagged in the current frontier
// array, flagging in the next one every vertex whose colour changed. Phases: init, propagate.
void hawick_vertex(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log);
// As a plan: init, propagate.
PhasePlan hawick_vertex_plan(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log);

// Kernel 3: one breadth-first search per component, level by level with a current and a next
// frontier; each iteration expands one level, or starts the search of the next component from
// its smallest vertex. Phases: init, search.
void hawick_bfs(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log);
// As a plan: init, search.
PhasePlan hawick_bfs_plan(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log);

// Komura 2016 (section 3): initialisation with residual lists, analysis, label reduction
// (Algorithm 1), analysis. No fixpoint loop. Phases: init, analysis1, reduction, analysis2.
void komura(const Graph& graph, int32_t* labels, PhaseLog& log);
// As a plan: init, analysis1, reduction, analysis2.
PhasePlan komura_plan(const Graph& graph, int32_t* labels, PhaseLog& log);

}  // namespace ccl4j::cpu
