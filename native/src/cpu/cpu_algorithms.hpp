// CPU labelling algorithms. Each writes canonical labels (smallest vertex id of the component)
// for graph.vertex_count vertices and records its phases in the log.
#pragma once

#include <cstdint>

#include "common/csr.hpp"
#include "common/phase_log.hpp"

namespace ccl4j::cpu {

// ECL-CC (Jaiganesh & Burtscher 2018), one thread.
void ecl_cc_serial(const Graph& graph, int32_t* labels, PhaseLog& log);

// ECL-CC with OpenMP; threads = 0 uses all available.
void ecl_cc_parallel(const Graph& graph, int32_t* labels, int threads, PhaseLog& log);

// Hawick, Leist & Playne 2010, Algorithm 1: colour each uncoloured vertex's component by
// depth-first search, with an explicit stack (no recursion).
void hawick_reference(const Graph& graph, int32_t* labels, PhaseLog& log);

}  // namespace ccl4j::cpu
