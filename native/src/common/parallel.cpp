// The worker teams behind parallel.hpp.
//
// A region of `parts` parts runs on `threads` team threads, the caller being thread 0 and worker
// i thread i + 1; thread t runs parts t, t + threads, ... So a part runs on the same thread in
// every region of the same size, and the blocks of successive static loops over the same arrays
// stay in the caches of the cores that touched them last, as with OpenMP's static schedule.
// The caller publishes the part function, gives each worker it needs a new ticket and wakes it;
// each worker checks out through pending_ when its parts are done, and the caller returns once
// all have, so the region's fields are never rewritten while a worker may still read them. Idle
// workers watch their ticket for up to a millisecond before they sleep on their own condition
// variable, so that the back-to-back regions of a labelling (ECL-CC's init then compute, the
// passes of the label book-keeping) and of successive labellings start without a system call;
// waking some workers disturbs no other.
#include "common/parallel.hpp"

#include <sched.h>
#include <sys/times.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace ccl4j::parallel {
namespace {

// A waiting thread first spins kPauses pause instructions, then yields its core at each turn for
// up to kSpin (on a busy machine the threads it waits for get to run), and only then blocks.
// Measured on 16 cores: a region of 16 threads starts in 4 us while the workers spin, 30-90 us
// when they must be woken; 1 ms covers the gaps between the regions of back-to-back labellings.
constexpr int kPauses = 256;
constexpr std::chrono::microseconds kSpin{1000};

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

// True on workers, and on a caller while it runs a region: a region started there runs inline.
thread_local bool in_region = false;

class Team {
public:
    Team() = default;
    Team(const Team&) = delete;
    Team& operator=(const Team&) = delete;

    ~Team() {
        stop_.store(true);
        for (const auto& w : workers_) wake(*w);
        for (const auto& w : workers_) w->thread.join();
    }

    void run(int parts, detail::PartFunction function, const void* context) {
        grow(parts - 1);
        threads_ = std::min<int>(parts, int(workers_.size()) + 1);
        function_ = function;
        context_ = context;
        parts_ = parts;
        error_ = nullptr;
        pending_.store(threads_ - 1, std::memory_order_relaxed);
        ++generation_;
        for (int i = 0; i < threads_ - 1; ++i) {
            workers_[i]->ticket.store(generation_, std::memory_order_release);
            wake(*workers_[i]);
        }
        in_region = true;
        run_share(0);
        in_region = false;
        if (!spin_until([&] { return pending_.load(std::memory_order_acquire) == 0; })) {
            std::unique_lock<std::mutex> lock(mutex_);
            done_.wait(lock, [&] { return pending_.load(std::memory_order_acquire) == 0; });
        }
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }

private:
    struct Worker {
        std::atomic<uint64_t> ticket{0};  // the generation of the last region it was asked into
        std::mutex mutex;
        std::condition_variable wake;
        std::thread thread;
    };

    // Whether ready() became true while spinning; false means block.
    template <class Ready>
    static bool spin_until(const Ready& ready) {
        for (int i = 0; i < kPauses; ++i) {
            if (ready()) return true;
            pause();
        }
        const auto end = std::chrono::steady_clock::now() + kSpin;
        while (!ready()) {
            if (std::chrono::steady_clock::now() > end) return false;
            std::this_thread::yield();
        }
        return true;
    }

    // Taking the worker's lock orders the new ticket (or stop_) before the wait of a worker that
    // has just found it unchanged, so the notification cannot fall between its check and its sleep.
    static void wake(Worker& w) {
        { std::lock_guard<std::mutex> lock(w.mutex); }
        w.wake.notify_one();
    }

    // Up to `count` workers. A thread the system refuses leaves the team smaller: the parts still
    // all run, on fewer threads.
    void grow(int count) {
        if (int(workers_.size()) >= count) return;
        workers_.reserve(count);  // push_back must not throw once a thread runs
        while (int(workers_.size()) < count) {
            auto worker = std::make_unique<Worker>();
            const int thread = int(workers_.size()) + 1;
            try {
                worker->thread = std::thread([this, thread, w = worker.get()] { work(*w, thread); });
            } catch (const std::system_error&) {
                return;
            }
            workers_.push_back(std::move(worker));
        }
    }

    void work(Worker& self, int thread) {
        in_region = true;
        uint64_t seen = 0;
        for (;;) {
            auto asked = [&] { return self.ticket.load(std::memory_order_acquire) != seen; };
            if (!spin_until(asked)) {
                std::unique_lock<std::mutex> lock(self.mutex);
                self.wake.wait(lock, [&] { return asked() || stop_.load(); });
                if (!asked()) return;  // stopping
            }
            seen = self.ticket.load(std::memory_order_relaxed);
            run_share(thread);
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                { std::lock_guard<std::mutex> lock(mutex_); }  // as in wake()
                done_.notify_one();
            }
        }
    }

    void run_share(int thread) {
        for (int p = thread; p < parts_; p += threads_) {
            try {
                function_(context_, p);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex_);
                if (!error_) error_ = std::current_exception();
            }
        }
    }

    std::vector<std::unique_ptr<Worker>> workers_;
    uint64_t generation_ = 0;  // 64 bits: never wraps back to a ticket a worker has seen
    std::atomic<bool> stop_{false};
    std::mutex mutex_;              // guards error_ and the caller's sleep
    std::condition_variable done_;  // the caller waits here for the last worker

    // The current region, written by the caller before it hands out tickets.
    detail::PartFunction function_ = nullptr;
    const void* context_ = nullptr;
    int parts_ = 0;
    int threads_ = 0;
    std::exception_ptr error_;
    std::atomic<int> pending_{0};  // workers not yet checked out
};

}  // namespace

int processor_count() {
    // The mask may be larger than cpu_set_t on machines with more than 1024 CPUs.
    for (int cpus = CPU_SETSIZE;; cpus *= 2) {
        cpu_set_t* set = CPU_ALLOC(cpus);
        if (!set) break;
        const size_t bytes = CPU_ALLOC_SIZE(cpus);
        const int error = sched_getaffinity(0, bytes, set) == 0 ? 0 : errno;
        const int count = error ? 0 : CPU_COUNT_S(bytes, set);
        CPU_FREE(set);
        if (!error) return std::max(1, count);
        if (error != EINVAL) break;
    }
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

namespace {

// The CPU time spent on the CPUs this thread may run on (the cpuN lines of /proc/stat for the
// CPUs of its affinity mask, in clock ticks) and by this process, at one moment.
struct CpuTimes {
    int64_t wall_us = 0;
    int64_t busy_ticks = 0;  // user, nice, system, irq, softirq and steal time of those CPUs
    int64_t self_ticks = 0;  // this process's user and system time
};

int64_t steady_us() { return std::chrono::steady_clock::now().time_since_epoch() / std::chrono::microseconds(1); }

bool read_cpu_times(CpuTimes& out) {
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return false;
    FILE* stat = std::fopen("/proc/stat", "r");
    if (!stat) return false;
    char line[512];
    int64_t busy = 0;
    while (std::fgets(line, sizeof(line), stat)) {
        int cpu = 0;
        long long user, nice, system, idle, iowait, irq, softirq, steal;
        if (std::sscanf(line, "cpu%d %lld %lld %lld %lld %lld %lld %lld %lld", &cpu, &user, &nice, &system, &idle,
                        &iowait, &irq, &softirq, &steal) == 9 &&
            cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &mask)) {
            busy += user + nice + system + irq + softirq + steal;
        }
    }
    std::fclose(stat);
    tms self{};
    if (times(&self) == static_cast<clock_t>(-1)) return false;
    out.wall_us = steady_us();
    out.busy_ticks = busy;
    out.self_ticks = static_cast<int64_t>(self.tms_utime + self.tms_stime);
    return true;
}

}  // namespace

int free_processor_count() {
    // The CPU time other processes took on our processors over at least kWindow, in cores, is
    // what a team should leave free. Our own threads do not count (a JVM's compiler and
    // collector threads come and go), nor does a moment's burst; clock ticks are 10 ms, so a
    // window of 200 ms measures to about a tenth of a core.
    // The first estimate takes a window of 50 ms, about half a core's accuracy, so that a process
    // that labels soon after loading the library (which takes the first reading) adapts at once.
    constexpr int64_t kWindowUs = 200000;
    constexpr int64_t kFirstWindowUs = 50000;
    static std::mutex mutex;
    static CpuTimes last;
    static bool sampled = false;
    static bool estimated = false;
    static double recent[3] = {0, 0, 0};  // the last windows' figures, the newest first
    std::lock_guard<std::mutex> lock(mutex);
    // /proc/stat is read only once a window has passed since the last reading: a reading costs
    // tens of microseconds, more than labelling a small graph, and every labelling asks.
    const int64_t window_us = estimated ? kWindowUs : kFirstWindowUs;
    CpuTimes now;
    if ((!sampled || steady_us() - last.wall_us >= window_us) && read_cpu_times(now)) {
        if (!sampled) {
            last = now;
            sampled = true;
        } else {
            estimated = true;
            const double ticks = static_cast<double>(now.wall_us - last.wall_us) * 1e-6 *
                                 static_cast<double>(sysconf(_SC_CLK_TCK));
            recent[2] = recent[1];
            recent[1] = recent[0];
            recent[0] = std::max(0.0, static_cast<double>((now.busy_ticks - last.busy_ticks) -
                                                          (now.self_ticks - last.self_ticks)) / ticks);
            last = now;
        }
    }
    // A process that wants a whole core gets less while our threads compete with it (two of ours
    // and one of its on two cores: a third each), and less still beside a JVM's collector and
    // compiler threads: in such a window it looked idle, and the team of two that followed waited
    // for a descheduled thread (grid3d_64 with a busy process: 2-3x its 1-thread time in two
    // runs). So the largest figure of the last three windows counts, and a core is taken once
    // others used more than a quarter of it.
    const double others = std::max({recent[0], recent[1], recent[2]});
    const int taken = std::max(0, static_cast<int>(std::ceil(others - 0.25)));
    return std::max(1, processor_count() - taken);
}

// The first reading of free_processor_count()'s window, when the library is loaded.
const bool first_reading = (free_processor_count(), true);

void detail::run(int parts, PartFunction function, const void* context) {
    if (in_region) {
        for (int p = 0; p < parts; ++p) function(context, p);
        return;
    }
    thread_local Team team;
    team.run(parts, function, context);
}

}  // namespace ccl4j::parallel
