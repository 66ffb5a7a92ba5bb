// Named phase times and iteration counts, filled by every backend into ccl4j_timings, and the
// call's progress report, where the caller asked for one.
#pragma once

#include <chrono>
#include <cstring>

#include "ccl4j.h"
#include "common/progress.hpp"

namespace ccl4j {

class PhaseLog {
public:
    explicit PhaseLog(ccl4j_timings* out, ProgressReport* progress = nullptr) : out_(out), progress_(progress) {
        if (out_) std::memset(out_, 0, sizeof(*out_));
    }

    // The call's progress report, or null: what streams reports as it goes.
    ProgressReport* progress() const { return progress_; }

    void add(const char* name, double ms) {
        if (!out_ || out_->phase_count >= CCL4J_MAX_PHASES) return;
        ccl4j_phase_time& p = out_->phases[out_->phase_count++];
        std::strncpy(p.name, name, CCL4J_PHASE_NAME_SIZE - 1);
        p.name[CCL4J_PHASE_NAME_SIZE - 1] = '\0';
        p.ms = ms;
    }
    void set_iterations(int32_t n) {
        if (out_) out_->iterations = n;
    }
    void set_total(double ms) {
        if (out_) out_->total_ms = ms;
    }
    void set_resolved(ccl4j_backend backend, ccl4j_algorithm algorithm) {
        if (!out_) return;
        out_->backend = backend;
        out_->algorithm = algorithm;
    }

private:
    ccl4j_timings* out_;
    ProgressReport* progress_;
};

// Host wall-clock stopwatch for CPU phases.
class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    // Milliseconds since construction or the last lap, and restarts.
    double lap() {
        auto now = std::chrono::steady_clock::now();
        double ms = std::chrono::duration<double, std::milli>(now - start_).count();
        start_ = now;
        return ms;
    }

private:
    std::chrono::steady_clock::time_point start_;
};

}  // namespace ccl4j
