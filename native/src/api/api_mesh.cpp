// The C ABI of mesh labelling (the mesh section of ccl4j.h) and of per-phase runs over a mesh:
// validation of the mesh and its options, the choice of algorithm, and the plans of the CPU
// algorithms or the GPU ones.
#include <cstdint>
#include <memory>
#include <string>

#include "ccl4j.h"
#include "ccl4j/bench.h"
#include "api/context.hpp"
#include "api/phase_run.hpp"
#include "common/error.hpp"
#include "common/mesh.hpp"
#include "common/validate.hpp"
#include "common/phase_log.hpp"
#include "cpu/mesh_cpu.hpp"
#include "cpu/mesh_pack.hpp"
#include "cpu/phase_program.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/mesh_kernels.hpp"
#endif

namespace {

using ccl4j::fail;
using ccl4j::Mesh;

bool is_gpu_algorithm(ccl4j_algorithm a) {
    return a >= CCL4J_ALGORITHM_MESH_NEIGHBOUR && a <= CCL4J_ALGORITHM_MESH_UNION_FIND;
}

bool is_cpu_algorithm(ccl4j_algorithm a) {
    return a >= CCL4J_ALGORITHM_MESH_CPU_RASTER && a <= CCL4J_ALGORITHM_MESH_CPU_PARALLEL;
}

// "MESH_KOMURA (20)": the id as ccl4j.h names it, for messages.
std::string algorithm_name(ccl4j_algorithm a) {
    static const char* const names[] = {"MESH_NEIGHBOUR",  "MESH_LOCAL",      "MESH_DIRECTIONAL",
                                        "MESH_EQUIVALENCE", "MESH_KOMURA",     "MESH_UNION_FIND",
                                        "MESH_CPU_RASTER",  "MESH_CPU_EQUIVALENCE", "MESH_CPU_PARALLEL"};
    return std::string(names[a - CCL4J_ALGORITHM_MESH_NEIGHBOUR]) + " (" + std::to_string(a) + ")";
}

std::string dims(const ccl4j_mesh& m) {
    return std::to_string(m.width) + "x" + std::to_string(m.height) + "x" + std::to_string(m.depth);
}

// Checks the mesh and the options against each other and builds the internal view.
Mesh validate(const ccl4j_mesh* mesh, const ccl4j_mesh_options& o) {
    if (!mesh) fail(CCL4J_INVALID_ARGUMENT, "mesh is NULL");
    const ccl4j_mesh& m = *mesh;
    const char* axes[] = {"width", "height", "depth"};
    const int32_t extents[] = {m.width, m.height, m.depth};
    for (int a = 0; a < 3; ++a) {
        if (extents[a] < 1) {
            fail(CCL4J_INVALID_ARGUMENT, std::string("mesh ") + axes[a] + " " + std::to_string(extents[a]) +
                                             " is not positive (" + dims(m) + ")");
        }
    }
    const int64_t cells = int64_t(m.width) * m.height * m.depth;
    if (cells > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "a mesh holds at most " + std::to_string(INT32_MAX) +
                                         " cells (labels are int32), got " + dims(m) + " = " + std::to_string(cells) +
                                         " cells");
    }
    if (m.cell_type != CCL4J_CELL_U8 && m.cell_type != CCL4J_CELL_I32) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown cell type " + std::to_string(m.cell_type) + " (expected CCL4J_CELL_U8 = " +
                                         std::to_string(CCL4J_CELL_U8) + " or CCL4J_CELL_I32 = " +
                                         std::to_string(CCL4J_CELL_I32) + ")");
    }
    if (!m.cells) fail(CCL4J_INVALID_ARGUMENT, "mesh cells is NULL");
    ccl4j::check_strides(m.width, m.height, m.depth, m.cell_type, m.row_stride, m.layer_stride);

    const bool three_d = m.depth > 1;
    int32_t connectivity = o.connectivity == 0 ? (three_d ? 6 : 4) : o.connectivity;
    const bool known = connectivity == 4 || connectivity == 8 || connectivity == 6 || connectivity == 26;
    if (!known || (three_d && (connectivity == 4 || connectivity == 8))) {
        fail(CCL4J_INVALID_ARGUMENT, "connectivity " + std::to_string(o.connectivity) + " does not fit a " +
                                         (three_d ? "3D" : "2D") + " mesh (" + dims(m) + "): expected " +
                                         (three_d ? "6 or 26" : "4 or 8 (or 6 or 26, which act as 4 and 8)") +
                                         ", or 0 for face neighbours");
    }
    // A single layer is a 2D mesh whatever stencil is asked for: the 3D stencils' neighbours across
    // z are absent there, or with periodic z the cell itself, so 6 connects what 4 does and 26 what
    // 8 does. Every algorithm then sees a 2D mesh (as scikit-image and cc3d label a W x H x 1 volume).
    if (!three_d && connectivity == 6) connectivity = 4;
    if (!three_d && connectivity == 26) connectivity = 8;
    if (o.periodic & ~(CCL4J_PERIODIC_X | CCL4J_PERIODIC_Y | CCL4J_PERIODIC_Z)) {
        fail(CCL4J_INVALID_ARGUMENT, "periodic has unknown bits: " + std::to_string(o.periodic) +
                                         " (X = 1, Y = 2, Z = 4)");
    }
    if (o.mode != CCL4J_MESH_FOREGROUND && o.mode != CCL4J_MESH_SAME_VALUE) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown mesh mode " + std::to_string(o.mode) + " (expected CCL4J_MESH_FOREGROUND = 0 "
                                                                                     "or CCL4J_MESH_SAME_VALUE = 1)");
    }

    Mesh view;
    view.width = m.width;
    view.height = m.height;
    view.depth = m.depth;
    view.cell_type = m.cell_type == CCL4J_CELL_U8 ? ccl4j::CellType::U8 : ccl4j::CellType::I32;
    view.cells = m.cells;
    view.row_stride = m.row_stride;
    view.layer_stride = m.layer_stride;
    view.connectivity = connectivity;
    view.periodic[0] = o.periodic & CCL4J_PERIODIC_X;
    view.periodic[1] = o.periodic & CCL4J_PERIODIC_Y;
    view.periodic[2] = o.periodic & CCL4J_PERIODIC_Z;
    view.mode = o.mode == CCL4J_MESH_SAME_VALUE ? ccl4j::MeshMode::SameValue : ccl4j::MeshMode::Foreground;
    return view;
}

// Checks the options that do not depend on the mesh, and resolves AUTO for the context's backend.
ccl4j_mesh_options resolve(const ccl4j_mesh_options* options, const ccl4j_context_s& context) {
    ccl4j_mesh_options o{};
    if (options) o = *options;
    if (o.algorithm != CCL4J_ALGORITHM_AUTO && !is_gpu_algorithm(o.algorithm) && !is_cpu_algorithm(o.algorithm)) {
        fail(CCL4J_INVALID_ARGUMENT, "algorithm " + std::to_string(o.algorithm) +
                                         " is not a mesh algorithm (expected AUTO = 0 or a CCL4J_ALGORITHM_MESH_* id, " +
                                         std::to_string(CCL4J_ALGORITHM_MESH_NEIGHBOUR) + ".." +
                                         std::to_string(CCL4J_ALGORITHM_MESH_CPU_PARALLEL) + ")");
    }
    if (o.flags != 0) fail(CCL4J_INVALID_ARGUMENT, "no mesh flags are defined, got flags " + std::to_string(o.flags));
    if (o.cpu_threads < 0) fail(CCL4J_INVALID_ARGUMENT, "cpu_threads is negative: " + std::to_string(o.cpu_threads));
    if (o.block_size < 0 || o.block_size > 1024 || o.block_size % 32 != 0) {
        fail(CCL4J_INVALID_ARGUMENT,
             "block_size must be 0 or a multiple of 32 up to 1024, got " + std::to_string(o.block_size));
    }
    if (o.tile_size < 0) fail(CCL4J_INVALID_ARGUMENT, "tile_size is negative: " + std::to_string(o.tile_size));
    if (o.max_iterations < 0) {
        fail(CCL4J_INVALID_ARGUMENT, "max_iterations is negative: " + std::to_string(o.max_iterations));
    }
    const bool cuda = context.backend == CCL4J_BACKEND_CUDA;
    if (o.algorithm == CCL4J_ALGORITHM_AUTO) {
        o.algorithm = cuda ? CCL4J_ALGORITHM_MESH_UNION_FIND : CCL4J_ALGORITHM_MESH_CPU_PARALLEL;
    }
    if (cuda && is_cpu_algorithm(o.algorithm)) {
        fail(CCL4J_UNSUPPORTED, "mesh algorithm " + algorithm_name(o.algorithm) +
                                    " runs on the CPU backends, not on CUDA; use a CPU context");
    }
    if (!cuda && is_gpu_algorithm(o.algorithm)) {
        fail(CCL4J_UNSUPPORTED, "mesh algorithm " + algorithm_name(o.algorithm) +
                                    " is a GPU algorithm and needs a CUDA context; this one is " +
                                    ccl4j::api::backend_name(context.backend));
    }
    return o;
}

// The threads of a CPU context's work (0 = all available).
int cpu_threads(const ccl4j_context_s& context, const ccl4j_mesh_options& o) {
    return context.backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : o.cpu_threads;
}

// The plan of a CPU algorithm over a dense mesh.
ccl4j::PhasePlan cpu_plan(const ccl4j_context_s& context, const Mesh& mesh, const ccl4j_mesh_options& o,
                          int32_t* labels, ccl4j::PhaseLog& log) {
    switch (o.algorithm) {
        case CCL4J_ALGORITHM_MESH_CPU_RASTER: return ccl4j::cpu::mesh_raster_plan(mesh, labels, o.max_iterations, log);
        case CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE:
            return ccl4j::cpu::mesh_equivalence_plan(mesh, labels, o.max_iterations, log);
        default: return ccl4j::cpu::mesh_parallel_plan(mesh, labels, cpu_threads(context, o), log);
    }
}

#ifdef CCL4J_WITH_CUDA
ccl4j::cuda::MeshTuning tuning_of(const ccl4j_mesh_options& o) {
    ccl4j::cuda::MeshTuning tuning;
    tuning.block_size = o.block_size;
    tuning.tile_size = o.tile_size;
    tuning.max_iterations = o.max_iterations;
    return tuning;
}
#endif

}  // namespace

extern "C" {

ccl4j_status ccl4j_label_mesh(ccl4j_context context, const ccl4j_mesh* mesh, const ccl4j_mesh_options* options,
                              int32_t* labels, ccl4j_timings* timings) {
    return ccl4j::api::with_context(context, [&] {
        ccl4j::Stopwatch total;
        ccl4j::PhaseLog log(timings);
        const ccl4j_mesh_options o = resolve(options, *context);
        const Mesh m = validate(mesh, o);
        if (!labels) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::label_mesh(*context->cuda, m, o.algorithm, tuning_of(o), labels, log);
#endif
        } else {
            ccl4j::Stopwatch pack;
            const ccl4j::cpu::DenseMesh dense(m, cpu_threads(*context, o));
            if (dense.packed()) log.add("pack", pack.lap());
            for (const ccl4j::Phase& phase : cpu_plan(*context, dense.mesh(), o, labels, log)) phase.run();
        }
        log.set_resolved(context->backend, o.algorithm);
        log.set_total(total.lap());
    });
}

ccl4j_status ccl4j_phase_run_create_mesh(ccl4j_context context, const ccl4j_mesh* mesh,
                                         const ccl4j_mesh_options* options, ccl4j_phase_run* out) {
    return ccl4j::api::with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "phase run output is NULL");
        *out = nullptr;
        const ccl4j_mesh_options o = resolve(options, *context);
        const Mesh m = validate(mesh, o);
        auto run = std::make_unique<ccl4j_phase_run_s>();
        run->context = context;
        if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            run->program = ccl4j::cuda::mesh_phase_program(*context->cuda, m, o.algorithm, tuning_of(o));
#endif
        } else {
            // The plan reads the caller's cells, which must outlive the run (ccl4j.h), or the
            // run's own packed copy of a strided mesh.
            auto dense = std::make_shared<const ccl4j::cpu::DenseMesh>(m, cpu_threads(*context, o));
            run->program = std::make_unique<ccl4j::cpu::PlanProgram>(
                m.cell_count(),
                [&](int32_t* labels, ccl4j::PhaseLog& log) { return cpu_plan(*context, dense->mesh(), o, labels, log); },
                dense);
        }
        *out = run.release();
    });
}

}  // extern "C"
