// The progress of one labelling call, reported to the caller's ccl4j_progress_fn
// (ccl4j_label_options.progress): units done of a known total, one call at a time, at most about
// once per 1/256 of the total, the first as soon as any unit is done.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>

#include "ccl4j.h"

namespace ccl4j {

class ProgressReport {
public:
    ProgressReport(ccl4j_progress_fn listener, void* user, int64_t total)
        : listener_(listener), user_(user), total_(total), step_(std::max<int64_t>(1, total / 256)) {}

    // `units` more are done, the last of them in `stage` (a string literal); any thread.
    void advance(const char* stage, int64_t units) {
        if (!listener_) return;
        std::lock_guard<std::mutex> lock(lock_);
        done_ = std::min(total_, done_ + units);
        if (done_ < next_) return;
        next_ = done_ + step_;
        listener_(user_, stage, done_, total_);
    }

    // The call succeeded: the one last report.
    void finish() {
        if (!listener_) return;
        std::lock_guard<std::mutex> lock(lock_);
        done_ = total_;
        listener_(user_, "done", total_, total_);
    }

private:
    const ccl4j_progress_fn listener_;
    void* const user_;
    const int64_t total_;
    const int64_t step_;
    std::mutex lock_;
    int64_t done_ = 0;
    int64_t next_ = 0;
};

}  // namespace ccl4j
