#include "cpu/mesh_pack.hpp"

#include <cstring>

#include "common/parallel.hpp"

namespace ccl4j::cpu {

DenseMesh::DenseMesh(const Mesh& m, int threads) : mesh_(m) {
    mesh_.row_stride = 0;
    mesh_.layer_stride = 0;
    if (m.dense()) return;
    const size_t cell = static_cast<size_t>(m.cell_size());
    const size_t row_bytes = static_cast<size_t>(m.width) * cell;
    const int64_t rows = int64_t(m.height) * m.depth;
    copy_.reset(new unsigned char[static_cast<size_t>(rows) * row_bytes]);
    const auto* source = static_cast<const unsigned char*>(m.cells);
    unsigned char* target = copy_.get();
    parallel::for_each(int64_t{0}, rows, threads, [&](int64_t r) {
        const int64_t y = r % m.height, z = r / m.height;
        const int64_t offset = y * m.row_step() + z * m.layer_step();  // in cells
        std::memcpy(target + static_cast<size_t>(r) * row_bytes, source + static_cast<size_t>(offset) * cell, row_bytes);
    });
    mesh_.cells = copy_.get();
}

}  // namespace ccl4j::cpu
