// Labelling an edge list without a CSR: every vertex its own tree, one link per edge (each edge
// once, in any order, by dynamic chunks on CPU_PARALLEL), then every vertex pointed at its root.
// The union-find's invariant (cpu/union_find.hpp) makes the roots the canonical labels.
#include <cstdint>

#include "common/parallel.hpp"
#include "cpu/edge_algorithms.hpp"
#include "cpu/union_find.hpp"

namespace ccl4j::cpu {
namespace {

// Edges per chunk of the dynamic schedule: large enough that handing one out costs nothing, small
// enough that a thread the system deschedules holds back little work at the end of the phase.
constexpr int64_t kEdgeChunk = 1 << 14;
constexpr int32_t kVertexBlock = 1 << 16;

template <class Access>
void link_edges(const EdgeList& edges, int32_t* parent, int64_t first, int64_t last, BadEdge& bad) {
    for (int64_t e = first; e < last; ++e) {
        const int32_t u = edges.source(e), v = edges.target(e);
        if (!edges.in_range(u) || !edges.in_range(v)) {
            bad.note(e);
            continue;
        }
        if (u != v) link<Access>(u, v, parent);
    }
}

}  // namespace

PhasePlan edge_union_find_plan(const EdgeList& edges, int32_t* parent, int threads) {
    const int team = parallel::team_size(threads);
    const int32_t n = edges.vertex_count;
    const bool serial = team == 1 || edges.edge_count <= kEdgeChunk;
    return {{"init",
             [=] {
                 parallel::for_chunks(int32_t{0}, n, kVertexBlock, serial ? 1 : team, [&](int, int32_t first, int32_t last) {
                     for (int32_t v = first; v < last; ++v) parent[v] = v;
                 });
                 return 0;
             }},
            {"link",
             [=] {
                 BadEdge bad;
                 if (serial) {
                     link_edges<Plain>(edges, parent, 0, edges.edge_count, bad);
                 } else {
                     parallel::for_chunks(int64_t{0}, edges.edge_count, kEdgeChunk, team,
                                          [&](int, int64_t first, int64_t last) {
                                              link_edges<Relaxed>(edges, parent, first, last, bad);
                                          });
                 }
                 bad.throw_if_any(edges);
                 return 0;
             }},
            {"finalize", [=] {
                 point_at_roots(n, parent);
                 return 0;
             }}};
}

}  // namespace ccl4j::cpu
