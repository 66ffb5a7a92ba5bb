// The per-phase run behind ccl4j_phase_run, shared by the graph (api_phases.cpp) and mesh
// (api_mesh.cpp) entry points that create one.
#pragma once

#include <cstdint>

#include "api/context.hpp"
#include "ccl4j.h"
#include "ccl4j/bench.h"
#include "common/phases.hpp"

struct ccl4j_phase_run_s {
    ccl4j_context context;  // the context it was created on, the only one it runs with
    ccl4j::PhaseProgramPtr program;
    // The phase the state is ready for (phases 0..ready-1 ran last, in order); -1 after a
    // failure left it unknown.
    int32_t ready = 0;
};
