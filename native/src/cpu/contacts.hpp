// The contacts between the labels of a mesh on the CPU (ccl4j/contacts.h).
#pragma once

#include <cstdint>

#include "common/contacts.hpp"

namespace ccl4j::cpu {

// The contacts of dense labels of shape s: rows ascending by pair. Error(CCL4J_INVALID_INPUT)
// names the first label outside [-1, cell count). threads 1 runs serially, 0 on all threads.
contacts::Rows mesh_contacts(const int32_t* labels, const contacts::Shape& s, int threads);

}  // namespace ccl4j::cpu
