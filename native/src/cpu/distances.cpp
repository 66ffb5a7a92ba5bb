// Distances on the CPU (cpu/distances.hpp).
//
// The searches: each thread takes sources from a shared counter in small chunks (components
// differ wildly in size, so a static split would leave threads idle) and runs one search per
// source with buffers of its own: a visited bitmap (n bits, so that the frontier tests of a large
// component stay in cache) and one queue that holds the levels one after another (the level being
// expanded is queue[head, end), the next one is appended after it). Only the bits a search set
// are cleared after it, so that a graph of many small components costs what its components hold,
// not n per source.
//
// Floyd-Warshall: for every k, all rows i in parallel relax d(i, j) through k; "infinite" is
// INT32_MAX / 2, so that two of them added stay an int32.
#include "cpu/distances.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/parallel.hpp"

namespace ccl4j::cpu {
namespace {

// What one thread's searches reuse.
struct Search {
    std::vector<uint64_t> visited;
    std::vector<int32_t> queue;

    explicit Search(int32_t n) : visited((static_cast<size_t>(n) + 63) / 64, 0), queue(static_cast<size_t>(n)) {}

    bool visit(int32_t v) {
        uint64_t& word = visited[static_cast<uint32_t>(v) >> 6];
        const uint64_t bit = uint64_t(1) << (v & 63);
        if (word & bit) return false;
        word |= bit;
        return true;
    }
};

// One search from s; row (n entries or nullptr) receives the distances of the vertices reached
// (the caller has set it to -1).
template <class Csr>
void search(const Csr& csr, int32_t s, Search& w, int64_t& sum, int32_t& eccentricity, int32_t* row) {
    int32_t* queue = w.queue.data();
    w.visit(s);
    queue[0] = s;
    if (row) row[s] = 0;
    size_t head = 0, tail = 1;
    int32_t level = 0;
    int64_t total = 0;
    while (head < tail) {
        const size_t end = tail;
        for (; head < end; ++head) {
            const int32_t u = queue[head];
            for (auto a = csr.begin(u); a < csr.end(u); ++a) {
                const int32_t v = csr.neighbors[a];
                if (w.visit(v)) queue[tail++] = v;
            }
        }
        if (tail > end) {
            ++level;
            total += static_cast<int64_t>(level) * static_cast<int64_t>(tail - end);
            if (row) {
                for (size_t i = end; i < tail; ++i) row[queue[i]] = level;
            }
        }
    }
    sum = total;
    eccentricity = level;
    for (size_t i = 0; i < tail; ++i) w.visited[static_cast<uint32_t>(queue[i]) >> 6] = 0;
}

constexpr int32_t kInfinite = INT32_MAX / 2;

}  // namespace

void bfs_distances(const Graph& graph, int64_t* sums, int32_t* eccentricities, int32_t* matrix, int threads) {
    const int32_t n = graph.vertex_count;
    if (n == 0) return;
    const int parts = parallel::thread_count(threads);
    std::vector<std::unique_ptr<Search>> searches(static_cast<size_t>(parts));
    graph.visit([&](auto csr) {
        parallel::for_chunks(int32_t(0), n, 16, threads, [&](int part, int32_t first, int32_t last) {
            if (!searches[part]) searches[part] = std::make_unique<Search>(n);
            for (int32_t s = first; s < last; ++s) {
                int32_t* row = matrix ? matrix + static_cast<int64_t>(s) * n : nullptr;
                if (row) std::fill(row, row + n, -1);
                search(csr, s, *searches[part], sums[s], eccentricities[s], row);
            }
        });
    });
}

void floyd_warshall(const Graph& graph, int32_t* matrix, int threads) {
    const int32_t n = graph.vertex_count;
    const int64_t size = n;
    graph.visit([&](auto csr) {
        parallel::for_each(int32_t(0), n, threads, [&](int32_t i) {
            int32_t* row = matrix + i * size;
            std::fill(row, row + n, kInfinite);
            for (auto a = csr.begin(i); a < csr.end(i); ++a) row[csr.neighbors[a]] = 1;
            row[i] = 0;  // after the arcs: a self loop is no step
        });
    });
    for (int32_t k = 0; k < n; ++k) {
        const int32_t* through = matrix + k * size;
        parallel::for_each(int32_t(0), n, threads, [&](int32_t i) {
            if (i == k) return;  // row k does not change in round k; others read it meanwhile
            int32_t* row = matrix + i * size;
            const int32_t to_k = row[k];
            if (to_k == kInfinite) return;
            for (int32_t j = 0; j < n; ++j) row[j] = std::min(row[j], to_k + through[j]);
        });
    }
    parallel::for_each(int64_t(0), size * size, threads, [&](int64_t i) {
        if (matrix[i] == kInfinite) matrix[i] = -1;
    });
}

void matrix_sources(const int32_t* matrix, int32_t n, int64_t* sums, int32_t* eccentricities, int threads) {
    parallel::for_each(int32_t(0), n, threads, [&](int32_t s) {
        const int32_t* row = matrix + static_cast<int64_t>(s) * n;
        int64_t sum = 0;
        int32_t top = 0;
        for (int32_t v = 0; v < n; ++v) {
            if (row[v] > 0) {
                sum += row[v];
                top = std::max(top, row[v]);
            }
        }
        sums[s] = sum;
        eccentricities[s] = top;
    });
}

}  // namespace ccl4j::cpu
