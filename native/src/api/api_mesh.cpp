// The C ABI of mesh labelling (the mesh section of ccl4j.h) and of per-phase runs over a mesh:
// validation of the mesh and its options, the choice of algorithm, and the plans of the CPU
// algorithms or the GPU ones.
#include <cstdint>
#include <memory>
#include <string>

#include "ccl4j.h"
#include "ccl4j/bench.h"
#include "algorithms/registry.hpp"
#include "api/context.hpp"
#include "api/options.hpp"
#include "api/phase_run.hpp"
#include "common/error.hpp"
#include "common/memory.hpp"
#include "common/mesh.hpp"
#include "common/validate.hpp"
#include "common/phase_log.hpp"
#include "cpu/mesh_pack.hpp"
#include "cpu/phase_program.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/mesh_kernels.hpp"
#endif

namespace {

using ccl4j::fail;
using ccl4j::Mesh;

std::string dims(const ccl4j_mesh& m) {
    return std::to_string(m.width) + "x" + std::to_string(m.height) + "x" + std::to_string(m.depth);
}
std::string dims(const Mesh& m) {
    return std::to_string(m.width) + "x" + std::to_string(m.height) + "x" + std::to_string(m.depth);
}

}  // namespace

namespace ccl4j::api {

Mesh validate_mesh(const ccl4j_mesh* mesh, const void* cells, const ccl4j::MeshOptions& o, int label_bytes) {
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
    const int64_t cell_count = int64_t(m.width) * m.height * m.depth;
    if (label_bytes == 4 && cell_count > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "int32 labels hold at most " + std::to_string(INT32_MAX) + " cells, got " + dims(m) +
                                         " = " + std::to_string(cell_count) +
                                         " cells (ccl4j_label_mesh64 labels it into int64 labels)");
    }
    if (m.cell_type != CCL4J_CELL_U8 && m.cell_type != CCL4J_CELL_U16 && m.cell_type != CCL4J_CELL_I32 &&
        m.cell_type != CCL4J_CELL_F32) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown cell type " + std::to_string(m.cell_type) + " (expected CCL4J_CELL_U8 = " +
                                         std::to_string(CCL4J_CELL_U8) + ", CCL4J_CELL_U16 = " +
                                         std::to_string(CCL4J_CELL_U16) + ", CCL4J_CELL_I32 = " +
                                         std::to_string(CCL4J_CELL_I32) + " or CCL4J_CELL_F32 = " +
                                         std::to_string(CCL4J_CELL_F32) + ")");
    }
    const auto cell_type = static_cast<ccl4j::CellType>(m.cell_type);
    if (!cells) fail(CCL4J_INVALID_ARGUMENT, "mesh cells is NULL");
    ccl4j::check_strides(m.width, m.height, m.depth, ccl4j::cell_bytes(cell_type), m.row_stride, m.layer_stride);

    const bool three_d = m.depth > 1;
    int32_t connectivity = o.connectivity == 0 ? (three_d ? 6 : 4) : o.connectivity;
    const bool known =
        connectivity == 4 || connectivity == 8 || connectivity == 6 || connectivity == 18 || connectivity == 26;
    if (!known || (three_d && (connectivity == 4 || connectivity == 8))) {
        fail(CCL4J_INVALID_ARGUMENT, "connectivity " + std::to_string(o.connectivity) + " does not fit a " +
                                         (three_d ? "3D" : "2D") + " mesh (" + dims(m) + "): expected " +
                                         (three_d ? "6, 18 or 26" : "4 or 8 (or 6, 18 or 26, which act as 4, 8 and 8)") +
                                         ", or 0 for face neighbours");
    }
    // A single layer is a 2D mesh whatever stencil is asked for: the 3D stencils' neighbours across
    // z are absent there, or with periodic z the cell itself, so 6 connects what 4 does and 26 what
    // 8 does. Every algorithm then sees a 2D mesh (as scikit-image and cc3d label a W x H x 1 volume).
    if (!three_d && connectivity == 6) connectivity = 4;
    if (!three_d && (connectivity == 18 || connectivity == 26)) connectivity = 8;

    Mesh view;
    view.width = m.width;
    view.height = m.height;
    view.depth = m.depth;
    view.cell_type = cell_type;
    view.cells = cells;
    view.row_stride = m.row_stride;
    view.layer_stride = m.layer_stride;
    view.connectivity = connectivity;
    view.periodic[0] = o.periodic[0];
    view.periodic[1] = o.periodic[1];
    view.periodic[2] = o.periodic[2];
    view.mode = o.same_value ? ccl4j::MeshMode::SameValue : ccl4j::MeshMode::Foreground;
    view.delta = o.delta;
    return view;
}

int cpu_threads(const ccl4j_context_s& context, int32_t requested) {
    return context.backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : requested;
}

}  // namespace ccl4j::api

namespace {

using ccl4j::api::cpu_threads;

// The plan of a CPU algorithm over a dense mesh, from the registry: the one place the CPU backend
// reads the table for meshes (its wide plan for int64 labels).
ccl4j::PhasePlan cpu_plan(const ccl4j_context_s& context, const Mesh& mesh, const ccl4j::MeshOptions& o,
                          int32_t* labels, ccl4j::PhaseLog& log) {
    const ccl4j::algorithms::Algorithm& algorithm = *ccl4j::algorithms::find(o.algorithm);
    return algorithm.mesh_cpu(mesh, o, cpu_threads(context, o.cpu_threads), labels, log);
}
ccl4j::PhasePlan cpu_plan(const ccl4j_context_s& context, const Mesh& mesh, const ccl4j::MeshOptions& o,
                          int64_t* labels, ccl4j::PhaseLog& log) {
    const ccl4j::algorithms::Algorithm& algorithm = *ccl4j::algorithms::find(o.algorithm);
    ccl4j::algorithms::check_wide_labels(algorithm, false);
    return algorithm.mesh_cpu_wide(mesh, o, cpu_threads(context, o.cpu_threads), labels, log);
}

// The host memory a CPU labelling call allocates itself: a packed copy of a strided mesh.
int64_t cpu_host_bytes(const Mesh& m) { return m.dense() ? 0 : m.cell_count() * m.cell_size(); }

template <class L>
void label_on_cpu(const ccl4j_context_s& context, const Mesh& m, const ccl4j::MeshOptions& o, L* labels,
                  ccl4j::PhaseLog& log) {
    ccl4j::check_memory(cpu_host_bytes(m), ccl4j::host_memory_available(),
                        "packing the strided " + dims(m) + " mesh into dense cells", "host");
    ccl4j::Stopwatch pack;
    const ccl4j::cpu::DenseMesh dense(m, cpu_threads(context, o.cpu_threads));
    if (dense.packed()) log.add("pack", pack.lap());
    for (const ccl4j::Phase& phase : cpu_plan(context, dense.mesh(), o, labels, log)) phase.run();
}

// ccl4j_label_mesh (L = int32_t) and ccl4j_label_mesh64 (int64_t).
template <class L>
ccl4j_status label_mesh_into(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                             const ccl4j_mesh_options* options, L* labels, ccl4j_timings* timings) {
    return ccl4j::api::with_context(context, [&] {
        ccl4j::Stopwatch total;
        ccl4j::PhaseLog log(timings);
        const ccl4j::MeshOptions o = ccl4j::api::mesh_options(options, context->backend);
        const Mesh m = ccl4j::api::validate_mesh(mesh, cells, o, sizeof(L));
        if (!labels) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        // The cells span from the first to one past the last cell, strides included.
        const int64_t last_cell = (m.depth - 1) * m.layer_step() + (m.height - 1) * m.row_step() + m.width;
        ccl4j::check_disjoint(labels, static_cast<size_t>(m.cell_count()) * sizeof(L), "labels", m.cells,
                              static_cast<size_t>(last_cell) * static_cast<size_t>(m.cell_size()), "mesh cells");
        if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::label_mesh(*context->cuda, m, o.algorithm, o.tuning, labels, log);
#endif
        } else {
            label_on_cpu(*context, m, o, labels, log);
        }
        log.set_resolved(context->backend, o.algorithm);
        log.set_total(total.lap());
    });
}

}  // namespace

void ccl4j::api::label_mesh_on_cpu(const ccl4j_context_s& context, const Mesh& m, const ccl4j::MeshOptions& o,
                                   int32_t* labels, ccl4j::PhaseLog& log) {
    label_on_cpu(context, m, o, labels, log);
}

void ccl4j::api::label_mesh_on_cpu(const ccl4j_context_s& context, const Mesh& m, const ccl4j::MeshOptions& o,
                                   int64_t* labels, ccl4j::PhaseLog& log) {
    label_on_cpu(context, m, o, labels, log);
}

extern "C" {

ccl4j_status ccl4j_label_mesh(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                              const ccl4j_mesh_options* options, int32_t* labels, ccl4j_timings* timings) {
    return label_mesh_into(context, mesh, cells, options, labels, timings);
}

ccl4j_status ccl4j_label_mesh64(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                const ccl4j_mesh_options* options, int64_t* labels, ccl4j_timings* timings) {
    return label_mesh_into(context, mesh, cells, options, labels, timings);
}

ccl4j_status ccl4j_mesh_memory_needs(ccl4j_context context, const ccl4j_mesh* mesh, const ccl4j_mesh_options* options,
                                     int32_t label_bytes, ccl4j_memory_needs* out) {
    return ccl4j::api::with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "memory needs output is NULL");
        if (label_bytes != 4 && label_bytes != 8) {
            fail(CCL4J_INVALID_ARGUMENT, "label_bytes must be 4 or 8, got " + std::to_string(label_bytes));
        }
        const ccl4j::MeshOptions o = ccl4j::api::mesh_options(options, context->backend);
        // The cells are not read: the mesh itself stands in for their pointer.
        const Mesh m = ccl4j::api::validate_mesh(mesh, mesh, o, label_bytes);
        const bool cuda = context->backend == CCL4J_BACKEND_CUDA;
        *out = ccl4j_memory_needs{};
        out->labels_bytes = m.cell_count() * label_bytes;
        out->host_bytes = cuda ? 0 : cpu_host_bytes(m);
        out->host_available = ccl4j::host_memory_available();
#ifdef CCL4J_WITH_CUDA
        if (cuda) {
            out->device_bytes = ccl4j::cuda::mesh_device_bytes(m, label_bytes);
            out->device_available = ccl4j::cuda::mesh_device_available(*context->cuda);
        }
#endif
    });
}

ccl4j_status ccl4j_phase_run_create_mesh(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                         const ccl4j_mesh_options* options, ccl4j_phase_run* out) {
    return ccl4j::api::with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "phase run output is NULL");
        *out = nullptr;
        const ccl4j::MeshOptions o = ccl4j::api::mesh_options(options, context->backend);
        const Mesh m = ccl4j::api::validate_mesh(mesh, cells, o);
        auto run = std::make_unique<ccl4j_phase_run_s>();
        run->context = context;
        if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            run->program = ccl4j::cuda::mesh_phase_program(*context->cuda, m, o.algorithm, o.tuning);
#endif
        } else {
            // The plan reads the caller's cells, which must outlive the run (ccl4j.h), or the
            // run's own packed copy of a strided mesh.
            auto dense = std::make_shared<const ccl4j::cpu::DenseMesh>(m, cpu_threads(*context, o.cpu_threads));
            run->program = std::make_unique<ccl4j::cpu::PlanProgram>(
                m.cell_count(),
                [&](int32_t* labels, ccl4j::PhaseLog& log) { return cpu_plan(*context, dense->mesh(), o, labels, log); },
                dense);
        }
        *out = run.release();
    });
}

}  // extern "C"
