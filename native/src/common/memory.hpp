// Memory needs stated up front: what the host has available, and the error a call that cannot fit
// fails with before it allocates anything.
#pragma once

#include <cstdint>
#include <string>

namespace ccl4j {

// Host memory available to new allocations now: MemAvailable of /proc/meminfo (Linux), or -1
// where that is unknown.
int64_t host_memory_available();

// "68.7 GB (68719476736 bytes)": a byte count for messages, in decimal gigabytes.
std::string byte_size(int64_t bytes);

// Throws Error(CCL4J_OUT_OF_MEMORY) "<what> needs N of <where> memory; there is M available"
// when needed > available (available -1: unknown, no check).
void check_memory(int64_t needed, int64_t available, const std::string& what, const char* where);

}  // namespace ccl4j
