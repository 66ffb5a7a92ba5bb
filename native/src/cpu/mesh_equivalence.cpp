// Hawick, Leist & Playne 2010, section 5.3, CPU II: the label equivalence of Kernel D
// (section 5.2.4, Algorithm 8) with its three phases run serially.
//
// L holds the cells' labels (the output array), R the equivalence list, R[l] <= l for every
// label l. Scanning: for each labelled cell, the smallest label among the cells it connects to;
// when it is smaller than the cell's label l, R[l] = min(R[l], it). Analysis: every label still
// in use (L[l] == l) follows R to the end of its chain; done in increasing order, R[l] < l has
// been resolved already, so one look-up suffices (the paper's "chains never more than two
// equivalences long"). Labelling: L[i] = R[L[i]]. Repeated until a scan records nothing.
//
// Every label in use after a labelling phase is the index of a cell of its cluster holding its
// own index, and labels only move between connected cells; when nothing is recorded every
// cluster holds one label, its smallest index. A cell's new label is at most the smallest old
// label around it, so, as for CPU I, cell_count + 2 iterations bound every correct run.

#include <cstdint>
#include <memory>
#include <vector>

#include "common/error.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cpu/mesh_cpu.hpp"
#include "cpu/mesh_geometry.hpp"

namespace ccl4j::cpu {
namespace {

using namespace ccl4j::cpu::mesh;

// The scanning phase; returns whether an equivalence was recorded.
template <class R>
bool scanning(const Geometry& g, const std::vector<RowStep>& steps, const typename R::Cell* cells,
              const int32_t* labels, int32_t* equivalent, R rule) {
    std::vector<int64_t> neighbour_rows(steps.size());
    bool recorded = false;
    for (int64_t r = 0; r < g.rows(); ++r) {
        for (size_t s = 0; s < steps.size(); ++s) neighbour_rows[s] = g.row(r, steps[s].dy, steps[s].dz);
        const int32_t* row_labels = labels + r * g.width;
        for (int32_t x = 0; x < g.width; ++x) {
            const int32_t own = row_labels[x];
            if (own < 0) continue;
            const int32_t best = smallest_neighbour_label(g, steps, neighbour_rows.data(), cells, labels, r, x, rule);
            if (best < own) {
                if (best < equivalent[own]) equivalent[own] = best;
                recorded = true;
            }
        }
    }
    return recorded;
}

}  // namespace

PhasePlan mesh_equivalence_plan(const Mesh& m, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    const int64_t n = m.cell_count();
    const int32_t limit = iteration_limit(max_iterations, int32_t(n));
    const Geometry g(m);
    const std::vector<RowStep> steps = row_steps(m.connectivity, false);
    // R lives as long as the plan; init fills it afresh.
    auto equivalence = std::make_shared<std::vector<int32_t>>(static_cast<size_t>(n));
    PhasePlan plan;
    with_rule(m, [&](const auto* cells, auto rule) {
        plan.push_back({"init", [cells, n, labels, equivalence, rule, &log] {
                            Stopwatch watch;
                            initial_labels(cells, n, labels, rule);
                            std::vector<int32_t>& equivalent = *equivalence;
                            for (int64_t i = 0; i < n; ++i) equivalent[i] = int32_t(i);
                            log.add("init", watch.lap());
                            return 0;
                        }});
        // Scan, analysis and labelling repeat until a scan records nothing: one phase, the whole loop.
        plan.push_back({"iterate", [g, steps, cells, n, labels, limit, equivalence, rule, &log] {
                            Stopwatch watch;
                            int32_t* equivalent = equivalence->data();
                            double scan_ms = 0, analysis_ms = 0, labelling_ms = 0;
                            int32_t iterations = 0;
                            while (true) {
                                if (iterations == limit) {
                                    log.set_iterations(iterations);
                                    fail(CCL4J_NOT_CONVERGED, "CPU II (label equivalence) did not converge within " +
                                                                  std::to_string(limit) + " iterations (max_iterations)");
                                }
                                ++iterations;
                                const bool recorded = scanning(g, steps, cells, labels, equivalent, rule);
                                scan_ms += watch.lap();
                                if (!recorded) break;
                                for (int64_t l = 0; l < n; ++l) {
                                    if (labels[l] == l) equivalent[l] = equivalent[equivalent[l]];
                                }
                                analysis_ms += watch.lap();
                                for (int64_t i = 0; i < n; ++i) {
                                    if (labels[i] >= 0) labels[i] = equivalent[labels[i]];
                                }
                                labelling_ms += watch.lap();
                            }
                            log.add("scan", scan_ms);
                            log.add("analysis", analysis_ms);
                            log.add("labelling", labelling_ms);
                            log.set_iterations(iterations);
                            return iterations;
                        }});
    });
    return plan;
}

void mesh_equivalence(const Mesh& m, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    for (const Phase& phase : mesh_equivalence_plan(m, labels, max_iterations, log)) phase.run();
}

}  // namespace ccl4j::cpu
