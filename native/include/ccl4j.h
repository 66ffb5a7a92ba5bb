/*
 * ccl4j: connected-component labelling on NVIDIA GPUs and CPUs.
 *
 * The C ABI of libccl4j.so. Plain C, no C++ types, no exceptions across the boundary.
 *
 * Conventions
 *  - Every function that can fail returns a ccl4j_status (CCL4J_SUCCESS == 0). The message that
 *    explains a failure is read with ccl4j_context_error_message(); failures of functions that
 *    have no context (context creation, capability queries) are read with
 *    ccl4j_context_error_message(NULL), which holds the calling thread's last such message.
 *  - Handles are opaque and come in create/destroy pairs. A context is used by one thread at a time.
 *  - Shapes (sizes, widths, strides) are described by small structs holding no pointers; every
 *    buffer the library reads or writes is an argument of its own, so that a caller's runtime
 *    (the JDK's FFM API, for one) sees each and can keep it alive for the call. The library never
 *    takes ownership of a buffer. Outputs go into buffers the caller provides.
 *  - Labels are canonical: every vertex gets the smallest vertex id of its component.
 *  - Sizes are validated before anything is dereferenced or launched. CCL4J_CHECK_INPUT adds the
 *    O(n + m) checks (monotone offsets, neighbour ids in range, symmetry).
 *
 * Headers: this one includes one header per topic, from ccl4j/: common.h (versions, status
 * codes, enumerations, timings, capabilities, contexts, host memory), graph.h (CSR graphs,
 * labelling options, graph labelling, device-resident graphs), mesh.h (mesh labelling), labels.h
 * (label book-keeping), statistics.h (per-component statistics), contacts.h (contacts between
 * components: the region adjacency graph), distances.h (shortest-path
 * distances within components) and physics.h (lattices, percolation, Swendsen-Wang,
 * Cahn-Hilliard). ccl4j/bench.h holds
 * the per-phase runs and transfer probes of the benchmarks: it is not for users and not included.
 */
#ifndef CCL4J_H
#define CCL4J_H

#include "ccl4j/common.h"
#include "ccl4j/graph.h"
#include "ccl4j/mesh.h"
#include "ccl4j/labels.h"
#include "ccl4j/statistics.h"
#include "ccl4j/contacts.h"
#include "ccl4j/distances.h"
#include "ccl4j/physics.h"

#endif /* CCL4J_H */
