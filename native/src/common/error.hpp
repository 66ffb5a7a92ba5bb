// Failures inside the library travel as ccl4j::Error and become a status plus a message at the ABI.
#pragma once

#include <stdexcept>
#include <string>

#include "ccl4j.h"

namespace ccl4j {

class Error : public std::runtime_error {
public:
    Error(ccl4j_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
    ccl4j_status status() const noexcept { return status_; }

private:
    ccl4j_status status_;
};

[[noreturn]] inline void fail(ccl4j_status status, const std::string& message) { throw Error(status, message); }

}  // namespace ccl4j
