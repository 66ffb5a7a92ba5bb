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

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/parallel.hpp"
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

// Initialises row r: background -1; a labelled cell connected to its left neighbour takes that
// neighbour's parent (the first cell of their run, so runs are joined without finds), any other
// cell is its own root. With periodic x the two ends of the row are joined too.
template <class R>
void start_row(const Geometry& g, const typename R::Cell* cells, int32_t* parent, int64_t r, R) {
    const int64_t base = r * g.width;
    const auto* row = cells + base;
    int32_t* p = parent + base;
    // Selects rather than branches: on noisy fields these conditions are unpredictable.
    int32_t previous = -1;
    for (int32_t x = 0; x < g.width; ++x) {
        const auto a = row[x];
        const bool joined = x > 0 && R::connected(a, row[x - 1]);
        const int32_t own = joined ? previous : int32_t(base + x);
        previous = R::labelled(a) ? own : -1;
        p[x] = previous;
    }
    if (g.periodic_x && g.width > 2 && R::labelled(row[0]) && R::connected(row[0], row[g.width - 1])) {
        unite<Plain>(parent, int32_t(base), int32_t(base + g.width - 1));
    }
}

// Joins every labelled cell of row r with its connected neighbours in row nr along step s
// (not the row's own step, which start_row covers). Connection is an equivalence of the cell
// values (both non-zero, or equal), and the cells of a run and of the neighbour row's runs are
// joined already, so most unions are known to be redundant and skipped:
//  - a neighbour straight across (dx = 0) when the previous cell of the run had its own neighbour
//    straight across connected: the two neighbours are adjacent and equivalent, so joined;
//  - with diagonals (dx = -1, 0, 1), both diagonals when the neighbour straight across is
//    connected (they are adjacent to it), and the one at dx = -1 whenever the previous cell is in
//    the same run (it is that cell's neighbour straight across, handled there).
// The first and last cells (where wrap-around may break adjacency) take every union.
template <class A, class R>
void join_rows(const Geometry& g, const RowStep& s, const typename R::Cell* cells, int32_t* parent, int64_t r,
               int64_t nr, R) {
    const int64_t base = r * g.width;
    const int64_t nbase = nr * g.width;
    const auto* row = cells + base;
    const auto* next = cells + nbase;
    const int32_t w = g.width;
    auto every_union = [&](int32_t x) {
        const auto a = row[x];
        if (!R::labelled(a)) return;
        for (int k = 0; k < s.dx_count; ++k) {
            const int32_t nx = g.column(x, s.dx[k]);
            if (nx >= 0 && R::connected(a, next[nx])) unite<A>(parent, int32_t(base + x), int32_t(nbase + nx));
        }
    };
    every_union(0);
    const bool diagonals = s.dx_count == 3;
    // The conditions are combined with & so that a cell costs one unpredictable branch, not four.
    for (int32_t x = 1; x < w - 1; ++x) {
        const auto a = row[x];
        const bool labelled = R::labelled(a);
        const bool in_run = R::connected(a, row[x - 1]);
        const bool straight = R::connected(a, next[x]);
        const bool before = R::connected(a, next[x - 1]);
        if (labelled & straight & !(in_run & before)) {
            unite<A>(parent, int32_t(base + x), int32_t(nbase + x));
        } else if (diagonals) {
            const bool left = labelled & !straight & !in_run & before;
            const bool right = labelled & !straight & R::connected(a, next[x + 1]);
            if (left) unite<A>(parent, int32_t(base + x), int32_t(nbase + x - 1));
            if (right) unite<A>(parent, int32_t(base + x), int32_t(nbase + x + 1));
        }
    }
    if (w > 1) every_union(w - 1);
}

// The three phases over one slab split; each logs its own time.
template <class R>
PhasePlan plan_of(const Geometry& g, std::vector<RowStep> steps, const typename R::Cell* cells, int32_t* parent,
                  int threads, PhaseLog& log, R rule) {
    const int64_t rows = g.rows();
    const int64_t slab_rows = (rows + threads - 1) / threads;
    PhasePlan plan;
    plan.push_back({"local", [=, &log] {
                        Stopwatch watch;
                        parallel::run(threads, [&](int t) {
                            const int64_t first = std::min(rows, t * slab_rows);
                            const int64_t end = std::min(rows, first + slab_rows);
                            for (int64_t r = first; r < end; ++r) {
                                start_row(g, cells, parent, r, rule);
                                for (const RowStep& s : steps) {
                                    const int64_t nr = g.row(r, s.dy, s.dz);
                                    if (nr >= first && nr <= r) join_rows<Plain>(g, s, cells, parent, r, nr, rule);
                                }
                            }
                        });
                        log.add("local", watch.lap());
                        return 0;
                    }});
    plan.push_back({"merge", [=, &log] {
                        Stopwatch watch;
                        parallel::for_chunks(int64_t{0}, rows, 16, threads, [&](int, int64_t from, int64_t to) {
                            for (int64_t r = from; r < to; ++r) {
                                const int64_t first = r / slab_rows * slab_rows;
                                for (const RowStep& s : steps) {
                                    const int64_t nr = g.row(r, s.dy, s.dz);
                                    if (nr >= 0 && (nr < first || nr > r)) {
                                        join_rows<Relaxed>(g, s, cells, parent, r, nr, rule);
                                    }
                                }
                            }
                        });
                        log.add("merge", watch.lap());
                        return 0;
                    }});
    // Each thread flattens its own slab in increasing order, so a parent within the slab has been
    // flattened already and holds its root; a parent in an earlier slab is followed to its root
    // without path halving, since only a cell's own thread may write it now (a halving store
    // could otherwise overwrite a root that its thread just wrote).
    plan.push_back({"flatten", [=, &log] {
                        Stopwatch watch;
                        parallel::run(threads, [&](int t) {
                            const int64_t first = std::min(rows, t * slab_rows) * g.width;
                            const int64_t end = std::min(rows * g.width, first + slab_rows * g.width);
                            for (int64_t i = first; i < end; ++i) {
                                int32_t p = Relaxed::load(&parent[i]);
                                if (p < 0) continue;
                                if (p >= first) {
                                    p = Relaxed::load(&parent[p]);
                                } else {
                                    for (int32_t q = Relaxed::load(&parent[p]); q != p; q = Relaxed::load(&parent[p])) p = q;
                                }
                                Relaxed::store(&parent[i], p);
                            }
                        });
                        log.add("flatten", watch.lap());
                        return 0;
                    }});
    return plan;
}

}  // namespace

PhasePlan mesh_parallel_plan(const Mesh& m, int32_t* labels, int threads, PhaseLog& log) {
    threads = parallel::thread_count(threads);
    const Geometry g(m);
    // No more slabs than rows: every slab has at least one row.
    threads = int(std::min<int64_t>(threads, g.rows()));
    // The row's own step (dx = -1 in the same row) is start_row's.
    std::vector<RowStep> steps = row_steps(m.connectivity, true);
    steps.erase(std::remove_if(steps.begin(), steps.end(), [](const RowStep& s) { return s.dy == 0 && s.dz == 0; }),
                steps.end());
    PhasePlan plan;
    with_rule(m, [&](const auto* cells, auto rule) { plan = plan_of(g, steps, cells, labels, threads, log, rule); });
    return plan;
}

void mesh_parallel(const Mesh& m, int32_t* labels, int threads, PhaseLog& log) {
    for (const Phase& phase : mesh_parallel_plan(m, labels, threads, log)) phase.run();
}

}  // namespace ccl4j::cpu
