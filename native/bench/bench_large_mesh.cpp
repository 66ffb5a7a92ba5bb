// bench_large_mesh: a random site field past 2^31 cells labelled into int64 labels through the
// public ABI (ccl4j_label_mesh64) on the CUDA backend and the CPU_PARALLEL backend of the same
// machine, at each connectivity asked for: time, memory, cluster count and largest cluster of each,
// which must agree.
//
//   bench_large_mesh [--size N] [--p P] [--connectivity C,...] [--runs R] [--seed S] [--backends cuda,cpu]
//
// Defaults: a 2048^3 field (8.6 G cells), p = 0.3116 (near the site threshold of 6-connectivity),
// connectivities 26 and 6, R = 3 runs per backend after a warm-up, the hash of bench_mesh
// (bench_support.hpp's random_sites) with seed 1. Per run: the call's total time and, on CUDA,
// its kernel time (every phase but h2d and d2h); medians are printed. The memory is what
// ccl4j_mesh_memory_needs reports before the first call. After the last run of each backend the
// labels are summarised: cluster count, largest cluster (size and label) and a fingerprint of the
// whole label array (a hash of every (index, label) pair); the backends must agree on all three.
// Needs host memory for the cells (1 byte a cell) and one label array (8 bytes a cell).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "ccl4j.h"
#include "common/parallel.hpp"

namespace {

using ccl4j::bench::median;
using ccl4j::bench::kernel_ms;
using ccl4j::bench::split;
using ccl4j::bench::mix;

struct Summary {
    int64_t clusters = 0;
    int64_t largest = 0;
    int64_t largest_label = -1;
    uint64_t fingerprint = 0;
};

// Cluster count, largest cluster and fingerprint of canonical labels (roots: labels[i] == i). The
// labels are consumed: each root is overwritten with -2 - its cluster's number (raster order),
// so that every cell finds its cluster's number through its root in O(1) and no table of the
// cell count's size is needed; the sizes are then added up a run of cells of one cluster at a time.
Summary summarise(int64_t* labels, int64_t n) {
    const int threads = ccl4j::parallel::thread_count(0);
    Summary s;
    std::vector<uint64_t> fingerprints(threads);
    std::vector<int64_t> roots_before(threads + 1);
    ccl4j::parallel::for_blocks(int64_t{0}, n, threads, [&](int t, int64_t from, int64_t to) {
        uint64_t h = 0;
        int64_t roots = 0;
        for (int64_t i = from; i < to; ++i) {
            h += mix(static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(labels[i]));
            roots += labels[i] == i;
        }
        fingerprints[t] = h;
        roots_before[t + 1] = roots;
    });
    for (int t = 0; t < threads; ++t) {
        roots_before[t + 1] += roots_before[t];
        s.fingerprint += fingerprints[t];
    }
    s.clusters = roots_before[threads];
    std::vector<int64_t> root_of(static_cast<size_t>(s.clusters));
    ccl4j::parallel::for_blocks(int64_t{0}, n, threads, [&](int t, int64_t from, int64_t to) {
        int64_t number = roots_before[t];
        for (int64_t i = from; i < to; ++i) {
            if (labels[i] != i) continue;
            root_of[static_cast<size_t>(number)] = i;
            labels[i] = -2 - number++;
        }
    });
    std::vector<int64_t> sizes(static_cast<size_t>(s.clusters));
    const auto add = [&](int64_t cluster, int64_t cells) {
        __atomic_fetch_add(&sizes[static_cast<size_t>(cluster)], cells, __ATOMIC_RELAXED);
    };
    ccl4j::parallel::for_blocks(int64_t{0}, n, threads, [&](int, int64_t from, int64_t to) {
        int64_t current = -1, run = 0;
        for (int64_t i = from; i < to; ++i) {
            const int64_t l = labels[i];
            if (l == -1) continue;
            const int64_t number = l < -1 ? -2 - l : -2 - labels[l];
            if (number != current) {
                if (run) add(current, run);
                current = number;
                run = 0;
            }
            ++run;
        }
        if (run) add(current, run);
    });
    for (int64_t c = 0; c < s.clusters; ++c) {
        if (sizes[c] > s.largest) {
            s.largest = sizes[c];
            s.largest_label = root_of[c];
        }
    }
    return s;
}

std::string gb(int64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    int32_t size = 2048;
    double p = 0.3116;
    std::vector<std::string> connectivities = {"26", "6"};
    std::vector<std::string> backends = {"cuda", "cpu"};
    int runs = 3;
    uint64_t seed = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool value = i + 1 < argc;
        if (arg == "--size" && value) {
            size = std::atoi(argv[++i]);
        } else if (arg == "--p" && value) {
            p = std::atof(argv[++i]);
        } else if (arg == "--connectivity" && value) {
            connectivities = split(argv[++i]);
        } else if (arg == "--runs" && value) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--seed" && value) {
            seed = std::strtoull(argv[++i], nullptr, 10);
        } else if (arg == "--backends" && value) {
            backends = split(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: bench_large_mesh [--size N] [--p P] [--connectivity C,...] [--runs R] "
                                 "[--seed S] [--backends cuda,cpu]\n");
            return 2;
        }
    }
    const int64_t n = int64_t(size) * size * size;
    ccl4j_mesh mesh{};
    mesh.width = mesh.height = mesh.depth = size;
    mesh.cell_type = CCL4J_CELL_U8;
    std::printf("field %d^3 = %lld cells, p = %.4f, seed %llu\n", size, (long long)n, p, (unsigned long long)seed);
    std::fflush(stdout);
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<uint8_t[]> cells(new uint8_t[static_cast<size_t>(n)]);
    ccl4j::bench::random_sites(n, p, seed, cells.get());
    std::unique_ptr<int64_t[]> labels(new int64_t[static_cast<size_t>(n)]);
    std::printf("generated in %.1f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    bool all_ok = true;
    for (const std::string& c : connectivities) {
        std::vector<std::pair<std::string, Summary>> summaries;
        for (const std::string& name : backends) {
            const ccl4j_backend backend = name == "cuda" ? CCL4J_BACKEND_CUDA : CCL4J_BACKEND_CPU_PARALLEL;
            ccl4j_context context = nullptr;
            if (ccl4j_context_create(backend, 0, &context) != CCL4J_SUCCESS) {
                std::printf("c%s %s: no such backend here\n", c.c_str(), name.c_str());
                all_ok = false;
                continue;
            }
            ccl4j_mesh_options options{};
            options.connectivity = std::atoi(c.c_str());
            ccl4j_memory_needs needs;
            if (ccl4j_mesh_memory_needs(context, &mesh, &options, 8, &needs) != CCL4J_SUCCESS) {
                std::printf("c%s %s: %s\n", c.c_str(), name.c_str(), ccl4j_context_error_message(context));
                return 1;
            }
            std::printf("c%s %s: memory: cells %s, labels %s (host), device %s of %s available, host %s available\n",
                        c.c_str(), name.c_str(), gb(n).c_str(), gb(needs.labels_bytes).c_str(),
                        gb(needs.device_bytes).c_str(), gb(needs.device_available).c_str(),
                        gb(needs.host_available).c_str());
            std::vector<double> total, kernel;
            for (int r = 0; r <= runs; ++r) {  // run 0 warms up
                ccl4j_timings t{};
                if (ccl4j_label_mesh64(context, &mesh, cells.get(), &options, labels.get(), &t) != CCL4J_SUCCESS) {
                    std::printf("c%s %s: %s\n", c.c_str(), name.c_str(), ccl4j_context_error_message(context));
                    return 1;
                }
                std::string phases;
                for (int32_t i = 0; i < t.phase_count; ++i) {
                    char part[64];
                    std::snprintf(part, sizeof part, "%s%s %.1f", i ? ", " : "", t.phases[i].name, t.phases[i].ms);
                    phases += part;
                }
                std::printf("  run %d: total %.1f ms, kernel %.1f ms [%s]\n", r, t.total_ms, kernel_ms(t), phases.c_str());
                std::fflush(stdout);
                if (r == 0) continue;
                total.push_back(t.total_ms);
                kernel.push_back(kernel_ms(t));
            }
            ccl4j_context_destroy(context);
            const Summary s = summarise(labels.get(), n);
            std::printf("c%s %s: median of %d: total %.1f ms, kernel %.1f ms; %lld clusters, largest %lld cells "
                        "(label %lld), fingerprint %016llx\n",
                        c.c_str(), name.c_str(), runs, median(total), median(kernel), (long long)s.clusters,
                        (long long)s.largest, (long long)s.largest_label, (unsigned long long)s.fingerprint);
            std::fflush(stdout);
            summaries.emplace_back(name, s);
        }
        for (size_t i = 1; i < summaries.size(); ++i) {
            const Summary& a = summaries[0].second;
            const Summary& b = summaries[i].second;
            const bool same = a.clusters == b.clusters && a.largest == b.largest &&
                              a.largest_label == b.largest_label && a.fingerprint == b.fingerprint;
            std::printf("c%s: %s and %s %s\n", c.c_str(), summaries[0].first.c_str(), summaries[i].first.c_str(),
                        same ? "agree" : "DIFFER");
            all_ok = all_ok && same;
        }
    }
    return all_ok ? 0 : 1;
}
