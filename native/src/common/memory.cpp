#include "common/memory.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "ccl4j.h"
#include "common/error.hpp"

namespace ccl4j {

int64_t host_memory_available() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        std::istringstream fields(line);
        std::string key;
        int64_t kib = 0;
        if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
    }
    return -1;
}

std::string byte_size(int64_t bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f GB (%lld bytes)", static_cast<double>(bytes) / 1e9,
                  static_cast<long long>(bytes));
    return text;
}

void check_memory(int64_t needed, int64_t available, const std::string& what, const char* where) {
    if (available < 0 || needed <= available) return;
    fail(CCL4J_OUT_OF_MEMORY, what + " needs " + byte_size(needed) + " of " + where + " memory; there is " +
                                  byte_size(available) + " available");
}

}  // namespace ccl4j
