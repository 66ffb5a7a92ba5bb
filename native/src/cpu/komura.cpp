// Komura 2016, the generalized label-reduction algorithm (section 3) on the CPU, one thread, with
// the same four steps as cuda/komura.cu. The paper's nearest-neighbour lists are the CSR
// adjacency lists.
//
// Invariant: label[v] <= v and label[v] is a vertex of v's component, so following labels goes
// down to a root (label[r] == r), and the smallest vertex of a component is always a root. Every
// edge {v, u}, u < v, joins the trees of its ends: the initialisation links v to its smallest
// lower neighbour, and the label reduction unites the trees across every other lower neighbour
// (the residual list). Afterwards each component is one tree whose root is its smallest vertex,
// and the final analysis points every vertex at it: the canonical labels.
#include <cstdint>
#include <memory>
#include <vector>

#include "common/komura_step.hpp"
#include "cpu/cpu_algorithms.hpp"

namespace ccl4j::cpu {
namespace {

// Analysis (steps ii and iv): label[v] = label[label[v]] until it no longer changes. In increasing
// order every smaller vertex already points at its root, so each vertex needs one step.
void analysis(int32_t n, int32_t* label) {
    for (int32_t v = 0; v < n; ++v) label[v] = label[label[v]];
}

// Labels as one thread reads and lowers them, for the steps shared with the GPU.
struct SerialLabels {
    static int32_t load(const int32_t* p) { return *p; }
    static int32_t lower(int32_t* p, int32_t value) {
        const int32_t old = *p;
        if (value < old) *p = value;
        return old;
    }
};

// Each vertex's residual list, its lower neighbours other than the smallest, kept at the front of
// the vertex's own stretch of the arc array.
template <class Offset>
struct Residuals {
    std::vector<int32_t> lists;
    std::vector<Offset> counts;
};

template <class Offset>
PhasePlan label_plan(const CsrView<Offset>& g, int32_t* label, PhaseLog& log) {
    const int32_t n = g.vertex_count;
    auto residual = std::make_shared<Residuals<Offset>>();
    return {{"init",
             [=, &log] {
                 Stopwatch watch;
                 // Step (i): label[v] = the smallest lower neighbour (or v), and v's residual list.
                 residual->lists.assign(static_cast<size_t>(g.arc_count), 0);
                 residual->counts.assign(static_cast<size_t>(n), 0);
                 for (int32_t v = 0; v < n; ++v) {
                     komura::init_vertex(g.neighbors, g.begin(v), g.end(v), v, label, residual->lists.data(),
                                         residual->counts.data());
                 }
                 log.add("init", watch.lap());
                 return 0;
             }},
            {"analysis1",
             [=, &log] {
                 Stopwatch watch;
                 analysis(n, label);
                 log.add("analysis1", watch.lap());
                 return 0;
             }},
            {"reduction",
             [=, &log] {
                 Stopwatch watch;
                 // Step (iii).
                 for (int32_t v = 0; v < n; ++v) {
                     const int32_t* list = residual->lists.data() + g.begin(v);
                     for (Offset k = 0; k < residual->counts[v]; ++k) {
                         komura::reduce_pair<SerialLabels>(label, v, list[k]);
                     }
                 }
                 log.add("reduction", watch.lap());
                 return 0;
             }},
            {"analysis2", [=, &log] {
                 Stopwatch watch;
                 analysis(n, label);
                 log.add("analysis2", watch.lap());
                 return 0;
             }}};
}

}  // namespace

PhasePlan komura_plan(const Graph& graph, int32_t* labels, PhaseLog& log) {
    return graph.visit([&](const auto& g) { return label_plan(g, labels, log); });
}

void komura(const Graph& graph, int32_t* labels, PhaseLog& log) {
    for (const Phase& phase : komura_plan(graph, labels, log)) phase.run();
}

}  // namespace ccl4j::cpu
