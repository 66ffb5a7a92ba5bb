// The CSR of an edge list, in parallel and without sorting all arcs together: count every
// vertex's arcs, place each arc in its vertex's range by an atomic cursor, then sort each list
// on its own and drop its repeats (the lists are short, so each sort stays in cache), and finally
// copy the distinct arcs out at their exact offsets.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/memory.hpp"
#include "common/parallel.hpp"
#include "cpu/edge_algorithms.hpp"

namespace ccl4j::cpu {
namespace {

constexpr int64_t kEdgeChunk = 1 << 14;
constexpr int64_t kVertexChunk = 1 << 12;

int64_t fetch_increment(int64_t* counter) { return __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }

// a[i] += a[0] + ... + a[i - 1] for i in [0, count): one block per thread sums its part, then
// each block adds the sums of the blocks before it.
void inclusive_scan(int64_t* a, int64_t count, int threads) {
    const int parts = static_cast<int>(std::min<int64_t>(threads, std::max<int64_t>(1, count / (1 << 16))));
    std::vector<int64_t> before(static_cast<size_t>(parts) + 1, 0);
    parallel::for_blocks(int64_t{0}, count, parts, [&](int part, int64_t first, int64_t last) {
        int64_t sum = 0;
        for (int64_t i = first; i < last; ++i) sum += a[i];
        before[static_cast<size_t>(part) + 1] = sum;
    });
    for (int p = 0; p < parts; ++p) before[static_cast<size_t>(p) + 1] += before[static_cast<size_t>(p)];
    parallel::for_blocks(int64_t{0}, count, parts, [&](int part, int64_t first, int64_t last) {
        int64_t sum = before[static_cast<size_t>(part)];
        for (int64_t i = first; i < last; ++i) a[i] = sum += a[i];
    });
}

[[noreturn]] void fail_changed() {
    fail(CCL4J_INVALID_INPUT, "the edge arrays changed while the CSR was being built");
}

}  // namespace

CsrBuild::CsrBuild(const EdgeList& edges, int threads)
    : vertex_count_(edges.vertex_count), threads_(parallel::thread_count(threads)) {
    const int64_t n = edges.vertex_count;
    const int64_t needed = 2 * (n + 1) * static_cast<int64_t>(sizeof(int64_t)) +
                           2 * edges.edge_count * static_cast<int64_t>(sizeof(int32_t));
    check_memory(needed, host_memory_available(),
                 "building the CSR of " + std::to_string(edges.edge_count) + " edges", "host");
    offsets_.assign(static_cast<size_t>(n) + 1, 0);
    int64_t* count = offsets_.data() + 1;  // count[v]: v's arcs, before the scan
    BadEdge bad;
    parallel::for_chunks(int64_t{0}, edges.edge_count, kEdgeChunk, threads_, [&](int, int64_t first, int64_t last) {
        for (int64_t e = first; e < last; ++e) {
            const int32_t u = edges.source(e), v = edges.target(e);
            if (!edges.in_range(u) || !edges.in_range(v)) {
                bad.note(e);
            } else if (u != v) {
                fetch_increment(&count[u]);
                fetch_increment(&count[v]);
            }
        }
    });
    bad.throw_if_any(edges);
    inclusive_scan(offsets_.data(), n + 1, threads_);

    // final_offsets_ holds each vertex's cursor while the arcs are placed.
    final_offsets_.assign(offsets_.begin(), offsets_.end());
    arcs_.resize(static_cast<size_t>(offsets_[static_cast<size_t>(n)]));
    int64_t* cursor = final_offsets_.data();
    const int64_t* start = offsets_.data();
    int32_t* arcs = arcs_.data();
    parallel::for_chunks(int64_t{0}, edges.edge_count, kEdgeChunk, threads_, [&](int, int64_t first, int64_t last) {
        for (int64_t e = first; e < last; ++e) {
            // Read again: ids the caller changed since the count must not place an arc anywhere
            // but in its own vertex's range.
            const int32_t u = edges.source(e), v = edges.target(e);
            if (!edges.in_range(u) || !edges.in_range(v)) fail_changed();
            if (u == v) continue;
            const int64_t at_u = fetch_increment(&cursor[u]);
            const int64_t at_v = fetch_increment(&cursor[v]);
            if (at_u >= start[u + 1] || at_v >= start[v + 1]) fail_changed();
            arcs[at_u] = v;
            arcs[at_v] = u;
        }
    });

    // Every range exactly full, or some arcs were never written; then final_offsets_[v + 1] =
    // v's distinct neighbours, scanned into offsets.
    std::atomic<bool> changed{false};
    parallel::for_chunks(int64_t{0}, n, kVertexChunk, threads_, [&](int, int64_t first, int64_t last) {
        for (int64_t v = first; v < last; ++v) {
            if (cursor[v] != start[v + 1]) changed.store(true, std::memory_order_relaxed);
        }
    });
    if (changed.load()) fail_changed();
    parallel::for_chunks(int64_t{0}, n, kVertexChunk, threads_, [&](int, int64_t first, int64_t last) {
        // Vertex v writes final_offsets_[v + 1], the cursor of v + 1, which is no longer needed.
        for (int64_t v = first; v < last; ++v) {
            int32_t* begin = arcs + start[v];
            int32_t* end = arcs + start[v + 1];
            std::sort(begin, end);
            cursor[v + 1] = std::unique(begin, end) - begin;
        }
    });
    final_offsets_[0] = 0;
    inclusive_scan(final_offsets_.data(), n + 1, threads_);
}

void CsrBuild::write(void* offsets, int32_t* neighbors) const {
    const int32_t n = vertex_count_;
    const bool narrow = offset_width() == 4;
    parallel::for_chunks(int64_t{0}, int64_t{n} + 1, kVertexChunk, threads_, [&](int, int64_t first, int64_t last) {
        for (int64_t v = first; v < last; ++v) {
            const int64_t to = final_offsets_[static_cast<size_t>(v)];
            if (narrow) {
                static_cast<int32_t*>(offsets)[v] = static_cast<int32_t>(to);
            } else {
                static_cast<int64_t*>(offsets)[v] = to;
            }
            if (v == n) continue;
            const int64_t length = final_offsets_[static_cast<size_t>(v) + 1] - to;
            std::memcpy(neighbors + to, arcs_.data() + offsets_[static_cast<size_t>(v)],
                        static_cast<size_t>(length) * sizeof(int32_t));
        }
    });
}

}  // namespace ccl4j::cpu
