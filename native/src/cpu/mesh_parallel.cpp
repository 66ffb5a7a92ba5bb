// The parallel CPU mesh labelling: union-find kept in the labels array.
//
// The rows of the mesh are cut into one slab of consecutive rows per thread.
//  local:   each thread initialises its slab (a cell's parent is itself, background -1) and joins
//           every labelled cell with the connected neighbours of the backward half of its
//           neighbourhood that lie in its slab, at or before the cell's row, less the unions that
//           others imply (join_rows, DecisionTable). Nothing outside the slab is touched, so plain
//           loads and stores suffice.
//  merge:   the neighbour pairs left out (a backward neighbour in an earlier slab, or a row later
//           in the slab reached by periodic wrap-around) are joined by all threads at once, roots
//           hooked by compare-and-swap as in ECL-CC (Jaiganesh & Burtscher 2018). Which unions a
//           cell skips does not depend on the phase, only which of them each phase makes.
//  flatten: every cell is pointed at its root.
//
// Every store puts a smaller index at a larger one (a root is hooked under the smaller root, path
// halving points a cell at its grandparent), so parent[i] <= i throughout and each root is the
// smallest index of its tree; once all pairs are joined each cluster is one tree, and the flattened
// labels are canonical. The same invariant makes the races of merge and flatten benign: a root only
// changes by a CAS that succeeds while it is a root, and any other value read is an ancestor.

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "common/parallel.hpp"
#include "cpu/mesh_cpu.hpp"
#include "cpu/mesh_geometry.hpp"

namespace ccl4j::cpu {
namespace {

using namespace ccl4j::cpu::mesh;

// Parent-array access within one thread's slab. Parents (labels) are int32_t or int64_t (L).
struct Plain {
    template <class L>
    static L load(const L* p) {
        return *p;
    }
    template <class L>
    static void store(L* p, L v) {
        *p = v;
    }
    template <class L>
    static bool hook(L* p, L, L to) {
        *p = to;
        return true;
    }
};

// Parent-array access shared by all threads; relaxed order suffices, the barriers between the
// phases order the phases.
struct Relaxed {
    template <class L>
    static L load(const L* p) {
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    }
    template <class L>
    static void store(L* p, L v) {
        __atomic_store_n(p, v, __ATOMIC_RELAXED);
    }
    // Points root at `to` if it is still a root.
    template <class L>
    static bool hook(L* p, L root, L to) {
        return __atomic_compare_exchange_n(p, &root, to, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
};

template <class A, class L>
L find(L* parent, L i) {
    L p = A::load(&parent[i]);
    while (p != i) {
        const L grandparent = A::load(&parent[p]);
        if (grandparent != p) A::store(&parent[i], grandparent);  // path halving
        i = p;
        p = grandparent;
    }
    return i;
}

template <class A, class L>
void unite(L* parent, L a, L b) {
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
template <class R, class L>
void start_row(const Geometry& g, const typename R::Cell* cells, L* parent, int64_t r, R rule) {
    const int32_t w = g.width;
    const int64_t base = r * w;
    const auto* row = cells + base;
    L* p = parent + base;
    // Masks rather than branches (which compilers make of ?: here): on noisy fields these
    // conditions are unpredictable. A background cell gets own | -1 = -1.
    L previous = L(base) | -L(!rule.labelled(row[0]));
    p[0] = previous;
    for (int32_t x = 1; x < w; ++x) {
        const auto a = row[x];
        const L joined = -L(rule.connected(a, row[x - 1]));
        const L own = (previous & joined) | (L(base + x) & ~joined);
        previous = own | -L(!rule.labelled(a));
        p[x] = previous;
    }
    if (g.periodic_x && w > 2 && rule.labelled(row[0]) && rule.connected(row[0], row[w - 1])) {
        unite<Plain>(parent, L(base), L(base + w - 1));
    }
}

// Joins cell x of row r with every connected neighbour in row nr along step s.
template <class A, class R, class L>
void join_cell(const Geometry& g, const RowStep& s, const typename R::Cell* cells, L* parent, int64_t r,
               int64_t nr, int32_t x, R rule) {
    const auto a = cells[r * g.width + x];
    if (!rule.labelled(a)) return;
    for (int k = 0; k < s.dx_count; ++k) {
        const int32_t nx = g.column(x, s.dx[k]);
        const int64_t j = nr * g.width + nx;
        if (nx >= 0 && rule.connected(a, cells[j])) unite<A>(parent, L(r * g.width + x), L(j));
    }
}

// Joins every labelled cell of row r with its connected neighbours in row nr along step s
// (not the row's own step, which start_row covers). Connection is an equivalence of the cell
// values (both non-zero, or equal), and the cells of a run and of the neighbour row's runs are
// joined already, so most unions are known to be redundant and skipped:
//  - a neighbour straight across (dx = 0) when the previous cell of the run had its own neighbour
//    straight across connected: the two neighbours are adjacent and equivalent, so joined;
//  - with diagonals (dx = -1, 0, 1), the decision tree of Wu, Otoo & Suzuki (2009) for one row:
//    in a run, the neighbours at dx = -1 and 0 are the previous cell's at dx = 0 and 1, joined
//    there, so only the one at dx = 1 may need a union; otherwise the one straight across, if
//    connected, is adjacent to both diagonals and needs the only union. (Full connectivity comes
//    here only in the rows that join_rows_full leaves out.)
// The first and last cells (where wrap-around may break adjacency) take every union.
template <class A, class R, class L>
void join_rows(const Geometry& g, const RowStep& s, const typename R::Cell* cells, L* parent, int64_t r,
               int64_t nr, R rule) {
    const int64_t base = r * g.width;
    const int64_t nbase = nr * g.width;
    const auto* row = cells + base;
    const auto* next = cells + nbase;
    const int32_t w = g.width;
    join_cell<A>(g, s, cells, parent, r, nr, 0, rule);
    const bool diagonals = s.dx_count == 3;
    // The conditions are combined with & so that a cell costs one unpredictable branch, not four.
    for (int32_t x = 1; x < w - 1; ++x) {
        const auto a = row[x];
        const bool labelled = rule.labelled(a);
        const bool in_run = rule.connected(a, row[x - 1]);
        const bool straight = rule.connected(a, next[x]);
        const bool before = rule.connected(a, next[x - 1]);
        const bool joined = diagonals ? in_run : in_run & before;
        if (labelled & straight & !joined) {
            unite<A>(parent, L(base + x), L(nbase + x));
        } else if (diagonals) {
            const bool left = labelled & !straight & !in_run & before;
            const bool right = labelled & !straight & rule.connected(a, next[x + 1]);
            if (left) unite<A>(parent, L(base + x), L(nbase + x - 1));
            if (right) unite<A>(parent, L(base + x), L(nbase + x + 1));
        }
    }
    if (w > 1) join_cell<A>(g, s, cells, parent, r, nr, w - 1, rule);
}

// Full connectivity (8 in 2D, 26 in 3D) away from the boundaries, by a decision table. Besides
// the previous cell (-1, 0, 0), the backward neighbours lie in columns x - 1 .. x + 1 of K rows:
// K = 1 in 2D, (dy, dz) = (-1, 0); K = 4 in 3D, also (-1, -1), (0, -1) and (1, -1).
constexpr int kFullDy[4] = {-1, -1, 0, 1};
constexpr int kFullDz[4] = {0, -1, -1, -1};

// Wu, Otoo & Suzuki's decision tree (2009), as a table and carried to 3D. Any two backward
// neighbours of a cell that are adjacent to each other were joined, if connected, by the later
// of the two, which comes before the cell. Connection being an equivalence (both non-zero, or
// equal values), the cell needs one union per group of its connected backward neighbours that
// reach each other through adjacent ones, and none for the group of the previous cell, which
// start_row joined. So in 2D the neighbour straight above, if connected, is the only union, and in
// a run only (1, -1) may need one; in 3D (0, 0, -1) is adjacent to all 13 and the previous cell to
// all 8 in columns x - 1 and x.
// Bit 0 of an index is the previous cell, bit 1 + 3k + dx + 1 the cell at x + dx of row k; the
// entry holds the neighbours to unite with, as those bit numbers, four bits each (at most four:
// no five backward neighbours are pairwise apart, which the array `picked` checks when compiled).
template <int K>
struct DecisionTable {
    static constexpr int kBits = 1 + 3 * K;
    uint16_t unions[1u << kBits] = {};

    constexpr DecisionTable() {
        int offset[kBits][3] = {{-1, 0, 0}};
        for (int b = 1; b < kBits; ++b) {
            offset[b][0] = (b - 1) % 3 - 1;
            offset[b][1] = kFullDy[(b - 1) / 3];
            offset[b][2] = kFullDz[(b - 1) / 3];
        }
        unsigned adjacent[kBits] = {};
        for (int a = 0; a < kBits; ++a) {
            for (int b = 0; b < kBits; ++b) {
                bool near = true;
                for (int d = 0; d < 3; ++d) {
                    near = near && offset[a][d] - offset[b][d] <= 1 && offset[b][d] - offset[a][d] <= 1;
                }
                if (near) adjacent[a] |= 1u << b;
            }
        }
        for (unsigned mask = 0; mask < (1u << kBits); ++mask) {
            // The group of the lowest set bit of `left`, grown through adjacent set bits.
            auto group = [&](unsigned left) {
                unsigned g = left & (0u - left);
                for (unsigned grown = 0; grown != g;) {
                    grown = g;
                    for (int b = 0; b < kBits; ++b) {
                        if ((grown >> b) & 1u) g |= adjacent[b] & mask;
                    }
                }
                return g;
            };
            unsigned left = mask;
            if (mask & 1u) left &= ~group(1u);
            int picked[4] = {};
            for (int n = 0; left != 0; ++n) {
                while (!((left >> picked[n]) & 1u)) ++picked[n];
                left &= ~group(left);
            }
            for (int n = 3; n >= 0; --n) unions[mask] = uint16_t(unions[mask] << 4 | picked[n]);
        }
    }
};

template <int K>
constexpr DecisionTable<K> kDecisionTable{};

// Row r under full connectivity where none of the K rows of its backward neighbours is missing or
// reached by wrap-around, with only the unions into rows that in_phase accepts. The first and last
// cells of the row (where wrap-around along x may break adjacency) take every union.
template <int K, class A, class R, class L, class InPhase>
void join_rows_full(const Geometry& g, const std::vector<RowStep>& steps, const typename R::Cell* cells,
                    L* parent, int64_t r, const InPhase& in_phase, R rule) {
    const int32_t w = g.width;
    const int64_t base = r * w;
    const auto* row = cells + base;
    int64_t bases[K];
    const typename R::Cell* rows[K];
    bool take[K];
    for (int k = 0; k < K; ++k) {
        const int64_t nr = g.row(r, kFullDy[k], kFullDz[k]);
        bases[k] = nr * w;
        rows[k] = cells + bases[k];
        take[k] = in_phase(nr);
    }
    for (const RowStep& s : steps) {
        const int64_t nr = g.row(r, s.dy, s.dz);
        if (!in_phase(nr)) continue;
        join_cell<A>(g, s, cells, parent, r, nr, 0, rule);
        if (w > 1) join_cell<A>(g, s, cells, parent, r, nr, w - 1, rule);
    }
    const uint16_t* table = kDecisionTable<K>.unions;
    for (int32_t x = 1; x < w - 1; ++x) {
        const auto v = row[x];
        // In 3D the index takes 13 comparisons, which a background cell skips at the cost of an
        // unpredictable branch; in 2D it takes 4, and a background cell reads entry 0, which is
        // empty, so that a cell costs one unpredictable branch, on whether to unite.
        if (K > 1 && !rule.labelled(v)) continue;
        unsigned index = rule.connected(v, row[x - 1]);
        for (int k = 0; k < K; ++k) {
            for (int dx = -1; dx <= 1; ++dx) index |= unsigned(rule.connected(v, rows[k][x + dx])) << (3 * k + dx + 2);
        }
        unsigned unions = table[index & (0u - unsigned(rule.labelled(v)))];
        for (; unions != 0; unions >>= 4) {
            const unsigned b = (unions & 15u) - 1;
            const unsigned k = b / 3;
            if (take[k]) unite<A>(parent, L(base + x), L(bases[k] + x + int(b % 3) - 1));
        }
    }
}

// Joins row r with the rows of its backward neighbours that in_phase accepts.
template <class A, class R, class L, class InPhase>
void join_neighbours(const Geometry& g, const std::vector<RowStep>& steps, int connectivity,
                     const typename R::Cell* cells, L* parent, int64_t r, const InPhase& in_phase, R rule) {
    bool any = false;
    for (const RowStep& s : steps) any = any || in_phase(g.row(r, s.dy, s.dz));
    if (!any) return;
    const int32_t y = int32_t(r % g.height);
    if (!rule.equivalence()) {
        // values within delta of each other: neighbours of a cell that both connect to it need
        // not connect to each other, so no union is known to be redundant
        for (const RowStep& s : steps) {
            const int64_t nr = g.row(r, s.dy, s.dz);
            if (!in_phase(nr)) continue;
            for (int32_t x = 0; x < g.width; ++x) join_cell<A>(g, s, cells, parent, r, nr, x, rule);
        }
    } else if (connectivity == 8 && y >= 1) {
        join_rows_full<1, A>(g, steps, cells, parent, r, in_phase, rule);
    } else if (connectivity == 26 && y >= 1 && y <= g.height - 2 && r / g.height >= 1) {
        join_rows_full<4, A>(g, steps, cells, parent, r, in_phase, rule);
    } else {
        for (const RowStep& s : steps) {
            const int64_t nr = g.row(r, s.dy, s.dz);
            if (in_phase(nr)) join_rows<A>(g, s, cells, parent, r, nr, rule);
        }
    }
}

// The three phases over one slab split; each logs its own time.
template <class R, class L>
PhasePlan plan_of(const Geometry& g, std::vector<RowStep> steps, int connectivity, const typename R::Cell* cells,
                  L* parent, int threads, PhaseLog& log, R rule) {
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
                                join_neighbours<Plain>(g, steps, connectivity, cells, parent, r,
                                                       [&](int64_t nr) { return nr >= first && nr <= r; }, rule);
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
                                join_neighbours<Relaxed>(g, steps, connectivity, cells, parent, r,
                                                         [&](int64_t nr) { return nr >= 0 && (nr < first || nr > r); },
                                                         rule);
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
                                L p = Relaxed::load(&parent[i]);
                                if (p < 0) continue;
                                if (p >= first) {
                                    p = Relaxed::load(&parent[p]);
                                } else {
                                    for (L q = Relaxed::load(&parent[p]); q != p; q = Relaxed::load(&parent[p])) p = q;
                                }
                                Relaxed::store(&parent[i], p);
                            }
                        });
                        log.add("flatten", watch.lap());
                        return 0;
                    }});
    return plan;
}

template <class L>
PhasePlan mesh_parallel_plan_of(const Mesh& m, L* labels, int threads, PhaseLog& log) {
    threads = parallel::thread_count(threads);
    const Geometry g(m);
    // No more slabs than rows: every slab has at least one row.
    threads = int(std::min<int64_t>(threads, g.rows()));
    // The row's own step (dx = -1 in the same row) is start_row's.
    std::vector<RowStep> steps = row_steps(m.connectivity, true);
    steps.erase(std::remove_if(steps.begin(), steps.end(), [](const RowStep& s) { return s.dy == 0 && s.dz == 0; }),
                steps.end());
    PhasePlan plan;
    with_rule(m, [&](const auto* cells, auto rule) {
        plan = plan_of(g, steps, m.connectivity, cells, labels, threads, log, rule);
    });
    return plan;
}

}  // namespace

PhasePlan mesh_parallel_plan(const Mesh& m, int32_t* labels, int threads, PhaseLog& log) {
    if (m.cell_count() > INT32_MAX) fail(CCL4J_INVALID_ARGUMENT, "int32 labels hold at most 2^31 - 1 cells");
    return mesh_parallel_plan_of(m, labels, threads, log);
}

PhasePlan mesh_parallel_plan(const Mesh& m, int64_t* labels, int threads, PhaseLog& log) {
    return mesh_parallel_plan_of(m, labels, threads, log);
}

void mesh_parallel(const Mesh& m, int32_t* labels, int threads, PhaseLog& log) {
    for (const Phase& phase : mesh_parallel_plan(m, labels, threads, log)) phase.run();
}

void mesh_parallel(const Mesh& m, int64_t* labels, int threads, PhaseLog& log) {
    for (const Phase& phase : mesh_parallel_plan(m, labels, threads, log)) phase.run();
}

}  // namespace ccl4j::cpu
