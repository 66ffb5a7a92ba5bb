// What the CPU does with edge lists (common/edges.hpp): labels them, and builds their CSR.
#pragma once

#include <cstdint>
#include <vector>

#include "common/edges.hpp"
#include "common/phases.hpp"

namespace ccl4j::cpu {

// The edge-list union-find's phases on `parent` (vertex_count entries), which ends up holding the
// canonical labels: init, link (Error(CCL4J_INVALID_INPUT) at its end for an id out of range),
// finalize. threads = 1 is serial, 0 uses the free processors (parallel::team_size).
PhasePlan edge_union_find_plan(const EdgeList& edges, int32_t* parent, int threads);

// The canonical CSR of an edge list (each distinct edge as two arcs, no self loops, neighbour
// lists ascending), built on `threads` threads in memory of its own, then written out at its
// exact size.
class CsrBuild {
public:
    // Checks the ids (Error(CCL4J_INVALID_INPUT) naming the first bad edge) and the host memory
    // the build needs (Error(CCL4J_OUT_OF_MEMORY)), then sorts the arcs.
    CsrBuild(const EdgeList& edges, int threads);

    int32_t vertex_count() const { return vertex_count_; }
    int64_t arc_count() const { return final_offsets_[vertex_count_]; }
    // 4 when the arc count fits int32, else 8.
    int32_t offset_width() const { return arc_count() <= INT32_MAX ? 4 : 8; }

    // vertex_count + 1 offsets of offset_width() bytes and arc_count() neighbours.
    void write(void* offsets, int32_t* neighbors) const;

private:
    int32_t vertex_count_;
    int threads_;
    std::vector<int64_t> offsets_;        // where each vertex's arcs start in arcs_ (n + 1)
    std::vector<int64_t> final_offsets_;  // where they start once repeats are dropped (n + 1)
    std::vector<int32_t> arcs_;           // each list sorted, its distinct neighbours first
};

}  // namespace ccl4j::cpu
