// The C ABI: argument checks, dispatch to the backends, and the translation of C++ failures into
// status codes and messages. No exception leaves this file.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "ccl4j.h"
#include "common/csr.hpp"
#include "common/error.hpp"
#include "common/memory.hpp"
#include "common/parallel.hpp"
#include "common/phase_log.hpp"
#include "common/validate.hpp"
#include "algorithms/registry.hpp"
#include "api/context.hpp"
#include "api/options.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#include "cuda/label_stats.hpp"
#endif

namespace ccl4j::api {

std::string& thread_error() {
    thread_local std::string message;
    return message;
}

int cuda_device_count() {
#ifdef CCL4J_WITH_CUDA
    return ccl4j::cuda::device_count();
#else
    return 0;
#endif
}

ccl4j_algorithm automatic_graph_algorithm(const ccl4j_context_s& context, int64_t vertex_count, int64_t arc_count) {
    return algorithms::default_graph_algorithm(context.backend == CCL4J_BACKEND_CUDA, vertex_count, arc_count);
}

ccl4j_algorithm automatic_graph_algorithm(const ccl4j_context_s& context, const Graph& graph,
                                          const ccl4j_label_options* options) {
    algorithms::HostGraphPlace place;
#ifdef CCL4J_WITH_CUDA
    if (context.backend == CCL4J_BACKEND_CUDA && graph.vertex_count > 0) {
        const int64_t budget = options ? options->device_memory : 0;
        place.fits = cuda::in_memory_device_bytes(graph.vertex_count, graph.arc_count, graph.offset_width) <=
                     cuda::device_memory_available(*context.cuda, budget);
        place.readable_in_place = cuda::readable_in_place(graph, budget);
    }
#else
    (void)options;
#endif
    return algorithms::default_graph_algorithm(context.backend == CCL4J_BACKEND_CUDA, graph.vertex_count,
                                               graph.arc_count, place);
}

ccl4j_algorithm automatic_graph_algorithm(const ccl4j_context_s& context, const ccl4j_device_graph_s& graph) {
#ifdef CCL4J_WITH_CUDA
    return automatic_graph_algorithm(context, cuda::vertex_count(*graph.graph), cuda::arc_count(*graph.graph));
#else
    (void)graph;
    return automatic_graph_algorithm(context, 0, 0);
#endif
}

void require_cuda(const ccl4j_context_s& context, const char* what) {
    if (context.backend != CCL4J_BACKEND_CUDA) {
        fail(CCL4J_UNSUPPORTED, std::string(what) + " need a CUDA context; this one is " + backend_name(context.backend));
    }
}

PhasePlan cpu_graph_plan(const ccl4j_context_s& context, const Graph& graph, const LabelOptions& options,
                         int32_t* labels, PhaseLog& log) {
    const algorithms::Algorithm& algorithm = *algorithms::find(options.algorithm);
    if (!algorithm.graph_cpu) {
        fail(CCL4J_UNSUPPORTED, "algorithm " + algorithm.label() + " has no CPU implementation; use a CUDA context");
    }
    const int threads = context.backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : options.cpu_threads;
    return algorithm.graph_cpu(graph, options, threads, labels, log);
}

void label_graph(const ccl4j_context_s& context, const Graph& graph, const LabelOptions& options, int32_t* labels,
                 ccl4j_timings* timings) {
    Stopwatch total;
    ProgressReport progress(options.progress, options.progress_user, 2 * graph.arc_count);
    PhaseLog log(timings, &progress);
    // On CUDA the device checks its copy of the graph (cuda/input_check.hpp), far faster.
    if (options.check_input && context.backend != CCL4J_BACKEND_CUDA) {
        Stopwatch check;
        check_input(graph, context.backend == CCL4J_BACKEND_CPU_SERIAL ? 1 : options.cpu_threads);
        log.add("check", check.lap());
    }
    if (context.backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
        if (options.device_memory > 0 && options.algorithm != CCL4J_ALGORITHM_STREAMED) {
            check_memory(cuda::in_memory_device_bytes(graph.vertex_count, graph.arc_count, graph.offset_width),
                         options.device_memory,
                         "labelling a graph of " + std::to_string(graph.vertex_count) + " vertices and " +
                             std::to_string(graph.arc_count) + " arcs in memory with " +
                             algorithms::find(options.algorithm)->label() + " (AUTO and STREAMED stream it)",
                         "device");
        }
        // AUTO keeps a graph on the first device: gathering shares across devices was no faster
        // than one device gathering all (BENCHMARKS.md, "Several GPUs"), so only STREAMED asked
        // for by name spreads.
        if (options.across_devices && !context.more_cuda.empty()) {
            cuda::label_streamed_across(context.cuda_states(), graph, options, labels, log);
        } else {
            cuda::label(*context.cuda, graph, options, labels, log);
        }
#endif
    } else {
        for (const Phase& phase : cpu_graph_plan(context, graph, options, labels, log)) phase.run();
    }
    log.set_resolved(context.backend, options.algorithm);
    log.set_total(total.lap());
    progress.finish();
}

}  // namespace ccl4j::api

namespace {

using namespace ccl4j::api;
using ccl4j::fail;

constexpr int32_t kMaxContextDevices = 64;

}  // namespace

extern "C" {

#define CCL4J_STRINGIFY(x) #x
#define CCL4J_VERSION_STRING(major, minor, patch) CCL4J_STRINGIFY(major) "." CCL4J_STRINGIFY(minor) "." CCL4J_STRINGIFY(patch)

const char* ccl4j_version(void) {
    return CCL4J_VERSION_STRING(CCL4J_VERSION_MAJOR, CCL4J_VERSION_MINOR, CCL4J_VERSION_PATCH);
}

ccl4j_status ccl4j_get_capabilities(ccl4j_capabilities* out) {
    return guarded(thread_error(), [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "capabilities output is NULL");
        std::memset(out, 0, sizeof(*out));
        std::snprintf(out->version, sizeof(out->version), "%s", ccl4j_version());
        out->backends = (1u << CCL4J_BACKEND_AUTO) | (1u << CCL4J_BACKEND_CPU_PARALLEL) | (1u << CCL4J_BACKEND_CPU_SERIAL);
        out->cpu_threads = ccl4j::parallel::processor_count();
#ifdef CCL4J_WITH_CUDA
        out->cuda_compiled = 1;
        std::string archs;
        for (const char* a = CCL4J_CUDA_ARCHS; *a;) {
            // CMake's "80-real 90" means sm_80 machine code, and sm_90 machine code plus compute_90 PTX.
            const char* end = std::strchr(a, ' ');
            std::string arch = end ? std::string(a, end) : std::string(a);
            a = end ? end + 1 : a + std::strlen(a);
            bool real_only = arch.size() > 5 && arch.compare(arch.size() - 5, 5, "-real") == 0;
            bool virtual_only = arch.size() > 8 && arch.compare(arch.size() - 8, 8, "-virtual") == 0;
            std::string number = arch.substr(0, arch.find('-'));
            if (!virtual_only) archs += (archs.empty() ? "" : " ") + std::string("sm_") + number;
            if (!real_only) archs += (archs.empty() ? "" : " ") + std::string("compute_") + number;
        }
        std::snprintf(out->cuda_archs, sizeof(out->cuda_archs), "%s", archs.c_str());
        out->cuda_runtime_version = ccl4j::cuda::runtime_version();
        out->cuda_driver_version = ccl4j::cuda::driver_version();
        out->device_count = ccl4j::cuda::device_count();
        if (out->device_count > 0) out->backends |= 1u << CCL4J_BACKEND_CUDA;
#endif
    });
}

ccl4j_status ccl4j_get_device_info(int32_t device, ccl4j_device_info* out) {
    return guarded(thread_error(), [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "device info output is NULL");
        int count = cuda_device_count();
        if (device < 0 || device >= count) {
            fail(CCL4J_INVALID_ARGUMENT, "device index " + std::to_string(device) + " is outside 0.." +
                                             std::to_string(count - 1) + " (" + std::to_string(count) + " CUDA devices)");
        }
#ifdef CCL4J_WITH_CUDA
        ccl4j::cuda::device_info(device, out);
#endif
    });
}

int32_t ccl4j_algorithm_count(void) { return static_cast<int32_t>(ccl4j::algorithms::all().size()); }

ccl4j_status ccl4j_get_algorithm_info(int32_t index, ccl4j_algorithm_info* out) {
    return guarded(thread_error(), [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "algorithm info output is NULL");
        const auto& all = ccl4j::algorithms::all();
        if (index < 0 || index >= static_cast<int32_t>(all.size())) {
            fail(CCL4J_INVALID_ARGUMENT, "algorithm index " + std::to_string(index) + " is outside 0.." +
                                             std::to_string(all.size() - 1));
        }
        const ccl4j::algorithms::Algorithm& a = all[static_cast<size_t>(index)];
        *out = ccl4j_algorithm_info{};
        out->id = a.id;
        out->kind = a.kind == ccl4j::algorithms::Kind::Graph ? CCL4J_ALGORITHM_KIND_GRAPH : CCL4J_ALGORITHM_KIND_MESH;
        if (a.runs_on_cpu()) out->backends |= (1u << CCL4J_BACKEND_CPU_PARALLEL) | (1u << CCL4J_BACKEND_CPU_SERIAL);
        if (a.has_cuda_version()) out->backends |= 1u << CCL4J_BACKEND_CUDA;
        if (a.mesh_cpu_wide) {
            out->wide_backends |= (1u << CCL4J_BACKEND_CPU_PARALLEL) | (1u << CCL4J_BACKEND_CPU_SERIAL);
        }
        if (a.mesh_cuda_wide) out->wide_backends |= 1u << CCL4J_BACKEND_CUDA;
        std::snprintf(out->name, sizeof(out->name), "%s", a.name);
    });
}

ccl4j_status ccl4j_context_create(ccl4j_backend backend, int32_t device, ccl4j_context* out) {
    return guarded(thread_error(), [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "context output is NULL");
        *out = nullptr;
        if (backend < CCL4J_BACKEND_AUTO || backend > CCL4J_BACKEND_CPU_SERIAL) {
            fail(CCL4J_INVALID_ARGUMENT, "unknown backend " + std::to_string(backend));
        }
        auto context = std::make_unique<ccl4j_context_s>();
        if (backend == CCL4J_BACKEND_AUTO) {
            backend = cuda_device_count() > 0 ? CCL4J_BACKEND_CUDA : CCL4J_BACKEND_CPU_PARALLEL;
        }
        context->backend = backend;
        if (backend == CCL4J_BACKEND_CUDA) {
#ifdef CCL4J_WITH_CUDA
            if (device < 0) fail(CCL4J_INVALID_ARGUMENT, "device index is negative: " + std::to_string(device));
            context->cuda = ccl4j::cuda::create_state(device);
            context->devices = {device};
#else
            (void)device;
            fail(CCL4J_BACKEND_UNAVAILABLE, "the CUDA backend is unavailable: this libccl4j was built without CUDA");
#endif
        }
        *out = context.release();
    });
}

ccl4j_status ccl4j_context_create_devices(const int32_t* devices, int32_t count, ccl4j_context* out) {
    return guarded(thread_error(), [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "context output is NULL");
        *out = nullptr;
        if (!devices) fail(CCL4J_INVALID_ARGUMENT, "devices is NULL");
        if (count < 1 || count > kMaxContextDevices) {
            fail(CCL4J_INVALID_ARGUMENT, "device count " + std::to_string(count) + " is outside [1, " +
                                             std::to_string(kMaxContextDevices) + "]");
        }
        for (int32_t i = 0; i < count; ++i) {
            if (devices[i] < 0) {
                fail(CCL4J_INVALID_ARGUMENT, "devices[" + std::to_string(i) + "] is negative: " + std::to_string(devices[i]));
            }
        }
#ifdef CCL4J_WITH_CUDA
        auto context = std::make_unique<ccl4j_context_s>();
        context->backend = CCL4J_BACKEND_CUDA;
        context->cuda = ccl4j::cuda::create_state(devices[0]);
        for (int32_t i = 1; i < count; ++i) context->more_cuda.push_back(ccl4j::cuda::create_state(devices[i]));
        context->devices.assign(devices, devices + count);
        ccl4j::cuda::enable_peer_access(context->cuda_states());
        *out = context.release();
#else
        fail(CCL4J_BACKEND_UNAVAILABLE, "the CUDA backend is unavailable: this libccl4j was built without CUDA");
#endif
    });
}

void ccl4j_context_destroy(ccl4j_context context) { delete context; }

ccl4j_status ccl4j_context_get_devices(ccl4j_context context, int32_t* devices, int32_t capacity, int32_t* count) {
    return with_context(context, [&] {
        if (!count) fail(CCL4J_INVALID_ARGUMENT, "count is NULL");
        if (capacity < 0 || (capacity > 0 && !devices)) {
            fail(CCL4J_INVALID_ARGUMENT, "devices is NULL or capacity negative: " + std::to_string(capacity));
        }
        *count = 0;
#ifdef CCL4J_WITH_CUDA
        if (context->backend != CCL4J_BACKEND_CUDA) return;
        *count = static_cast<int32_t>(context->devices.size());
        std::copy_n(context->devices.begin(), std::min(capacity, *count), devices);
#endif
    });
}

ccl4j_backend ccl4j_context_backend(ccl4j_context context) {
    return context ? context->backend : CCL4J_BACKEND_AUTO;
}

const char* ccl4j_context_error_message(ccl4j_context context) {
    return context ? context->error.c_str() : thread_error().c_str();
}

ccl4j_status ccl4j_label_graph(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                               const int32_t* neighbors, const ccl4j_label_options* options, int32_t* labels,
                               ccl4j_timings* timings) {
    return with_context(context, [&] {
        const ccl4j::Graph g = ccl4j::validate_sizes(graph, offsets, neighbors);
        if (!labels && g.vertex_count > 0) fail(CCL4J_INVALID_ARGUMENT, "labels is NULL");
        const size_t label_bytes = static_cast<size_t>(g.vertex_count) * sizeof(int32_t);
        ccl4j::check_disjoint(labels, label_bytes, "labels", g.offsets,
                              (static_cast<size_t>(g.vertex_count) + 1) * g.offset_width, "graph offsets");
        ccl4j::check_disjoint(labels, label_bytes, "labels", g.neighbors,
                              static_cast<size_t>(g.arc_count) * sizeof(int32_t), "graph neighbours");
        label_graph(*context, g, label_options(options, automatic_graph_algorithm(*context, g, options)),
                    labels, timings);
    });
}

ccl4j_status ccl4j_check_graph(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                               const int32_t* neighbors) {
    return with_context(context, [&] { ccl4j::check_input(ccl4j::validate_sizes(graph, offsets, neighbors), 0); });
}

ccl4j_status ccl4j_host_alloc(int64_t bytes, void** out, int32_t* pinned) {
    return guarded(thread_error(), [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "output pointer is NULL");
        *out = nullptr;
        if (bytes < 0) fail(CCL4J_INVALID_ARGUMENT, "byte count is negative: " + std::to_string(bytes));
        size_t size = static_cast<size_t>(bytes > 0 ? bytes : 1);
        void* p = nullptr;
#ifdef CCL4J_WITH_CUDA
        if (ccl4j::cuda::device_count() > 0) p = ccl4j::cuda::pinned_alloc(size);
#endif
        if (pinned) *pinned = p ? 1 : 0;
        if (!p) p = std::aligned_alloc(64, (size + 63) / 64 * 64);
        if (!p) fail(CCL4J_OUT_OF_MEMORY, "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
        *out = p;
    });
}

void ccl4j_host_free(void* memory) {
    if (!memory) return;
#ifdef CCL4J_WITH_CUDA
    if (ccl4j::cuda::pinned_free(memory)) return;
#endif
    std::free(memory);
}

ccl4j_status ccl4j_device_graph_create(ccl4j_context context, const ccl4j_csr* graph, const void* offsets,
                                       const int32_t* neighbors, ccl4j_device_graph* out, double* h2d_ms) {
    return with_context(context, [&] {
        if (!out) fail(CCL4J_INVALID_ARGUMENT, "device graph output is NULL");
        *out = nullptr;
        ccl4j::Graph g = ccl4j::validate_sizes(graph, offsets, neighbors);
        require_cuda(*context, "device-resident graphs");
#ifdef CCL4J_WITH_CUDA
        auto handle = std::make_unique<ccl4j_device_graph_s>();
        handle->graph = ccl4j::cuda::upload(*context->cuda, g, h2d_ms);
        *out = handle.release();
#else
        (void)g;
        (void)h2d_ms;
#endif
    });
}

void ccl4j_device_graph_destroy(ccl4j_device_graph graph) { delete graph; }

ccl4j_status ccl4j_label_device_graph(ccl4j_context context, ccl4j_device_graph graph,
                                      const ccl4j_label_options* options, int32_t* labels, ccl4j_timings* timings) {
    return with_context(context, [&] {
        ccl4j::Stopwatch total;
        ccl4j::PhaseLog log(timings);
        if (!graph) fail(CCL4J_INVALID_ARGUMENT, "device graph is NULL");
        require_cuda(*context, "device-resident graphs");
        const ccl4j::LabelOptions o = label_options(options, automatic_graph_algorithm(*context, *graph));
#ifdef CCL4J_WITH_CUDA
        ccl4j::cuda::forget_resident_labels(*context->cuda);
        ccl4j::cuda::label(*context->cuda, *graph->graph, o, labels, log);
        // The labels stay on the device for the label statistics (ccl4j_label_array, CCL4J_LABELS_DEVICE).
        ccl4j::cuda::keep_resident_labels(*context->cuda, ccl4j::cuda::vertex_count(*graph->graph));
#else
        (void)labels;
#endif
        log.set_resolved(context->backend, o.algorithm);
        log.set_total(total.lap());
    });
}

}  // extern "C"
