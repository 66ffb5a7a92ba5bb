// Strided meshes on the CPU: the mesh algorithms read dense cells, so a mesh whose rows or layers
// lie apart (a region of a larger image, padded rows) is packed into a dense copy first.
#pragma once

#include <cstdint>
#include <memory>

#include "common/mesh.hpp"

namespace ccl4j::cpu {

// The cells of a mesh as the CPU algorithms read them: a dense mesh is used in place (no copy),
// a strided one is packed, its rows copied in parallel by `threads` threads (0 = all available).
class DenseMesh {
public:
    DenseMesh(const Mesh& mesh, int threads);
    DenseMesh(const DenseMesh&) = delete;
    DenseMesh& operator=(const DenseMesh&) = delete;

    // The dense mesh: the caller's cells, or the packed copy (valid while this object lives).
    const Mesh& mesh() const { return mesh_; }
    bool packed() const { return copy_ != nullptr; }

private:
    std::unique_ptr<unsigned char[]> copy_;  // uninitialised: every byte is written by the packing
    Mesh mesh_;
};

}  // namespace ccl4j::cpu
