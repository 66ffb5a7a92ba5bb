// The CSR of an edge list, in parallel and without atomics (an atomic increment per arc at a
// random place costs a whole cache miss, one after another: on 2 cores a scatter through atomic
// cursors took as long as building the CSR in Java). The arcs are first partitioned by their
// source into buckets of kBucketVertices consecutive vertices, each part of the edge list
// counting into and then writing to places of its own; then each bucket, whose counters stay in
// cache, is sorted by source, each list sorted on its own and its repeats dropped; finally the
// distinct arcs are copied out at their exact offsets.
#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/memory.hpp"
#include "common/parallel.hpp"
#include "cpu/edge_algorithms.hpp"

namespace ccl4j::cpu {
namespace {

constexpr int kBucketBits = 15;
constexpr int64_t kBucketVertices = int64_t{1} << kBucketBits;
constexpr int64_t kVertexChunk = 1 << 12;
// Parts of the edge list per thread: enough that a slow thread holds back a small share.
constexpr int kPartsPerThread = 4;
constexpr int64_t kMinPartEdges = 1 << 16;

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

struct Arc {
    int32_t source;
    int32_t target;
};

}  // namespace

CsrBuild::CsrBuild(const EdgeList& edges, int threads)
    : vertex_count_(edges.vertex_count), threads_(parallel::thread_count(threads)) {
    const int64_t n = edges.vertex_count;
    const int64_t m = edges.edge_count;
    const int64_t needed = 2 * (n + 1) * static_cast<int64_t>(sizeof(int64_t)) +
                           2 * m * static_cast<int64_t>(sizeof(Arc) + sizeof(int32_t));
    check_memory(needed, host_memory_available(), "building the CSR of " + std::to_string(m) + " edges", "host");
    const int64_t buckets = (n + kBucketVertices - 1) / kBucketVertices;
    const int parts = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(int64_t{threads_} * kPartsPerThread,
                                                                             m / kMinPartEdges)));
    auto part_range = [&](int part) {
        return std::pair<int64_t, int64_t>{m * part / parts, m * (part + 1) / parts};
    };

    // cursor[part * buckets + b]: the arcs of the part in bucket b, then where it writes them.
    std::vector<int64_t> cursor(static_cast<size_t>(parts * buckets), 0);
    BadEdge bad;
    parallel::run(std::min(parts, threads_), [&](int thread) {
        for (int part = thread; part < parts; part += std::min(parts, threads_)) {
            int64_t* count = cursor.data() + part * buckets;
            const auto [first, last] = part_range(part);
            for (int64_t e = first; e < last; ++e) {
                const int32_t u = edges.source(e), v = edges.target(e);
                if (!edges.in_range(u) || !edges.in_range(v)) {
                    bad.note(e);
                } else if (u != v) {
                    ++count[u >> kBucketBits];
                    ++count[v >> kBucketBits];
                }
            }
        }
    });
    bad.throw_if_any(edges);
    // Bucket by bucket, part by part: each part's place in each bucket.
    std::vector<int64_t> bucket_start(static_cast<size_t>(buckets) + 1, 0);
    std::vector<int64_t> limit(cursor.size());
    int64_t at = 0;
    for (int64_t b = 0; b < buckets; ++b) {
        bucket_start[static_cast<size_t>(b)] = at;
        for (int part = 0; part < parts; ++part) {
            const size_t i = static_cast<size_t>(part * buckets + b);
            const int64_t count = cursor[i];
            cursor[i] = at;
            limit[i] = at += count;
        }
    }
    bucket_start[static_cast<size_t>(buckets)] = at;
    const int64_t arcs = at;

    std::vector<Arc> by_bucket(static_cast<size_t>(arcs));
    parallel::run(std::min(parts, threads_), [&](int thread) {
        for (int part = thread; part < parts; part += std::min(parts, threads_)) {
            int64_t* place = cursor.data() + part * buckets;
            const int64_t* end = limit.data() + part * buckets;
            const auto [first, last] = part_range(part);
            for (int64_t e = first; e < last; ++e) {
                // Read again: ids the caller changed since the count must not place an arc
                // outside the part's own places.
                const int32_t u = edges.source(e), v = edges.target(e);
                if (!edges.in_range(u) || !edges.in_range(v)) fail_changed();
                if (u == v) continue;
                const int64_t at_u = place[u >> kBucketBits]++, at_v = place[v >> kBucketBits]++;
                if (at_u >= end[u >> kBucketBits] || at_v >= end[v >> kBucketBits]) fail_changed();
                by_bucket[static_cast<size_t>(at_u)] = Arc{u, v};
                by_bucket[static_cast<size_t>(at_v)] = Arc{v, u};
            }
        }
    });
    // Every place filled, or some arcs were never written.
    for (size_t i = 0; i < cursor.size(); ++i) {
        if (cursor[i] != limit[i]) fail_changed();
    }

    // Each bucket sorted by source into arcs_ (offsets_[v]: where v's arcs start), each list
    // sorted and its repeats dropped: final_offsets_[v + 1] = v's distinct neighbours.
    offsets_.assign(static_cast<size_t>(n) + 1, 0);
    final_offsets_.assign(static_cast<size_t>(n) + 1, 0);
    arcs_.resize(static_cast<size_t>(arcs));
    parallel::for_chunks(int64_t{0}, buckets, 1, threads_, [&](int, int64_t b, int64_t) {
        const int64_t base = b << kBucketBits;
        const int64_t size = std::min(kBucketVertices, n - base);
        const int64_t from = bucket_start[static_cast<size_t>(b)], to = bucket_start[static_cast<size_t>(b) + 1];
        // fill[v - base]: where v's arcs start, then, once they are placed, where they end.
        std::vector<int64_t> fill(static_cast<size_t>(size) + 1, 0);
        for (int64_t i = from; i < to; ++i) ++fill[static_cast<size_t>(by_bucket[static_cast<size_t>(i)].source - base + 1)];
        fill[0] = from;
        for (int64_t v = 1; v <= size; ++v) fill[static_cast<size_t>(v)] += fill[static_cast<size_t>(v) - 1];
        for (int64_t v = 0; v < size; ++v) offsets_[static_cast<size_t>(base + v)] = fill[static_cast<size_t>(v)];
        for (int64_t i = from; i < to; ++i) {
            const Arc arc = by_bucket[static_cast<size_t>(i)];
            arcs_[static_cast<size_t>(fill[static_cast<size_t>(arc.source - base)]++)] = arc.target;
        }
        for (int64_t v = 0; v < size; ++v) {
            int32_t* first = arcs_.data() + offsets_[static_cast<size_t>(base + v)];
            int32_t* last = arcs_.data() + fill[static_cast<size_t>(v)];
            std::sort(first, last);
            final_offsets_[static_cast<size_t>(base + v) + 1] = std::unique(first, last) - first;
        }
    });
    offsets_[static_cast<size_t>(n)] = arcs;
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
            const int32_t* from = arcs_.data() + offsets_[static_cast<size_t>(v)];
            std::copy(from, from + length, neighbors + to);
        }
    });
}

}  // namespace ccl4j::cpu
