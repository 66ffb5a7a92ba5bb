// STREAMED across several devices (a context of several, ccl4j_context_create_devices): a host
// graph shared out among G devices, each streaming its share through its own link with the
// single-device pipeline (graph_stream.cuh) into a parent array of its own, the forests merged.
// A forest is a set of edges (v, parent(v)), so device a joins device b's forest by hooking each v
// to b's parent of v; G forests merge in ceil(log2 G) rounds of peer copies, device g taking in
// device g + s's forest in the round of stride s.
//
//   init      every device: parent[v] = v;
//   sample    device g: the first arcs of rows [g n / G, (g + 1) n / G);
//   merge     the samples' forests into device 0;
//   compress  device 0: the giant component (as on one device), every vertex pointed at its root,
//             the bitmap of the giant component's vertices (to the host, for the gathering threads);
//   broadcast device 0's forest, bitmap and giant root to the others, in the same rounds reversed;
//   link      device g: the arcs [g m / G, (g + 1) m / G) of the rows outside the giant component,
//             with the one rule of graph_stream.cu (every device holds the same bitmap, so each
//             edge is hooked on the device of one of its arcs);
//   merge     the forests into device 0;
//   finalize  device 0: every vertex pointed at its root; d2h.
// Roots are the smallest vertices of their trees on every device, and hooking keeps them so, so
// the labels are the canonical ones, identical to one device's. Devices may repeat (partitions of
// one device): the merge is then a copy within the device.
#include <cuda_runtime.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/afforest_sampling.hpp"
#include "common/validate.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/giant_component.cuh"
#include "cuda/graph_stream.cuh"

namespace ccl4j::cuda {
namespace {

using namespace stream;

// One device's part of the call.
struct Part {
    DeviceState* state;
    Room room;
    Share share;
};

// Runs step(g) for every part at once, part g on a thread of its own (the gathering threads a
// streamer starts are that thread's team); the first failure is rethrown once all have ended.
template <class Step>
void on_every_part(int parts, const Step& step) {
    std::vector<std::exception_ptr> failures(static_cast<size_t>(parts));
    std::vector<std::thread> threads;
    for (int g = 1; g < parts; ++g) {
        threads.emplace_back([&, g] {
            try {
                step(g);
            } catch (...) {
                failures[static_cast<size_t>(g)] = std::current_exception();
            }
        });
    }
    try {
        step(0);
    } catch (...) {
        failures[0] = std::current_exception();
    }
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& failure : failures) {
        if (failure) std::rethrow_exception(failure);
    }
}

void synchronize(const Part& part) {
    part.state->activate();
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(part.state->stream));
}

// Copies `bytes` at from_data on part `from` to to_data on part `to`, on `to`'s stream.
void copy_between(const Part& to, void* to_data, const Part& from, const void* from_data, size_t bytes) {
    to.state->activate();
    CCL4J_CUDA_CHECK(cudaMemcpyPeerAsync(to_data, to.state->device, from_data, from.state->device, bytes,
                                         to.state->stream));
}

// Every part's forest joined into part 0's: in the round of stride s, part g (a multiple of 2 s)
// takes in part g + s's. The parts are idle on entry; part 0 holds the union on return.
void merge_into_first(std::vector<Part>& parts, int32_t n, int block) {
    const size_t bytes = static_cast<size_t>(n) * sizeof(int32_t);
    for (size_t s = 1; s < parts.size(); s *= 2) {
        for (size_t g = 0; g + s < parts.size(); g += 2 * s) {
            Part& to = parts[g];
            const Part& from = parts[g + s];
            copy_between(to, to.room.work->merge.as<void>(), from, from.room.parent, bytes);
            merge_forest<<<grid_size(*to.state, block, n), block, 0, to.state->stream>>>(
                n, ecl::Parents(to.room.parent), to.room.work->merge.as<int32_t>());
            check_launch("STREAMED merge");
        }
        for (size_t g = 0; g + s < parts.size(); g += 2 * s) synchronize(parts[g]);
    }
}

// Part 0's forest, bitmap and giant root copied to every other part, in merge's rounds reversed.
void broadcast_from_first(std::vector<Part>& parts, int32_t n) {
    size_t stride = 1;
    while (stride * 2 < parts.size()) stride *= 2;
    for (size_t s = stride; s >= 1; s /= 2) {
        for (size_t g = 0; g + s < parts.size(); g += 2 * s) {
            const Part& from = parts[g];
            Part& to = parts[g + s];
            copy_between(to, to.room.parent, from, from.room.parent, static_cast<size_t>(n) * sizeof(int32_t));
            copy_between(to, to.room.work->bitmap.as<void>(), from, from.room.work->bitmap.as<void>(),
                         (static_cast<size_t>(n) / 32 + 1) * sizeof(uint32_t));
            copy_between(to, to.room.work->scalars.as<void>(), from, from.room.work->scalars.as<void>(),
                         sizeof(int32_t));
        }
        for (size_t g = 0; g + s < parts.size(); g += 2 * s) synchronize(parts[g + s]);
        if (s == 1) break;
    }
}

template <class Offset>
void stream_across(const std::vector<DeviceState*>& states, const CsrView<Offset>& graph, const LabelOptions& options,
                   int32_t* labels, PhaseLog& log) {
    const int32_t n = graph.vertex_count;
    const int64_t m = graph.arc_count;
    const int count = static_cast<int>(states.size());
    // The gathering threads shared out: the team a call may use, at least one per device.
    const int threads = std::max(1, parallel::team_size(options.cpu_threads) / count);
    std::vector<Part> parts;
    for (int g = 0; g < count; ++g) {
        const Share share{static_cast<int32_t>(static_cast<int64_t>(n) * g / count),
                          static_cast<int32_t>(static_cast<int64_t>(n) * (g + 1) / count), m * g / count,
                          m * (g + 1) / count};
        // Receivers of a merge round are the even parts (and part 0).
        parts.push_back(Part{states[g], make_room(*states[g], n, options.device_memory, threads, g % 2 == 0), share});
    }
    std::vector<std::unique_ptr<Streamer<Offset>>> owned;
    for (const Part& p : parts) {
        owned.push_back(
            std::make_unique<Streamer<Offset>>(*p.state, *p.room.work, graph, p.share, p.room.threads, p.room.parent,
                                               log.progress()));
    }
    const int block = block_or_default(options.block_size);
    Part& first = parts[0];
    DeviceState& lead = *first.state;

    Stopwatch clock;
    if (options.check_input) {
        check_input(Graph{n, m, sizeof(Offset), graph.offsets, graph.neighbors}, options.cpu_threads);
        log.add("check", clock.lap());
    }
    for (const Part& p : parts) {
        p.state->activate();
        init_parents<<<grid_size(*p.state, block, n), block, 0, p.state->stream>>>(n, p.room.parent);
        check_launch("STREAMED init");
        CCL4J_CUDA_CHECK(cudaMemsetAsync(p.room.work->scalars.as<char>() + 8, 0xff, 8, p.state->stream));
    }
    for (const Part& p : parts) synchronize(p);
    log.add("init", clock.lap());

    // Each pass's time on each device: its threads' gathering, uploads and links until its stream is done.
    std::vector<double> sample_ms(static_cast<size_t>(count)), link_ms(static_cast<size_t>(count));
    std::vector<int64_t> blocks(static_cast<size_t>(count));
    on_every_part(count, [&](int g) {
        Stopwatch own;
        blocks[g] += owned[g]->sample();
        sample_ms[g] = own.lap();
    });
    log.add("sample", clock.lap());
    merge_into_first(parts, n, block);
    log.add("merge samples", clock.lap());

    lead.activate();
    const ecl::Parents parents(first.room.parent);
    find_giant<<<1, afforest::kSamples, 0, lead.stream>>>(n, parents, first.room.work->scalars.as<int32_t>());
    check_launch("STREAMED compress (giant component)");
    afforest_device::point_to_roots_and_mark<<<grid_size(lead, block, n), block, 0, lead.stream>>>(
        n, parents, first.room.work->scalars.as<int32_t>(), first.room.work->bitmap.as<uint32_t>());
    check_launch("STREAMED compress");
    int32_t giant_root = -1;
    std::vector<uint32_t> bitmap(static_cast<size_t>(n) / 32 + 1);
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(&giant_root, first.room.work->scalars.as<int32_t>(), sizeof(giant_root),
                                     cudaMemcpyDeviceToHost, lead.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(lead.stream));
    if (giant_root >= 0) {
        CCL4J_CUDA_CHECK(cudaMemcpyAsync(bitmap.data(), first.room.work->bitmap.as<uint32_t>(),
                                         bitmap.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost, lead.stream));
        CCL4J_CUDA_CHECK(cudaStreamSynchronize(lead.stream));
    }
    log.add("compress", clock.lap());
    broadcast_from_first(parts, n);
    log.add("broadcast", clock.lap());

    on_every_part(count, [&](int g) {
        Stopwatch own;
        blocks[g] += owned[g]->link(bitmap, giant_root >= 0);
        synchronize(parts[g]);
        unsigned long long bad = 0;
        CCL4J_CUDA_CHECK(cudaMemcpy(&bad, parts[g].room.work->scalars.as<char>() + 8, sizeof(bad), cudaMemcpyDeviceToHost));
        if (bad != ~0ull) owned[g]->report_bad_row(bad);
        link_ms[g] = own.lap();
    });
    log.add("link", clock.lap());
    merge_into_first(parts, n, block);
    log.add("merge forests", clock.lap());

    lead.activate();
    ecl::point_to_roots<<<grid_size(lead, block, n), block, 0, lead.stream>>>(n, parents);
    check_launch("STREAMED finalize");
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(lead.stream));
    log.add("finalize", clock.lap());
    CCL4J_CUDA_CHECK(cudaMemcpyAsync(labels, first.room.parent, static_cast<size_t>(n) * sizeof(int32_t),
                                     cudaMemcpyDeviceToHost, lead.stream));
    CCL4J_CUDA_CHECK(cudaStreamSynchronize(lead.stream));
    log.add("d2h", clock.lap());
    for (int g = 0; g < count; ++g) log.add(("sample " + std::to_string(g)).c_str(), sample_ms[g]);
    for (int g = 0; g < count; ++g) log.add(("link " + std::to_string(g)).c_str(), link_ms[g]);
    int64_t sent = 0;
    for (int64_t b : blocks) sent += b;
    log.set_iterations(static_cast<int32_t>(std::min<int64_t>(sent, INT32_MAX)));
}

}  // namespace

void label_streamed_across(const std::vector<DeviceState*>& states, const Graph& graph, const LabelOptions& options,
                           int32_t* labels, PhaseLog& log) {
    // A graph the first device reads in place goes there alone: on two H200s, 1.05 G arcs in
    // page-locked memory took 39.6 ms in place and 48.4 ms gathered across both, where the host's
    // gathering is the limit (BENCHMARKS.md, "Several GPUs").
    states[0]->activate();
    if (states.size() == 1 || readable_in_place(graph, options.device_memory)) {
        return label_streamed(*states[0], graph, options, labels, log);
    }
    if (graph.vertex_count == 0) {
        for (const char* phase : {"init", "sample", "merge samples", "compress", "broadcast", "link", "merge forests",
                                  "finalize", "d2h"}) {
            log.add(phase, 0);
        }
        return;
    }
    graph.visit([&](const auto& csr) { stream_across(states, csr, options, labels, log); });
}

}  // namespace ccl4j::cuda
