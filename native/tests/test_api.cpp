/* Tests of the C ABI through libccl4j.so, written as a C caller would use it: only ccl4j.h, plain
 * structs and status codes. Prints every failure and "N passed, M failed"; exits non-zero on failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ccl4j.h"

static int passed = 0;
static int failed = 0;

static void record(int ok, const char* expression, const char* file, int line) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, expression);
    }
}

#define CHECK(condition) record((condition) ? 1 : 0, #condition, __FILE__, __LINE__)

static int is_empty(const char* message) { return message == NULL || message[0] == '\0'; }

/* Nine vertices with components {0, 4, 8}, {1, 2, 5, 7}, {3}, {6}; adjacency lists unsorted. */
#define SMALL_N 9
#define SMALL_ARCS 12
static const int32_t small_offsets32[SMALL_N + 1] = {0, 1, 2, 4, 4, 6, 8, 8, 11, 12};
static const int64_t small_offsets64[SMALL_N + 1] = {0, 1, 2, 4, 4, 6, 8, 8, 11, 12};
static const int32_t small_neighbors[SMALL_ARCS] = {4, 7, 7, 5, 8, 0, 7, 2, 5, 2, 1, 4};
static const int32_t small_expected[SMALL_N] = {0, 1, 1, 3, 0, 1, 6, 1, 0};

/* The small graph's shape; its arrays are small_offsets(offset_width) and small_neighbors. */
static ccl4j_csr small_graph(int32_t offset_width) {
    ccl4j_csr g;
    memset(&g, 0, sizeof(g));
    g.vertex_count = SMALL_N;
    g.arc_count = SMALL_ARCS;
    g.offset_width = offset_width;
    return g;
}

static const void* small_offsets(int32_t offset_width) {
    return offset_width == 4 ? (const void*)small_offsets32 : (const void*)small_offsets64;
}

/* 2 -> 1 without 1 -> 2: sizes are fine, symmetry is not. */
static const int64_t asymmetric_offsets[4] = {0, 1, 2, 3};
static const int32_t asymmetric_neighbors[3] = {1, 0, 1};

static ccl4j_csr asymmetric_graph(void) {
    ccl4j_csr g;
    memset(&g, 0, sizeof(g));
    g.vertex_count = 3;
    g.arc_count = 3;
    g.offset_width = 8;
    return g;
}

static ccl4j_label_options options_for(ccl4j_algorithm algorithm, uint32_t flags, int32_t cpu_threads) {
    ccl4j_label_options o;
    memset(&o, 0, sizeof(o));
    o.algorithm = algorithm;
    o.flags = flags;
    o.cpu_threads = cpu_threads;
    return o;
}

static ccl4j_capabilities capabilities;

static void test_capabilities(void) {
    CHECK(ccl4j_get_capabilities(&capabilities) == CCL4J_SUCCESS);
    char version[32];
    snprintf(version, sizeof(version), "%d.%d.%d", CCL4J_VERSION_MAJOR, CCL4J_VERSION_MINOR, CCL4J_VERSION_PATCH);
    CHECK(strcmp(capabilities.version, version) == 0);
    CHECK(capabilities.backends & (1u << CCL4J_BACKEND_CPU_PARALLEL));
    CHECK(capabilities.backends & (1u << CCL4J_BACKEND_CPU_SERIAL));
    CHECK(((capabilities.backends >> CCL4J_BACKEND_CUDA) & 1u) == (capabilities.device_count > 0 ? 1u : 0u));
    CHECK(capabilities.cpu_threads >= 1);
    CHECK(capabilities.device_count >= 0);
    CHECK(capabilities.cuda_compiled == 0 || capabilities.cuda_compiled == 1);
    if (!capabilities.cuda_compiled) CHECK(capabilities.device_count == 0);
    printf("  libccl4j %s, backends 0x%x, CUDA compiled %d, %d devices, %d CPU threads\n", capabilities.version,
           capabilities.backends, capabilities.cuda_compiled, capabilities.device_count, capabilities.cpu_threads);

    CHECK(ccl4j_get_capabilities(NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(!is_empty(ccl4j_context_error_message(NULL)));

    ccl4j_device_info info;
    CHECK(ccl4j_get_device_info(-1, &info) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_get_device_info(capabilities.device_count, &info) == CCL4J_INVALID_ARGUMENT);
    if (capabilities.device_count > 0) {
        CHECK(ccl4j_get_device_info(0, &info) == CCL4J_SUCCESS);
        CHECK(info.index == 0 && info.multiprocessors > 0 && info.total_memory > 0 && !is_empty(info.name));
    }
}

static void test_contexts(void) {
    const ccl4j_backend cpu_backends[2] = {CCL4J_BACKEND_CPU_SERIAL, CCL4J_BACKEND_CPU_PARALLEL};
    for (int i = 0; i < 2; ++i) {
        ccl4j_context context = NULL;
        CHECK(ccl4j_context_create(cpu_backends[i], 0, &context) == CCL4J_SUCCESS);
        CHECK(context != NULL);
        CHECK(ccl4j_context_backend(context) == cpu_backends[i]);
        CHECK(is_empty(ccl4j_context_error_message(context)));
        ccl4j_context_destroy(context);
    }

    ccl4j_context automatic = NULL;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_AUTO, 0, &automatic) == CCL4J_SUCCESS);
    CHECK(ccl4j_context_backend(automatic) ==
          (capabilities.device_count > 0 ? CCL4J_BACKEND_CUDA : CCL4J_BACKEND_CPU_PARALLEL));
    ccl4j_context_destroy(automatic);

    ccl4j_context cuda = NULL;
    ccl4j_status status = ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &cuda);
    if (capabilities.device_count == 0) {
        CHECK(status == CCL4J_BACKEND_UNAVAILABLE);
        CHECK(cuda == NULL);
        CHECK(!is_empty(ccl4j_context_error_message(NULL)));
    } else {
        CHECK(status == CCL4J_SUCCESS);
        CHECK(ccl4j_context_backend(cuda) == CCL4J_BACKEND_CUDA);
        ccl4j_context_destroy(cuda);
    }

    /* A context of several devices: refused without one (or without CUDA); the devices listed. */
    const int32_t two[2] = {0, 0};
    ccl4j_context several = NULL;
    status = ccl4j_context_create_devices(two, 2, &several);
    if (capabilities.device_count == 0) {
        CHECK(status == CCL4J_BACKEND_UNAVAILABLE);
        CHECK(several == NULL);
        CHECK(!is_empty(ccl4j_context_error_message(NULL)));
    } else {
        int32_t listed[4] = {-1, -1, -1, -1};
        int32_t count = 0;
        CHECK(status == CCL4J_SUCCESS);
        CHECK(ccl4j_context_get_devices(several, listed, 4, &count) == CCL4J_SUCCESS);
        CHECK(count == 2 && listed[0] == 0 && listed[1] == 0 && listed[2] == -1);
        ccl4j_context_destroy(several);
    }
    CHECK(ccl4j_context_create_devices(two, 0, &several) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_context_create_devices(NULL, 2, &several) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_context_create_devices(two, 2, NULL) == CCL4J_INVALID_ARGUMENT);
    ccl4j_context serial = NULL;
    int32_t device_count = -1;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &serial) == CCL4J_SUCCESS);
    CHECK(ccl4j_context_get_devices(serial, NULL, 0, &device_count) == CCL4J_SUCCESS);
    CHECK(device_count == 0);
    CHECK(ccl4j_context_get_devices(serial, NULL, 0, NULL) == CCL4J_INVALID_ARGUMENT);
    ccl4j_context_destroy(serial);

    ccl4j_context unused = NULL;
    CHECK(ccl4j_context_create(99, 0, &unused) == CCL4J_INVALID_ARGUMENT);
    CHECK(unused == NULL);
    CHECK(!is_empty(ccl4j_context_error_message(NULL)));
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, NULL) == CCL4J_INVALID_ARGUMENT);
    ccl4j_context_destroy(NULL);
}

static int labels_equal(const int32_t* labels, const int32_t* expected, int32_t n) {
    for (int32_t v = 0; v < n; ++v) {
        if (labels[v] != expected[v]) return 0;
    }
    return 1;
}

static void check_timings(const ccl4j_timings* t, ccl4j_backend backend, ccl4j_algorithm algorithm) {
    CHECK(t->backend == backend);
    CHECK(t->algorithm == algorithm);
    CHECK(t->total_ms >= 0);
    CHECK(t->phase_count > 0 && t->phase_count <= CCL4J_MAX_PHASES);
    for (int32_t i = 0; i < t->phase_count && i < CCL4J_MAX_PHASES; ++i) {
        CHECK(!is_empty(t->phases[i].name) && t->phases[i].ms >= 0);
    }
}

/* Labels the small graph with every algorithm and offset width on one context. */
/* What a progress listener heard: how many calls, and the last one. */
struct heard {
    int calls;
    char stage[16];
    int64_t done, total;
};

static void listen(void* user, const char* stage, int64_t done, int64_t total) {
    struct heard* h = (struct heard*)user;
    ++h->calls;
    snprintf(h->stage, sizeof(h->stage), "%s", stage);
    h->done = done;
    h->total = total;
}

static void test_labelling_on(ccl4j_backend backend) {
    ccl4j_context context = NULL;
    CHECK(ccl4j_context_create(backend, 0, &context) == CCL4J_SUCCESS);
    if (!context) return;
    const ccl4j_backend resolved = ccl4j_context_backend(context);
    const ccl4j_algorithm algorithms[3] = {CCL4J_ALGORITHM_ECL_CC, CCL4J_ALGORITHM_CPU_REFERENCE, CCL4J_ALGORITHM_AUTO};
    const int32_t widths[2] = {4, 8};

    for (int a = 0; a < 3; ++a) {
        for (int w = 0; w < 2; ++w) {
            for (int32_t threads = 0; threads <= 2; ++threads) {
                ccl4j_csr graph = small_graph(widths[w]);
                ccl4j_label_options options = options_for(algorithms[a], CCL4J_CHECK_INPUT, threads);
                int32_t labels[SMALL_N + 1];
                labels[SMALL_N] = -99;
                ccl4j_timings timings;
                ccl4j_status status = ccl4j_label_graph(context, &graph, small_offsets(widths[w]), small_neighbors,
                                                        &options, labels, &timings);
                if (resolved == CCL4J_BACKEND_CUDA && algorithms[a] == CCL4J_ALGORITHM_CPU_REFERENCE) {
                    CHECK(status == CCL4J_UNSUPPORTED);
                    CHECK(!is_empty(ccl4j_context_error_message(context)));
                    continue;
                }
                CHECK(status == CCL4J_SUCCESS);
                CHECK(labels_equal(labels, small_expected, SMALL_N));
                CHECK(labels[SMALL_N] == -99);
                /* AUTO: on the GPU ECL-CC for this graph of 12 arcs over 9 vertices (Afforest above
                   three arcs per vertex), Afforest on the CPU */
                const ccl4j_algorithm automatic =
                    resolved == CCL4J_BACKEND_CUDA ? CCL4J_ALGORITHM_ECL_CC : CCL4J_ALGORITHM_AFFOREST;
                check_timings(&timings, resolved, algorithms[a] == CCL4J_ALGORITHM_AUTO ? automatic : algorithms[a]);
            }
        }
    }

    /* A progress listener hears one call, ("done", 2m, 2m), on every backend for a graph this small. */
    struct heard progress;
    memset(&progress, 0, sizeof(progress));
    ccl4j_label_options listened = options_for(CCL4J_ALGORITHM_AUTO, 0, 0);
    listened.progress = listen;
    listened.progress_user = &progress;
    ccl4j_csr small = small_graph(4);
    int32_t heard_labels[SMALL_N];
    CHECK(ccl4j_label_graph(context, &small, small_offsets(4), small_neighbors, &listened, heard_labels, NULL) ==
          CCL4J_SUCCESS);
    CHECK(progress.calls == 1);
    CHECK(strcmp(progress.stage, "done") == 0);
    CHECK(progress.done == 2 * small.arc_count && progress.total == 2 * small.arc_count);

    /* Default options, no timings. */
    ccl4j_csr graph = small_graph(8);
    int32_t labels[SMALL_N];
    CHECK(ccl4j_label_graph(context, &graph, small_offsets(8), small_neighbors, NULL, labels, NULL) == CCL4J_SUCCESS);
    CHECK(labels_equal(labels, small_expected, SMALL_N));

    /* The empty graph needs no neighbours and no labels buffer. */
    const int64_t empty_offsets[1] = {0};
    ccl4j_csr empty;
    memset(&empty, 0, sizeof(empty));
    empty.offset_width = 8;
    ccl4j_timings timings;
    CHECK(ccl4j_label_graph(context, &empty, empty_offsets, NULL, NULL, NULL, &timings) == CCL4J_SUCCESS);
    CHECK(timings.backend == resolved);

    ccl4j_context_destroy(context);
}

/* A 300 x 200 grid in library-allocated memory, its lower half cut off by a missing row of edges. */
static void test_host_memory(void) {
    void* memory = NULL;
    int32_t pinned = -1;
    CHECK(ccl4j_host_alloc(1 << 20, &memory, &pinned) == CCL4J_SUCCESS);
    CHECK(memory != NULL && ((uintptr_t)memory % 64) == 0);
    CHECK(pinned == 0 || pinned == 1);
    if (capabilities.device_count == 0) CHECK(pinned == 0);
    if (memory) memset(memory, 0xab, 1 << 20);
    ccl4j_host_free(memory);

    memory = NULL;
    CHECK(ccl4j_host_alloc(0, &memory, NULL) == CCL4J_SUCCESS);
    CHECK(memory != NULL);
    ccl4j_host_free(memory);
    CHECK(ccl4j_host_alloc(-1, &memory, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(!is_empty(ccl4j_context_error_message(NULL)));
    CHECK(ccl4j_host_alloc(64, NULL, NULL) == CCL4J_INVALID_ARGUMENT);
    ccl4j_host_free(NULL);

    const int32_t width = 300, height = 200, cut = 120;
    const int32_t n = width * height;
    int64_t* offsets = NULL;
    int32_t* neighbors = NULL;
    int32_t* labels = NULL;
    CHECK(ccl4j_host_alloc((int64_t)(n + 1) * 8, (void**)&offsets, NULL) == CCL4J_SUCCESS);
    CHECK(ccl4j_host_alloc((int64_t)n * 4 * 4, (void**)&neighbors, NULL) == CCL4J_SUCCESS);
    CHECK(ccl4j_host_alloc((int64_t)n * 4, (void**)&labels, NULL) == CCL4J_SUCCESS);
    if (offsets && neighbors && labels) {
        int64_t arcs = 0;
        for (int32_t y = 0; y < height; ++y) {
            for (int32_t x = 0; x < width; ++x) {
                offsets[y * width + x] = arcs;
                if (y > 0 && y != cut) neighbors[arcs++] = (y - 1) * width + x;
                if (x > 0) neighbors[arcs++] = y * width + x - 1;
                if (x + 1 < width) neighbors[arcs++] = y * width + x + 1;
                if (y + 1 < height && y + 1 != cut) neighbors[arcs++] = (y + 1) * width + x;
            }
        }
        offsets[n] = arcs;
        ccl4j_csr graph;
        memset(&graph, 0, sizeof(graph));
        graph.vertex_count = n;
        graph.arc_count = arcs;
        graph.offset_width = 8;

        const ccl4j_backend backends[2] = {CCL4J_BACKEND_CPU_SERIAL, CCL4J_BACKEND_AUTO};
        for (int b = 0; b < 2; ++b) {
            ccl4j_context context = NULL;
            CHECK(ccl4j_context_create(backends[b], 0, &context) == CCL4J_SUCCESS);
            CHECK(ccl4j_check_graph(context, &graph, offsets, neighbors) == CCL4J_SUCCESS);
            CHECK(ccl4j_label_graph(context, &graph, offsets, neighbors, NULL, labels, NULL) == CCL4J_SUCCESS);
            int ok = 1;
            for (int32_t v = 0; v < n; ++v) ok &= labels[v] == (v < cut * width ? 0 : cut * width);
            CHECK(ok);
            ccl4j_context_destroy(context);
        }
    }
    ccl4j_host_free(offsets);
    ccl4j_host_free(neighbors);
    ccl4j_host_free(labels);
}

static void test_errors(void) {
    ccl4j_context context = NULL;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &context) == CCL4J_SUCCESS);
    if (!context) return;
    ccl4j_csr graph = small_graph(4);
    const void* offsets = small_offsets(4);
    const int32_t* neighbors = small_neighbors;
    int32_t labels[SMALL_N];

    CHECK(ccl4j_label_graph(NULL, &graph, offsets, neighbors, NULL, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(!is_empty(ccl4j_context_error_message(NULL)));
    CHECK(ccl4j_label_graph(context, NULL, offsets, neighbors, NULL, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(!is_empty(ccl4j_context_error_message(context)));
    CHECK(ccl4j_label_graph(context, &graph, offsets, neighbors, NULL, NULL, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(!is_empty(ccl4j_context_error_message(context)));

    ccl4j_label_options options = options_for(99, 0, 0);
    CHECK(ccl4j_label_graph(context, &graph, offsets, neighbors, &options, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    options = options_for(CCL4J_ALGORITHM_ECL_CC, 0, -1);
    CHECK(ccl4j_label_graph(context, &graph, offsets, neighbors, &options, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(!is_empty(ccl4j_context_error_message(context)));
    /* Far more threads than the machine has are refused: each calling thread would keep them. */
    options = options_for(CCL4J_ALGORITHM_ECL_CC, 0, 100000);
    CHECK(ccl4j_label_graph(context, &graph, offsets, neighbors, &options, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(strstr(ccl4j_context_error_message(context), "cpu_threads 100000") != NULL);
    options = options_for(CCL4J_ALGORITHM_ECL_CC, 0, 256);
    CHECK(ccl4j_label_graph(context, &graph, offsets, neighbors, &options, labels, NULL) == CCL4J_SUCCESS);
    /* Labels written over the graph's own arrays are refused. */
    {
        int32_t shared[SMALL_ARCS + SMALL_N];
        memcpy(shared, neighbors, sizeof(int32_t) * SMALL_ARCS);
        CHECK(ccl4j_label_graph(context, &graph, offsets, shared, NULL, shared + SMALL_ARCS - 1, NULL) ==
              CCL4J_INVALID_ARGUMENT);
        CHECK(strstr(ccl4j_context_error_message(context), "overlap the graph neighbours") != NULL);
        CHECK(ccl4j_label_graph(context, &graph, offsets, shared, NULL, shared + SMALL_ARCS, NULL) == CCL4J_SUCCESS);
    }

    ccl4j_csr bad = graph;
    bad.offset_width = 3;
    CHECK(ccl4j_label_graph(context, &bad, offsets, neighbors, NULL, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    bad = graph;
    bad.vertex_count = -1;
    CHECK(ccl4j_label_graph(context, &bad, offsets, neighbors, NULL, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_label_graph(context, &graph, NULL, neighbors, NULL, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(strstr(ccl4j_context_error_message(context), "offsets is NULL") != NULL);
    CHECK(ccl4j_label_graph(context, &graph, offsets, NULL, NULL, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    CHECK(strstr(ccl4j_context_error_message(context), "neighbors is NULL") != NULL);
    /* The last offset disagrees with arc_count: caught by the size checks, without the flag. */
    bad = graph;
    bad.arc_count = SMALL_ARCS - 1;
    CHECK(ccl4j_label_graph(context, &bad, offsets, neighbors, NULL, labels, NULL) == CCL4J_INVALID_INPUT);
    CHECK(!is_empty(ccl4j_context_error_message(context)));

    /* Asymmetric arcs are found by the O(n + m) checks. */
    ccl4j_csr asymmetric = asymmetric_graph();
    int32_t asymmetric_labels[3];
    options = options_for(CCL4J_ALGORITHM_AUTO, CCL4J_CHECK_INPUT, 0);
    CHECK(ccl4j_label_graph(context, &asymmetric, asymmetric_offsets, asymmetric_neighbors, &options,
                            asymmetric_labels, NULL) == CCL4J_INVALID_INPUT);
    CHECK(strstr(ccl4j_context_error_message(context), "symmetric") != NULL);
    CHECK(ccl4j_check_graph(context, &asymmetric, asymmetric_offsets, asymmetric_neighbors) == CCL4J_INVALID_INPUT);
    CHECK(!is_empty(ccl4j_context_error_message(context)));
    CHECK(ccl4j_check_graph(context, &graph, offsets, neighbors) == CCL4J_SUCCESS);
    CHECK(ccl4j_check_graph(NULL, &graph, offsets, neighbors) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_check_graph(context, NULL, offsets, neighbors) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_check_graph(context, &graph, NULL, neighbors) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_check_graph(context, &graph, offsets, NULL) == CCL4J_INVALID_ARGUMENT);

    /* Device-resident graphs need a CUDA context. */
    ccl4j_device_graph device_graph = NULL;
    CHECK(ccl4j_device_graph_create(context, &graph, offsets, neighbors, &device_graph, NULL) == CCL4J_UNSUPPORTED);
    CHECK(device_graph == NULL);
    CHECK(ccl4j_label_device_graph(context, NULL, NULL, labels, NULL) == CCL4J_INVALID_ARGUMENT);
    ccl4j_device_graph_destroy(NULL);

    ccl4j_context_destroy(context);
}

int main(void) {
    test_capabilities();
    test_contexts();
    test_labelling_on(CCL4J_BACKEND_CPU_SERIAL);
    test_labelling_on(CCL4J_BACKEND_CPU_PARALLEL);
    test_labelling_on(CCL4J_BACKEND_AUTO);
    test_host_memory();
    test_errors();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
