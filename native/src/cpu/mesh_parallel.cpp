// The parallel CPU mesh labelling: union-find kept in the labels array.
//
// The rows of the mesh are cut into one slab of consecutive rows per thread.
//  local:   each thread initialises its slab (a cell's parent is itself, background -1) and joins
//           every labelled cell with the connected neighbours of the backward half of its
//           neighbourhood that lie in its slab, at or before the cell's row. Nothing outside the
//           slab is touched, so plain loads and stores suffice.
//  merge:   the neighbour pairs left out (a backward neighbour in an earlier slab, or a row later
//           in the slab reached by periodic wrap-around) are joined by all threads at once, roots
//           hooked by compare-and-swap as in ECL-CC (Jaiganesh & Burtscher 2018).
//  flatten: every cell is pointed at its root.
//
// Every store puts a smaller index at a larger one (a root is hooked under the smaller root, path
// halving points a cell at its grandparent), so parent[i] <= i throughout and each root is the
// smallest index of its tree; once all pairs are joined each cluster is one tree, and the flattened
// labels are canonical. The same invariant makes the races of merge and flatten benign: a root only
// changes by a CAS that succeeds while it is a root, and any other value read is an ancestor.

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu/mesh_cpu.hpp"
#include "cpu/mesh_geometry.hpp"

namespace ccl4j::cpu {
namespace {

using namespace ccl4j::cpu::mesh;

// Parent-array access within one thread's slab.
struct Plain {
    static int32_t load(const int32_t* p) { return *p; }
    static void store(int32_t* p, int32_t v) { *p = v; }
    static bool hook(int32_t* p, int32_t, int32_t to) {
        *p = to;
        return true;
    }
};

// Parent-array access shared by all threads; relaxed order suffices, the barriers between the
// phases order the phases.
struct Relaxed {
    static int32_t load(const int32_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static void store(int32_t* p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    // Points root at `to` if it is still a root.
    static bool hook(int32_t* p, int32_t root, int32_t to) {
        return __atomic_compare_exchange_n(p, &root, to, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
};

template <class A>
int32_t find(int32_t* parent, int32_t i) {
    int32_t p = A::load(&parent[i]);
    while (p != i) {
        const int32_t grandparent = A::load(&parent[p]);
        if (grandparent != p) A::store(&parent[i], grandparent);  // path halving
        i = p;
        p = grandparent;
    }
    return i;
}

template <class A>
void unite(int32_t* parent, int32_t a, int32_t b) {
    while (true) {
        a = find<A>(parent, a);
        b = find<A>(parent, b);
        if (a == b) return;
        if (a < b) std::swap(a, b);
        if (A::hook(&parent[a], a, b)) return;  // the larger root goes under the smaller
    }
}

// Joins every labelled cell of row r with its connected neighbours in row nr along step s.
template <class A, class R>
void join_rows(const Geometry& g, const RowStep& s, const typename R::Cell* cells, int32_t* parent, int64_t r,
               int64_t nr, R) {
    const int64_t base = r * g.width;
    const int64_t neighbour_base = nr * g.width;
    g.for_each_column_pair(s, [&](int32_t x, int32_t nx) {
        const auto a = cells[base + x];
        if (R::labelled(a) && R::connected(a, cells[neighbour_base + nx])) {
            unite<A>(parent, int32_t(base + x), int32_t(neighbour_base + nx));
        }
    });
}

template <class R>
void label(const Geometry& g, const std::vector<RowStep>& steps, const typename R::Cell* cells, int32_t* parent,
           int threads, PhaseLog& log, R rule) {
    const int64_t rows = g.rows();
    const int64_t slab_rows = (rows + threads - 1) / threads;
    Stopwatch watch;

#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; ++t) {
        const int64_t first = std::min(rows, t * slab_rows);
        const int64_t end = std::min(rows, first + slab_rows);
        for (int64_t r = first; r < end; ++r) {
            const int64_t base = r * g.width;
            for (int32_t x = 0; x < g.width; ++x) {
                parent[base + x] = R::labelled(cells[base + x]) ? int32_t(base + x) : -1;
            }
            for (const RowStep& s : steps) {
                const int64_t nr = g.row(r, s.dy, s.dz);
                if (nr >= first && nr <= r) join_rows<Plain>(g, s, cells, parent, r, nr, rule);
            }
        }
    }
    log.add("local", watch.lap());

#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t first = r / slab_rows * slab_rows;
        for (const RowStep& s : steps) {
            const int64_t nr = g.row(r, s.dy, s.dz);
            if (nr >= 0 && (nr < first || nr > r)) join_rows<Relaxed>(g, s, cells, parent, r, nr, rule);
        }
    }
    log.add("merge", watch.lap());

    const int64_t n = rows * g.width;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        if (Relaxed::load(&parent[i]) >= 0) Relaxed::store(&parent[i], find<Relaxed>(parent, int32_t(i)));
    }
    log.add("flatten", watch.lap());
}

}  // namespace

void mesh_parallel(const Mesh& m, int32_t* labels, int threads, PhaseLog& log) {
    if (threads <= 0) threads = omp_get_max_threads();
    const Geometry g(m);
    // No more slabs than rows: every slab has at least one row.
    threads = int(std::min<int64_t>(threads, g.rows()));
    const std::vector<RowStep> steps = row_steps(m.connectivity, true);
    with_rule(m, [&](const auto* cells, auto rule) { label(g, steps, cells, labels, threads, log, rule); });
}

}  // namespace ccl4j::cpu
