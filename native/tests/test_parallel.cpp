// The fork-join runtime of common/parallel.hpp: every index visited exactly once under both
// schedules, the blocks and chunks it promises, inline runs, exceptions, callers on several
// threads at once and nested regions.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.hpp"
#include "common/parallel.hpp"

using namespace ccl4j::test;
namespace parallel = ccl4j::parallel;

namespace {

const int kThreads[] = {1, 2, 3, 7, 64, 0};
const int64_t kCounts[] = {0, 1, 2, 5, 63, 64, 65, 1000, 100003};

std::string named(const std::string& what, int64_t count, int threads, int64_t chunk = 0) {
    return std::string(what) + " count " + std::to_string(count) + " threads " + std::to_string(threads) +
           (chunk ? " chunk " + std::to_string(chunk) : "");
}

// Counts the visits of [0, count) and checks that each index had exactly one.
struct Visits {
    explicit Visits(int64_t count) : seen(static_cast<size_t>(count)) {}
    void visit(int64_t i) { seen[static_cast<size_t>(i)].fetch_add(1, std::memory_order_relaxed); }
    bool once_each() const {
        for (const auto& s : seen) {
            if (s.load() != 1) return false;
        }
        return true;
    }
    std::vector<std::atomic<int>> seen;
};

void test_processor_count() {
    CHECK(parallel::processor_count() >= 1);
    CHECK(parallel::thread_count(0) == parallel::processor_count());
    CHECK(parallel::thread_count(5) == 5);
    CHECK(parallel::thread_count(1) == 1);
}

void test_run() {
    for (int parts : {0, 1, 2, 3, 7, 64, 200}) {
        Visits v(parts);
        parallel::run(parts, [&](int p) { v.visit(p); });
        CHECK_MSG(v.once_each(), named("run", parts, parts));
    }
    // Each part on the same thread in every region of the same size.
    for (int parts : {3, 16}) {
        std::vector<std::thread::id> first(parts), second(parts);
        parallel::run(parts, [&](int p) { first[p] = std::this_thread::get_id(); });
        parallel::run(parts, [&](int p) { second[p] = std::this_thread::get_id(); });
        CHECK_MSG(first == second && first[0] == std::this_thread::get_id(), named("run twice", parts, parts));
    }
    // A team grown large, then asked for fewer parts, then for many again.
    for (int parts : {64, 2, 64, 5}) {
        Visits v(parts);
        parallel::run(parts, [&](int p) { v.visit(p); });
        CHECK_MSG(v.once_each(), named("run after another size", parts, parts));
    }
}

void test_for_each() {
    for (int threads : kThreads) {
        for (int64_t count : kCounts) {
            Visits v(count);
            parallel::for_each(int64_t{0}, count, threads, [&](int64_t i) { v.visit(i); });
            CHECK_MSG(v.once_each(), named("for_each", count, threads));
        }
    }
    // 32-bit indices at the top of their range, and an offset range.
    for (int threads : kThreads) {
        Visits v(1000);
        parallel::for_each(INT32_MAX - 1000, INT32_MAX, threads, [&](int32_t i) { v.visit(i - (INT32_MAX - 1000)); });
        CHECK_MSG(v.once_each(), named("for_each up to INT32_MAX", 1000, threads));
    }
}

void test_empty_ranges() {
    for (int threads : kThreads) {
        std::atomic<int> calls{0};
        parallel::for_each(5, 5, threads, [&](int) { ++calls; });
        parallel::for_each(5, 2, threads, [&](int) { ++calls; });
        parallel::for_chunks(5, 5, 4, threads, [&](int, int, int) { ++calls; });
        parallel::for_chunks(5, 2, 4, threads, [&](int, int, int) { ++calls; });
        parallel::run(0, [&](int) { ++calls; });
        CHECK_MSG(calls == 0, "empty ranges, threads " + std::to_string(threads));
        // for_blocks still calls every block, each empty.
        parallel::for_blocks(5, 5, threads == 0 ? 4 : threads, [&](int, int first, int last) {
            if (first != 5 || last != 5) ++calls;
        });
        CHECK_MSG(calls == 0, "for_blocks of an empty range, threads " + std::to_string(threads));
    }
}

void test_for_blocks() {
    for (int parts : {1, 2, 3, 7, 64}) {
        for (int64_t count : kCounts) {
            // Exactly `parts` blocks, in order, back to back, lengths differing by at most one.
            std::vector<int64_t> firsts(parts, -1), lasts(parts, -1);
            parallel::for_blocks(int64_t{10}, 10 + count, parts, [&](int part, int64_t first, int64_t last) {
                firsts[part] = first;
                lasts[part] = last;
            });
            bool ok = firsts[0] == 10 && lasts[parts - 1] == 10 + count;
            int64_t shortest = INT64_MAX, longest = 0;
            for (int p = 0; p < parts; ++p) {
                ok = ok && firsts[p] <= lasts[p] && (p == 0 || firsts[p] == lasts[p - 1]);
                shortest = std::min(shortest, lasts[p] - firsts[p]);
                longest = std::max(longest, lasts[p] - firsts[p]);
            }
            CHECK_MSG(ok && longest - shortest <= 1, named("for_blocks", count, parts));
            // The same blocks a second time.
            bool same = true;
            parallel::for_blocks(int64_t{10}, 10 + count, parts, [&](int part, int64_t first, int64_t last) {
                if (first != firsts[part] || last != lasts[part]) same = false;
            });
            CHECK_MSG(same, named("for_blocks repeated", count, parts));
        }
    }
}

void test_for_chunks() {
    for (int threads : kThreads) {
        for (int64_t chunk : {1, 3, 16, 1000, 4096}) {
            for (int64_t count : kCounts) {
                Visits v(count);
                std::atomic<bool> shapes{true};
                parallel::for_chunks(int64_t{0}, count, chunk, threads, [&](int part, int64_t first, int64_t last) {
                    // Chunks start at multiples of the chunk size and end at the next one or at the end.
                    if (part < 0 || part >= parallel::thread_count(threads) || first % chunk != 0 ||
                        last != std::min(count, first + chunk)) {
                        shapes = false;
                    }
                    for (int64_t i = first; i < last; ++i) v.visit(i);
                });
                CHECK_MSG(v.once_each() && shapes, named("for_chunks", count, threads, chunk));
            }
        }
    }
    for (int threads : kThreads) {
        Visits v(1000);
        parallel::for_chunks(INT32_MAX - 1000, INT32_MAX, 7, threads, [&](int, int32_t first, int32_t last) {
            for (int32_t i = first; i < last; ++i) v.visit(i - (INT32_MAX - 1000));
        });
        CHECK_MSG(v.once_each(), named("for_chunks up to INT32_MAX", 1000, threads, 7));
    }
}

void test_inline() {
    // One thread, or one index, runs on the calling thread.
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> here{true};
    parallel::for_each(0, 1000, 1, [&](int) { here = here && std::this_thread::get_id() == caller; });
    parallel::for_each(0, 1, 8, [&](int) { here = here && std::this_thread::get_id() == caller; });
    parallel::for_chunks(0, 1000, 1, 1, [&](int, int, int) { here = here && std::this_thread::get_id() == caller; });
    parallel::for_chunks(0, 10, 16, 8, [&](int, int, int) { here = here && std::this_thread::get_id() == caller; });
    parallel::run(1, [&](int) { here = here && std::this_thread::get_id() == caller; });
    CHECK(here);
}

void test_exceptions() {
    for (int threads : kThreads) {
        for (int64_t at : {int64_t{0}, int64_t{777}, int64_t{99999}}) {
            bool caught = false;
            try {
                parallel::for_each(int64_t{0}, int64_t{100000}, threads, [&](int64_t i) {
                    if (i == at) throw std::bad_alloc();
                });
            } catch (const std::bad_alloc&) {
                caught = true;
            }
            CHECK_MSG(caught, named("for_each throwing at " + std::to_string(at), 100000, threads));
        }
        // Every part throws: one of the exceptions arrives.
        bool caught = false;
        try {
            parallel::for_chunks(0, 1000, 10, threads, [&](int, int first, int) {
                throw std::runtime_error("chunk " + std::to_string(first));
            });
        } catch (const std::runtime_error& e) {
            caught = std::string(e.what()).rfind("chunk ", 0) == 0;
        }
        CHECK_MSG(caught, named("for_chunks throwing everywhere", 1000, threads, 10));
        // The team works as before afterwards.
        Visits v(5000);
        parallel::for_each(0, 5000, threads, [&](int i) { v.visit(i); });
        CHECK_MSG(v.once_each(), named("for_each after exceptions", 5000, threads));
    }
}

void test_nested() {
    for (int threads : kThreads) {
        // Every outer index runs an inner loop, inline on the thread that runs the outer one.
        const int outer = 50, inner = 300;
        Visits v(outer * inner);
        std::atomic<bool> same_thread{true};
        parallel::for_each(0, outer, threads, [&](int o) {
            const std::thread::id me = std::this_thread::get_id();
            parallel::for_chunks(0, inner, 7, threads, [&](int, int first, int last) {
                if (std::this_thread::get_id() != me) same_thread = false;
                for (int i = first; i < last; ++i) v.visit(int64_t(o) * inner + i);
            });
        });
        CHECK_MSG(v.once_each() && same_thread, named("nested", outer * inner, threads));
    }
}

void test_concurrent_callers() {
    // Two threads label at once, each with its own team: many regions each, all correct.
    std::atomic<bool> ok[2] = {{true}, {true}};
    auto caller = [&](int who) {
        for (int round = 0; round < 200; ++round) {
            const int threads = 2 + (round + who) % 6;
            const int64_t count = 1000 + 37 * round;
            Visits v(count);
            if (round % 2) {
                parallel::for_each(int64_t{0}, count, threads, [&](int64_t i) { v.visit(i); });
            } else {
                parallel::for_chunks(int64_t{0}, count, 16, threads, [&](int, int64_t first, int64_t last) {
                    for (int64_t i = first; i < last; ++i) v.visit(i);
                });
            }
            if (!v.once_each()) ok[who] = false;
        }
    };
    std::thread a(caller, 0), b(caller, 1);
    a.join();
    b.join();
    CHECK(ok[0] && ok[1]);

    // Neither waits for the other: a region of the first caller holds its parts until a region
    // of the second has run (it would never run if the callers shared one team).
    std::atomic<bool> second_ran{false}, first_saw{false};
    std::thread first([&] {
        parallel::run(3, [&](int) {
            const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (!second_ran && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
            if (second_ran) first_saw = true;
        });
    });
    std::thread second([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        parallel::run(3, [&](int) {});
        second_ran = true;
    });
    first.join();
    second.join();
    CHECK(first_saw);
}

void test_thread_exit() {
    // A thread's team is joined when the thread ends; threads come and go many times.
    for (int i = 0; i < 20; ++i) {
        std::atomic<int> sum{0};
        std::thread t([&] { parallel::for_each(0, 100, 4, [&](int j) { sum += j; }); });
        t.join();
        CHECK_MSG(sum == 4950, "thread " + std::to_string(i));
    }
}

}  // namespace

// Busy processes beside this one leave fewer free processors; busy threads of this process do
// not (they are its own work); the team of a positive option is that option whatever the load.
void test_free_processors() {
    const int processors = ccl4j::parallel::processor_count();
    CHECK(ccl4j::parallel::team_size(3) == 3);
    const auto window = std::chrono::milliseconds(300);  // past the 200 ms of a measurement

    ccl4j::parallel::free_processor_count();  // the first reading of the window
    std::atomic<bool> stop{false};
    std::vector<std::thread> own;
    for (int i = 0; i < processors; ++i) {
        own.emplace_back([&] {
            while (!stop.load(std::memory_order_relaxed)) {
            }
        });
    }
    std::this_thread::sleep_for(window);
    const int with_own_threads = ccl4j::parallel::free_processor_count();
    stop = true;
    for (std::thread& t : own) t.join();
    CHECK_MSG(with_own_threads >= processors - 1,
              "free processors with this process's own busy threads: " + std::to_string(with_own_threads));

    std::vector<pid_t> others;
    for (int i = 0; i < processors; ++i) {
        const pid_t child = fork();
        if (child == 0) {
            for (;;) {
            }
        }
        if (child > 0) others.push_back(child);
    }
    ccl4j::parallel::free_processor_count();
    std::this_thread::sleep_for(window);
    const int with_busy_processes = ccl4j::parallel::free_processor_count();
    for (pid_t child : others) {
        kill(child, SIGKILL);
        waitpid(child, nullptr, 0);
    }
    CHECK_MSG(static_cast<int>(others.size()) == processors && with_busy_processes == 1,
              std::to_string(others.size()) + " busy processes beside this one leave " +
                  std::to_string(with_busy_processes) + " of " + std::to_string(processors) + " processors free");
}

int main() {
    run("processor count", test_processor_count);
    run("free processors", test_free_processors);
    run("run", test_run);
    run("for_each", test_for_each);
    run("empty ranges", test_empty_ranges);
    run("for_blocks", test_for_blocks);
    run("for_chunks", test_for_chunks);
    run("inline", test_inline);
    run("exceptions", test_exceptions);
    run("nested", test_nested);
    run("concurrent callers", test_concurrent_callers);
    run("thread exit", test_thread_exit);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
