// The C ABI of contacts between components (ccl4j/contacts.h): argument checks, then the CPU
// (cpu/contacts) or the GPU (cuda/contacts), and the rows copied into the caller's columns.
#include <algorithm>
#include <cstdint>
#include <string>

#include "api/context.hpp"
#include "ccl4j.h"
#include "common/contacts.hpp"
#include "common/error.hpp"
#include "cpu/contacts.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/contacts.hpp"
#endif

namespace {

using ccl4j::fail;
using ccl4j::contacts::Shape;

Shape shape_of(const ccl4j_mesh* mesh, int32_t connectivity, uint32_t periodic) {
    if (!mesh) fail(CCL4J_INVALID_ARGUMENT, "mesh is NULL");
    const std::string dims =
        std::to_string(mesh->width) + "x" + std::to_string(mesh->height) + "x" + std::to_string(mesh->depth);
    if (mesh->width < 1 || mesh->height < 1 || mesh->depth < 1) {
        fail(CCL4J_INVALID_ARGUMENT, "mesh extents must be positive, got " + dims);
    }
    const int64_t cells = int64_t(mesh->width) * mesh->height * mesh->depth;
    if (cells > INT32_MAX) {
        fail(CCL4J_INVALID_ARGUMENT, "contacts take int32 labels of at most " + std::to_string(INT32_MAX) +
                                         " cells, got " + dims + " = " + std::to_string(cells) + " cells");
    }
    const bool three_d = mesh->depth > 1;
    int32_t c = connectivity == 0 ? (three_d ? 6 : 4) : connectivity;
    const bool known = c == 4 || c == 8 || c == 6 || c == 18 || c == 26;
    if (!known || (three_d && (c == 4 || c == 8))) {
        fail(CCL4J_INVALID_ARGUMENT, "connectivity " + std::to_string(connectivity) + " does not fit a " +
                                         (three_d ? "3D" : "2D") + " mesh (" + dims + "): expected " +
                                         (three_d ? "6, 18 or 26" : "4 or 8 (or 6, 18 or 26, which act as 4, 8 and 8)") +
                                         ", or 0 for face neighbours");
    }
    // a single layer takes the planar stencils: across a periodic z of one layer, the 3D stencils'
    // edges and corners would reach the layer's own cells again and count their contacts twice
    if (!three_d) c = c == 6 ? 4 : c == 4 ? 4 : 8;
    if (periodic & ~(CCL4J_PERIODIC_X | CCL4J_PERIODIC_Y | CCL4J_PERIODIC_Z)) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown periodic bits " + std::to_string(periodic));
    }
    return {mesh->width, mesh->height, mesh->depth, c,
            {(periodic & CCL4J_PERIODIC_X) != 0, (periodic & CCL4J_PERIODIC_Y) != 0, (periodic & CCL4J_PERIODIC_Z) != 0}};
}

ccl4j::contacts::Rows rows_of(ccl4j_context_s& context, const int32_t* labels, const Shape& s) {
#ifdef CCL4J_WITH_CUDA
    if (context.backend == CCL4J_BACKEND_CUDA) {
        // the labels are host memory: keys past what the device holds or sorts are counted on the host
        try {
            auto rows = ccl4j::cuda::mesh_contacts(*context.cuda, labels, s);
            if (rows) return std::move(*rows);
        } catch (const ccl4j::Error& e) {
            if (e.status() != CCL4J_OUT_OF_MEMORY) throw;
        }
        return ccl4j::cpu::mesh_contacts(labels, s, 0);
    }
#endif
    return ccl4j::cpu::mesh_contacts(labels, s, context.backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : 0);
}

template <class T>
void copy_column(const std::vector<T>& column, int64_t rows, T* out) {
    if (out) std::copy(column.begin(), column.begin() + rows, out);
}

}  // namespace

extern "C" {

ccl4j_status ccl4j_mesh_contacts(ccl4j_context context, const ccl4j_mesh* mesh, const int32_t* labels,
                                 int32_t connectivity, uint32_t periodic, int64_t capacity, int32_t* first,
                                 int32_t* second, int64_t* contacts, int64_t* x_faces, int64_t* y_faces,
                                 int64_t* z_faces, int64_t* pairs) {
    return ccl4j::api::with_context(context, [&] {
        const Shape s = shape_of(mesh, connectivity, periodic);
        if (!labels) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        if (capacity < 0) fail(CCL4J_INVALID_ARGUMENT, "capacity is negative: " + std::to_string(capacity));
        const ccl4j::contacts::Rows rows = rows_of(*context, labels, s);
        const int64_t n = static_cast<int64_t>(rows.first.size());
        const int64_t written = std::min(capacity, n);
        copy_column(rows.first, written, first);
        copy_column(rows.second, written, second);
        copy_column(rows.contacts, written, contacts);
        copy_column(rows.faces[0], written, x_faces);
        copy_column(rows.faces[1], written, y_faces);
        copy_column(rows.faces[2], written, z_faces);
        if (pairs) *pairs = n;
    });
}

}  // extern "C"
