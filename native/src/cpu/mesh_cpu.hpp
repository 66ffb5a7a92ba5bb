// The CPU mesh algorithms. Each labels a validated host-resident mesh (common/mesh.hpp) with
// canonical labels: every labelled cell gets the smallest linear index of its cluster, background
// cells (foreground mode, value 0) get -1. `labels` has cell_count entries.
#pragma once

#include <cstdint>

#include "common/mesh.hpp"
#include "common/phase_log.hpp"
#include "common/phases.hpp"

namespace ccl4j::cpu {

// Hawick, Leist & Playne 2010, section 5.3, CPU I: every labelled cell starts with its own index;
// raster scans over the mesh, alternately forward and backward, give each cell in place the
// smallest label of the cells it is connected to, until a scan changes nothing. Throws
// Error(CCL4J_NOT_CONVERGED) past iteration_limit(max_iterations, cell_count) scans.
// Phases: init, scan; iterations = scans.
void mesh_raster(const Mesh& mesh, int32_t* labels, int32_t max_iterations, PhaseLog& log);
// As a plan: init, scan (the whole loop of scans).
PhasePlan mesh_raster_plan(const Mesh& mesh, int32_t* labels, int32_t max_iterations, PhaseLog& log);

// CPU II: Kernel D (section 5.2.4) run serially: a scanning phase records for each label the
// smallest label next to one of its cells in the equivalence list R, an analysis phase resolves
// the chains of R (in increasing order, so each chain is at most two links long), a labelling
// phase gives every cell the label R holds for its label; repeated until a scan records nothing.
// Throws Error(CCL4J_NOT_CONVERGED) past iteration_limit(max_iterations, cell_count) iterations.
// Phases: init, scan, analysis, labelling (summed over the iterations); iterations = scans.
void mesh_equivalence(const Mesh& mesh, int32_t* labels, int32_t max_iterations, PhaseLog& log);
// As a plan: init, iterate (the whole loop of scan, analysis and labelling; it logs the three).
PhasePlan mesh_equivalence_plan(const Mesh& mesh, int32_t* labels, int32_t max_iterations, PhaseLog& log);

// Union-find in the labels array itself, in parallel: the rows of the mesh are split into one
// slab per thread, each thread joins the cells of its slab; then the pairs of cells that straddle
// two slabs (the seams and the periodic wrap-around) are joined with compare-and-swap; then every
// cell is pointed at its root. Roots are always the smallest index of their tree, so the result
// is canonical without a renumbering pass. threads = 0 uses all available.
// Phases: local, merge, flatten.
//
// The *_plan forms build the same work as phases (common/phases.hpp) over the mesh's cells and
// `labels`, which must outlive the plan; each phase logs what the whole call logs for it to `log`
// (which must outlive the plan too), and running the phases in order is the whole call.
// The int32 forms take at most INT32_MAX cells; the int64 forms any count (ccl4j_label_mesh64).
void mesh_parallel(const Mesh& mesh, int32_t* labels, int threads, PhaseLog& log);
void mesh_parallel(const Mesh& mesh, int64_t* labels, int threads, PhaseLog& log);
// As a plan: local, merge, flatten.
PhasePlan mesh_parallel_plan(const Mesh& mesh, int32_t* labels, int threads, PhaseLog& log);
PhasePlan mesh_parallel_plan(const Mesh& mesh, int64_t* labels, int threads, PhaseLog& log);

}  // namespace ccl4j::cpu
