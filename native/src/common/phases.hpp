// An algorithm as a sequence of named phases, so that the phases can be run one at a time (the
// per-phase runs of ccl4j.h, for benchmarks) as well as all together (labelling). Each backend
// builds its algorithms' plans once per graph and state; a plan's phases capture their buffers.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ccl4j {

struct Phase {
    std::string name;
    // Runs (CPU) or enqueues (CUDA: on the state's stream; a fixpoint loop may wait for the device
    // between its launches) the phase; returns the iterations of its fixpoint loop, 0 for none.
    std::function<int32_t()> run;
};

using PhasePlan = std::vector<Phase>;

// A plan with its work state, behind the per-phase runs of the ABI: each backend times a phase
// its own way (CUDA events, a steady clock) and knows where its labels lie.
class PhaseProgram {
public:
    virtual ~PhaseProgram() = default;
    const PhasePlan& plan() const { return plan_; }
    // Runs phase i and waits for it; returns its time in ms.
    virtual double run_timed(int i, int32_t& iterations) = 0;
    // Runs phases [0, end) untimed and waits for them.
    virtual void run_untimed(int end) = 0;
    // Copies the vertex_count labels as the phases left them to host memory.
    virtual void read_labels(int32_t* labels) = 0;

protected:
    PhasePlan plan_;
};

using PhaseProgramPtr = std::unique_ptr<PhaseProgram>;

}  // namespace ccl4j
