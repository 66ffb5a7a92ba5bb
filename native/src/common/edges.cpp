#include "common/edges.hpp"

#include <string>

#include "common/error.hpp"

namespace ccl4j {

EdgeList validate_edges(const ccl4j_edges* edges, const int32_t* sources, const int32_t* targets) {
    if (!edges) fail(CCL4J_INVALID_ARGUMENT, "edges is NULL");
    const ccl4j_edges& e = *edges;
    if (e.vertex_count < 0 || e.vertex_count > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT,
             "vertex_count " + std::to_string(e.vertex_count) + " is outside 0..2147483647 (32-bit ids)");
    }
    if (e.edge_count < 0) fail(CCL4J_INVALID_ARGUMENT, "edge_count is negative: " + std::to_string(e.edge_count));
    if (e.stride < 1) fail(CCL4J_INVALID_ARGUMENT, "stride must be at least 1, got " + std::to_string(e.stride));
    if (e.edge_count > 0) {
        if (!sources || !targets) {
            fail(CCL4J_INVALID_ARGUMENT, std::string(!sources ? "sources" : "targets") + " is NULL but edge_count is " +
                                             std::to_string(e.edge_count));
        }
        if (e.vertex_count == 0) {
            fail(CCL4J_INVALID_INPUT, "edge_count is " + std::to_string(e.edge_count) + " but there are no vertices");
        }
        // The last entry's offset in bytes must fit the address space.
        if ((e.edge_count - 1) > (INT64_MAX / 4 - 1) / e.stride) {
            fail(CCL4J_INVALID_ARGUMENT, std::to_string(e.edge_count) + " edges of stride " + std::to_string(e.stride) +
                                             " span more bytes than the address space");
        }
    }
    return EdgeList{static_cast<int32_t>(e.vertex_count), e.edge_count, e.stride, sources, targets};
}

void fail_on_bad_edge(const EdgeList& edges, int64_t edge) {
    const int32_t u = edges.source(edge), v = edges.target(edge);
    const int32_t bad = edges.in_range(u) ? v : u;
    fail(CCL4J_INVALID_INPUT, "edge " + std::to_string(edge) + " (" + std::to_string(u) + ", " + std::to_string(v) +
                                  "): id " + std::to_string(bad) + " is outside [0, " +
                                  std::to_string(edges.vertex_count) + ")");
}

void BadEdge::throw_if_any(const EdgeList& edges) const {
    if (any()) fail_on_bad_edge(edges, first_.load(std::memory_order_relaxed));
}

}  // namespace ccl4j
