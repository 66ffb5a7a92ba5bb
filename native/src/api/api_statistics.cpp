// The C ABI of component statistics (ccl4j/statistics.h): argument checks, then the CPU engine
// (cpu/statistics) or the GPU one (cuda/statistics); the table goes to the context.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/context.hpp"
#include "ccl4j.h"
#include "common/error.hpp"
#include "common/statistics.hpp"
#include "common/validate.hpp"
#include "cpu/measurements.hpp"
#include "cpu/mesh_wraps.hpp"
#include "cpu/statistics.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/mesh_kernels.hpp"
#include "cuda/statistics.hpp"
#endif

namespace {

using namespace ccl4j::api;
using ccl4j::fail;
using ccl4j::Intensity;
using ccl4j::IntensityType;
using ccl4j::Mesh;

int32_t numbering_of(const ccl4j_statistics_options* s) {
    const int32_t numbering = s ? s->numbering : CCL4J_NUMBERING_CANONICAL;
    if (numbering != CCL4J_NUMBERING_CANONICAL && numbering != CCL4J_NUMBERING_RASTER &&
        numbering != CCL4J_NUMBERING_SIZE) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown numbering " + std::to_string(numbering) +
                                         " (expected CCL4J_NUMBERING_CANONICAL, _RASTER or _SIZE)");
    }
    return numbering;
}

// The grid the table sums: the options' intensity grid, or the mesh's own cells.
Intensity intensity_of(const ccl4j_statistics_options* s, const void* intensity, const Mesh& m) {
    const int32_t type = s ? s->intensity_type : CCL4J_INTENSITY_NONE;
    if (type == CCL4J_INTENSITY_NONE) {
        if (intensity) fail(CCL4J_INVALID_ARGUMENT, "an intensity grid was given, but the options name no intensity type");
        if (!m.cells) fail(CCL4J_INVALID_ARGUMENT, "mesh cells are NULL and no intensity grid is given");
        return ccl4j::own_intensity(m);
    }
    if (type != CCL4J_INTENSITY_U8 && type != CCL4J_INTENSITY_U16 && type != CCL4J_INTENSITY_I32 &&
        type != CCL4J_INTENSITY_F32) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown intensity type " + std::to_string(type) +
                                         " (expected CCL4J_INTENSITY_NONE, _U8, _U16, _I32 or _F32)");
    }
    if (!intensity) fail(CCL4J_INVALID_ARGUMENT, "the options name an intensity type, but the intensity grid is NULL");
    const auto bytes = static_cast<int32_t>(ccl4j::intensity_bytes(static_cast<IntensityType>(type)));
    ccl4j::check_strides(m.width, m.height, m.depth, bytes, s->intensity_row_stride, s->intensity_layer_stride);
    const int64_t row_step = s->intensity_row_stride ? s->intensity_row_stride : m.width;
    const int64_t layer_step = s->intensity_layer_stride ? s->intensity_layer_stride : row_step * m.height;
    return {static_cast<IntensityType>(type), intensity, row_step, layer_step};
}

// The bytes from an intensity grid's first cell to one past its last.
size_t span_bytes(const Intensity& in, const Mesh& m) {
    const int64_t cells = (m.depth - 1) * in.layer_step + (m.height - 1) * in.row_step + m.width;
    return static_cast<size_t>(cells) * ccl4j::intensity_bytes(in.type);
}

// A mesh under its options (and, with cells, its cell type and strides) for a statistics call on
// labels already made.
Mesh shape_of(const ccl4j_mesh* mesh, const void* cells, const ccl4j::MeshOptions& o, int label_bytes) {
    if (!mesh) fail(CCL4J_INVALID_ARGUMENT, "mesh is NULL");
    if (cells) return validate_mesh(mesh, cells, o, label_bytes);
    // no cells: only the extents, checked as validate_mesh does through a stand-in cell pointer
    Mesh m = validate_mesh(mesh, mesh, o, label_bytes);
    m.cells = nullptr;
    return m;
}

template <class L>
void check_output(const L* out, const L* labels, int64_t count) {
    if (!out || out == labels) return;
    const size_t bytes = static_cast<size_t>(count) * sizeof(L);
    ccl4j::check_disjoint(out, bytes, "output labels", labels, bytes, "labels");
}

bool measurements_of(const ccl4j_statistics_options* s) { return s && s->measurements != 0; }

// Keeps a mesh table, with its wraps column, on the context. labels are the mesh's labels in
// `numbering` (host). With a periodic axis, the mesh is labelled again on the CPU with open
// boundaries to find the components that wrap (the phase "wraps"). With `measure`, a table
// without the measurement columns gets them from a pass over those labels on the host (the phase
// "measurements"). L: int32_t or int64_t labels.
template <class L>
void keep_mesh(ccl4j_context_s& context, const Mesh& m, const ccl4j::MeshOptions& o, ccl4j::StatisticsTablePtr table,
               const L* labels, int32_t numbering, bool measure, int64_t* components, ccl4j::PhaseLog& log) {
    const int64_t rows = table->rows();
    if (measure && !table->measured()) {  // (CUDA's int32 tables come measured on the device)
        ccl4j::Stopwatch pass;
        std::vector<int64_t> first(static_cast<size_t>(rows));
        if (rows > 0) table->copy_column(CCL4J_STAT_FIRST, 0, rows, first.data());
        table = ccl4j::with_measures(std::move(table),
                                     ccl4j::cpu::mesh_measures(m, labels, numbering, first, cpu_threads(context, 0)));
        log.add("measurements", pass.lap());
    }
    std::vector<uint32_t> wraps(static_cast<size_t>(rows), 0);
    if (m.periodic[0] || m.periodic[1] || (m.periodic[2] && m.depth > 1)) {
        ccl4j::Stopwatch pass;
        Mesh open = m;
        open.periodic[0] = open.periodic[1] = open.periodic[2] = false;
        ccl4j::MeshOptions cpu = o;
        cpu.algorithm = CCL4J_ALGORITHM_MESH_CPU_PARALLEL;
        std::unique_ptr<L[]> open_labels(new L[static_cast<size_t>(m.cell_count())]);
        ccl4j::PhaseLog quiet(nullptr);
        label_mesh_on_cpu(context, open, cpu, open_labels.get(), quiet);
        // the row of a cell's component, from its label in the numbering
        std::unordered_map<int64_t, int32_t> row_of_first;
        if (numbering == CCL4J_NUMBERING_CANONICAL) {
            std::vector<int64_t> first(static_cast<size_t>(rows));
            if (rows > 0) table->copy_column(CCL4J_STAT_FIRST, 0, rows, first.data());
            for (int32_t r = 0; r < rows; ++r) row_of_first.emplace(first[r], r);
        }
        auto row_of = [&](int64_t cell) {
            const int64_t l = labels[cell];
            return static_cast<int32_t>(numbering == CCL4J_NUMBERING_RASTER ? l - 1
                                        : numbering == CCL4J_NUMBERING_SIZE ? l
                                                                            : row_of_first.at(l));
        };
        wraps = ccl4j::cpu::mesh_wraps(m, open_labels.get(), row_of, rows);
        log.add("wraps", pass.lap());
    }
    if (components) *components = rows;
    context.statistics = ccl4j::with_wraps(std::move(table), std::move(wraps));
}

void keep(ccl4j_context_s& context, ccl4j::StatisticsTablePtr table, int64_t* components) {
    if (components) *components = table->rows();
    context.statistics = std::move(table);
}

// ccl4j_label_mesh_statistics (L = int32_t) and ccl4j_label_mesh64_statistics (int64_t). Only
// int32 labels on CUDA take the device pass; the others label, then sum on the host.
template <class L>
ccl4j_status label_with_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                   const ccl4j_mesh_options* options, const ccl4j_statistics_options* statistics,
                                   const void* intensity, L* labels, int64_t* components, ccl4j_timings* timings) {
    return with_context(context, [&] {
        context->statistics.reset();
        ccl4j::Stopwatch total;
        ccl4j::PhaseLog log(timings);
        const ccl4j::MeshOptions o = mesh_options(options, context->backend);
        const Mesh m = validate_mesh(mesh, cells, o, sizeof(L));
        const int32_t numbering = numbering_of(statistics);
        const Intensity in = intensity_of(statistics, intensity, m);
        if (!labels) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        const size_t label_bytes = static_cast<size_t>(m.cell_count()) * sizeof(L);
        ccl4j::check_disjoint(labels, label_bytes, "labels", m.cells, span_bytes(ccl4j::own_intensity(m), m), "mesh cells");
        if (in.cells != m.cells) ccl4j::check_disjoint(labels, label_bytes, "labels", in.cells, span_bytes(in, m), "intensity");
        const bool cuda = context->backend == CCL4J_BACKEND_CUDA;
        if constexpr (sizeof(L) == sizeof(int32_t)) {
            if (cuda) {
#ifdef CCL4J_WITH_CUDA
                keep_mesh(*context, m, o,
                          ccl4j::cuda::label_mesh_statistics(*context->cuda, m, o.algorithm, o.tuning,
                                                             in.cells == m.cells ? nullptr : &in, numbering,
                                                             measurements_of(statistics), labels, log),
                          labels, numbering, measurements_of(statistics), components, log);
#endif
                log.set_resolved(context->backend, o.algorithm);
                log.set_total(total.lap());
                return;
            }
        }
        if (cuda) {
#ifdef CCL4J_WITH_CUDA
            ccl4j::cuda::label_mesh(*context->cuda, m, o.algorithm, o.tuning, labels, log);
#endif
        } else {
            label_mesh_on_cpu(*context, m, o, labels, log);
        }
        ccl4j::Stopwatch pass;
        ccl4j::MeshRows rows =
            ccl4j::cpu::mesh_rows(m, labels, in, numbering, labels, cpu_threads(*context, cuda ? 0 : o.cpu_threads));
        log.add("statistics", pass.lap());
        keep_mesh(*context, m, o, ccl4j::host_table(std::move(rows)), labels, numbering, measurements_of(statistics),
                  components, log);
        log.set_resolved(context->backend, o.algorithm);
        log.set_total(total.lap());
    });
}

// ccl4j_mesh_statistics (L = int32_t) and ccl4j_mesh64_statistics (int64_t, on the host).
template <class L>
ccl4j_status statistics_of(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                           const ccl4j_mesh_options* options, const L* labels,
                           const ccl4j_statistics_options* statistics, const void* intensity, L* out,
                           int64_t* components) {
    return with_context(context, [&] {
        context->statistics.reset();
        const ccl4j::MeshOptions o = mesh_options(options, context->backend);
        const Mesh m = shape_of(mesh, cells, o, sizeof(L));
        if (!m.cells && (m.periodic[0] || m.periodic[1] || m.periodic[2])) {
            fail(CCL4J_INVALID_ARGUMENT, "mesh cells are NULL, but a periodic axis needs them to find wrapping components");
        }
        const int32_t numbering = numbering_of(statistics);
        const Intensity in = intensity_of(statistics, intensity, m);
        if (!labels) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        check_output(out, labels, m.cell_count());
        if (out) {
            const size_t bytes = static_cast<size_t>(m.cell_count()) * sizeof(L);
            ccl4j::check_disjoint(out, bytes, "output labels", in.cells, span_bytes(in, m), "intensity");
        }
        const int threads = cpu_threads(*context, 0);
        ccl4j::cpu::check_canonical(labels, m.cell_count(), threads);
        ccl4j::PhaseLog quiet(nullptr);
        const int32_t mapped = out ? numbering : CCL4J_NUMBERING_CANONICAL;  // what the wraps read rows from
        if constexpr (sizeof(L) == sizeof(int32_t)) {
            if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
                ccl4j::StatisticsTablePtr table = ccl4j::cuda::mesh_statistics(*context->cuda, m, labels, in, numbering,
                                                                               measurements_of(statistics), out);
                keep_mesh(*context, m, o, std::move(table), out ? out : labels, mapped, measurements_of(statistics),
                          components, quiet);
#endif
                return;
            }
        }
        ccl4j::StatisticsTablePtr table = ccl4j::host_table(ccl4j::cpu::mesh_rows(m, labels, in, numbering, out, threads));
        keep_mesh(*context, m, o, std::move(table), out ? out : labels, mapped, measurements_of(statistics), components,
                  quiet);
    });
}

}  // namespace

extern "C" {

ccl4j_status ccl4j_label_mesh_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                         const ccl4j_mesh_options* options, const ccl4j_statistics_options* statistics,
                                         const void* intensity, int32_t* labels, int64_t* components,
                                         ccl4j_timings* timings) {
    return label_with_statistics(context, mesh, cells, options, statistics, intensity, labels, components, timings);
}

ccl4j_status ccl4j_label_mesh64_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                           const ccl4j_mesh_options* options,
                                           const ccl4j_statistics_options* statistics, const void* intensity,
                                           int64_t* labels, int64_t* components, ccl4j_timings* timings) {
    return label_with_statistics(context, mesh, cells, options, statistics, intensity, labels, components, timings);
}

ccl4j_status ccl4j_mesh_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                   const ccl4j_mesh_options* options, const int32_t* labels,
                                   const ccl4j_statistics_options* statistics, const void* intensity, int32_t* out,
                                   int64_t* components) {
    return statistics_of(context, mesh, cells, options, labels, statistics, intensity, out, components);
}

ccl4j_status ccl4j_mesh64_statistics(ccl4j_context context, const ccl4j_mesh* mesh, const void* cells,
                                     const ccl4j_mesh_options* options, const int64_t* labels,
                                     const ccl4j_statistics_options* statistics, const void* intensity, int64_t* out,
                                     int64_t* components) {
    return statistics_of(context, mesh, cells, options, labels, statistics, intensity, out, components);
}

ccl4j_status ccl4j_graph_statistics(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                    const int32_t* neighbors, const int32_t* labels, int32_t numbering, int32_t* out,
                                    int64_t* components) {
    return with_context(context, [&] {
        context->statistics.reset();
        const ccl4j::Graph g = ccl4j::validate_sizes(graph, offsets, neighbors);
        ccl4j_statistics_options s{};
        s.numbering = numbering;
        numbering_of(&s);
        if (!labels && g.vertex_count > 0) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        check_output(out, labels, g.vertex_count);
        const int threads = cpu_threads(*context, 0);
        ccl4j::check_offsets(g, threads);
        ccl4j::cpu::check_canonical(labels, g.vertex_count, threads);
        if (context->backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            keep(*context, ccl4j::cuda::graph_statistics(*context->cuda, g, labels, numbering, out), components);
#endif
            return;
        }
        keep(*context, ccl4j::host_table(ccl4j::cpu::graph_rows(g, labels, numbering, out, threads)), components);
    });
}

ccl4j_status ccl4j_statistics_column(ccl4j_context context, int32_t column, int64_t first, int64_t count, void* out) {
    return with_context(context, [&] {
        if (!context->statistics) fail(CCL4J_INVALID_ARGUMENT, "this context holds no statistics table: compute one first");
        const ccl4j::StatisticsTable& table = *context->statistics;
        const bool mesh = table.kind() == ccl4j::TableKind::Mesh;
        if (ccl4j::column_width(table.kind(), column) == 0) {
            fail(CCL4J_INVALID_ARGUMENT, "column " + std::to_string(column) + " is not a column of a " +
                                             (mesh ? "mesh" : "graph") + " table");
        }
        const int64_t rows = table.rows();
        if (first < 0 || count < 0 || first > rows || count > rows - first) {
            fail(CCL4J_INVALID_ARGUMENT, "rows " + std::to_string(first) + " .. " + std::to_string(first + count - 1) +
                                             " are outside the table's " + std::to_string(rows) + " rows");
        }
        if (column >= CCL4J_STAT_MOMENT_XX && column <= CCL4J_STAT_FACES_Z && !table.measured()) {
            fail(CCL4J_INVALID_ARGUMENT, "column " + std::to_string(column) +
                                             " is a measurement: this table was made without "
                                             "ccl4j_statistics_options.measurements");
        }
        if (count == 0) return;
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "column output is NULL");
        table.copy_column(column, first, count, out);
    });
}

}  // extern "C"
