// The library's fork-join runtime on std::thread, in place of OpenMP (whose libgomp cannot be
// linked statically into a shared object, and whose shared form ties the library to a newer glibc).
//
// Every calling thread gets its own team of persistent workers, made on its first parallel call,
// grown to the largest count it asks for and joined when the thread ends; callers on different
// threads never wait for one another. A region runs part(p) once for each p in [0, parts) on the
// caller and up to parts - 1 workers, each part on the same thread in every region of that size;
// no part may wait for another (there is no barrier: code that needs one makes two calls).
// Regions of one part, and regions started from inside a region (nested), run inline on the
// calling thread. The first exception a part throws is rethrown in the caller once every part
// has ended.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace ccl4j::parallel {

// The CPUs this thread may run on (its affinity mask), as OpenMP counts them by default.
int processor_count();

// The threads a `threads` option stands for: itself when positive, 0 = processor_count().
inline int thread_count(int threads) { return threads > 0 ? threads : processor_count(); }

// processor_count() less the cores that other processes kept busy on this thread's processors
// (the CPU time /proc/stat counts there, less this process's own; the most of the last three
// windows of 200 ms or more, a quarter of a core counting as taken), at least 1; all processors until 50 ms after the library was loaded. On a machine whose other
// processes keep some cores busy, a team of all processors would wait at the end of every
// parallel region for a member the system has descheduled: a team that fits the free cores does
// not.
int free_processor_count();

// The team a labelling's `threads` option stands for: itself when positive, 0 =
// free_processor_count(). Taken once per call, and the team then passed on explicitly.
inline int team_size(int threads) { return threads > 0 ? threads : free_processor_count(); }

namespace detail {
using PartFunction = void (*)(const void* context, int part);
void run(int parts, PartFunction function, const void* context);
}  // namespace detail

// part(p) for every p in [0, parts), in parallel; parts <= 1 runs inline.
template <class Part>
void run(int parts, const Part& part) {
    if (parts <= 1) {
        if (parts == 1) part(0);
        return;
    }
    detail::run(parts, [](const void* context, int p) { (*static_cast<const Part*>(context))(p); }, &part);
}

// Static schedule: [begin, end) cut into exactly `parts` contiguous blocks, the first ones one
// index longer when the range does not divide evenly (some are empty when parts exceeds the
// range), and block(part, first, last) called for each, with last exclusive. The partition only
// depends on the range and `parts`, so successive calls see the same blocks.
template <class Index, class Block>
void for_blocks(Index begin, Index end, int parts, const Block& block) {
    const int64_t n = std::max<int64_t>(0, int64_t(end) - int64_t(begin));
    run(parts, [&](int part) {
        const int64_t size = n / parts, longer = n % parts;
        const int64_t first = part * size + std::min<int64_t>(part, longer);
        const int64_t last = first + size + (part < longer ? 1 : 0);
        block(part, Index(begin + first), Index(begin + last));
    });
}

// Static schedule: body(i) for every i in [begin, end), one contiguous block per thread, on at
// most thread_count(threads) threads and never more threads than indices.
template <class Index, class Body>
void for_each(Index begin, Index end, int threads, const Body& body) {
    const int64_t n = int64_t(end) - int64_t(begin);
    if (n <= 0) return;
    const int parts = int(std::min<int64_t>(thread_count(threads), n));
    for_blocks(begin, end, parts, [&](int, Index first, Index last) {
        for (Index i = first; i < last; ++i) body(i);
    });
}

// Dynamic schedule: [begin, end) in chunks of `chunk` (>= 1) indices handed out in order by an
// atomic counter to whichever thread is free, chunk_body(part, first, last) for each chunk (last
// exclusive). part < thread_count(threads) names the thread's share, for per-part results.
template <class Index, class ChunkBody>
void for_chunks(Index begin, Index end, int64_t chunk, int threads, const ChunkBody& chunk_body) {
    const int64_t n = int64_t(end) - int64_t(begin);
    if (n <= 0) return;
    const int parts = int(std::min<int64_t>(thread_count(threads), (n + chunk - 1) / chunk));
    std::atomic<int64_t> next{0};
    run(parts, [&](int part) {
        for (int64_t first; (first = next.fetch_add(chunk, std::memory_order_relaxed)) < n;) {
            chunk_body(part, Index(begin + first), Index(begin + std::min(n, first + chunk)));
        }
    });
}

}  // namespace ccl4j::parallel
