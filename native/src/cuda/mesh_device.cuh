// What the GPU mesh algorithms share (mesh_*.cu): the mesh as kernels see it, its neighbour
// stencils, and one labelling call as the algorithms see it (the driver, driver.hpp, runs it).
// Only compiled with CCL4J_WITH_CUDA, and only included by .cu files.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <cuda/atomic>

#include "common/mesh.hpp"
#include "common/mesh_stencil.hpp"
#include "common/phases.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"
#include "cuda/graph_kernels.hpp"
#include "cuda/mesh_kernels.hpp"

namespace ccl4j::cuda::mesh {

// ---- the mesh on the device -------------------------------------------------------------------

// The shape and rules of a mesh, passed by value to every kernel.
struct Geometry {
    int32_t width;
    int32_t height;
    int32_t depth;
    int32_t connectivity;  // 4, 8, 6 or 26
    bool periodic_x;
    bool periodic_y;
    bool periodic_z;
    bool same_value;  // MeshMode::SameValue; otherwise Foreground
    double delta;     // same-value mode: the largest difference of neighbours that connect

    // The cell count of a mesh of at most INT32_MAX cells (int32 labels).
    __host__ __device__ int32_t cells() const { return width * height * depth; }
    __host__ __device__ int64_t cell_count() const { return int64_t(width) * height * depth; }
};

// Whether connecting is an equivalence of cell values, so that two connections imply a third
// (a ~ b and b ~ c: a ~ c), which the block union-find leans on to leave unions out. Values
// within delta > 0 of each other are not: b may connect to a and c that do not connect.
__host__ __device__ inline bool implies(const Geometry& g) { return !g.same_value || g.delta == 0; }

// The stencil and the cell rule (common/mesh_stencil.hpp), as the kernels name them; the rule
// reads the mode from the Geometry.
using stencil::connected;
using stencil::dx_of;
using stencil::dy_of;
using stencil::dz_of;
using stencil::in_stencil;
using stencil::kCentre;
using stencil::labelled;
using stencil::offset_of;
using stencil::step;

#ifdef __CUDACC__

// The neighbour of (x, y, z) at offset k, as coordinates; false when there is none.
__device__ __forceinline__ bool neighbour(const Geometry& g, int32_t x, int32_t y, int32_t z, int k, int32_t& nx,
                                          int32_t& ny, int32_t& nz) {
    return step(x, dx_of(k), g.width, g.periodic_x, nx) && step(y, dy_of(k), g.height, g.periodic_y, ny) &&
           step(z, dz_of(k), g.depth, g.periodic_z, nz);
}

// The linear index of (x, y, z) as a label of type L: int32_t for int32 labels (at most
// INT32_MAX cells), int64_t for int64 labels (ccl4j_label_mesh64), whose meshes may be larger.
template <class L>
__device__ __forceinline__ L linear_index(const Geometry& g, int32_t x, int32_t y, int32_t z) {
    return x + L(g.width) * (y + L(g.height) * z);
}

__device__ __forceinline__ int32_t index_of(const Geometry& g, int32_t x, int32_t y, int32_t z) {
    return linear_index<int32_t>(g, x, y, z);
}

__device__ __forceinline__ void coordinates(const Geometry& g, int32_t i, int32_t& x, int32_t& y, int32_t& z) {
    x = i % g.width;
    const int32_t row = i / g.width;
    y = row % g.height;
    z = row / g.height;
}

// The block union-find's tiles (mesh_union_find.cu), which the statistics' finalize from its tree
// (statistics.cu) takes too: 32 x 32 cells in 2D, 32 x 8 x 8 in 3D; a row of 32 cells is read and
// written by one warp, and each thread takes four cells of the tile.
template <int TX_, int TY_, int TZ_>
struct Tile {
    static constexpr int TX = TX_, TY = TY_, TZ = TZ_;
    static constexpr int kCells = TX * TY * TZ;
    static constexpr int kThreads = kCells / 4;
};
using Tile2D = Tile<32, 32, 1>;
using Tile3D = Tile<32, 8, 8>;

// Labels are read and written by many threads of one launch: the relaxed device-scope atomics
// of the graph kernels keep those accesses race-free, each still one load or store.
using detail::load_relaxed;
using detail::store_relaxed;
using detail::thread_count;
using detail::thread_index;

// A relaxed device-scope load of a label of either width, as find_roots and unite take it.
struct RelaxedLoad {
    template <class L>
    __device__ L operator()(L* p) const {
        return ::cuda::atomic_ref<L, ::cuda::thread_scope_device>(*p).load(::cuda::std::memory_order_relaxed);
    }
};

// atomicMin on labels of either width (CUDA's 64-bit form takes long long).
__device__ __forceinline__ int32_t atomic_min(int32_t* p, int32_t v) { return atomicMin(p, v); }
__device__ __forceinline__ int64_t atomic_min(int64_t* p, int64_t v) {
    return atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v));
}

// Hangs the trees of a and b (labels with p[x] <= x, roots p[r] == r) together: the larger root
// goes below the smaller with atomicMin, so the smallest index of a tree is always its root.
// When the entry already held another vertex (a concurrent union), the pair moves on to that
// vertex and the smaller one, as in Komura's label reduction (his Algorithm 1). Works on global
// or shared memory alike (Load reads one entry). With kHalve the walks to the roots also halve
// the paths they take, each entry lowered to its grandparent with atomicMin (which keeps a
// smaller entry another thread may have written), so that later walks are short.
template <bool kHalve = false, class L, class Load>
__device__ __forceinline__ void find_roots(L* p, L& a, L& b, Load load) {
    // Both walks take their steps together, so that each step's two loads are in flight at once;
    // the entry read one step ahead is the next step's parent (a later change to it only ever
    // moves it to another ancestor, so an older value is still on the way to the root).
    L next_a = load(&p[a]), next_b = load(&p[b]);
    while (next_a != a || next_b != b) {
        const L after_a = next_a != a ? load(&p[next_a]) : a;
        const L after_b = next_b != b ? load(&p[next_b]) : b;
        if (kHalve && after_a != next_a) atomic_min(&p[a], after_a);
        if (kHalve && after_b != next_b) atomic_min(&p[b], after_b);
        a = next_a;
        next_a = after_a;
        b = next_b;
        next_b = after_b;
    }
}

// No note of the roots a union hangs below others.
struct NoHook {
    template <class L>
    __device__ void operator()(L) const {}
};

// `hooked(a)` is called by the one union that hangs root a below another.
template <bool kHalve = false, class L, class Load, class Hooked = NoHook>
__device__ __forceinline__ void unite(L* p, L a, L b, Load load, Hooked hooked = {}) {
    for (;;) {
        find_roots<kHalve>(p, a, b, load);
        if (a == b) return;
        if (a < b) {
            const L t = a;
            a = b;
            b = t;
        }
        const L old = atomic_min(&p[a], b);
        if (old == a) {  // a was still a root and now hangs below b
            hooked(a);
            return;
        }
        if (old == b) return;  // a already hung below b
        a = old;               // a hung below old meanwhile: old and b remain to be joined
    }
}

#endif  // __CUDACC__

// ---- one labelling call, host side ------------------------------------------------------------

// One labelling call as the algorithms see it: the mesh and its cells on the device, the label
// array the result goes to, and a second array of cells' size for the algorithms that need one.
struct Call {
    DeviceState& state;
    Geometry geometry;
    CellType cell_type;
    const void* cells;  // device
    int32_t* labels;    // device, cell count entries: the canonical labels when the algorithm returns
    int32_t* scratch;   // device, cell count entries
    const MeshTuning& tuning;
    int32_t limit;  // passes an iterative algorithm may run (max_iterations or a bound no correct run exceeds)
    // A call for int64 labels (ccl4j_label_mesh64): device, cell count entries, where a wide plan
    // leaves the canonical labels; labels and scratch are then null.
    int64_t* wide_labels = nullptr;
    // Tree plans (block_union_find_tree): when set, a bit per cell (device, (cells + 31) / 32
    // words), where the plan leaves the bit mask of the tree's roots (cell i is bit i % 32 of word
    // i / 32), so that nothing need read the tree for them.
    uint32_t* roots = nullptr;

    // Threads per block of the one-thread-per-cell kernels: tuning.block_size or 256.
    int block() const { return block_or_default(tuning.block_size); }
    // Blocks of a grid-stride launch over `items`: enough to cover them, at most what the device
    // holds at once.
    int grid(int block, int64_t items) const { return grid_size(state, block, items); }
};

// Calls f with the call's cells as a typed device pointer (const uint8_t*, uint16_t*, int32_t* or
// float*).
template <class F>
void with_cells(const Call& call, F f) {
    switch (call.cell_type) {
        case CellType::U8: f(static_cast<const uint8_t*>(call.cells)); break;
        case CellType::U16: f(static_cast<const uint16_t*>(call.cells)); break;
        case CellType::I32: f(static_cast<const int32_t*>(call.cells)); break;
        case CellType::F32: f(static_cast<const float*>(call.cells)); break;
    }
}

// A phase of kernel launches without a fixpoint loop: `launch` enqueues them, then the phase
// checks them (an error names `what`).
template <class Launch>
Phase launch_phase(const char* name, const char* what, Launch launch) {
    return {name, [what, launch] {
                launch();
                check_launch(what);
                return 0;
            }};
}

// The algorithms as plans over a call (which must outlive the plan): each phase enqueues its work
// on call.state.stream and returns the passes of its fixpoint loop (0 for none); the driver times
// it, unless it ends phases of its own on call.state.clock. After the last phase call.labels holds the canonical
// labels. A fixpoint loop is one phase of the plan, its passes included.
PhasePlan neighbour_propagation(Call& call);    // kernel A: init, propagate
PhasePlan local_propagation(Call& call);        // kernel B: init, propagate
PhasePlan directional_propagation(Call& call);  // kernel C: init, propagate
PhasePlan label_equivalence(Call& call);  // kernel D: init, iterate (clock: init, scan, analysis, labelling)
PhasePlan komura_lattice(Call& call);     // init, analysis1, reduction, analysis2
PhasePlan block_union_find(Call& call);   // local, merge, finalize
PhasePlan block_union_find_wide(Call& call);  // the same into call.wide_labels (in place)
// local and merge only: call.scratch is left holding the union-find tree, in which every labelled
// cell points at a smaller or equal cell of its cluster in the same tile (its tile-local root),
// and only those roots point elsewhere; the roots of the trees are the canonical labels.
PhasePlan block_union_find_tree(Call& call);

}  // namespace ccl4j::cuda::mesh
