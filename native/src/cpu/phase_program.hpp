// The per-phase runs of ccl4j.h on the CPU: a plan over labels of its own.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "common/phase_log.hpp"
#include "common/phases.hpp"

namespace ccl4j::cpu {

// A CPU algorithm's plan over labels of its own, timed with a steady clock; its phases log to a
// log that goes nowhere. build(labels, log) makes the plan (labels has label_count entries).
// `input` is kept alive as long as the program: what the plan reads when the program owns it (a
// packed copy of a strided mesh), else null.
class PlanProgram final : public PhaseProgram {
public:
    template <class Build>
    PlanProgram(int64_t label_count, Build build, std::shared_ptr<const void> input = nullptr)
        : input_(std::move(input)), labels_(static_cast<size_t>(label_count)) {
        plan_ = build(labels_.data(), log_);
    }

    double run_timed(int i, int32_t& iterations) override {
        Stopwatch watch;
        iterations = plan_[i].run();
        return watch.lap();
    }

    void run_untimed(int end) override {
        for (int i = 0; i < end; ++i) plan_[i].run();
    }

    void read_labels(int32_t* labels) override { std::memcpy(labels, labels_.data(), labels_.size() * sizeof(int32_t)); }

private:
    std::shared_ptr<const void> input_;
    PhaseLog log_{nullptr};
    std::vector<int32_t> labels_;
};

}  // namespace ccl4j::cpu
