// The CPU reference of Hawick, Leist & Playne 2010 (Algorithm 1): every vertex starts with its
// own id as colour; each vertex not yet reached starts a depth-first search that gives its
// colour to every vertex of its component.
//
// The paper's recursion becomes an explicit stack, so that a path of millions of vertices needs
// no deep call stack. Roots are taken in increasing order, so a root is always the smallest
// vertex of its component (a smaller one would have reached it first): the colours are the
// canonical labels as they stand. For the same reason the paper's other branch (a neighbour
// with a smaller colour, restarting the adjacency scan) never fires here and is left out.

#include <cstdint>
#include <vector>

#include "cpu/cpu_algorithms.hpp"

namespace ccl4j::cpu {
namespace {

template <class Offset>
void colour_components(const CsrView<Offset>& g, int32_t* colour) {
    const int32_t n = g.vertex_count;
    for (int32_t v = 0; v < n; ++v) colour[v] = v;

    std::vector<int32_t> stack;
    for (int32_t root = 0; root < n; ++root) {
        // Still its own colour: no smaller root reached it (the paper's frontier flag F).
        if (colour[root] != root) continue;
        stack.push_back(root);
        while (!stack.empty()) {
            const int32_t v = stack.back();
            stack.pop_back();
            const Offset end = g.end(v);
            for (Offset arc = g.begin(v); arc < end; ++arc) {
                const int32_t u = g.neighbors[arc];
                // Unreached vertices of this component still hold their own id, larger than root.
                if (colour[u] > root) {
                    colour[u] = root;
                    stack.push_back(u);
                }
            }
        }
    }
}

}  // namespace

PhasePlan hawick_reference_plan(const Graph& graph, int32_t* labels, PhaseLog& log) {
    return graph.visit([&](const auto& g) {
        return PhasePlan{{"label", [g, labels, &log] {
                              Stopwatch watch;
                              colour_components(g, labels);
                              log.add("label", watch.lap());
                              return 0;
                          }}};
    });
}

void hawick_reference(const Graph& graph, int32_t* labels, PhaseLog& log) {
    for (const Phase& phase : hawick_reference_plan(graph, labels, log)) phase.run();
}

}  // namespace ccl4j::cpu
