// The C++ tests' small checking kit: CHECK counts passes and failures and prints each failure
// with its place; each test's main prints "N passed, M failed" and exits non-zero on a failure.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

#include "common/error.hpp"

namespace ccl4j::test {

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

}  // namespace ccl4j::test
