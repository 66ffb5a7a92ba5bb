// Tests of distances within components (ccl4j/distances.h) through libccl4j.so: the rows and the
// matrix of the CPU searches and of Floyd-Warshall, on both CPU backends and with 32- and 64-bit
// offsets, against a reference computed here (a plain queue search from every vertex, components
// from the union-find oracle of test_graphs.hpp); the GPU's against the same reference and the
// CPU's (a batch of many words, warps across two words, several batches), skipped with a notice
// without a device; and the refusals (unknown algorithm, Floyd-Warshall on CUDA, matrices too
// large or too small, asymmetric graphs, ids out of range, outputs over the graph). Graphs: the
// hand-made ones, paths (ordered and shuffled), stars, grids, cliques, disjoint random pieces,
// isolated vertices, multigraphs with self loops and repeated arcs, R-MAT, power-law, empty.
// Prints every failure and "N passed, M failed".
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <queue>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"
#include "test_graphs.hpp"

namespace {

using namespace ccl4j::test;

struct Rows {
    std::vector<int32_t> first, diameter;
    std::vector<int64_t> vertices, path_sum;
    std::vector<double> mean;
};

// The distances from every vertex by a plain queue search, -1 where unreachable.
std::vector<int32_t> reference_matrix(const HostGraph& g) {
    const int64_t n = g.n;
    std::vector<int32_t> d(static_cast<size_t>(n * n), -1);
    for (int32_t s = 0; s < g.n; ++s) {
        int32_t* row = d.data() + s * n;
        std::queue<int32_t> q;
        row[s] = 0;
        q.push(s);
        while (!q.empty()) {
            const int32_t u = q.front();
            q.pop();
            for (int64_t a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
                const int32_t v = g.neighbors[a];
                if (row[v] < 0) {
                    row[v] = row[u] + 1;
                    q.push(v);
                }
            }
        }
    }
    return d;
}

// The rows from a matrix and the oracle's canonical labels, straight from the definitions.
Rows reference_rows(const HostGraph& g, const std::vector<int32_t>& d) {
    const std::vector<int32_t> labels = reference_labels(g);
    Rows rows;
    std::vector<int32_t> row_of(static_cast<size_t>(g.n), -1);
    for (int32_t v = 0; v < g.n; ++v) {
        if (labels[v] != v) continue;
        row_of[v] = static_cast<int32_t>(rows.first.size());
        rows.first.push_back(v);
        rows.vertices.push_back(0);
        rows.path_sum.push_back(0);
        rows.diameter.push_back(0);
    }
    for (int32_t u = 0; u < g.n; ++u) {
        const int32_t r = row_of[labels[u]];
        ++rows.vertices[r];
        for (int32_t v = 0; v < g.n; ++v) {
            if (u == v || labels[v] != labels[u]) continue;
            const int32_t duv = d[static_cast<size_t>(u) * g.n + v];
            rows.path_sum[r] += duv;
            rows.diameter[r] = std::max(rows.diameter[r], duv);
        }
    }
    for (size_t r = 0; r < rows.first.size(); ++r) {
        const int64_t k = rows.vertices[r];
        rows.mean.push_back(k < 2 ? 0.0 : double(rows.path_sum[r]) / (double(k) * double(k - 1)));
    }
    return rows;
}

ccl4j_distance_options options_of(int32_t algorithm) { return ccl4j_distance_options{algorithm, 0}; }

// The rows a context computes, or empty rows after a failure (reported).
Rows distances(ccl4j_context context, const HostGraph& g, int width, int32_t algorithm, const std::string& what,
               ccl4j_timings* measured = nullptr) {
    const AbiGraph a = g.csr(width);
    const ccl4j_distance_options o = options_of(algorithm);
    const size_t cap = static_cast<size_t>(g.n);
    Rows rows;
    rows.first.assign(cap, kPoison);
    rows.diameter.assign(cap, kPoison);
    rows.vertices.assign(cap, kPoison);
    rows.path_sum.assign(cap, kPoison);
    rows.mean.assign(cap, -1.0);
    int64_t k = -1;
    ccl4j_timings timings{};
    const ccl4j_status s = ccl4j_graph_distances(context, &a.shape, a.offsets, a.neighbors, &o, g.n, rows.first.data(),
                                                 rows.vertices.data(), rows.path_sum.data(), rows.diameter.data(),
                                                 rows.mean.data(), &k, &timings);
    CHECK_MSG(s == CCL4J_SUCCESS, what + ": " + ccl4j_context_error_message(context));
    if (s != CCL4J_SUCCESS) return Rows{};
    CHECK_MSG(timings.algorithm == (algorithm == CCL4J_DISTANCES_AUTO ? CCL4J_DISTANCES_BFS : algorithm), what + ": algorithm");
    if (measured) *measured = timings;
    rows.first.resize(static_cast<size_t>(k));
    rows.diameter.resize(static_cast<size_t>(k));
    rows.vertices.resize(static_cast<size_t>(k));
    rows.path_sum.resize(static_cast<size_t>(k));
    rows.mean.resize(static_cast<size_t>(k));
    return rows;
}

void compare(const Rows& got, const Rows& want, const std::string& what) {
    CHECK_MSG(got.first.size() == want.first.size(),
              what + ": " + std::to_string(got.first.size()) + " rows, expected " + std::to_string(want.first.size()));
    if (got.first.size() != want.first.size()) return;
    for (size_t r = 0; r < want.first.size(); ++r) {
        const bool same = got.first[r] == want.first[r] && got.vertices[r] == want.vertices[r] &&
                          got.path_sum[r] == want.path_sum[r] && got.diameter[r] == want.diameter[r] &&
                          got.mean[r] == want.mean[r];
        CHECK_MSG(same, what + ": row " + std::to_string(r) + " (first " + std::to_string(want.first[r]) + ", " +
                            std::to_string(want.vertices[r]) + " vertices): got sum " + std::to_string(got.path_sum[r]) +
                            " diameter " + std::to_string(got.diameter[r]) + ", expected " +
                            std::to_string(want.path_sum[r]) + " and " + std::to_string(want.diameter[r]));
        if (!same) return;
    }
}

std::vector<int32_t> matrix(ccl4j_context context, const HostGraph& g, int width, int32_t algorithm,
                            const std::string& what) {
    const AbiGraph a = g.csr(width);
    const ccl4j_distance_options o = options_of(algorithm);
    const int64_t entries = int64_t(g.n) * g.n;
    std::vector<int32_t> m(static_cast<size_t>(entries), kPoison);
    const ccl4j_status s =
        ccl4j_graph_distance_matrix(context, &a.shape, a.offsets, a.neighbors, &o, entries, m.data(), nullptr);
    CHECK_MSG(s == CCL4J_SUCCESS, what + ": " + ccl4j_context_error_message(context));
    return m;
}

void compare_matrix(const std::vector<int32_t>& got, const std::vector<int32_t>& want, int32_t n, const std::string& what) {
    size_t i = 0;
    while (i < want.size() && got[i] == want[i]) ++i;
    CHECK_MSG(i == want.size(), i == want.size() ? what
                                                 : what + ": d(" + std::to_string(i / n) + ", " + std::to_string(i % n) +
                                                       ") = " + std::to_string(got[i]) + ", expected " +
                                                       std::to_string(want[i]));
}

struct Named {
    std::string name;
    HostGraph graph;
};

std::vector<Named> small_graphs() {
    std::vector<Named> graphs;
    for (KnownGraph& k : known_graphs()) graphs.push_back({k.name, k.graph});
    graphs.push_back({"empty", empty_graph()});
    graphs.push_back({"one vertex", isolated(1)});
    graphs.push_back({"isolated vertices", isolated(9)});
    graphs.push_back({"path 2", path(2)});
    graphs.push_back({"path 61", path(61)});
    graphs.push_back({"shuffled path 70", shuffled_path(70, 3)});
    graphs.push_back({"star, hub first", star(40, true)});
    graphs.push_back({"star, hub last", star(40, false)});
    graphs.push_back({"stars", stars(5, 7, 11)});
    graphs.push_back({"grid 9x7", grid2d(9, 7)});
    graphs.push_back({"grid 1x33", grid2d(1, 33)});
    graphs.push_back({"cliques", cliques(4, 6)});
    graphs.push_back({"random pieces", random_components(30, 9, 5)});
    graphs.push_back({"multigraph with self loops", random_multigraph(80, 120, 7)});
    graphs.push_back({"rmat 8", rmat(8, 4, 13)});
    graphs.push_back({"power law", power_law(150, 3.0, 2.5, 17)});
    graphs.push_back({"sparse random", random_sparse(200, 190, 19)});
    return graphs;
}

// A path has the closed forms: diameter n - 1, and sum over ordered pairs 2 * sum_{d=1}^{n-1} d (n - d).
void closed_forms(ccl4j_context context) {
    for (int32_t n : {1, 2, 3, 10, 257}) {
        const HostGraph g = path(n);
        const Rows rows = distances(context, g, 8, CCL4J_DISTANCES_BFS, "path closed form");
        int64_t sum = 0;
        for (int64_t d = 1; d < n; ++d) sum += 2 * d * (n - d);
        CHECK(rows.first.size() == 1);
        if (rows.first.size() != 1) continue;
        CHECK(rows.path_sum[0] == sum);
        CHECK(rows.diameter[0] == n - 1);
        CHECK(rows.vertices[0] == n);
    }
    // a star of L leaves: L hub pairs at 1 each way, L (L - 1) leaf pairs at 2
    const int64_t leaves = 40;
    const Rows star_rows = distances(context, star(40, false), 4, CCL4J_DISTANCES_AUTO, "star closed form");
    CHECK(star_rows.first.size() == 1 && star_rows.path_sum[0] == 2 * leaves + 2 * leaves * (leaves - 1) &&
          star_rows.diameter[0] == 2);
}

void cpu_backends(ccl4j_context serial, ccl4j_context parallel) {
    for (const Named& c : small_graphs()) {
        const std::vector<int32_t> d = reference_matrix(c.graph);
        const Rows want = reference_rows(c.graph, d);
        for (int width : {4, 8}) {
            for (ccl4j_context context : {serial, parallel}) {
                const std::string what = c.name + (context == serial ? ", serial" : ", parallel") +
                                         (width == 4 ? ", int32 offsets" : ", int64 offsets");
                compare(distances(context, c.graph, width, CCL4J_DISTANCES_BFS, what + ", bfs"), want, what + ", bfs rows");
                compare(distances(context, c.graph, width, CCL4J_DISTANCES_FLOYD_WARSHALL, what + ", fw"), want,
                        what + ", floyd-warshall rows");
                compare_matrix(matrix(context, c.graph, width, CCL4J_DISTANCES_BFS, what), d, c.graph.n,
                               what + ", bfs matrix");
                compare_matrix(matrix(context, c.graph, width, CCL4J_DISTANCES_FLOYD_WARSHALL, what), d, c.graph.n,
                               what + ", floyd-warshall matrix");
            }
        }
    }
    // capacity: fewer rows than components, the count still whole; NULL outputs
    const HostGraph g = random_components(12, 5, 23);
    const Rows want = reference_rows(g, reference_matrix(g));
    const AbiGraph a = g.csr(4);
    std::vector<int32_t> first(3, kPoison);
    std::vector<int64_t> sums(3, kPoison);
    int64_t k = -1;
    CHECK(ccl4j_graph_distances(parallel, &a.shape, a.offsets, a.neighbors, nullptr, 2, first.data(), nullptr, sums.data(),
                                nullptr, nullptr, &k, nullptr) == CCL4J_SUCCESS);
    CHECK(k == int64_t(want.first.size()));
    CHECK(first[0] == want.first[0] && first[1] == want.first[1] && first[2] == kPoison);
    CHECK(sums[0] == want.path_sum[0] && sums[1] == want.path_sum[1] && sums[2] == kPoison);
    // a larger graph on the parallel searches, against the serial ones
    const HostGraph big = random_components(400, 60, 29);
    compare(distances(parallel, big, 4, CCL4J_DISTANCES_BFS, "pieces 400, parallel"),
            distances(serial, big, 8, CCL4J_DISTANCES_BFS, "pieces 400, serial"), "pieces 400, parallel against serial");
}

void gpu(ccl4j_context parallel) {
    ccl4j_context cuda = nullptr;
    if (ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &cuda) != CCL4J_SUCCESS) {
        std::printf("SKIPPED: no usable CUDA device (%s): the GPU distances did not run\n",
                    ccl4j_context_error_message(nullptr));
        return;
    }
    for (const Named& c : small_graphs()) {
        const std::vector<int32_t> d = reference_matrix(c.graph);
        const Rows want = reference_rows(c.graph, d);
        for (int width : {4, 8}) {
            const std::string what = c.name + ", CUDA" + (width == 4 ? ", int32 offsets" : ", int64 offsets");
            compare(distances(cuda, c.graph, width, CCL4J_DISTANCES_BFS, what), want, what + ", rows");
            compare_matrix(matrix(cuda, c.graph, width, CCL4J_DISTANCES_BFS, what), d, c.graph.n, what + ", matrix");
        }
    }
    // larger ones against the CPU: many words in a batch, warps across two words (n not a multiple
    // of 32), long searches (grid), hubs; then several batches (n past what one batch holds)
    std::vector<Named> larger;
    larger.push_back({"grid 61x67", grid2d(61, 67)});
    larger.push_back({"rmat 12", rmat(12, 8, 31)});
    larger.push_back({"hubs", hubs(5001, 4, 700, 37)});
    larger.push_back({"shuffled path 3001", shuffled_path(3001, 41)});
    larger.push_back({"pieces, several batches", random_components(9000, 12, 43)});
    for (const Named& c : larger) {
        for (int width : {4, 8}) {
            const std::string what = c.name + ", CUDA" + (width == 4 ? ", int32 offsets" : ", int64 offsets");
            compare(distances(cuda, c.graph, width, CCL4J_DISTANCES_BFS, what),
                    distances(parallel, c.graph, width, CCL4J_DISTANCES_BFS, what + ", CPU"), what + " against the CPU");
        }
        if (c.graph.n <= 5001) {
            compare_matrix(matrix(cuda, c.graph, 4, CCL4J_DISTANCES_BFS, c.name), matrix(parallel, c.graph, 4, CCL4J_DISTANCES_BFS, c.name),
                           c.graph.n, c.name + ", CUDA matrix against the CPU");
        }
    }
    // Floyd-Warshall is a CPU baseline
    const HostGraph g = path(5);
    const AbiGraph a = g.csr(4);
    const ccl4j_distance_options fw = options_of(CCL4J_DISTANCES_FLOYD_WARSHALL);
    CHECK(ccl4j_graph_distances(cuda, &a.shape, a.offsets, a.neighbors, &fw, 5, nullptr, nullptr, nullptr, nullptr,
                                nullptr, nullptr, nullptr) == CCL4J_UNSUPPORTED);
    ccl4j_context_destroy(cuda);
}

void refusals(ccl4j_context context) {
    const HostGraph g = path(4);
    const AbiGraph a = g.csr(4);
    std::vector<int32_t> m(16);
    int64_t k = -1;
    const ccl4j_distance_options unknown{9, 0};
    CHECK(ccl4j_graph_distances(context, &a.shape, a.offsets, a.neighbors, &unknown, 4, nullptr, nullptr, nullptr, nullptr,
                                nullptr, &k, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(std::string(ccl4j_context_error_message(context)).find("unknown distances algorithm") != std::string::npos);
    const ccl4j_distance_options negative{0, -1};
    CHECK(ccl4j_graph_distances(context, &a.shape, a.offsets, a.neighbors, &negative, 4, nullptr, nullptr, nullptr,
                                nullptr, nullptr, &k, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_graph_distances(context, &a.shape, a.offsets, a.neighbors, nullptr, -1, nullptr, nullptr, nullptr, nullptr,
                                nullptr, &k, nullptr) == CCL4J_INVALID_ARGUMENT);
    // a matrix too small, and NULL
    CHECK(ccl4j_graph_distance_matrix(context, &a.shape, a.offsets, a.neighbors, nullptr, 15, m.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_graph_distance_matrix(context, &a.shape, a.offsets, a.neighbors, nullptr, 16, nullptr, nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    // more vertices than a matrix (or Floyd-Warshall) takes: refused before any search
    const ccl4j_csr large{CCL4J_DISTANCE_MATRIX_MAX_VERTICES + 1, 0, 4, 0};
    std::vector<int32_t> zeros(CCL4J_DISTANCE_MATRIX_MAX_VERTICES + 2, 0);
    CHECK(ccl4j_graph_distance_matrix(context, &large, zeros.data(), zeros.data(), nullptr, INT64_MAX, m.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(std::string(ccl4j_context_error_message(context)).find("CCL4J_DISTANCE_MATRIX_MAX_VERTICES") != std::string::npos);
    const ccl4j_distance_options fw = options_of(CCL4J_DISTANCES_FLOYD_WARSHALL);
    CHECK(ccl4j_graph_distances(context, &large, zeros.data(), zeros.data(), &fw, 0, nullptr, nullptr, nullptr, nullptr,
                                nullptr, &k, nullptr) == CCL4J_INVALID_ARGUMENT);
    // an asymmetric graph (0 -> 1 only) and an id out of range: CCL4J_INVALID_INPUT before any search
    const int32_t offsets[] = {0, 1, 1};
    const int32_t one_way[] = {1};
    const int32_t outside[] = {7};
    const ccl4j_csr two{2, 1, 4, 0};
    CHECK(ccl4j_graph_distances(context, &two, offsets, one_way, nullptr, 2, nullptr, nullptr, nullptr, nullptr, nullptr,
                                &k, nullptr) == CCL4J_INVALID_INPUT);
    CHECK(ccl4j_graph_distance_matrix(context, &two, offsets, outside, nullptr, 4, m.data(), nullptr) ==
          CCL4J_INVALID_INPUT);
    // outputs over the graph's arrays
    std::vector<int32_t> shared(g.neighbors.begin(), g.neighbors.end());
    const ccl4j_csr shape = a.shape;
    CHECK(ccl4j_graph_distance_matrix(context, &shape, a.offsets, shared.data(), nullptr, 16, shared.data(), nullptr) ==
          CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_graph_distances(context, &shape, a.offsets, shared.data(), nullptr, 4, shared.data(), nullptr, nullptr,
                                nullptr, nullptr, &k, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_graph_distances(nullptr, &shape, a.offsets, a.neighbors, nullptr, 4, nullptr, nullptr, nullptr, nullptr,
                                nullptr, &k, nullptr) == CCL4J_INVALID_ARGUMENT);
}

// With --bench: the time of one call for the rows of a few graphs on CUDA (when present) and
// CPU_PARALLEL, with the bfs phase apart; the rows must agree.
void bench(ccl4j_context parallel) {
    ccl4j_context cuda = nullptr;
    if (ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &cuda) != CCL4J_SUCCESS) cuda = nullptr;
    std::vector<Named> graphs;
    graphs.push_back({"rmat 14 (16384 vertices, edge factor 8)", rmat(14, 8, 3)});
    graphs.push_back({"grid 128x128", grid2d(128, 128)});
    graphs.push_back({"power law 20000, degree 10", power_law(20000, 10.0, 2.5, 5)});
    graphs.push_back({"shuffled path 8192", shuffled_path(8192, 7)});
    for (const Named& c : graphs) {
        Rows first;
        for (ccl4j_context context : {cuda, parallel}) {
            if (!context) continue;
            ccl4j_timings t{};
            const Rows rows = distances(context, c.graph, 4, CCL4J_DISTANCES_BFS, c.name, &t);
            double search = -1;
            for (int32_t i = 0; i < t.phase_count; ++i) {
                if (std::string(t.phases[i].name) == "bfs") search = t.phases[i].ms;
            }
            std::printf("bench %-40s %-12s total %10.2f ms, bfs %10.2f ms, %d levels, %zu components\n",
                        c.name.c_str(), context == cuda ? "CUDA" : "CPU_PARALLEL", t.total_ms, search, t.iterations,
                        rows.first.size());
            if (first.first.empty()) {
                first = rows;
            } else {
                compare(rows, first, c.name + ": CPU against CUDA");
            }
        }
    }
    if (cuda) ccl4j_context_destroy(cuda);
}

}  // namespace

int main(int argc, char** argv) {
    ccl4j_context serial = nullptr, parallel = nullptr;
    if (ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &serial) != CCL4J_SUCCESS ||
        ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &parallel) != CCL4J_SUCCESS) {
        std::fprintf(stderr, "cannot create the CPU contexts\n");
        return 1;
    }
    run("closed forms", [&] { closed_forms(parallel); });
    run("cpu backends", [&] { cpu_backends(serial, parallel); });
    run("refusals", [&] { refusals(parallel); });
    run("gpu", [&] { gpu(parallel); });
    if (argc > 1 && std::string(argv[1]) == "--bench") run("bench", [&] { bench(parallel); });
    ccl4j_context_destroy(serial);
    ccl4j_context_destroy(parallel);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
