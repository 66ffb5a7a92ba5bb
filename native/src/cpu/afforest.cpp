// Afforest on the CPU (Sutton, Ben-Nun & Barak, IPDPS 2018): link every vertex with its first few
// neighbours only, find the component that most vertices already share (the giant component of
// most real and random graphs), and then link the remaining edges of the vertices outside it
// alone: the edges inside the giant component, usually most of them, are never looked at.
//
// Phases (all on the one parent array of cpu/union_find.hpp, whose roots end up the canonical
// labels):
//   init     parent[v] = v's first neighbour if it is smaller (ECL-CC's init: a link that needs
//            no find, since every vertex is still a root); every vertex pointed at its root; and
//            the early giant tree, the one at least half of kSamples vertices are in already, if
//            any (init alone joins a grid or a path into one tree);
//   sample   link each vertex outside the early giant tree with the smaller ones of its first
//            kSampledArcs neighbours;
//   compress point every vertex at its root again (unless sample linked nothing), take the early
//            giant tree's root, else the most frequent root among kSamples vertices, for the
//            giant component's, and note in a bitmap which vertices are in it;
//   link     for every vertex outside it, link the arcs that sample did not, each edge from its
//            larger end (as ECL-CC does) unless that end is in the giant component;
//   finalize point every vertex at its root, unless link linked nothing, which leaves every
//            vertex pointing at its root since compress.
// Every edge {u, v}, u < v, is linked: by sample or link from v when v is outside the giant
// component (which holds every vertex that skipped sample), by link from u when only v is inside
// it, and not at all when both are inside, joined already. The bitmap, not the parent array, says who is inside: it does not change while
// link runs, so that both ends of an edge agree on who links it. init, sample and link hand out
// chunks of vertices dynamically, so that a thread the system deschedules holds back one chunk,
// not a fixed share of a phase; pointing at the roots is one ordered pass (cpu/union_find.hpp)
// that waits for no other thread.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/afforest_sampling.hpp"
#include "common/parallel.hpp"
#include "cpu/cpu_algorithms.hpp"
#include "cpu/union_find.hpp"

namespace ccl4j::cpu {
namespace {

using afforest::kSampledArcs;
using afforest::kSamples;

constexpr int32_t kChunk = 4096;

template <class Offset>
void init_vertex(const CsrView<Offset>& g, int32_t v, int32_t* parent) {
    const Offset begin = g.begin(v);
    parent[v] = begin < g.end(v) && g.neighbors[begin] < v ? g.neighbors[begin] : v;
}

// Links v with the smaller of its first kSampledArcs neighbours (init linked the first arc if it
// is smaller), unless v is in the early giant tree (its parent, the root since init, or a vertex
// of the same tree if a link has moved it since: then v merely samples too). Returns whether it
// linked any.
template <class Access, class Offset>
bool sample_vertex(const CsrView<Offset>& g, int32_t v, int32_t* parent, int32_t early_giant) {
    if (early_giant >= 0 && Access::load(&parent[v]) == early_giant) return false;
    const Offset begin = g.begin(v);
    const Offset end = std::min<Offset>(g.end(v), begin + kSampledArcs);
    bool linked = false;
    for (Offset arc = begin + 1; arc < end; ++arc) {
        const int32_t u = g.neighbors[arc];
        if (u < v) {
            link<Access>(v, u, parent);
            linked = true;
        }
    }
    return linked;
}

// Which vertices were in the giant component when link began.
class Members {
public:
    explicit Members(int32_t n) : words_(static_cast<size_t>(n) / 64 + 1, 0) {}
    bool contains(int32_t v) const { return (words_[static_cast<size_t>(v) >> 6] >> (v & 63)) & 1; }
    // Whether the 64 vertices from v (a multiple of 64) on are all inside.
    bool all_of_64(int32_t v) const { return words_[static_cast<size_t>(v) >> 6] == ~uint64_t{0}; }
    uint64_t* words() { return words_.data(); }

private:
    std::vector<uint64_t> words_;
};

// Links v's arcs that sample left, unless v is in the giant component; returns whether it linked
// any.
template <class Access, class Offset>
bool link_rest(const CsrView<Offset>& g, int32_t v, int32_t* parent, const Members& giant) {
    if (giant.contains(v)) return false;
    const Offset begin = g.begin(v);
    const Offset end = g.end(v);
    const Offset sampled = std::min<Offset>(end, begin + kSampledArcs);
    bool linked = false;
    for (Offset arc = begin; arc < end; ++arc) {
        const int32_t u = g.neighbors[arc];
        if (u < v ? arc >= sampled : giant.contains(u)) {
            link<Access>(v, u, parent);
            linked = true;
        }
    }
    return linked;
}

// The most frequent root among the kSamples sampled vertices (afforest::sampled_vertex), and in
// how many of the samples (*count). parent must be compressed: every vertex points at its root.
int32_t frequent_root(int32_t n, const int32_t* parent, int32_t* count_out) {
    *count_out = 0;
    if (n == 0) return -1;
    std::unordered_map<int32_t, int32_t> counts;
    int32_t best = 0, best_count = 0;
    for (int i = 0; i < kSamples; ++i) {
        const int32_t root = parent[afforest::sampled_vertex(i, n)];
        const int32_t count = ++counts[root];
        if (count > best_count) {
            best = root;
            best_count = count;
        }
    }
    *count_out = best_count;
    return best;
}

// The root of the tree at least half of the samples are in right after init, or -1 (init alone
// joins a grid or a path into one tree). parent must be compressed.
int32_t early_giant_root(int32_t n, const int32_t* parent) {
    int32_t count = 0;
    const int32_t root = frequent_root(n, parent, &count);
    return afforest::is_early_giant(count) ? root : -1;
}

// Notes in `members` the vertices of the giant component: the early giant tree's, whose
// vertices sample skipped and which must therefore be inside, else the most frequent root's.
// When sample linked nothing, every vertex still points at its root since init; else every vertex
// is pointed at its root first (cpu/union_find.hpp). The bitmap's words are written in parallel
// chunks, each by one thread.
void compress(int32_t n, int32_t* parent, bool sampled, int32_t early_giant, Members& members, int threads) {
    if (sampled) point_at_roots(n, parent);
    int32_t count = 0;
    const int32_t giant = early_giant >= 0 ? parent[early_giant] : frequent_root(n, parent, &count);
    uint64_t* words = members.words();
    parallel::for_chunks(int32_t{0}, n, kChunk, threads, [&](int, int32_t chunk_first, int32_t chunk_last) {
        for (int32_t first = chunk_first; first < chunk_last; first += 64) {
            const int32_t last = std::min(chunk_last, first + 64);
            uint64_t word = 0;
            for (int32_t v = first; v < last; ++v) word |= static_cast<uint64_t>(parent[v] == giant) << (v - first);
            words[first >> 6] = word;
        }
    });
}

// The phases over a team of `threads` (1: serial, with plain accesses).
template <class Offset>
PhasePlan plan(const CsrView<Offset>& g, int32_t* parent, int threads) {
    const int32_t n = g.vertex_count;
    // The early giant tree's root (or -1), whether sample linked any arc (and so whether compress
    // must point the vertices at their roots again), whether link did (and so finalize).
    auto early_giant = std::make_shared<int32_t>(-1);
    auto sampled = std::make_shared<std::atomic<bool>>(false);
    auto linked = std::make_shared<std::atomic<bool>>(false);
    auto giant = std::make_shared<Members>(n);
    // Each chunk gets the view and the parent array by value, held in registers.
    auto each_vertex = [=](auto body) {
        parallel::for_chunks(int32_t{0}, n, kChunk, threads, [&](int, int32_t first, int32_t last) {
            const CsrView<Offset> view = g;
            int32_t* p = parent;
            body(view, p, first, last);
        });
    };
    return {{"init",
             [=] {
                 each_vertex([](const CsrView<Offset>& view, int32_t* p, int32_t first, int32_t last) {
                     for (int32_t v = first; v < last; ++v) init_vertex(view, v, p);
                 });
                 point_at_roots(n, parent);
                 *early_giant = early_giant_root(n, parent);
                 return 0;
             }},
            {"sample",
             [=] {
                 sampled->store(false, std::memory_order_relaxed);
                 const int32_t early = *early_giant;
                 each_vertex([=](const CsrView<Offset>& view, int32_t* p, int32_t first, int32_t last) {
                     bool any = false;
                     for (int32_t v = first; v < last; ++v) {
                         any |= threads == 1 ? sample_vertex<Plain>(view, v, p, early)
                                             : sample_vertex<Relaxed>(view, v, p, early);
                     }
                     if (any) sampled->store(true, std::memory_order_relaxed);
                 });
                 return 0;
             }},
            {"compress",
             [=] {
                 compress(n, parent, sampled->load(), *early_giant, *giant, threads);
                 return 0;
             }},
            {"link",
             [=] {
                 each_vertex([=](const CsrView<Offset>& view, int32_t* p, int32_t first, int32_t last) {
                     const Members& members = *giant;
                     bool any = false;
                     // Chunks start at multiples of 64: a word of the bitmap that is all ones skips
                     // its 64 vertices at once (in a grid or a path, all of them).
                     for (int32_t v = first; v < last;) {
                         if ((v & 63) == 0 && members.all_of_64(v)) {
                             v += 64;
                             continue;
                         }
                         any |= threads == 1 ? link_rest<Plain>(view, v, p, members)
                                             : link_rest<Relaxed>(view, v, p, members);
                         ++v;
                     }
                     if (any) linked->store(true, std::memory_order_relaxed);
                 });
                 return 0;
             }},
            {"finalize", [=] {
                 if (linked->load()) point_at_roots(n, parent);
                 return 0;
             }}};
}

}  // namespace

PhasePlan afforest_plan(const Graph& graph, int32_t* parent, int threads) {
    const int team = parallel::team_size(threads);
    // A graph of one chunk gains nothing from atomics and waking threads.
    const int used = graph.vertex_count <= kChunk ? 1 : team;
    return graph.visit([&](const auto& g) { return plan(g, parent, used); });
}

}  // namespace ccl4j::cpu
