// Distances on the CPU (cpu/distances.hpp).
//
// The graph is first renumbered so that each component's vertices are consecutive (in ascending
// order of their ids, components in canonical order): a search then works on one range of ids,
// whose buffers are sized by the largest component, and follows arcs without translating ids.
//
// The searches run 64 at a time, from 64 sources of one component, as one search over words of
// 64 bits (bit b of a vertex's word stands for source b; the GPU's scheme, cuda/distances.cu):
// a vertex's `seen` word holds the sources that reached it, its frontier word those that reached
// it at the last level. A level walks the list of vertices whose frontier word is not zero, and
// ORs each one's frontier into the `next` word of its neighbours (the bits they have not seen);
// the vertices whose next word became non-zero are the next list. An arc is followed once per
// level at which some of the 64 sources reaches its tail, not once per source: on graphs of small
// diameter far fewer times than 64 searches of their own would. Each bit new to a vertex at level
// L adds L to its source's sum, and L is then the source's eccentricity so far. A vertex's three
// words lie side by side, so that an arc costs one cache line.
//
// That gain needs the 64 sources to reach a vertex at few distinct levels: on a graph of large
// diameter (a grid, a path) consecutive sources reach a vertex at up to 64 levels, and the
// bit-parallel search then follows each arc as often as 64 searches would, with more work per
// arc. So each component is first searched once from its smallest vertex: when that vertex's
// eccentricity is at most kSmallWorld, the component's other sources go in bit-parallel batches
// of 64; otherwise each has a plain search of its own (a visited bitmap, so that the tests of a
// large component stay in cache, and one queue holding the levels one after another; only the
// bits it set are cleared after it).
//
// The tasks (a batch of 64 sources, or 16 plain searches) are handed to the threads from a shared
// counter, since components differ wildly in size.
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

// The largest eccentricity of a component's smallest vertex for which its sources are searched
// 64 at a time (above it, one by one).
constexpr int32_t kSmallWorld = 16;

// The graph renumbered component by component: vertex i here is id[i] in the caller's graph;
// component c holds the ids start[c] .. start[c + 1] - 1.
struct Renumbered {
    std::vector<int32_t> start;    // rows + 1
    std::vector<int32_t> id;       // n
    std::vector<int64_t> offsets;  // n + 1
    std::vector<int32_t> neighbors;
    int32_t largest = 0;

    int64_t begin(int32_t v) const { return offsets[v]; }
    int64_t end(int32_t v) const { return offsets[v + 1]; }
};

template <class Csr>
Renumbered renumber(const Csr& csr, const int32_t* row, int32_t rows, int threads) {
    const int32_t n = csr.vertex_count;
    Renumbered g;
    g.start.assign(static_cast<size_t>(rows) + 1, 0);
    for (int32_t v = 0; v < n; ++v) ++g.start[row[v] + 1];
    for (int32_t c = 0; c < rows; ++c) {
        g.largest = std::max(g.largest, g.start[c + 1]);
        g.start[c + 1] += g.start[c];
    }
    g.id.resize(static_cast<size_t>(n));
    std::vector<int32_t> number(static_cast<size_t>(n));
    std::vector<int32_t> fill(g.start.begin(), g.start.end() - 1);
    for (int32_t v = 0; v < n; ++v) {
        number[v] = fill[row[v]]++;
        g.id[number[v]] = v;
    }
    g.offsets.assign(static_cast<size_t>(n) + 1, 0);
    for (int32_t i = 0; i < n; ++i) g.offsets[i + 1] = g.offsets[i] + csr.degree(g.id[i]);
    g.neighbors.resize(static_cast<size_t>(g.offsets[n]));
    parallel::for_each(int32_t(0), n, threads, [&](int32_t i) {
        int32_t* out = g.neighbors.data() + g.offsets[i];
        const int32_t v = g.id[i];
        for (auto a = csr.begin(v); a < csr.end(v); ++a) *out++ = number[csr.neighbors[a]];
    });
    return g;
}

// A vertex's words in a bit-parallel search.
struct Word {
    uint64_t seen, next, frontier;
};

// What one thread's batches reuse: the words of a component and the two lists of active vertices
// (numbers within the component).
struct Words {
    std::vector<Word> word;
    std::vector<int32_t> active, following;

    explicit Words(int32_t k) : word(static_cast<size_t>(k), Word{0, 0, 0}) {
        active.reserve(static_cast<size_t>(k));
        following.reserve(static_cast<size_t>(k));
    }
};

// The searches from the `count` (<= 64) vertices of component c from its vertex `first` on.
void search_batch(const Renumbered& g, int32_t c, int32_t first, int32_t count, Words& w, int64_t* sums,
                  int32_t* eccentricities, int32_t* matrix) {
    const int32_t base = g.start[c];
    const int32_t k = g.start[c + 1] - base;
    const int64_t n = static_cast<int64_t>(g.id.size());
    Word* word = w.word.data();
    int64_t sum[64] = {};
    int32_t last[64] = {};  // the last level at which a source's bit was new: its eccentricity
    w.active.clear();
    for (int32_t b = 0; b < count; ++b) {
        const int32_t p = first + b;
        word[p].seen = word[p].frontier = uint64_t(1) << b;
        w.active.push_back(p);
        if (matrix) matrix[g.id[base + p] * n + g.id[base + p]] = 0;
    }
    for (int32_t level = 1; !w.active.empty(); ++level) {
        w.following.clear();
        for (const int32_t p : w.active) {
            const uint64_t f = word[p].frontier;
            word[p].frontier = 0;
            for (int64_t a = g.begin(base + p); a < g.end(base + p); ++a) {
                Word& x = word[g.neighbors[a] - base];
                const uint64_t fresh = f & ~x.seen;
                if (!fresh) continue;
                if (!x.next) w.following.push_back(g.neighbors[a] - base);
                x.next |= fresh;
            }
        }
        for (const int32_t q : w.following) {
            Word& x = word[q];
            const uint64_t fresh = x.next;  // no bit of it was seen when it was set, and seen has not changed
            x.next = 0;
            x.seen |= fresh;
            x.frontier = fresh;
            for (uint64_t bits = fresh; bits; bits &= bits - 1) {
                const int b = __builtin_ctzll(bits);
                sum[b] += level;
                last[b] = level;
                if (matrix) matrix[g.id[base + first + b] * n + g.id[base + q]] = level;
            }
        }
        std::swap(w.active, w.following);
    }
    for (int32_t b = 0; b < count; ++b) {
        const int32_t s = g.id[base + first + b];
        sums[s] = sum[b];
        eccentricities[s] = last[b];
    }
    for (int32_t p = 0; p < k; ++p) word[p].seen = 0;
}

// What one thread's plain searches reuse: a visited bitmap and the queue, over the numbers of the
// largest component.
struct Search {
    std::vector<uint64_t> visited;
    std::vector<int32_t> queue;

    explicit Search(int32_t k) : visited((static_cast<size_t>(k) + 63) / 64, 0), queue(static_cast<size_t>(k)) {}

    bool visit(int32_t p) {
        uint64_t& bits = visited[static_cast<uint32_t>(p) >> 6];
        const uint64_t bit = uint64_t(1) << (p & 63);
        if (bits & bit) return false;
        bits |= bit;
        return true;
    }
};

// One search from vertex p of component c: its sum and eccentricity, and with a matrix its row.
void search(const Renumbered& g, int32_t c, int32_t p, Search& w, int64_t* sums, int32_t* eccentricities,
            int32_t* matrix) {
    const int32_t base = g.start[c];
    const int64_t n = static_cast<int64_t>(g.id.size());
    int32_t* row = matrix ? matrix + g.id[base + p] * n : nullptr;
    int32_t* queue = w.queue.data();
    w.visit(p);
    queue[0] = p;
    if (row) row[g.id[base + p]] = 0;
    size_t head = 0, tail = 1;
    int32_t level = 0;
    int64_t total = 0;
    while (head < tail) {
        const size_t end = tail;
        for (; head < end; ++head) {
            const int32_t u = base + queue[head];
            for (int64_t a = g.begin(u); a < g.end(u); ++a) {
                const int32_t q = g.neighbors[a] - base;
                if (w.visit(q)) queue[tail++] = q;
            }
        }
        if (tail > end) {
            ++level;
            total += static_cast<int64_t>(level) * static_cast<int64_t>(tail - end);
            if (row) {
                for (size_t i = end; i < tail; ++i) row[g.id[base + queue[i]]] = level;
            }
        }
    }
    sums[g.id[base + p]] = total;
    eccentricities[g.id[base + p]] = level;
    for (size_t i = 0; i < tail; ++i) w.visited[static_cast<uint32_t>(queue[i]) >> 6] = 0;
}

constexpr int32_t kInfinite = INT32_MAX / 2;

}  // namespace

void bfs_distances(const Graph& graph, const int32_t* row, int32_t rows, int64_t* sums, int32_t* eccentricities,
                   int32_t* matrix, int threads) {
    const int32_t n = graph.vertex_count;
    if (n == 0) return;
    const Renumbered g = graph.visit([&](auto csr) { return renumber(csr, row, rows, threads); });
    if (matrix) {
        parallel::for_each(int32_t(0), n, threads, [&](int32_t s) {
            int32_t* r = matrix + static_cast<int64_t>(s) * n;
            std::fill(r, r + n, -1);
        });
    }
    const int parts = parallel::thread_count(threads);
    std::vector<std::unique_ptr<Search>> searches(static_cast<size_t>(parts));
    std::vector<std::unique_ptr<Words>> words(static_cast<size_t>(parts));
    const auto search_of = [&](int part) -> Search& {
        if (!searches[part]) searches[part] = std::make_unique<Search>(g.largest);
        return *searches[part];
    };
    // the probes: the eccentricity of each component's smallest vertex (its row's search too)
    std::vector<int32_t> probe(static_cast<size_t>(rows));
    parallel::for_chunks(int32_t(0), rows, 64, threads, [&](int part, int32_t from, int32_t to) {
        for (int32_t c = from; c < to; ++c) {
            search(g, c, 0, search_of(part), sums, eccentricities, matrix);
            probe[c] = eccentricities[g.id[g.start[c]]];
        }
    });
    // the tasks: (component, first vertex, bit-parallel); each component's vertex 0 is done
    struct Task {
        int32_t component, first;
        bool batch;
    };
    std::vector<Task> tasks;
    for (int32_t c = 0; c < rows; ++c) {
        const int32_t k = g.start[c + 1] - g.start[c];
        const bool batch = probe[c] <= kSmallWorld;
        for (int32_t p = 1; p < k; p += batch ? 64 : 16) tasks.push_back({c, p, batch});
    }
    parallel::for_chunks(size_t(0), tasks.size(), 1, threads, [&](int part, size_t from, size_t to) {
        for (size_t i = from; i < to; ++i) {
            const Task t = tasks[i];
            const int32_t k = g.start[t.component + 1] - g.start[t.component];
            if (t.batch) {
                if (!words[part]) words[part] = std::make_unique<Words>(g.largest);
                search_batch(g, t.component, t.first, std::min(64, k - t.first), *words[part], sums, eccentricities,
                             matrix);
                continue;
            }
            for (int32_t p = t.first; p < std::min(k, t.first + 16); ++p) {
                search(g, t.component, p, search_of(part), sums, eccentricities, matrix);
            }
        }
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
