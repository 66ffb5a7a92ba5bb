// Graph generators and the union-find oracle shared by the C++ tests (test_cpu, test_cuda).
//
// Every generator returns a HostGraph: an undirected graph in CSR form with each edge stored as
// two arcs, holding both 64-bit and 32-bit offsets so that either width can be handed to the
// library (view64(), view32(), and csr(width) for the C ABI). Generators are deterministic for a
// given seed on every platform (they use their own Rng, not <random>'s distributions).
//
//   HostGraph g = ccl4j::test::rmat(14, 8, /*seed=*/1);
//   std::vector<int32_t> expected = ccl4j::test::reference_labels(g);
//   ccl4j::cpu::ecl_cc_serial(g.view32(), labels.data(), log);
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ccl4j.h"
#include "common/csr.hpp"

namespace ccl4j::test {

// splitmix64: small, fast, and the same sequence everywhere.
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, bound) for bound > 0 (multiply-shift; its bias is far below what tests see).
    uint64_t below(uint64_t bound) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64); }
    // Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    uint64_t state_;
};

using Edge = std::pair<int32_t, int32_t>;

// A graph as the C ABI takes it: the shape, and the two arrays that go beside it as arguments
// of their own, e.g. ccl4j_label_graph(context, &g.shape, g.offsets, g.neighbors, ...).
struct AbiGraph {
    ccl4j_csr shape;
    const void* offsets;
    const int32_t* neighbors;
};

struct HostGraph {
    int32_t n = 0;
    std::vector<int64_t> offsets{0};    // n + 1 entries
    std::vector<int32_t> offsets32{0};  // the same offsets, 32-bit (empty if arcs exceed 2^31 - 1)
    std::vector<int32_t> neighbors;     // arc_count() entries

    int64_t arc_count() const { return static_cast<int64_t>(neighbors.size()); }

    Graph view64() const { return Graph{n, arc_count(), 8, offsets.data(), neighbors.data()}; }
    Graph view32() const {
        if (offsets32.size() != offsets.size()) throw std::logic_error("graph too large for 32-bit offsets");
        return Graph{n, arc_count(), 4, offsets32.data(), neighbors.data()};
    }
    Graph view(int offset_width) const { return offset_width == 4 ? view32() : view64(); }

    // The ABI description of the graph (offset_width 4 or 8): its shape and its arrays.
    AbiGraph csr(int offset_width) const {
        Graph g = view(offset_width);
        return AbiGraph{ccl4j_csr{g.vertex_count, g.arc_count, g.offset_width, 0}, g.offsets, g.neighbors};
    }
};

// A graph from its 64-bit offsets and neighbour lists; derives the 32-bit offsets.
inline HostGraph from_csr(int32_t n, std::vector<int64_t> offsets, std::vector<int32_t> neighbors) {
    HostGraph g;
    g.n = n;
    g.offsets = std::move(offsets);
    g.neighbors = std::move(neighbors);
    g.offsets32.clear();
    if (g.arc_count() <= std::numeric_limits<int32_t>::max()) {
        g.offsets32.assign(g.offsets.begin(), g.offsets.end());
    }
    return g;
}

// Symmetrises an edge list: each edge {u, v} becomes the arcs u->v and v->u. With simplify
// (the default), self loops and duplicate edges are dropped and every adjacency list is sorted.
// Without it, duplicates stay (with matching multiplicities), a self loop becomes one arc v->v,
// and adjacency lists keep the order of the edge list: inputs the algorithms must also accept.
inline HostGraph from_edges(int32_t n, const std::vector<Edge>& edges, bool simplify = true) {
    std::vector<int64_t> offsets(static_cast<size_t>(n) + 1, 0);
    for (const Edge& e : edges) {
        if (e.first < 0 || e.first >= n || e.second < 0 || e.second >= n) throw std::out_of_range("edge end out of range");
        if (e.first == e.second) {
            if (!simplify) ++offsets[e.first + 1];
            continue;
        }
        ++offsets[e.first + 1];
        ++offsets[e.second + 1];
    }
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    std::vector<int32_t> neighbors(static_cast<size_t>(offsets[n]));
    std::vector<int64_t> fill(offsets.begin(), offsets.end() - 1);
    for (const Edge& e : edges) {
        if (e.first == e.second) {
            if (!simplify) neighbors[fill[e.first]++] = e.first;
            continue;
        }
        neighbors[fill[e.first]++] = e.second;
        neighbors[fill[e.second]++] = e.first;
    }
    if (!simplify) return from_csr(n, std::move(offsets), std::move(neighbors));

    // Sort and deduplicate each list, compacting in place.
    int64_t out = 0;
    for (int32_t v = 0; v < n; ++v) {
        auto first = neighbors.begin() + offsets[v];
        auto last = neighbors.begin() + offsets[v + 1];
        std::sort(first, last);
        auto unique_end = std::unique(first, last);
        offsets[v] = out;
        out = std::copy(first, unique_end, neighbors.begin() + out) - neighbors.begin();
    }
    offsets[n] = out;
    neighbors.resize(static_cast<size_t>(out));
    return from_csr(n, std::move(offsets), std::move(neighbors));
}

// A uniformly random permutation of 0..n-1.
inline std::vector<int32_t> random_permutation(int32_t n, uint64_t seed) {
    std::vector<int32_t> perm(static_cast<size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    Rng rng(seed);
    for (int32_t i = n - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(static_cast<uint64_t>(i) + 1)]);
    return perm;
}

// The same graph with vertex v renamed perm[v] (random_permutation(n, seed)).
inline HostGraph permuted(const HostGraph& g, uint64_t seed) {
    std::vector<int32_t> perm = random_permutation(g.n, seed);
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(g.arc_count() / 2));
    for (int32_t v = 0; v < g.n; ++v) {
        for (int64_t a = g.offsets[v]; a < g.offsets[v + 1]; ++a) {
            if (v < g.neighbors[a]) edges.emplace_back(perm[v], perm[g.neighbors[a]]);
        }
    }
    return from_edges(g.n, edges);
}

// Shuffles the order of every adjacency list in place (the graph stays the same).
inline void shuffle_adjacency(HostGraph& g, uint64_t seed) {
    Rng rng(seed);
    for (int32_t v = 0; v < g.n; ++v) {
        int32_t* list = g.neighbors.data() + g.offsets[v];
        int64_t degree = g.offsets[v + 1] - g.offsets[v];
        for (int64_t i = degree - 1; i > 0; --i) std::swap(list[i], list[rng.below(static_cast<uint64_t>(i) + 1)]);
    }
}

// ---- generators -------------------------------------------------------------------------------

inline HostGraph empty_graph() { return HostGraph{}; }

// Hand-made graphs with their labels worked out by hand, which every labelling test runs first
// (the oracle is checked on them too).
struct KnownGraph {
    std::string name;
    HostGraph graph;
    std::vector<int32_t> labels;
};

inline std::vector<KnownGraph> known_graphs() {
    return {
        {"two triangles and an isolated vertex", from_edges(7, {{6, 4}, {4, 5}, {5, 6}, {1, 3}, {3, 2}, {2, 1}}),
         {0, 1, 1, 1, 4, 4, 4}},
        // Largest ids first along the path: every init parent is the next vertex down.
        {"star around the largest id", from_edges(5, {{4, 3}, {4, 2}, {4, 1}, {4, 0}}), {0, 0, 0, 0, 0}},
        // Duplicate arcs, self loops and unsorted adjacency lists are valid input.
        {"multigraph with self loops",
         from_edges(6, {{5, 5}, {3, 4}, {4, 3}, {3, 4}, {2, 2}, {1, 0}, {0, 1}, {5, 3}}, false), {0, 0, 2, 3, 3, 3}},
    };
}

// n vertices, no edges.
inline HostGraph isolated(int32_t n) { return from_csr(n, std::vector<int64_t>(static_cast<size_t>(n) + 1, 0), {}); }

// width x height 4-neighbour grid, vertex y * width + x.
inline HostGraph grid2d(int32_t width, int32_t height) {
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(2) * width * height);
    for (int32_t y = 0; y < height; ++y) {
        for (int32_t x = 0; x < width; ++x) {
            int32_t v = y * width + x;
            if (x + 1 < width) edges.emplace_back(v, v + 1);
            if (y + 1 < height) edges.emplace_back(v, v + width);
        }
    }
    return from_edges(width * height, edges);
}

// R-MAT (Chakrabarti et al.) with the Graph500 probabilities a = 0.57, b = c = 0.19:
// 2^scale vertices, edge_factor * 2^scale edges drawn (fewer remain after simplification).
// Vertex 0 is the largest hub; many vertices stay isolated.
inline HostGraph rmat(int scale, int edge_factor, uint64_t seed) {
    const int32_t n = int32_t{1} << scale;
    const int64_t m = static_cast<int64_t>(edge_factor) * n;
    Rng rng(seed);
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(m));
    for (int64_t e = 0; e < m; ++e) {
        int32_t u = 0;
        int32_t v = 0;
        for (int bit = scale - 1; bit >= 0; --bit) {
            double r = rng.uniform();
            if (r < 0.57) continue;
            if (r < 0.76) {
                v |= int32_t{1} << bit;
            } else if (r < 0.95) {
                u |= int32_t{1} << bit;
            } else {
                u |= int32_t{1} << bit;
                v |= int32_t{1} << bit;
            }
        }
        edges.emplace_back(u, v);
    }
    return from_edges(n, edges);
}

// Chung-Lu power-law graph: vertex i has expected degree proportional to (i + 1)^(-1/(exponent-1)),
// scaled to the given average; ids are then shuffled so that the hubs sit anywhere.
inline HostGraph power_law(int32_t n, double average_degree, double exponent, uint64_t seed) {
    std::vector<double> cumulative(static_cast<size_t>(n));
    double total = 0;
    for (int32_t i = 0; i < n; ++i) {
        total += std::pow(static_cast<double>(i) + 1, -1.0 / (exponent - 1));
        cumulative[i] = total;
    }
    const std::vector<int32_t> perm = random_permutation(n, seed ^ 0x5bd1e995ULL);
    Rng rng(seed);
    auto draw = [&] {
        double r = rng.uniform() * total;
        auto it = std::upper_bound(cumulative.begin(), cumulative.end(), r);
        return perm[std::min<int64_t>(it - cumulative.begin(), n - 1)];
    };
    const int64_t m = static_cast<int64_t>(average_degree * n / 2);
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(m));
    for (int64_t e = 0; e < m; ++e) {
        int32_t u = draw();
        edges.emplace_back(u, draw());
    }
    return from_edges(n, edges);
}

// The path 0 - 1 - ... - (n-1), built directly (it is used with tens of millions of vertices).
// Init of ECL-CC makes it one chain of n parents; a recursive DFS would need n frames.
inline HostGraph path(int32_t n) {
    std::vector<int64_t> offsets(static_cast<size_t>(n) + 1);
    std::vector<int32_t> neighbors(n > 0 ? static_cast<size_t>(2) * (n - 1) : 0);
    int64_t arc = 0;
    for (int32_t v = 0; v < n; ++v) {
        offsets[v] = arc;
        if (v > 0) neighbors[arc++] = v - 1;
        if (v + 1 < n) neighbors[arc++] = v + 1;
    }
    offsets[n] = arc;
    return from_csr(n, std::move(offsets), std::move(neighbors));
}

// A path through all n vertices in random order.
inline HostGraph shuffled_path(int32_t n, uint64_t seed) {
    std::vector<int32_t> order = random_permutation(n, seed);
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(std::max(n - 1, 0)));
    for (int32_t i = 0; i + 1 < n; ++i) edges.emplace_back(order[i], order[i + 1]);
    return from_edges(n, edges);
}

// A disjoint union of `count` random connected components of 1..max_size vertices each (a random
// tree plus about as many random extra edges), with all ids shuffled across components.
inline HostGraph random_components(int32_t count, int32_t max_size, uint64_t seed) {
    Rng rng(seed);
    std::vector<Edge> edges;
    int32_t n = 0;
    for (int32_t c = 0; c < count; ++c) {
        const int32_t size = 1 + static_cast<int32_t>(rng.below(static_cast<uint64_t>(max_size)));
        for (int32_t i = 1; i < size; ++i) edges.emplace_back(n + i, n + static_cast<int32_t>(rng.below(i)));
        for (int32_t i = 1; i < size; ++i) {
            edges.emplace_back(n + static_cast<int32_t>(rng.below(size)), n + static_cast<int32_t>(rng.below(size)));
        }
        n += size;
    }
    const std::vector<int32_t> perm = random_permutation(n, seed + 1);
    for (Edge& e : edges) e = Edge(perm[e.first], perm[e.second]);
    return from_edges(n, edges);
}

// `count` disjoint stars of `leaves` leaves each (hub degree = leaves), ids shuffled. Degrees in
// 17..352 and above 352 reach ECL-CC's warp and block tiers on the GPU.
inline HostGraph stars(int32_t count, int32_t leaves, uint64_t seed) {
    const int32_t n = count * (leaves + 1);
    const std::vector<int32_t> perm = random_permutation(n, seed);
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(count) * leaves);
    for (int32_t c = 0; c < count; ++c) {
        const int32_t hub = c * (leaves + 1);
        for (int32_t i = 1; i <= leaves; ++i) edges.emplace_back(perm[hub], perm[hub + i]);
    }
    return from_edges(n, edges);
}

// A random sparse graph (n vertices, about `hubs` hubs of degree hub_degree over a sparse random
// background of average degree 2): all three degree tiers within one component structure.
inline HostGraph hubs(int32_t n, int32_t hub_count, int32_t hub_degree, uint64_t seed) {
    Rng rng(seed);
    std::vector<Edge> edges;
    for (int32_t e = 0; e < n; ++e) {
        edges.emplace_back(static_cast<int32_t>(rng.below(n)), static_cast<int32_t>(rng.below(n)));
    }
    for (int32_t h = 0; h < hub_count; ++h) {
        const int32_t hub = static_cast<int32_t>(rng.below(n));
        for (int32_t i = 0; i < hub_degree; ++i) edges.emplace_back(hub, static_cast<int32_t>(rng.below(n)));
    }
    return from_edges(n, edges);
}

// `count` disjoint cliques of `size` vertices, ids consecutive.
inline HostGraph cliques(int32_t count, int32_t size) {
    std::vector<Edge> edges;
    for (int32_t c = 0; c < count; ++c) {
        for (int32_t i = 0; i < size; ++i) {
            for (int32_t j = i + 1; j < size; ++j) edges.emplace_back(c * size + i, c * size + j);
        }
    }
    return from_edges(count * size, edges);
}

// m uniformly random edges over n vertices (Erdos-Renyi G(n, m); self loops and repeats dropped).
inline HostGraph random_sparse(int32_t n, int64_t m, uint64_t seed) {
    Rng rng(seed);
    std::vector<Edge> edges;
    edges.reserve(static_cast<size_t>(m));
    for (int64_t e = 0; e < m; ++e) {
        edges.emplace_back(static_cast<int32_t>(rng.below(n)), static_cast<int32_t>(rng.below(n)));
    }
    return from_edges(n, edges);
}

// ---- the oracle -------------------------------------------------------------------------------

// Canonical labels by a plain union-find (union by size, path halving), independent of the
// library: each root's component minimum is computed explicitly.
inline std::vector<int32_t> reference_labels(const HostGraph& g) {
    std::vector<int32_t> parent(static_cast<size_t>(g.n));
    std::vector<int32_t> size(static_cast<size_t>(g.n), 1);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int32_t v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    };
    for (int32_t v = 0; v < g.n; ++v) {
        for (int64_t a = g.offsets[v]; a < g.offsets[v + 1]; ++a) {
            int32_t x = find(v);
            int32_t y = find(g.neighbors[a]);
            if (x == y) continue;
            if (size[x] < size[y]) std::swap(x, y);
            parent[y] = x;
            size[x] += size[y];
        }
    }
    std::vector<int32_t> smallest(static_cast<size_t>(g.n), std::numeric_limits<int32_t>::max());
    for (int32_t v = 0; v < g.n; ++v) smallest[find(v)] = std::min(smallest[find(v)], v);
    std::vector<int32_t> labels(static_cast<size_t>(g.n));
    for (int32_t v = 0; v < g.n; ++v) labels[v] = smallest[find(v)];
    return labels;
}

// Number of distinct labels in a canonical labelling (vertices that are their own label).
inline int64_t component_count(const std::vector<int32_t>& labels) {
    int64_t count = 0;
    for (size_t v = 0; v < labels.size(); ++v) count += labels[v] == static_cast<int32_t>(v);
    return count;
}

// Random edges, every third one repeated and every seventh a self loop, kept as they are.
inline HostGraph random_multigraph(int32_t n, int32_t m, uint64_t seed) {
    Rng rng(seed);
    std::vector<Edge> edges;
    for (int32_t e = 0; e < m; ++e) {
        const int32_t u = static_cast<int32_t>(rng.below(static_cast<uint64_t>(n)));
        const int32_t v = e % 7 == 0 ? u : static_cast<int32_t>(rng.below(static_cast<uint64_t>(n)));
        edges.emplace_back(u, v);
        if (e % 3 == 0) edges.emplace_back(v, u);
    }
    return from_edges(n, edges, false);
}

// A star of `leaves` leaves around vertex 0 or around the last vertex, built directly.
inline HostGraph star(int32_t leaves, bool hub_first) {
    const int32_t n = leaves + 1;
    const int32_t hub = hub_first ? 0 : n - 1;
    std::vector<int64_t> offsets(static_cast<size_t>(n) + 1);
    std::vector<int32_t> neighbors;
    neighbors.reserve(static_cast<size_t>(2) * leaves);
    for (int32_t v = 0; v < n; ++v) {
        offsets[v] = static_cast<int64_t>(neighbors.size());
        if (v == hub) {
            for (int32_t u = 0; u < n; ++u) {
                if (u != hub) neighbors.push_back(u);
            }
        } else {
            neighbors.push_back(hub);
        }
    }
    offsets[n] = static_cast<int64_t>(neighbors.size());
    return from_csr(n, std::move(offsets), std::move(neighbors));
}

// Calls check(graph, name) on every generated shape the CPU tests cover: empty and isolated
// vertices, grids, R-MAT, power law, shuffled and ordered paths (the long shuffled one of
// long_shuffled_path vertices), tiny and large components, stars and hubs in every ECL-CC degree
// tier, sparse random graphs around the giant-component threshold, shuffled adjacency lists,
// multigraphs with self loops and cliques.
template <class Check>
void for_each_generated_graph(int32_t long_shuffled_path, Check check) {
    check(empty_graph(), "empty graph");
    check(isolated(1), "one vertex");
    check(isolated(1000), "1000 isolated vertices");
    check(from_edges(2, {{1, 0}}), "one edge");

    for (auto [w, h] : {std::pair{1, 1}, {1, 100}, {100, 1}, {37, 53}, {256, 256}}) {
        check(grid2d(w, h), "grid " + std::to_string(w) + "x" + std::to_string(h));
    }
    check(permuted(grid2d(64, 64), 7), "permuted grid 64x64");

    for (uint64_t seed : {1, 2, 3}) {
        const std::string s = " seed " + std::to_string(seed);
        check(rmat(10, 4, seed), "rmat 10/4" + s);
        check(rmat(14, 8, seed), "rmat 14/8" + s);
        check(permuted(rmat(13, 8, seed), seed), "permuted rmat 13/8" + s);
        check(power_law(10000, 3, 2.1, seed), "power law 10000/3/2.1" + s);
        check(power_law(30000, 8, 2.5, seed), "power law 30000/8/2.5" + s);
        check(shuffled_path(1000, seed), "shuffled path 1000" + s);
        check(shuffled_path(long_shuffled_path, seed), "shuffled path " + std::to_string(long_shuffled_path) + s);
        check(random_components(5000, 5, seed), "5000 tiny components" + s);
        check(random_components(200, 60, seed), "200 components" + s);
        check(random_components(3, 30000, seed), "3 large components" + s);
        for (int32_t leaves : {16, 17, 352, 353, 2000}) {
            check(stars(5, leaves, seed), "stars of " + std::to_string(leaves) + s);
        }
        check(hubs(20000, 10, 1000, seed), "hubs above 352" + s);
        check(hubs(20000, 100, 100, seed), "hubs in 17..352" + s);
        check(random_sparse(10000, 3000, seed), "sparse random, many components" + s);
        check(random_sparse(10000, 5000, seed), "sparse random at the threshold" + s);
        check(random_sparse(10000, 40000, seed), "sparse random, giant component" + s);

        HostGraph shuffled_grid = grid2d(128, 96);
        shuffle_adjacency(shuffled_grid, seed);
        check(shuffled_grid, "grid with shuffled adjacency" + s);
        HostGraph shuffled_rmat = rmat(13, 8, seed);
        shuffle_adjacency(shuffled_rmat, seed);
        check(shuffled_rmat, "rmat with shuffled adjacency" + s);
    }
    for (int32_t n : {1, 2, 3, 1000, 100000}) check(path(n), "path " + std::to_string(n));
    check(random_multigraph(20000, 15000, 4), "random multigraph with self loops");
    check(cliques(10, 20), "10 cliques of 20");
    check(cliques(1, 300), "clique of 300");
}

}  // namespace ccl4j::test
