// Afforest on the CPU (Sutton, Ben-Nun & Barak, IPDPS 2018): link every vertex with its first few
// neighbours only, find the component that most vertices already share (the giant component of
// most real and random graphs), and then link the remaining edges of the vertices outside it
// alone: the edges inside the giant component, usually most of them, are never looked at.
//
// Phases (all on the one parent array of cpu/union_find.hpp, whose roots end up the canonical
// labels):
//   init     parent[v] = v's first neighbour if it is smaller (ECL-CC's init: a link that needs
//            no find, since every vertex is still a root);
//   sample   link v with its first kNeighbourRounds neighbours (except the one init followed);
//   compress point every vertex at its root; then the most frequent root among kSamples random
//            vertices is taken for the giant component's;
//   link     for every vertex outside it, link its other neighbours;
//   finalize point every vertex at its root (cpu/union_find.hpp).
// The parallel phases hand out chunks of vertices dynamically, so that a thread the system
// deschedules holds back one chunk, not a fixed share of the phase.

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "common/parallel.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cpu/union_find.hpp"

namespace ccl4j::cpu {
namespace {

// The paper's choices: two neighbour rounds and 1024 samples find the giant component of its
// graphs; more rounds link more edges blindly.
constexpr int kNeighbourRounds = 2;
constexpr int kSamples = 1024;
constexpr int32_t kChunk = 4096;

template <class Offset>
void init_vertex(const CsrView<Offset>& g, int32_t v, int32_t* parent) {
    const Offset begin = g.begin(v);
    parent[v] = begin < g.end(v) && g.neighbors[begin] < v ? g.neighbors[begin] : v;
}

template <class Access, class Offset>
void sample_vertex(const CsrView<Offset>& g, int32_t v, int32_t* parent) {
    const Offset begin = g.begin(v);
    const Offset end = std::min<Offset>(g.end(v), begin + kNeighbourRounds);
    for (Offset arc = begin; arc < end; ++arc) {
        const int32_t u = g.neighbors[arc];
        if (arc == begin && u < v) continue;  // init linked it
        link<Access>(v, u, parent);
    }
}

// v's root, without shortening the path: the roots do not change while compress runs.
template <class Access>
int32_t root_of(int32_t v, const int32_t* parent) {
    int32_t r = Access::load(&parent[v]);
    for (int32_t next; (next = Access::load(&parent[r])) != r;) r = next;
    return r;
}

template <class Access, class Offset>
void link_rest(const CsrView<Offset>& g, int32_t v, int32_t* parent, int32_t giant) {
    if (Access::load(&parent[v]) == giant) return;
    const Offset end = g.end(v);
    for (Offset arc = g.begin(v) + kNeighbourRounds; arc < end; ++arc) link<Access>(v, g.neighbors[arc], parent);
}

// The most frequent root among kSamples vertices drawn by a fixed generator (splitmix64), so
// that runs are repeatable. parent must be compressed: every vertex points at its root.
int32_t frequent_root(int32_t n, const int32_t* parent) {
    std::unordered_map<int32_t, int32_t> counts;
    uint64_t state = 0x9e3779b97f4a7c15ULL;
    int32_t best = 0, best_count = 0;
    for (int i = 0; i < kSamples; ++i) {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        const int32_t root = parent[static_cast<int32_t>((static_cast<unsigned __int128>(z) * n) >> 64)];
        const int32_t count = ++counts[root];
        if (count > best_count) {
            best = root;
            best_count = count;
        }
    }
    return best;
}

template <class Offset>
PhasePlan serial_plan(const CsrView<Offset>& g, int32_t* parent) {
    const int32_t n = g.vertex_count;
    return {{"init",
             [=] {
                 for (int32_t v = 0; v < n; ++v) init_vertex(g, v, parent);
                 return 0;
             }},
            {"sample",
             [=] {
                 for (int32_t v = 0; v < n; ++v) sample_vertex<Plain>(g, v, parent);
                 return 0;
             }},
            {"compress",
             [=] {
                 point_at_roots(n, parent);
                 return 0;
             }},
            {"link",
             [=] {
                 const int32_t giant = frequent_root(n, parent);
                 for (int32_t v = 0; v < n; ++v) link_rest<Plain>(g, v, parent, giant);
                 return 0;
             }},
            {"finalize", [=] {
                 point_at_roots(n, parent);
                 return 0;
             }}};
}

template <class Offset>
PhasePlan parallel_plan(const CsrView<Offset>& g, int32_t* parent, int threads) {
    const int32_t n = g.vertex_count;
    // Each phase's chunks get the view and the parent array by value, in registers.
    auto each_vertex = [=](auto body) {
        parallel::for_chunks(int32_t{0}, n, kChunk, threads, [&](int, int32_t first, int32_t last) {
            const CsrView<Offset> view = g;
            int32_t* p = parent;
            for (int32_t v = first; v < last; ++v) body(view, v, p);
        });
    };
    return {{"init",
             [=] {
                 each_vertex([](const CsrView<Offset>& view, int32_t v, int32_t* p) { init_vertex(view, v, p); });
                 return 0;
             }},
            {"sample",
             [=] {
                 each_vertex([](const CsrView<Offset>& view, int32_t v, int32_t* p) {
                     sample_vertex<Relaxed>(view, v, p);
                 });
                 return 0;
             }},
            {"compress",
             [=] {
                 each_vertex([](const CsrView<Offset>&, int32_t v, int32_t* p) {
                     Relaxed::store(&p[v], root_of<Relaxed>(v, p));
                 });
                 return 0;
             }},
            {"link",
             [=] {
                 const int32_t giant = frequent_root(n, parent);
                 each_vertex([giant](const CsrView<Offset>& view, int32_t v, int32_t* p) {
                     link_rest<Relaxed>(view, v, p, giant);
                 });
                 return 0;
             }},
            {"finalize", [=] {
                 point_at_roots(n, parent);
                 return 0;
             }}};
}

}  // namespace

PhasePlan afforest_plan(const Graph& graph, int32_t* parent, int threads) {
    const int team = parallel::thread_count(threads);
    if (team == 1 || graph.vertex_count <= kChunk) {
        return graph.visit([&](const auto& g) { return serial_plan(g, parent); });
    }
    return graph.visit([&](const auto& g) { return parallel_plan(g, parent, team); });
}

}  // namespace ccl4j::cpu
