// The C++ tests' small checking kit: CHECK counts passes and failures and prints each failure
// with its place; each test's main prints "N passed, M failed" and exits non-zero on a failure.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace ccl4j::test {

// A value no label can have: every label a run leaves unwritten shows up as a mismatch.
constexpr int32_t kPoison = -7;

// Int64 labels as int32 ones, for comparison with int32 references; a value int32 cannot hold
// becomes kPoison.
inline void narrow(const std::vector<int64_t>& wide, int32_t* labels) {
    for (size_t i = 0; i < wide.size(); ++i) {
        labels[i] = wide[i] == int64_t(int32_t(wide[i])) ? int32_t(wide[i]) : kPoison;
    }
}

inline int passed = 0;
inline int failed = 0;

inline void record(bool ok, const char* expression, const char* file, int line, const std::string& context) {
    if (ok) {
        ++passed;
        return;
    }
    ++failed;
    std::fprintf(stderr, "%s:%d: CHECK failed: %s%s%s\n", file, line, expression, context.empty() ? "" : " -- ",
                 context.c_str());
}

// Runs one group of checks and prints how long it took.
inline void run(const char* name, const std::function<void()>& group) {
    const auto start = std::chrono::steady_clock::now();
    group();
    std::printf("%-28s %6.2f s\n", name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

#define CHECK(condition) ::ccl4j::test::record((condition), #condition, __FILE__, __LINE__, "")
#define CHECK_MSG(condition, context) ::ccl4j::test::record((condition), #condition, __FILE__, __LINE__, (context))

// Runs f, which must throw ccl4j::Error with `status`.
inline void check_fails(const std::function<void()>& f, ccl4j_status status, const std::string& what) {
    try {
        f();
        CHECK_MSG(false, what + ": accepted");
    } catch (const ccl4j::Error& e) {
        CHECK_MSG(e.status() == status, what + ": status " + std::to_string(e.status()) + " (" + e.what() + ")");
    }
}

// Compares labels (int32 or int64) with the expected ones, naming the first mismatching vertex.
template <class Got>
void check_labels(const std::vector<Got>& got, const std::vector<int32_t>& expected, const std::string& what) {
    size_t v = 0;
    while (v < expected.size() && got[v] == expected[v]) ++v;
    CHECK_MSG(v == expected.size(), v == expected.size()
                                        ? what
                                        : what + ": vertex " + std::to_string(v) + " labelled " + std::to_string(got[v]) +
                                              ", expected " + std::to_string(expected[v]));
}

// The timings name exactly these phases, in this order, none negative.
inline void check_phases(const ccl4j_timings& timings, const std::vector<std::string>& names, const std::string& what) {
    bool ok = timings.phase_count == static_cast<int32_t>(names.size());
    for (int32_t i = 0; ok && i < timings.phase_count; ++i) {
        ok = names[i] == timings.phases[i].name && timings.phases[i].ms >= 0;
    }
    CHECK_MSG(ok, what + ": phases");
}

}  // namespace ccl4j::test
