// ECL-CC on the CPU (Jaiganesh & Burtscher 2018, section 3): initialise every parent with the
// first smaller neighbour, hook the representatives of the two ends of every edge (each edge
// once, from its larger end, with intermediate pointer jumping in the finds), then point every
// vertex at its representative.
//
// The labels come out canonical with no extra pass, and the races of the parallel version are
// benign, by the invariant of the parent array (cpu/union_find.hpp): init points at a smaller
// neighbour, hooking a root at a smaller one, pointer jumping a vertex at one of its ancestors.

#include <cstdint>

#include "common/parallel.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cpu/union_find.hpp"

namespace ccl4j::cpu {
namespace {

// The arc of v's first neighbour with a smaller id, or end(v) when there is none.
template <class Offset>
Offset first_smaller_arc(const CsrView<Offset>& g, int32_t v) {
    const Offset end = g.end(v);
    Offset arc = g.begin(v);
    while (arc < end && g.neighbors[arc] >= v) ++arc;
    return arc;
}

template <class Offset>
void init_vertex(const CsrView<Offset>& g, int32_t v, int32_t* parent) {
    const Offset arc = first_smaller_arc(g, v);
    parent[v] = arc < g.end(v) ? g.neighbors[arc] : v;
}

// Hooks every edge {v, u} with u < v, so each edge is processed once. The arc that init followed
// is skipped: v already lies in that neighbour's tree. v's representative is only looked up once
// an edge needs it, and is then carried along (hooking returns the new one).
template <class Access, class Offset>
void compute_vertex(const CsrView<Offset>& g, int32_t v, int32_t* parent) {
    const Offset end = g.end(v);
    Offset arc = first_smaller_arc(g, v);
    if (arc == end) return;  // no smaller neighbour, so no edge to hook from v
    int32_t v_rep = -1;
    for (++arc; arc < end; ++arc) {
        const int32_t u = g.neighbors[arc];
        if (u >= v) continue;
        if (v_rep < 0) v_rep = find_root<Access>(v, parent);
        const int32_t u_rep = find_root<Access>(u, parent);
        if (u_rep != v_rep) v_rep = Access::hook(parent, v_rep, u_rep);
    }
}

// Dynamic chunks of consecutive vertices balance skewed degrees (hubs) across threads, keep each
// thread's offsets, neighbours and most parents sequential and, being several grid rows long,
// keep most finds inside the thread's own chunk. (On 2 cores, 4096 measured best among
// 1024..65536 on grids and R-MAT graphs; the paper's guided schedule was 20% slower on grids.)
constexpr int32_t kChunk = 4096;

template <class Offset>
PhasePlan serial_plan(const CsrView<Offset>& g, int32_t* parent) {
    const int32_t n = g.vertex_count;
    return {{"init",
             [=] {
                 for (int32_t v = 0; v < n; ++v) init_vertex(g, v, parent);
                 return 0;
             }},
            {"compute",
             [=] {
                 for (int32_t v = 0; v < n; ++v) compute_vertex<Plain>(g, v, parent);
                 return 0;
             }},
            {"finalize", [=] {
                 point_at_roots(n, parent);
                 return 0;
             }}};
}

// One chunk of the parallel phases. The view and the parent array come by value: held in
// registers, they are not loaded again after every atomic access, as the captures of the
// phase's closure were.
template <class Offset>
void init_chunk(const CsrView<Offset> g, int32_t* parent, int32_t first, int32_t last) {
    for (int32_t v = first; v < last; ++v) init_vertex(g, v, parent);
}

template <class Offset>
void compute_chunk(const CsrView<Offset> g, int32_t* parent, int32_t first, int32_t last) {
    for (int32_t v = first; v < last; ++v) compute_vertex<Relaxed>(g, v, parent);
}

template <class Offset>
PhasePlan parallel_plan(const CsrView<Offset>& g, int32_t* parent, int threads) {
    const int32_t n = g.vertex_count;
    return {{"init",
             [=] {
                 parallel::for_chunks(0, n, kChunk, threads, [&](int, int32_t first, int32_t last) {
                     init_chunk(g, parent, first, last);
                 });
                 return 0;
             }},
            {"compute",
             [=] {
                 parallel::for_chunks(0, n, kChunk, threads, [&](int, int32_t first, int32_t last) {
                     compute_chunk(g, parent, first, last);
                 });
                 return 0;
             }},
            {"finalize", [=] {
                 point_at_roots(n, parent);
                 return 0;
             }}};
}

void run_logged(const PhasePlan& plan, PhaseLog& log) {
    Stopwatch watch;
    for (const Phase& phase : plan) {
        phase.run();
        log.add(phase.name.c_str(), watch.lap());
    }
}

}  // namespace

PhasePlan ecl_cc_plan(const Graph& graph, int32_t* parent, int threads) {
    const int team = parallel::team_size(threads);
    // One thread, or a graph of one chunk, gains nothing from atomics and waking threads; the
    // serial code is the same algorithm.
    if (team == 1 || graph.vertex_count <= kChunk) {
        return graph.visit([&](const auto& g) { return serial_plan(g, parent); });
    }
    return graph.visit([&](const auto& g) { return parallel_plan(g, parent, team); });
}

void ecl_cc_serial(const Graph& graph, int32_t* labels, PhaseLog& log) {
    run_logged(ecl_cc_plan(graph, labels, 1), log);
}

void ecl_cc_parallel(const Graph& graph, int32_t* labels, int threads, PhaseLog& log) {
    run_logged(ecl_cc_plan(graph, labels, threads), log);
}

}  // namespace ccl4j::cpu
