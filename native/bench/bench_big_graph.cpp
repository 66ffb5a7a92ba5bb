// bench_big_graph: a symmetric graph generated in host memory as large as asked (past 2^31 arcs,
// past the GPU's memory), labelled end to end through the public ABI on CUDA (STREAMED, or any
// algorithm that fits) and with CPU_PARALLEL on the same machine; the labels must be equal.
// Optionally written as a .csr file (docs/FORMATS.md, canonical, int64 offsets) for
// `ccl4j label`.
//
//   bench_big_graph --vertices N [--algorithms streamed,afforest] [--devices 0/0,1/0,1,2,3]
//                   [--memory pageable,pinned] [--runs R] [--warmup W] [--seed S] [--no-cpu]
//                   [--csr FILE] [--threads T]
//
// --devices: the device sets to label on, separated by '/' (a context of several devices shares
// STREAMED out among them; default 0). --memory: the graph's host memory for each round of runs,
// in order: pageable (as generated; STREAMED gathers it), then pinned (page-locked in place with
// cudaHostRegister, which the GPU reads across the bus; default pageable).
// The graph: every vertex v draws a weight w(v) from a hash: 0 (isolated) for 3 % of the
// vertices, 1 for 12 %, else a Pareto tail floor(24 / sqrt(1 - t)) (t uniform), capped at 32768.
// For i = 1, 2, ... the keyed bijection pi_i of [0, N) joins v and pi_i(v) when both weights are at
// least i, so a vertex's row is {pi_i(v), pi_i^-1(v) : i <= w(v), w(other end) >= i} less
// repeats and self loops, sorted: symmetric by construction, generated row by row on every core
// (a counting pass, then a filling pass), with a power-law degree tail (about 48 arcs a vertex on
// average), a giant component, small components and isolated vertices.
// W warm-up runs (default 1: the first call page-locks its staging rings) come before the R timed
// ones of each algorithm and device set; every run is checked. Per run: the call's total, its
// phases, and the time to first byte (from the call's start to its
// first progress report: the first block of arcs handed to the GPU when streamed). Arcs a second
// count every arc of the graph, sent or not.
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "bench_support.hpp"
#include "ccl4j.h"
#include "common/parallel.hpp"

namespace {

using ccl4j::bench::median;
using ccl4j::bench::mix;
using ccl4j::bench::split;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// A keyed bijection of [0, n): two rounds of an odd multiply-add and a xor-shift on the smallest
// power of two >= n, walked until it lands below n (the walk's inverse walks the inverse rounds).
class Permutation {
public:
    Permutation(uint32_t n, uint64_t key) : n_(n) {
        while ((uint64_t{1} << bits_) < n) ++bits_;
        mask_ = (uint64_t{1} << bits_) - 1;
        shift_ = bits_ / 2 + 1;
        for (int r = 0; r < 2; ++r) {
            multiply_[r] = (mix(key * 4 + r) | 1) & mask_;
            add_[r] = mix(key * 4 + r + 2) & mask_;
            inverse_[r] = odd_inverse(multiply_[r]) & mask_;
        }
    }
    uint32_t forward(uint32_t v) const {
        uint64_t x = v;
        do {
            for (int r = 0; r < 2; ++r) {
                x = (x * multiply_[r] + add_[r]) & mask_;
                x ^= x >> shift_;
            }
        } while (x >= n_);
        return static_cast<uint32_t>(x);
    }
    uint32_t backward(uint32_t v) const {
        uint64_t x = v;
        do {
            for (int r = 1; r >= 0; --r) {
                uint64_t y = x;
                for (int s = shift_; s < bits_; s += shift_) y ^= x >> s;
                x = ((y - add_[r]) * inverse_[r]) & mask_;
            }
        } while (x >= n_);
        return static_cast<uint32_t>(x);
    }

private:
    static uint64_t odd_inverse(uint64_t a) {  // Newton's iteration mod 2^64
        uint64_t x = a;
        for (int i = 0; i < 6; ++i) x *= 2 - a * x;
        return x;
    }
    uint64_t n_;
    int bits_ = 1;
    int shift_ = 1;
    uint64_t mask_ = 1;
    uint64_t multiply_[2], add_[2], inverse_[2];
};

constexpr uint32_t kMaxWeight = 32768;

class Generator {
public:
    Generator(uint32_t n, uint64_t seed) : seed_(seed) {
        for (uint32_t i = 0; i < kMaxWeight; ++i) permutations_.emplace_back(n, mix(seed + i + 1));
    }

    uint32_t weight(uint32_t v) const {
        const double u = static_cast<double>(mix(v ^ (seed_ * 0x9e3779b97f4a7c15ull)) >> 11) * 0x1.0p-53;
        if (u < 0.03) return 0;
        if (u < 0.15) return 1;
        const double w = 24.0 / std::sqrt(1.0 - (u - 0.15) / 0.85);
        return w >= kMaxWeight ? kMaxWeight : static_cast<uint32_t>(w);
    }

    // v's sorted row, without repeats and self loops, into row (cleared first).
    void row(uint32_t v, std::vector<int32_t>& row) const {
        row.clear();
        const uint32_t w = weight(v);
        for (uint32_t i = 1; i <= w; ++i) {
            const Permutation& p = permutations_[i - 1];
            for (uint32_t u : {p.forward(v), p.backward(v)}) {
                if (u != v && weight(u) >= i) row.push_back(static_cast<int32_t>(u));
            }
        }
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
    }

private:
    uint64_t seed_;
    std::vector<Permutation> permutations_;
};

// Anonymous memory for the graph's arrays (huge pages asked for), page-locked on demand.
class HostArray {
public:
    explicit HostArray(size_t bytes) : bytes_(std::max<size_t>(bytes, 1)) {
        void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) throw std::runtime_error("cannot map " + std::to_string(bytes_) + " bytes");
        madvise(p, bytes_, MADV_HUGEPAGE);
        data_ = p;
    }
    HostArray(const HostArray&) = delete;
    HostArray& operator=(const HostArray&) = delete;
    ~HostArray() {
        if (registered_) cudaHostUnregister(data_);
        munmap(data_, bytes_);
    }
    // Page-locks the (filled) array and maps it for the GPU: what reading in place needs.
    void pin() {
        if (registered_) return;
        const cudaError_t e = cudaHostRegister(data_, bytes_, cudaHostRegisterMapped | cudaHostRegisterPortable);
        if (e != cudaSuccess) throw std::runtime_error(std::string("cudaHostRegister: ") + cudaGetErrorString(e));
        registered_ = true;
    }
    template <class T>
    T* as() const {
        return static_cast<T*>(data_);
    }
    size_t bytes() const { return bytes_; }

private:
    void* data_ = nullptr;
    size_t bytes_;
    bool registered_ = false;
};

struct Graph {
    uint32_t n = 0;
    int64_t arcs = 0;
    std::unique_ptr<HostArray> offsets;    // int64, n + 1
    std::unique_ptr<HostArray> neighbors;  // int32, arcs
};

Graph generate(uint32_t n, uint64_t seed, int threads) {
    const Generator generator(n, seed);
    Graph g;
    g.n = n;
    g.offsets = std::make_unique<HostArray>((static_cast<size_t>(n) + 1) * 8);
    int64_t* offsets = g.offsets->as<int64_t>();
    constexpr int64_t kChunk = 1 << 16;
    auto start = Clock::now();
    ccl4j::parallel::for_chunks(int64_t{0}, static_cast<int64_t>(n), kChunk, threads, [&](int, int64_t from, int64_t to) {
        std::vector<int32_t> row;
        for (int64_t v = from; v < to; ++v) {
            generator.row(static_cast<uint32_t>(v), row);
            offsets[v + 1] = static_cast<int64_t>(row.size());
        }
    });
    offsets[0] = 0;
    for (int64_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
    g.arcs = offsets[n];
    std::printf("counted %lld arcs in %.1f s\n", static_cast<long long>(g.arcs), seconds_since(start));
    std::fflush(stdout);
    start = Clock::now();
    g.neighbors = std::make_unique<HostArray>(static_cast<size_t>(g.arcs) * 4);
    int32_t* neighbors = g.neighbors->as<int32_t>();
    ccl4j::parallel::for_chunks(int64_t{0}, static_cast<int64_t>(n), kChunk, threads, [&](int, int64_t from, int64_t to) {
        std::vector<int32_t> row;
        for (int64_t v = from; v < to; ++v) {
            generator.row(static_cast<uint32_t>(v), row);
            std::copy(row.begin(), row.end(), neighbors + offsets[v]);
        }
    });
    std::printf("filled the rows in %.1f s\n", seconds_since(start));
    std::fflush(stdout);
    return g;
}

void pin(const Graph& g) {
    const auto start = Clock::now();
    g.offsets->pin();
    g.neighbors->pin();
    std::printf("page-locked %.1f GB in %.1f s\n", (g.offsets->bytes() + g.neighbors->bytes()) / 1e9, seconds_since(start));
    std::fflush(stdout);
}

// Component count and largest component of canonical labels.
void summarise(const std::vector<int32_t>& labels, int threads) {
    std::vector<uint32_t> sizes(labels.size());
    ccl4j::parallel::for_blocks(size_t{0}, labels.size(), threads, [&](int, size_t from, size_t to) {
        for (size_t v = from; v < to; ++v) __atomic_fetch_add(&sizes[static_cast<size_t>(labels[v])], 1u, __ATOMIC_RELAXED);
    });
    int64_t components = 0, isolated = 0;
    uint32_t largest = 0;
    for (uint32_t s : sizes) {
        components += s > 0;
        isolated += s == 1;
        largest = std::max(largest, s);
    }
    std::printf("components %lld (of one vertex %lld), largest %u vertices\n", static_cast<long long>(components),
                static_cast<long long>(isolated), largest);
}

struct Timing {
    double total_ms = 0;
    double first_byte_ms = -1;
    std::string phases;
    ccl4j_algorithm algorithm = CCL4J_ALGORITHM_AUTO;
};

struct FirstReport {
    Clock::time_point start;
    std::atomic<double> ms{-1};
    static void listen(void* user, const char*, int64_t, int64_t) {
        auto* self = static_cast<FirstReport*>(user);
        double none = -1;
        self->ms.compare_exchange_strong(none, std::chrono::duration<double, std::milli>(Clock::now() - self->start).count());
    }
};

Timing label(ccl4j_context context, const Graph& g, ccl4j_algorithm algorithm, int threads, std::vector<int32_t>& labels) {
    const ccl4j_csr shape{g.n, g.arcs, 8, 0};
    ccl4j_label_options options{};
    options.algorithm = algorithm;
    options.cpu_threads = threads;
    FirstReport first;
    options.progress = FirstReport::listen;
    options.progress_user = &first;
    ccl4j_timings timings;
    first.start = Clock::now();
    if (ccl4j_label_graph(context, &shape, g.offsets->as<void>(), g.neighbors->as<int32_t>(), &options, labels.data(),
                          &timings) != CCL4J_SUCCESS) {
        throw std::runtime_error(std::string("ccl4j_label_graph: ") + ccl4j_context_error_message(context));
    }
    Timing t;
    t.total_ms = timings.total_ms;
    t.first_byte_ms = first.ms.load();
    t.algorithm = timings.algorithm;
    for (int i = 0; i < timings.phase_count; ++i) {
        char part[64];
        std::snprintf(part, sizeof(part), "%s%s %.1f", i ? ", " : "", timings.phases[i].name, timings.phases[i].ms);
        t.phases += part;
    }
    return t;
}

uint32_t crc32(const unsigned char* bytes, size_t size) {
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < size; ++i) {
        crc ^= bytes[i];
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xffffffffu;
}

// The graph as a canonical .csr file with int64 offsets, written beside `path` and renamed into
// place once whole.
void write_csr(const Graph& g, const std::string& path, int threads) {
    const auto start = Clock::now();
    unsigned char header[40] = {0x89, 'C', 'S', 'R', '\r', '\n', 0x1a, '\n'};
    const uint32_t version = 1, flags = 1, width = 8;
    const int64_t n = g.n, m = g.arcs;
    std::memcpy(header + 8, &version, 4);
    std::memcpy(header + 12, &flags, 4);
    std::memcpy(header + 16, &n, 8);
    std::memcpy(header + 24, &m, 8);
    std::memcpy(header + 32, &width, 4);
    const uint32_t crc = crc32(header, 36);
    std::memcpy(header + 36, &crc, 4);
    const std::string partial = path + ".partial";
    const int fd = open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) throw std::runtime_error("cannot create " + partial);
    struct Piece {
        const char* data;
        size_t bytes;
        off_t at;
    };
    const size_t offset_bytes = (static_cast<size_t>(n) + 1) * 8;
    const std::vector<Piece> arrays = {{reinterpret_cast<const char*>(header), 40, 0},
                                       {g.offsets->as<char>(), offset_bytes, 40},
                                       {g.neighbors->as<char>(), static_cast<size_t>(m) * 4,
                                        static_cast<off_t>(40 + offset_bytes)}};
    constexpr size_t kPiece = size_t{256} << 20;
    std::vector<Piece> pieces;
    for (const Piece& a : arrays) {
        for (size_t o = 0; o < a.bytes; o += kPiece) {
            pieces.push_back({a.data + o, std::min(kPiece, a.bytes - o), a.at + static_cast<off_t>(o)});
        }
    }
    std::atomic<bool> failed{false};
    ccl4j::parallel::for_chunks(size_t{0}, pieces.size(), 1, std::min(threads, 16), [&](int, size_t from, size_t to) {
        for (size_t i = from; i < to; ++i) {
            for (size_t done = 0; done < pieces[i].bytes && !failed;) {
                const ssize_t w = pwrite(fd, pieces[i].data + done, pieces[i].bytes - done,
                                         pieces[i].at + static_cast<off_t>(done));
                if (w <= 0) failed = true; else done += static_cast<size_t>(w);
            }
        }
    });
    const bool closed = close(fd) == 0;
    if (failed || !closed || std::rename(partial.c_str(), path.c_str()) != 0) {
        std::remove(partial.c_str());
        throw std::runtime_error("cannot write " + path);
    }
    const double bytes = 40.0 + offset_bytes + 4.0 * m;
    const double s = seconds_since(start);
    std::printf("wrote %s: %.1f GB in %.1f s (%.2f GB/s, into the page cache and on to the disk)\n", path.c_str(),
                bytes / 1e9, s, bytes / 1e9 / s);
}

ccl4j_algorithm algorithm_named(const std::string& name) {
    if (name == "streamed") return CCL4J_ALGORITHM_STREAMED;
    if (name == "afforest") return CCL4J_ALGORITHM_AFFOREST;
    if (name == "ecl-cc") return CCL4J_ALGORITHM_ECL_CC;
    if (name == "auto") return CCL4J_ALGORITHM_AUTO;
    throw std::runtime_error("unknown algorithm " + name + " (streamed, afforest, ecl-cc, auto)");
}

// The device sets of --devices: lists of device indices separated by '/'.
std::vector<std::string> sets_of(const std::string& list) {
    std::vector<std::string> sets;
    for (size_t from = 0; from <= list.size();) {
        const size_t slash = std::min(list.find('/', from), list.size());
        sets.push_back(list.substr(from, slash - from));
        from = slash + 1;
    }
    return sets;
}

// `runs` labellings with each algorithm on a context of the devices `set`, each compared with
// `expected` when it is not empty; false when one differs.
bool run_on(const Graph& g, const std::string& memory, const std::string& set, const std::vector<std::string>& algorithms,
            int warmup, int runs, int threads, const std::vector<int32_t>& expected, std::vector<int32_t>& labels) {
    std::vector<int32_t> devices;
    for (const std::string& d : split(set)) devices.push_back(std::stoi(d));
    ccl4j_context context = nullptr;
    if (ccl4j_context_create_devices(devices.data(), static_cast<int32_t>(devices.size()), &context) != CCL4J_SUCCESS) {
        throw std::runtime_error("no CUDA context on devices " + set);
    }
    bool equal = true;
    for (const std::string& name : algorithms) {
        std::vector<double> totals;
        for (int r = -warmup; r < runs && equal; ++r) {
            std::fill(labels.begin(), labels.end(), -1);
            const Timing t = label(context, g, algorithm_named(name), threads, labels);
            if (r >= 0) totals.push_back(t.total_ms);
            std::printf("CUDA %s, %s, devices %s (ran algorithm %d) %s %d: %.1f ms (%.2f G arcs/s), first byte after"
                        " %.1f ms, phases: %s\n",
                        name.c_str(), memory.c_str(), set.c_str(), t.algorithm, r < 0 ? "warm-up" : "run",
                        r < 0 ? r + warmup + 1 : r + 1, t.total_ms, g.arcs / t.total_ms / 1e6, t.first_byte_ms,
                        t.phases.c_str());
            if (!expected.empty()) {
                equal = labels == expected;
                std::printf("  labels %s CPU_PARALLEL's\n", equal ? "EQUAL to" : "DIFFER from");
            }
            std::fflush(stdout);
        }
        if (totals.empty()) continue;
        const double m = median(totals);
        std::printf("CUDA %s, %s, devices %s: median of %zu %.1f ms, %.2f G arcs/s\n", name.c_str(), memory.c_str(),
                    set.c_str(), totals.size(), m, g.arcs / m / 1e6);
    }
    ccl4j_context_destroy(context);
    return equal;
}

}  // namespace

int main(int argc, char** argv) {
    int64_t vertices = 1 << 20;
    std::string algorithms = "streamed", device_sets = "0", memories = "pageable", csr;
    int runs = 3, warmup = 1, threads = 0;
    uint64_t seed = 1;
    bool cpu = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return argv[++i];
        };
        try {
            if (a == "--vertices") vertices = std::stoll(value());
            else if (a == "--algorithms") algorithms = value();
            else if (a == "--devices") device_sets = value();
            else if (a == "--runs") runs = std::stoi(value());
            else if (a == "--warmup") warmup = std::stoi(value());
            else if (a == "--seed") seed = std::stoull(value());
            else if (a == "--threads") threads = std::stoi(value());
            else if (a == "--csr") csr = value();
            else if (a == "--memory") memories = value();
            else if (a == "--no-cpu") cpu = false;
            else throw std::runtime_error("unknown option " + a);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bench_big_graph: %s\n", e.what());
            return 2;
        }
    }
    if (vertices < 2 || vertices > INT32_MAX || runs < 1 || warmup < 0) {
        std::fprintf(stderr, "bench_big_graph: --vertices must be in 2..2^31-1, --runs >= 1 and --warmup >= 0\n");
        return 2;
    }
    try {
        const int team = ccl4j::parallel::thread_count(threads);
        auto start = Clock::now();
        for (const std::string& memory : split(memories)) {
            if (memory != "pageable" && memory != "pinned") throw std::runtime_error("unknown --memory " + memory);
        }
        const Graph g = generate(static_cast<uint32_t>(vertices), seed, team);
        const double csr_bytes = (vertices + 1.0) * 8 + 4.0 * g.arcs;
        ccl4j_device_info device{};
        const bool gpu = ccl4j_get_device_info(0, &device) == CCL4J_SUCCESS;
        std::printf("graph: %lld vertices, %lld arcs (%.2f a vertex), CSR %.1f GB (int64 offsets), generated in %.1f s"
                    " on %d threads\n",
                    static_cast<long long>(vertices), static_cast<long long>(g.arcs), static_cast<double>(g.arcs) / vertices,
                    csr_bytes / 1e9, seconds_since(start), team);
        if (gpu) {
            std::printf("device 0: %s, %.1f GB: the CSR is %.2fx its memory\n", device.name, device.total_memory / 1e9,
                        csr_bytes / static_cast<double>(device.total_memory));
        }
        std::fflush(stdout);

        std::vector<int32_t> expected;
        if (cpu) {
            ccl4j_context context = nullptr;
            if (ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &context) != CCL4J_SUCCESS) {
                throw std::runtime_error("no CPU_PARALLEL context");
            }
            expected.resize(g.n);
            const Timing t = label(context, g, CCL4J_ALGORITHM_AFFOREST, threads, expected);
            std::printf("CPU_PARALLEL afforest: %.1f ms (%.2f G arcs/s), phases: %s\n", t.total_ms,
                        g.arcs / t.total_ms / 1e6, t.phases.c_str());
            summarise(expected, team);
            ccl4j_context_destroy(context);
            std::fflush(stdout);
        }
        std::vector<int32_t> labels(gpu ? g.n : 0);
        for (const std::string& memory : gpu ? split(memories) : std::vector<std::string>{}) {
            if (memory == "pinned") pin(g);
            for (const std::string& set : sets_of(device_sets)) {
                if (!run_on(g, memory, set, split(algorithms), warmup, runs, threads, expected, labels)) return 1;
            }
        }
        if (!csr.empty()) write_csr(g, csr, team);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_big_graph: %s\n", e.what());
        return 1;
    }
    return 0;
}
