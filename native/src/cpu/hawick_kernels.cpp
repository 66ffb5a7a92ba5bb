// Hawick, Leist & Playne 2010, graph Kernels 1-3 (section 4.3) on the CPU, one thread. Each loop
// takes the same steps as its GPU version in cuda/hawick_kernels.cu, in serial order.
//
// Colours are vertex ids. Every vertex starts with its own id, and a colour only ever moves along
// an edge or is replaced by the colour of the vertex it names, always to a smaller value; so a
// colour is always the id of a vertex of the same component, no larger than the vertex itself,
// and the smallest vertex of each component keeps its own id. Once the colours agree across every
// edge, each component holds the colour of its smallest vertex: the canonical label.
//
// Kernels 1 and 2 propagate colours one edge at a time, so the paper bounds their iterations by
// the graph's diameter (an ordered path of n vertices: up to n launches, section 6.2). After each
// propagation step both run the analysis of the paper's Kernel D (section 5.2.4) on the colours:
// a colour c is itself a vertex, whose colour is at most c, so following colour[c] from vertex
// to vertex to the end of the chain gives a smaller colour of the same component. That is what
// makes an ordered path, a grid numbered row by row or a star converge in 2-3 iterations: after
// one step every vertex but the smallest has a smaller colour, and the chains lead to the
// smallest vertex. Where the numbering does not follow the graph (a shuffled path) the colours
// still spread about one edge per iteration, as in the paper.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "cpu/cpu_algorithms.hpp"

namespace ccl4j::cpu {
namespace {

[[noreturn]] void fail_not_converged(const char* algorithm, int32_t limit) {
    fail(CCL4J_NOT_CONVERGED,
         std::string(algorithm) + " did not converge within " + std::to_string(limit) + " iterations (max_iterations)");
}

// Kernel D's analysis on the colours: every vertex takes the colour at the end of its chain.
// In increasing order every smaller colour is already final, so each vertex needs one step.
// Calls lowered(v) for each vertex whose colour changed.
template <class Lowered>
void resolve_chains(int32_t n, int32_t* colour, Lowered lowered) {
    for (int32_t v = 0; v < n; ++v) {
        int32_t root = colour[v];
        while (colour[root] != root) root = colour[root];
        if (root != colour[v]) {
            colour[v] = root;
            lowered(v);
        }
    }
}

// ---- Kernel 1: edge-parallel (the paper's Algorithm 2) ------------------------------------------

// The edge list of Fig. 5(c): each edge {v, u} once, as (v, u) with v < u, in CSR order.
// Self loops carry no connection and are left out.
template <class Offset>
std::vector<std::pair<int32_t, int32_t>> edge_list(const CsrView<Offset>& g) {
    std::vector<std::pair<int32_t, int32_t>> edges;
    edges.reserve(static_cast<size_t>(g.arc_count / 2));
    for (int32_t v = 0; v < g.vertex_count; ++v) {
        for (Offset arc = g.begin(v); arc < g.end(v); ++arc) {
            if (g.neighbors[arc] > v) edges.emplace_back(v, g.neighbors[arc]);
        }
    }
    return edges;
}

template <class Offset>
PhasePlan edge_plan(const CsrView<Offset>& g, int32_t* colour, int32_t limit, PhaseLog& log) {
    const int32_t n = g.vertex_count;
    // Built by init, so that a labelling call and a per-phase init time the same work.
    auto edges = std::make_shared<std::vector<std::pair<int32_t, int32_t>>>();
    return {{"init",
             [=, &log] {
                 Stopwatch watch;
                 for (int32_t v = 0; v < n; ++v) colour[v] = v;
                 *edges = edge_list(g);
                 log.add("init", watch.lap());
                 return 0;
             }},
            {"propagate", [=, &log] {
                 Stopwatch watch;
                 int32_t iteration = 1;
                 for (;; ++iteration) {
                     if (iteration > limit) fail_not_converged("Hawick kernel 1", limit);
                     bool changed = false;
                     for (const auto& [i, j] : *edges) {
                         const int32_t ci = colour[i];
                         const int32_t cj = colour[j];
                         if (ci < cj) {
                             colour[j] = ci;
                             changed = true;
                         } else if (cj < ci) {
                             colour[i] = cj;
                             changed = true;
                         }
                     }
                     if (!changed) break;
                     resolve_chains(n, colour, [](int32_t) {});
                 }
                 log.add("propagate", watch.lap());
                 log.set_iterations(iteration);
                 return iteration;
             }}};
}

// ---- Kernel 2: vertex-parallel with two frontier arrays (the paper's Algorithm 3) ---------------

// frontier[v]: v is compared with its neighbours in this iteration (every vertex in the first);
// next[v]: its colour changed, so it is compared in the next one.
struct Frontiers {
    std::vector<uint8_t> frontier;
    std::vector<uint8_t> next;
};

template <class Offset>
PhasePlan vertex_plan(const CsrView<Offset>& g, int32_t* colour, int32_t limit, PhaseLog& log) {
    const int32_t n = g.vertex_count;
    auto flags = std::make_shared<Frontiers>();
    return {{"init",
             [=, &log] {
                 Stopwatch watch;
                 for (int32_t v = 0; v < n; ++v) colour[v] = v;
                 flags->frontier.assign(static_cast<size_t>(n), 1);
                 flags->next.assign(static_cast<size_t>(n), 0);
                 log.add("init", watch.lap());
                 return 0;
             }},
            {"propagate", [=, &log] {
                 Stopwatch watch;
                 std::vector<uint8_t>& frontier = flags->frontier;
                 std::vector<uint8_t>& next = flags->next;
                 int32_t iteration = 1;
                 for (;; ++iteration) {
                     if (iteration > limit) fail_not_converged("Hawick kernel 2", limit);
                     bool changed = false;
                     for (int32_t v = 0; v < n; ++v) {
                         if (!frontier[v]) continue;
                         frontier[v] = 0;
                         int32_t cv = colour[v];
                         bool lowered = false;
                         for (Offset arc = g.begin(v); arc < g.end(v); ++arc) {
                             const int32_t u = g.neighbors[arc];
                             const int32_t cu = colour[u];
                             if (cv < cu) {
                                 colour[u] = cv;
                                 next[u] = 1;
                                 changed = true;
                             } else if (cu < cv) {
                                 cv = cu;
                                 lowered = true;
                             }
                         }
                         if (lowered) {
                             // The GPU's atomicMin: a neighbour of v may have lowered colour[v] further meanwhile.
                             if (cv < colour[v]) colour[v] = cv;
                             next[v] = 1;
                             changed = true;
                         }
                     }
                     if (!changed) break;
                     resolve_chains(n, colour, [&](int32_t v) { next[v] = 1; });
                     // Every flag of the current frontier was cleared as it was processed.
                     frontier.swap(next);
                 }
                 log.add("propagate", watch.lap());
                 log.set_iterations(iteration);
                 return iteration;
             }}};
}

// ---- Kernel 3: one breadth-first search per component ------------------------------------------

constexpr int32_t kUncoloured = -1;

// The current and the next level of a search, as vertex lists.
struct Levels {
    std::vector<int32_t> frontier;
    std::vector<int32_t> next;
};

template <class Offset>
PhasePlan bfs_plan(const CsrView<Offset>& g, int32_t* colour, int32_t limit, PhaseLog& log) {
    const int32_t n = g.vertex_count;
    auto levels = std::make_shared<Levels>();
    return {{"init",
             [=, &log] {
                 Stopwatch watch;
                 for (int32_t v = 0; v < n; ++v) colour[v] = kUncoloured;
                 levels->frontier.clear();
                 levels->next.clear();
                 levels->frontier.reserve(static_cast<size_t>(n));
                 levels->next.reserve(static_cast<size_t>(n));
                 log.add("init", watch.lap());
                 return 0;
             }},
            {"search", [=, &log] {
                 Stopwatch watch;
                 std::vector<int32_t>& frontier = levels->frontier;
                 std::vector<int32_t>& next = levels->next;
                 // Gives v's colour to its uncoloured neighbours and puts them on the next frontier.
                 auto expand = [&](int32_t v) {
                     for (Offset arc = g.begin(v); arc < g.end(v); ++arc) {
                         const int32_t u = g.neighbors[arc];
                         if (colour[u] == kUncoloured) {
                             colour[u] = colour[v];
                             next.push_back(u);
                         }
                     }
                 };
                 // Every vertex below the cursor is coloured, so the first uncoloured vertex at or
                 // after it is the smallest vertex of a component not searched yet: its id is the
                 // component's label.
                 int32_t cursor = 0;
                 int32_t iteration = 1;
                 for (;; ++iteration) {
                     if (iteration > limit) fail_not_converged("Hawick kernel 3", limit);
                     next.clear();
                     if (frontier.empty()) {
                         while (cursor < n && colour[cursor] != kUncoloured) ++cursor;
                         if (cursor == n) break;
                         colour[cursor] = cursor;
                         expand(cursor++);
                     } else {
                         for (int32_t v : frontier) expand(v);
                     }
                     frontier.swap(next);
                 }
                 log.add("search", watch.lap());
                 log.set_iterations(iteration);
                 return iteration;
             }}};
}

}  // namespace

PhasePlan hawick_edge_plan(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    const int32_t limit = iteration_limit(max_iterations, graph.vertex_count);
    return graph.visit([&](const auto& g) { return edge_plan(g, labels, limit, log); });
}

PhasePlan hawick_vertex_plan(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    const int32_t limit = iteration_limit(max_iterations, graph.vertex_count);
    return graph.visit([&](const auto& g) { return vertex_plan(g, labels, limit, log); });
}

PhasePlan hawick_bfs_plan(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    const int32_t limit = iteration_limit(max_iterations, graph.vertex_count);
    return graph.visit([&](const auto& g) { return bfs_plan(g, labels, limit, log); });
}

void hawick_edge(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    for (const Phase& phase : hawick_edge_plan(graph, labels, max_iterations, log)) phase.run();
}

void hawick_vertex(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    for (const Phase& phase : hawick_vertex_plan(graph, labels, max_iterations, log)) phase.run();
}

void hawick_bfs(const Graph& graph, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    for (const Phase& phase : hawick_bfs_plan(graph, labels, max_iterations, log)) phase.run();
}

}  // namespace ccl4j::cpu
