// Hawick, Leist & Playne 2010, section 5.3, CPU I: alternating raster scans (Fig. 10).
//
// Each labelled cell starts with its own linear index. A scan visits every cell in raster order
// and lowers its label in place to the smallest label among the cells it connects to; scans run
// forward (x, then y, then z increasing) and backward (all decreasing) in turn, so labels travel
// both ways within one pair of scans. Labels only ever move between connected cells, so a cell's
// label is always the index of a cell of its cluster; when a scan changes nothing every cluster
// holds one label, which is then its smallest index: the labels are canonical as they stand.
//
// A scan lowers every label at least as far as a synchronous step of neighbour propagation would
// (it reads labels that are already as low or lower), so a cluster of diameter d is done after d
// scans plus the one that finds no change: cell_count + 2 scans bound every correct run.

#include <cstdint>
#include <vector>

#include "common/error.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cpu/mesh_cpu.hpp"
#include "cpu/mesh_geometry.hpp"

namespace ccl4j::cpu {
namespace {

using namespace ccl4j::cpu::mesh;

// One scan, forward or backward; returns whether a label changed.
template <class R>
bool scan(const Geometry& g, const std::vector<RowStep>& steps, const typename R::Cell* cells, int32_t* labels,
          bool forward, R rule) {
    const int64_t rows = g.rows();
    std::vector<int64_t> neighbour_rows(steps.size());
    bool changed = false;
    for (int64_t k = 0; k < rows; ++k) {
        const int64_t r = forward ? k : rows - 1 - k;
        for (size_t s = 0; s < steps.size(); ++s) neighbour_rows[s] = g.row(r, steps[s].dy, steps[s].dz);
        int32_t* row_labels = labels + r * g.width;
        for (int32_t i = 0; i < g.width; ++i) {
            const int32_t x = forward ? i : g.width - 1 - i;
            if (row_labels[x] < 0) continue;
            const int32_t best =
                smallest_neighbour_label(g, steps, neighbour_rows.data(), cells, labels, r, x, rule);
            if (best < row_labels[x]) {
                row_labels[x] = best;
                changed = true;
            }
        }
    }
    return changed;
}

}  // namespace

PhasePlan mesh_raster_plan(const Mesh& m, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    const int64_t n = m.cell_count();
    const int32_t limit = iteration_limit(max_iterations, int32_t(n));
    const Geometry g(m);
    const std::vector<RowStep> steps = row_steps(m.connectivity, false);
    PhasePlan plan;
    with_rule(m, [&](const auto* cells, auto rule) {
        plan.push_back({"init", [cells, n, labels, rule, &log] {
                            Stopwatch watch;
                            initial_labels(cells, n, labels, rule);
                            log.add("init", watch.lap());
                            return 0;
                        }});
        plan.push_back({"scan", [g, steps, cells, labels, limit, rule, &log] {
                            Stopwatch watch;
                            int32_t scans = 0;
                            bool changed = true;
                            while (changed) {
                                if (scans == limit) {
                                    log.set_iterations(scans);
                                    fail(CCL4J_NOT_CONVERGED, "CPU I (raster scans) did not converge within " +
                                                                  std::to_string(limit) + " scans (max_iterations)");
                                }
                                changed = scan(g, steps, cells, labels, scans % 2 == 0, rule);
                                ++scans;
                            }
                            log.add("scan", watch.lap());
                            log.set_iterations(scans);
                            return scans;
                        }});
    });
    return plan;
}

void mesh_raster(const Mesh& m, int32_t* labels, int32_t max_iterations, PhaseLog& log) {
    for (const Phase& phase : mesh_raster_plan(m, labels, max_iterations, log)) phase.run();
}

}  // namespace ccl4j::cpu
