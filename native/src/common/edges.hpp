// The one edge-list view of the library: a validated ccl4j_edges, and the record of the first
// edge with an id out of range, which the algorithms keep while they read the ids (each id is
// read once and checked before it is used, so that arrays the caller changes meanwhile can make
// a call fail but never make it write outside the labels).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "ccl4j.h"

namespace ccl4j {

struct EdgeList {
    int32_t vertex_count;
    int64_t edge_count;
    int32_t stride;
    const int32_t* sources;
    const int32_t* targets;

    int32_t source(int64_t edge) const { return sources[edge * stride]; }
    int32_t target(int64_t edge) const { return targets[edge * stride]; }
    bool in_range(int32_t id) const { return static_cast<uint32_t>(id) < static_cast<uint32_t>(vertex_count); }
    // The bytes from the first entry of an array to its last.
    size_t span_bytes() const {
        return edge_count == 0 ? 0 : static_cast<size_t>((edge_count - 1) * stride + 1) * sizeof(int32_t);
    }
};

// Checks what can be checked in O(1): non-null pointers, counts and stride in range, the arrays'
// spans within the address space. Throws Error(CCL4J_INVALID_ARGUMENT).
EdgeList validate_edges(const ccl4j_edges* edges, const int32_t* sources, const int32_t* targets);

// The smallest index of an edge seen with an id out of range, from any number of threads.
class BadEdge {
public:
    void note(int64_t edge) {
        int64_t seen = first_.load(std::memory_order_relaxed);
        while (edge < seen && !first_.compare_exchange_weak(seen, edge, std::memory_order_relaxed)) {
        }
    }
    bool any() const { return first_.load(std::memory_order_relaxed) != INT64_MAX; }
    // Throws Error(CCL4J_INVALID_INPUT) naming the edge when one was noted.
    void throw_if_any(const EdgeList& edges) const;

private:
    std::atomic<int64_t> first_{INT64_MAX};
};

// Throws Error(CCL4J_INVALID_INPUT): "edge i (u, v): id x is outside [0, n)".
[[noreturn]] void fail_on_bad_edge(const EdgeList& edges, int64_t edge);

}  // namespace ccl4j
