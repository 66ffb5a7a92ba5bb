// What the tests of STREAMED on one device and across several share: its options, the device
// bytes it counts for a graph's parent array and bitmap, and a recorder of its progress calls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/options.hpp"
#include "ccl4j.h"

namespace ccl4j::test {

// The device bytes of the parent array and bitmap of n vertices, as the streamed path counts them.
inline int64_t fixed_bytes(int32_t n) { return 4LL * n + (n / 32 + 1) * 4LL + 512; }

// STREAMED within `device_memory` (0: the free memory) on `threads` gathering threads (0: all).
inline LabelOptions streamed(int64_t device_memory, int32_t threads) {
    ccl4j_label_options options{};
    options.algorithm = CCL4J_ALGORITHM_STREAMED;
    options.device_memory = device_memory;
    options.cpu_threads = threads;
    return api::label_options(&options);
}

// What a ccl4j_progress_fn heard (calls come one at a time: no lock needed here).
struct ProgressCalls {
    struct Call {
        std::string stage;
        int64_t done, total;
    };
    std::vector<Call> calls;

    static void listen(void* user, const char* stage, int64_t done, int64_t total) {
        static_cast<ProgressCalls*>(user)->calls.push_back({stage, done, total});
    }

    // How the calls break ccl4j_progress_fn's contract for a graph of `arcs` arcs, or "" when they
    // keep it: streamed, "sample" first, then "link", then one "done"; otherwise one "done" alone.
    std::string broken(int64_t arcs, bool streamed) const {
        const int64_t total = 2 * arcs;
        if (calls.empty()) return "no call";
        if (!streamed && calls.size() != 1) return std::to_string(calls.size()) + " calls, expected one";
        if (streamed && calls.front().stage != "sample") return "first call of stage " + calls.front().stage;
        if (calls.size() > 260) return std::to_string(calls.size()) + " calls, more than about 256";
        const auto rank = [](const std::string& stage) { return stage == "sample" ? 0 : stage == "link" ? 1 : 2; };
        for (size_t i = 0; i < calls.size(); ++i) {
            const Call& c = calls[i];
            const std::string at = "call " + std::to_string(i) + " (" + c.stage + ", " + std::to_string(c.done) + ", " +
                                   std::to_string(c.total) + "): ";
            if (c.total != total) return at + "total is not " + std::to_string(total);
            if (c.done < 0 || c.done > total) return at + "done outside [0, total]";
            if (c.stage != "sample" && c.stage != "link" && c.stage != "done") return at + "unknown stage";
            if (i > 0 && (c.done < calls[i - 1].done || rank(c.stage) < rank(calls[i - 1].stage))) {
                return at + "goes back";
            }
            if ((c.stage == "done") != (i + 1 == calls.size())) return at + "\"done\" is not the last call alone";
        }
        return calls.back().done == total ? "" : "the last call is not done == total";
    }
};

}  // namespace ccl4j::test
