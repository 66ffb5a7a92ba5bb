// Tests of the per-phase runs of the C ABI (through libccl4j.so): on every generated graph of
// test_graphs.hpp, running the phases one at a time, in order and after resets, labels the graph
// as the union-find oracle does, and a phase's time is reported; the phase names are those of the
// labelling call's timings; bad arguments and phases out of order give CCL4J_INVALID_ARGUMENT
// with a message, a fixpoint phase past max_iterations CCL4J_NOT_CONVERGED; the empty call and the
// copy to the device. Every CPU algorithm, on both CPU backends, gives ccl4j_label_graph's labels,
// phase names and iterations. On CUDA (when a device is present) every algorithm; otherwise the CUDA
// part prints a notice. Meshes: every mesh algorithm's phases, in order and after resets, give
// ccl4j_label_mesh's labels (CPU backends here, GPU algorithms on CUDA), also from a strided mesh whose buffer is
// cleared once the run exists; bad meshes and options. Prints every failure and "N passed, M failed".
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ccl4j.h"
#include "ccl4j/bench.h"
#include "check.hpp"
#include "test_graphs.hpp"

namespace {

using namespace ccl4j::test;

struct Backend {
    ccl4j_backend id;
    const char* name;
};

std::string message(ccl4j_context context) { return ccl4j_context_error_message(context); }

std::vector<std::string> phase_names(ccl4j_context context, ccl4j_phase_run run) {
    int32_t count = -1;
    CHECK(ccl4j_phase_run_count(context, run, &count) == CCL4J_SUCCESS);
    std::vector<std::string> names;
    for (int32_t i = 0; i < count; ++i) {
        char name[CCL4J_PHASE_NAME_SIZE];
        CHECK(ccl4j_phase_run_name(context, run, i, name) == CCL4J_SUCCESS);
        names.emplace_back(name);
    }
    return names;
}

// The labelling call's phase names, transfers left out.
std::vector<std::string> labelling_phases(const ccl4j_timings& timings) {
    std::vector<std::string> names;
    for (int32_t i = 0; i < timings.phase_count; ++i) {
        const std::string name = timings.phases[i].name;
        if (name != "h2d" && name != "d2h") names.push_back(name);
    }
    return names;
}

// Runs the phases of `run` in order, then every phase again after a reset to its start, and
// checks the labels after each complete pass. iterations >= 0: the phases in order must report
// that many fixpoint iterations in all.
void check_sequences(ccl4j_context context, ccl4j_phase_run run, int32_t n, const std::vector<int32_t>& expected,
                     const std::string& what, int32_t iterations = -1) {
    const std::vector<std::string> names = phase_names(context, run);
    std::vector<int32_t> labels(static_cast<size_t>(n), -1);
    int32_t total_iterations = 0;
    for (size_t i = 0; i < names.size(); ++i) {
        double ms = -1;
        int32_t loops = -1;
        CHECK_MSG(ccl4j_phase_run_phase(context, run, static_cast<int32_t>(i), &ms, &loops) == CCL4J_SUCCESS,
                  what + ": phase " + names[i] + ": " + message(context));
        CHECK_MSG(ms >= 0 && loops >= 0, what + ": phase " + names[i] + " time and iterations");
        total_iterations += loops;
    }
    if (iterations >= 0) {
        CHECK_MSG(total_iterations == iterations, what + ": " + std::to_string(total_iterations) +
                                                      " iterations, the labelling call ran " + std::to_string(iterations));
    }
    CHECK(ccl4j_phase_run_labels(context, run, labels.data()) == CCL4J_SUCCESS);
    check_labels(labels, expected, what + ": phases in order");
    for (size_t i = 0; i < names.size(); ++i) {
        const int32_t phase = static_cast<int32_t>(i);
        CHECK_MSG(ccl4j_phase_run_reset(context, run, phase) == CCL4J_SUCCESS, what + ": reset: " + message(context));
        // Twice from the same state: a reset restores what the phase needs.
        for (int repeat = 0; repeat < 2; ++repeat) {
            if (repeat == 1) CHECK(ccl4j_phase_run_reset(context, run, phase) == CCL4J_SUCCESS);
            for (int32_t j = phase; j < static_cast<int32_t>(names.size()); ++j) {
                CHECK_MSG(ccl4j_phase_run_phase(context, run, j, nullptr, nullptr) == CCL4J_SUCCESS,
                          what + ": phase " + names[j] + " after reset " + std::to_string(phase) + ": " + message(context));
            }
            std::fill(labels.begin(), labels.end(), -1);
            CHECK(ccl4j_phase_run_labels(context, run, labels.data()) == CCL4J_SUCCESS);
            check_labels(labels, expected, what + ": after reset to phase " + names[i]);
        }
    }
    CHECK(ccl4j_phase_run_reset(context, run, static_cast<int32_t>(names.size())) == CCL4J_SUCCESS);
    std::fill(labels.begin(), labels.end(), -1);
    CHECK(ccl4j_phase_run_labels(context, run, labels.data()) == CCL4J_SUCCESS);
    check_labels(labels, expected, what + ": reset past the last phase");
}

void test_cpu_graphs() {
    for (const Backend backend : {Backend{CCL4J_BACKEND_CPU_PARALLEL, "CPU_PARALLEL"}, Backend{CCL4J_BACKEND_CPU_SERIAL, "CPU_SERIAL"}}) {
        ccl4j_context context = nullptr;
        CHECK(ccl4j_context_create(backend.id, 0, &context) == CCL4J_SUCCESS);
        for_each_generated_graph(20000, [&](const HostGraph& g, const std::string& name) {
            if (g.n == 0) return;
            const std::vector<int32_t> expected = reference_labels(g);
            // ECL-CC, and AUTO, which is Afforest on the CPU.
            const std::vector<std::pair<ccl4j_algorithm, std::vector<std::string>>> algorithms = {
                {CCL4J_ALGORITHM_ECL_CC, {"init", "compute", "finalize"}},
                {CCL4J_ALGORITHM_AUTO, {"init", "sample", "compress", "link", "finalize"}}};
            for (const auto& [algorithm, phases] : algorithms)
            for (int width : {4, 8}) {
                const std::string what = std::string(backend.name) + " algorithm " + std::to_string(algorithm) + " on " +
                                         name + " (" + std::to_string(width * 8) + "-bit)";
                const AbiGraph csr = g.csr(width);
                ccl4j_label_options options{};
                options.algorithm = algorithm;
                ccl4j_phase_run run = nullptr;
                CHECK_MSG(ccl4j_phase_run_create(context, nullptr, &csr.shape, csr.offsets, csr.neighbors, &options,
                                                 &run) == CCL4J_SUCCESS,
                          what + ": " + message(context));
                if (!run) continue;
                CHECK_MSG(phase_names(context, run) == phases, what);
                check_sequences(context, run, g.n, expected, what);
                ccl4j_phase_run_destroy(run);
            }
        });
        ccl4j_context_destroy(context);
    }
}

// Hawick's kernels, his CPU reference and Komura's algorithm: serial on both CPU backends. Their
// phases give ccl4j_label_graph's labels (checked against the oracle), phase names and iterations.

void test_cpu_serial_algorithms() {
    const std::pair<ccl4j_algorithm, const char*> algorithms[] = {{CCL4J_ALGORITHM_HAWICK_EDGE, "HAWICK_EDGE"},
                                                                  {CCL4J_ALGORITHM_HAWICK_VERTEX, "HAWICK_VERTEX"},
                                                                  {CCL4J_ALGORITHM_HAWICK_BFS, "HAWICK_BFS"},
                                                                  {CCL4J_ALGORITHM_KOMURA, "KOMURA"},
                                                                  {CCL4J_ALGORITHM_CPU_REFERENCE, "CPU_REFERENCE"}};
    for (const Backend backend : {Backend{CCL4J_BACKEND_CPU_PARALLEL, "CPU_PARALLEL"}, Backend{CCL4J_BACKEND_CPU_SERIAL, "CPU_SERIAL"}}) {
        ccl4j_context context = nullptr;
        CHECK(ccl4j_context_create(backend.id, 0, &context) == CCL4J_SUCCESS);
        for_each_generated_graph(20000, [&](const HostGraph& g, const std::string& name) {
            if (g.n == 0) return;
            const std::vector<int32_t> oracle = reference_labels(g);
            for (const auto& [id, algorithm] : algorithms) {
                for (int width : {4, 8}) {
                    const std::string what = std::string(backend.name) + " " + algorithm + " on " + name + " (" +
                                             std::to_string(width * 8) + "-bit)";
                    const AbiGraph csr = g.csr(width);
                    ccl4j_label_options options{};
                    options.algorithm = id;
                    ccl4j_timings timings;
                    std::vector<int32_t> expected(static_cast<size_t>(g.n), -1);
                    CHECK_MSG(ccl4j_label_graph(context, &csr.shape, csr.offsets, csr.neighbors, &options,
                                                expected.data(), &timings) == CCL4J_SUCCESS,
                              what + ": labelling: " + message(context));
                    check_labels(expected, oracle, what + ": ccl4j_label_graph");
                    ccl4j_phase_run run = nullptr;
                    CHECK_MSG(ccl4j_phase_run_create(context, nullptr, &csr.shape, csr.offsets, csr.neighbors, &options,
                                                     &run) == CCL4J_SUCCESS,
                              what + ": " + message(context));
                    if (!run) continue;
                    CHECK_MSG(phase_names(context, run) == labelling_phases(timings), what + ": phase names");
                    check_sequences(context, run, g.n, expected, what, timings.iterations);
                    ccl4j_phase_run_destroy(run);
                }
            }
        });
        ccl4j_context_destroy(context);
    }
}

void expect(ccl4j_status got, ccl4j_status wanted, ccl4j_context context, const std::string& what) {
    const std::string text = message(context);
    CHECK_MSG(got == wanted && !text.empty(), what + ": status " + std::to_string(got) + " (" + text + ")");
}

void test_bad_arguments() {
    CHECK(ccl4j_noop(42) == 42);
    ccl4j_context context = nullptr;
    ccl4j_context other = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &context) == CCL4J_SUCCESS);
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &other) == CCL4J_SUCCESS);
    const HostGraph g = grid2d(10, 10);
    const AbiGraph csr = g.csr(4);
    const void* offsets = csr.offsets;
    const int32_t* neighbors = csr.neighbors;
    ccl4j_phase_run run = nullptr;

    expect(ccl4j_phase_run_create(nullptr, nullptr, &csr.shape, offsets, neighbors, nullptr, &run),
           CCL4J_INVALID_ARGUMENT, nullptr, "NULL context");
    expect(ccl4j_phase_run_create(context, nullptr, &csr.shape, offsets, neighbors, nullptr, nullptr),
           CCL4J_INVALID_ARGUMENT, context, "NULL output");
    expect(ccl4j_phase_run_create(context, nullptr, nullptr, offsets, neighbors, nullptr, &run), CCL4J_INVALID_ARGUMENT,
           context, "no host graph");
    expect(ccl4j_phase_run_create(context, nullptr, &csr.shape, nullptr, neighbors, nullptr, &run),
           CCL4J_INVALID_ARGUMENT, context, "no host offsets");
    expect(ccl4j_phase_run_create(context, nullptr, &csr.shape, offsets, nullptr, nullptr, &run),
           CCL4J_INVALID_ARGUMENT, context, "no host neighbours");
    CHECK(run == nullptr);
    const HostGraph empty = empty_graph();
    const AbiGraph empty_csr = empty.csr(4);
    expect(ccl4j_phase_run_create(context, nullptr, &empty_csr.shape, empty_csr.offsets, empty_csr.neighbors, nullptr,
                                  &run),
           CCL4J_INVALID_ARGUMENT, context, "empty graph");
    ccl4j_csr bad = csr.shape;
    bad.arc_count = -1;
    expect(ccl4j_phase_run_create(context, nullptr, &bad, offsets, neighbors, nullptr, &run), CCL4J_INVALID_ARGUMENT,
           context, "negative arc count");
    // A fixpoint phase that does not converge fails like the labelling call and leaves the run
    // ready for phase 0 only.
    ccl4j_label_options capped{};
    capped.algorithm = CCL4J_ALGORITHM_HAWICK_EDGE;
    capped.max_iterations = 1;
    const HostGraph long_path = shuffled_path(100, 1);
    const AbiGraph long_csr = long_path.csr(4);
    CHECK(ccl4j_phase_run_create(context, nullptr, &long_csr.shape, long_csr.offsets, long_csr.neighbors, &capped,
                                 &run) == CCL4J_SUCCESS);
    if (run) {
        CHECK(ccl4j_phase_run_phase(context, run, 0, nullptr, nullptr) == CCL4J_SUCCESS);
        expect(ccl4j_phase_run_phase(context, run, 1, nullptr, nullptr), CCL4J_NOT_CONVERGED, context,
               "propagate past max_iterations");
        expect(ccl4j_phase_run_phase(context, run, 1, nullptr, nullptr), CCL4J_INVALID_ARGUMENT, context,
               "propagate after a failed propagate");
        ccl4j_phase_run_destroy(run);
        run = nullptr;
    }
    ccl4j_label_options unknown{};
    unknown.algorithm = 99;
    expect(ccl4j_phase_run_create(context, nullptr, &csr.shape, offsets, neighbors, &unknown, &run),
           CCL4J_INVALID_ARGUMENT, context, "unknown algorithm");
    double ms = 0;
    expect(ccl4j_copy_to_device(context, g.neighbors.data(), 16, &ms), CCL4J_UNSUPPORTED, context, "copy on a CPU context");
    expect(ccl4j_copy_to_device(context, g.neighbors.data(), -1, &ms), CCL4J_INVALID_ARGUMENT, context, "negative copy");

    ccl4j_label_options ecl{};  // three phases
    ecl.algorithm = CCL4J_ALGORITHM_ECL_CC;
    CHECK(ccl4j_phase_run_create(context, nullptr, &csr.shape, offsets, neighbors, &ecl, &run) == CCL4J_SUCCESS);
    if (!run) return;
    int32_t count = 0;
    char name[CCL4J_PHASE_NAME_SIZE];
    expect(ccl4j_phase_run_count(context, nullptr, &count), CCL4J_INVALID_ARGUMENT, context, "NULL run");
    expect(ccl4j_phase_run_count(context, run, nullptr), CCL4J_INVALID_ARGUMENT, context, "NULL count");
    expect(ccl4j_phase_run_count(other, run, &count), CCL4J_INVALID_ARGUMENT, other, "another context");
    expect(ccl4j_phase_run_name(context, run, 3, name), CCL4J_INVALID_ARGUMENT, context, "name of phase 3");
    expect(ccl4j_phase_run_name(context, run, -1, name), CCL4J_INVALID_ARGUMENT, context, "name of phase -1");
    expect(ccl4j_phase_run_name(context, run, 0, nullptr), CCL4J_INVALID_ARGUMENT, context, "NULL name");
    expect(ccl4j_phase_run_reset(context, run, 4), CCL4J_INVALID_ARGUMENT, context, "reset to phase 4");
    expect(ccl4j_phase_run_phase(context, run, 3, &ms, nullptr), CCL4J_INVALID_ARGUMENT, context, "phase 3");
    // A fresh run is ready for phase 0 only.
    expect(ccl4j_phase_run_phase(context, run, 1, &ms, nullptr), CCL4J_INVALID_ARGUMENT, context, "phase 1 first");
    CHECK(ccl4j_phase_run_phase(context, run, 0, &ms, nullptr) == CCL4J_SUCCESS);
    expect(ccl4j_phase_run_phase(context, run, 2, &ms, nullptr), CCL4J_INVALID_ARGUMENT, context, "phase 2 after 0");
    CHECK(ccl4j_phase_run_phase(context, run, 1, &ms, nullptr) == CCL4J_SUCCESS);
    expect(ccl4j_phase_run_phase(context, run, 1, &ms, nullptr), CCL4J_INVALID_ARGUMENT, context, "phase 1 twice");
    CHECK(ccl4j_phase_run_reset(context, run, 1) == CCL4J_SUCCESS);
    CHECK(ccl4j_phase_run_phase(context, run, 1, &ms, nullptr) == CCL4J_SUCCESS);
    expect(ccl4j_phase_run_labels(context, run, nullptr), CCL4J_INVALID_ARGUMENT, context, "NULL labels");
    ccl4j_phase_run_destroy(run);
    ccl4j_phase_run_destroy(nullptr);
    ccl4j_context_destroy(other);
    ccl4j_context_destroy(context);
}

void test_cuda() {
    ccl4j_capabilities capabilities;
    CHECK(ccl4j_get_capabilities(&capabilities) == CCL4J_SUCCESS);
    if (!(capabilities.backends & (1u << CCL4J_BACKEND_CUDA))) {
        std::printf("  SKIPPED: no CUDA device, the CUDA phases are not checked here\n");
        return;
    }
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &context) == CCL4J_SUCCESS);
    if (!context) return;
    const std::vector<std::pair<HostGraph, std::string>> graphs = {
        {grid2d(64, 64), "grid 64x64"},           {rmat(12, 8, 3), "rmat 12/8"},
        {random_components(300, 40, 9), "300 components"}, {stars(5, 2000, 1), "stars of 2000"},
        {hubs(20000, 10, 1000, 2), "hubs above 352"},      {isolated(1), "one vertex"}};
    for (const auto& [g, name] : graphs) {
        const std::vector<int32_t> expected = reference_labels(g);
        for (int width : {4, 8}) {
            const AbiGraph csr = g.csr(width);
            ccl4j_device_graph resident = nullptr;
            CHECK(ccl4j_device_graph_create(context, &csr.shape, csr.offsets, csr.neighbors, &resident, nullptr) ==
                  CCL4J_SUCCESS);
            for (ccl4j_algorithm id : {CCL4J_ALGORITHM_ECL_CC, CCL4J_ALGORITHM_HAWICK_EDGE, CCL4J_ALGORITHM_HAWICK_VERTEX,
                                       CCL4J_ALGORITHM_HAWICK_BFS, CCL4J_ALGORITHM_KOMURA, CCL4J_ALGORITHM_AFFOREST}) {
                const std::string what = "CUDA algorithm " + std::to_string(id) + " on " + name + " (" +
                                         std::to_string(width * 8) + "-bit)";
                ccl4j_label_options options{};
                options.algorithm = id;
                ccl4j_timings timings;
                std::vector<int32_t> labels(static_cast<size_t>(g.n));
                CHECK(ccl4j_label_device_graph(context, resident, &options, labels.data(), &timings) == CCL4J_SUCCESS);
                ccl4j_phase_run run = nullptr;
                CHECK_MSG(ccl4j_phase_run_create(context, resident, nullptr, nullptr, nullptr, &options, &run) ==
                              CCL4J_SUCCESS,
                          what + ": " + message(context));
                if (!run) continue;
                CHECK_MSG(phase_names(context, run) == labelling_phases(timings), what + ": phase names");
                check_sequences(context, run, g.n, expected, what);
                ccl4j_phase_run_destroy(run);
            }
            ccl4j_label_options reference{};
            reference.algorithm = CCL4J_ALGORITHM_CPU_REFERENCE;
            ccl4j_phase_run run = nullptr;
            expect(ccl4j_phase_run_create(context, resident, nullptr, nullptr, nullptr, &reference, &run),
                   CCL4J_UNSUPPORTED, context, "CUDA phases of the CPU reference");
            expect(ccl4j_phase_run_create(context, resident, &csr.shape, csr.offsets, csr.neighbors, nullptr, &run),
                   CCL4J_INVALID_ARGUMENT, context, "host graph on CUDA");
            expect(ccl4j_phase_run_create(context, resident, nullptr, csr.offsets, csr.neighbors, nullptr, &run),
                   CCL4J_INVALID_ARGUMENT, context, "host arrays on CUDA");
            expect(ccl4j_phase_run_create(context, nullptr, nullptr, nullptr, nullptr, nullptr, &run),
                   CCL4J_INVALID_ARGUMENT, context, "no resident graph");
            ccl4j_device_graph_destroy(resident);
        }
    }
    std::vector<int32_t> host(1 << 20, 7);
    double ms = -1;
    CHECK_MSG(ccl4j_copy_to_device(context, host.data(), static_cast<int64_t>(host.size() * 4), &ms) == CCL4J_SUCCESS && ms > 0,
              "copy to the device: " + message(context));
    void* pinned = nullptr;
    CHECK(ccl4j_host_alloc(1 << 22, &pinned, nullptr) == CCL4J_SUCCESS);
    CHECK(ccl4j_copy_to_device(context, pinned, 1 << 22, &ms) == CCL4J_SUCCESS && ms > 0);
    ccl4j_host_free(pinned);
    ccl4j_context_destroy(context);
}

// ---- meshes -----------------------------------------------------------------------------------

struct TestMesh {
    std::string name;
    int32_t width, height, depth;
    int32_t cell_type;
    std::vector<uint8_t> bytes;  // the cells, cell_type bytes each
    int32_t connectivity;
    int32_t periodic;
    int32_t mode;

    // The shape as the ABI takes it (dense); the cells, bytes.data(), go beside it.
    ccl4j_mesh mesh() const { return ccl4j_mesh{width, height, depth, cell_type, 0, 0}; }
    int32_t cells() const { return width * height * depth; }
};

// The cells of a test mesh in a larger buffer, as a region of an image or volume lies: rows 3 cells
// longer than the width, 5 cells between layers, 7 cells before the first. The cells between are
// 0x5A bytes, which a labelling that read them would label.
struct StridedMesh {
    std::vector<uint8_t> buffer;
    ccl4j_mesh mesh;
    const void* cells;  // the first cell, inside buffer

    explicit StridedMesh(const TestMesh& tm) {
        const int64_t row = tm.width + 3, layer = row * tm.height + 5, first = 7;
        const size_t cell = static_cast<size_t>(tm.cell_type);
        buffer.assign(static_cast<size_t>(first + layer * tm.depth) * cell, uint8_t(0x5A));
        for (int32_t z = 0; z < tm.depth; ++z) {
            for (int32_t y = 0; y < tm.height; ++y) {
                const size_t from = (static_cast<size_t>(z) * tm.height + y) * tm.width * cell;
                std::memcpy(&buffer[static_cast<size_t>(first + layer * z + row * y) * cell], &tm.bytes[from],
                            tm.width * cell);
            }
        }
        mesh = ccl4j_mesh{tm.width, tm.height, tm.depth, tm.cell_type, row, layer};
        cells = &buffer[first * cell];
    }
};

// Cells drawn from 0..values-1 by a fixed linear congruential sequence, a fraction `fill` of them
// non-zero when values is 2.
TestMesh random_mesh(std::string name, int32_t w, int32_t h, int32_t d, int32_t type, int values, double fill,
                     int32_t connectivity, int32_t periodic, int32_t mode, uint32_t seed) {
    TestMesh m{std::move(name), w, h, d, type, {}, connectivity, periodic, mode};
    m.bytes.resize(static_cast<size_t>(m.cells()) * type);
    uint32_t state = seed;
    for (int32_t i = 0; i < m.cells(); ++i) {
        state = state * 1664525u + 1013904223u;
        const double u = (state >> 8) / double(1u << 24);
        const int32_t v = values == 2 ? (u < fill ? 1 : 0) : int32_t(u * values);
        if (type == CCL4J_CELL_U8) {
            m.bytes[i] = static_cast<uint8_t>(v);
        } else {
            std::memcpy(&m.bytes[static_cast<size_t>(i) * 4], &v, 4);
        }
    }
    return m;
}

std::vector<TestMesh> test_meshes() {
    return {random_mesh("2D 61x37 u8 p0.59 4", 61, 37, 1, CCL4J_CELL_U8, 2, 0.59, 4, 0, CCL4J_MESH_FOREGROUND, 1),
            random_mesh("2D 70x45 i32 p0.45 8 periodic x", 70, 45, 1, CCL4J_CELL_I32, 2, 0.45, 8, CCL4J_PERIODIC_X,
                        CCL4J_MESH_FOREGROUND, 2),
            random_mesh("2D 33x50 u8 3 values same-value periodic xy", 33, 50, 1, CCL4J_CELL_U8, 3, 0, 4,
                        CCL4J_PERIODIC_X | CCL4J_PERIODIC_Y, CCL4J_MESH_SAME_VALUE, 3),
            random_mesh("3D 13x11x9 u8 p0.3 6", 13, 11, 9, CCL4J_CELL_U8, 2, 0.3, 6, 0, CCL4J_MESH_FOREGROUND, 4),
            random_mesh("3D 12x10x17 i32 p0.2 26 periodic xyz", 12, 10, 17, CCL4J_CELL_I32, 2, 0.2, 26,
                        CCL4J_PERIODIC_X | CCL4J_PERIODIC_Y | CCL4J_PERIODIC_Z, CCL4J_MESH_FOREGROUND, 5),
            random_mesh("1x1x1", 1, 1, 1, CCL4J_CELL_U8, 2, 1.0, 0, 0, CCL4J_MESH_FOREGROUND, 6)};
}

struct MeshAlgorithm {
    ccl4j_algorithm id;
    const char* name;
};

const MeshAlgorithm kCpuMeshAlgorithms[] = {{CCL4J_ALGORITHM_MESH_CPU_RASTER, "MESH_CPU_RASTER"},
                                            {CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE, "MESH_CPU_EQUIVALENCE"},
                                            {CCL4J_ALGORITHM_MESH_CPU_PARALLEL, "MESH_CPU_PARALLEL"}};
const MeshAlgorithm kGpuMeshAlgorithms[] = {
    {CCL4J_ALGORITHM_MESH_NEIGHBOR, "MESH_NEIGHBOR"},     {CCL4J_ALGORITHM_MESH_LOCAL, "MESH_LOCAL"},
    {CCL4J_ALGORITHM_MESH_DIRECTIONAL, "MESH_DIRECTIONAL"}, {CCL4J_ALGORITHM_MESH_EQUIVALENCE, "MESH_EQUIVALENCE"},
    {CCL4J_ALGORITHM_MESH_KOMURA, "MESH_KOMURA"},           {CCL4J_ALGORITHM_MESH_UNION_FIND, "MESH_UNION_FIND"}};

// The phases of a mesh run: the labelling call's, except the equivalence algorithms, whose loop
// of scan, analysis and labelling is one phase.
std::vector<std::string> expected_mesh_phases(ccl4j_algorithm id, const ccl4j_timings& timings) {
    if (id == CCL4J_ALGORITHM_MESH_EQUIVALENCE || id == CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE) return {"init", "iterate"};
    return labelling_phases(timings);
}

// Every algorithm of `algorithms` on every test mesh: the phases in order and from every reset
// give ccl4j_label_mesh's labels; on CUDA the run keeps its own copy of the cells.
template <size_t N>
void check_mesh_runs(ccl4j_context context, const char* backend, const MeshAlgorithm (&algorithms)[N], bool copies) {
    for (const TestMesh& tm : test_meshes()) {
        for (const MeshAlgorithm& a : algorithms) {
            const std::string what = std::string(backend) + " " + a.name + " on " + tm.name;
            ccl4j_mesh_options options{};
            options.algorithm = a.id;
            options.connectivity = tm.connectivity;
            options.periodic = tm.periodic;
            options.mode = tm.mode;
            const ccl4j_mesh mesh = tm.mesh();
            std::vector<int32_t> expected(static_cast<size_t>(tm.cells()));
            ccl4j_timings timings;
            CHECK_MSG(ccl4j_label_mesh(context, &mesh, tm.bytes.data(), &options, expected.data(), &timings) ==
                          CCL4J_SUCCESS,
                      what + ": labelling: " + message(context));
            TestMesh scratch = tm;  // the cells the run is created from
            const ccl4j_mesh scratch_mesh = scratch.mesh();
            ccl4j_phase_run run = nullptr;
            CHECK_MSG(ccl4j_phase_run_create_mesh(context, &scratch_mesh, scratch.bytes.data(), &options, &run) ==
                          CCL4J_SUCCESS,
                      what + ": " + message(context));
            if (!run) continue;
            if (copies) std::fill(scratch.bytes.begin(), scratch.bytes.end(), uint8_t(0));
            CHECK_MSG(phase_names(context, run) == expected_mesh_phases(a.id, timings), what + ": phase names");
            check_sequences(context, run, tm.cells(), expected, what);
            ccl4j_phase_run_destroy(run);

            // The same cells with rows and layers apart: the run gathers (CUDA) or packs (CPU)
            // them into a copy of its own, so the buffer may change after creation (a single row
            // is dense whatever the strides, and the CPU reads it in place).
            StridedMesh strided(tm);
            run = nullptr;
            CHECK_MSG(ccl4j_phase_run_create_mesh(context, &strided.mesh, strided.cells, &options, &run) ==
                          CCL4J_SUCCESS,
                      what + " strided: " + message(context));
            if (!run) continue;
            if (copies || tm.height * tm.depth > 1) std::fill(strided.buffer.begin(), strided.buffer.end(), uint8_t(0));
            CHECK_MSG(phase_names(context, run) == expected_mesh_phases(a.id, timings), what + " strided: phase names");
            check_sequences(context, run, tm.cells(), expected, what + " strided");
            ccl4j_phase_run_destroy(run);
        }
    }
}

void test_cpu_meshes() {
    for (const Backend backend : {Backend{CCL4J_BACKEND_CPU_PARALLEL, "CPU_PARALLEL"}, Backend{CCL4J_BACKEND_CPU_SERIAL, "CPU_SERIAL"}}) {
        ccl4j_context context = nullptr;
        CHECK(ccl4j_context_create(backend.id, 0, &context) == CCL4J_SUCCESS);
        check_mesh_runs(context, backend.name, kCpuMeshAlgorithms, false);
        ccl4j_context_destroy(context);
    }
}

void test_mesh_bad_arguments() {
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &context) == CCL4J_SUCCESS);
    const TestMesh tm = random_mesh("", 8, 8, 1, CCL4J_CELL_U8, 2, 0.5, 4, 0, CCL4J_MESH_FOREGROUND, 7);
    const ccl4j_mesh mesh = tm.mesh();
    const void* cells = tm.bytes.data();
    ccl4j_phase_run run = nullptr;
    expect(ccl4j_phase_run_create_mesh(nullptr, &mesh, cells, nullptr, &run), CCL4J_INVALID_ARGUMENT, nullptr,
           "mesh: NULL context");
    expect(ccl4j_phase_run_create_mesh(context, &mesh, cells, nullptr, nullptr), CCL4J_INVALID_ARGUMENT, context,
           "mesh: NULL output");
    expect(ccl4j_phase_run_create_mesh(context, nullptr, cells, nullptr, &run), CCL4J_INVALID_ARGUMENT, context,
           "NULL mesh");
    expect(ccl4j_phase_run_create_mesh(context, &mesh, nullptr, nullptr, &run), CCL4J_INVALID_ARGUMENT, context,
           "NULL cells");
    ccl4j_mesh bad = mesh;
    bad.height = 0;
    expect(ccl4j_phase_run_create_mesh(context, &bad, cells, nullptr, &run), CCL4J_INVALID_ARGUMENT, context,
           "mesh height 0");
    bad = mesh;
    bad.cell_type = 3;
    expect(ccl4j_phase_run_create_mesh(context, &bad, cells, nullptr, &run), CCL4J_INVALID_ARGUMENT, context,
           "cell type 3");
    bad = mesh;
    bad.row_stride = 7;
    expect(ccl4j_phase_run_create_mesh(context, &bad, cells, nullptr, &run), CCL4J_INVALID_ARGUMENT, context,
           "row stride 7 < width 8");
    ccl4j_mesh_options options{};
    options.connectivity = 5;
    expect(ccl4j_phase_run_create_mesh(context, &mesh, cells, &options, &run), CCL4J_INVALID_ARGUMENT, context,
           "connectivity 5 on a 2D mesh");
    options.connectivity = 26;  // a single layer takes 26 (as 8) and 6 (as 4)
    CHECK_MSG(ccl4j_phase_run_create_mesh(context, &mesh, cells, &options, &run) == CCL4J_SUCCESS,
              "connectivity 26 on a single layer: " + message(context));
    ccl4j_phase_run_destroy(run);
    run = nullptr;
    options = {};
    options.algorithm = CCL4J_ALGORITHM_ECL_CC;
    expect(ccl4j_phase_run_create_mesh(context, &mesh, cells, &options, &run), CCL4J_INVALID_ARGUMENT, context,
           "a graph algorithm on a mesh");
    options.algorithm = CCL4J_ALGORITHM_MESH_UNION_FIND;
    expect(ccl4j_phase_run_create_mesh(context, &mesh, cells, &options, &run), CCL4J_UNSUPPORTED, context,
           "a GPU mesh algorithm on the CPU");
    CHECK(run == nullptr);
    // AUTO is the parallel CPU algorithm; its run works with the common calls' checks.
    CHECK(ccl4j_phase_run_create_mesh(context, &mesh, cells, nullptr, &run) == CCL4J_SUCCESS);
    if (!run) return;
    CHECK((phase_names(context, run) == std::vector<std::string>{"local", "merge", "flatten"}));
    double ms = 0;
    expect(ccl4j_phase_run_phase(context, run, 1, &ms, nullptr), CCL4J_INVALID_ARGUMENT, context, "mesh: phase 1 first");
    expect(ccl4j_phase_run_reset(context, run, 4), CCL4J_INVALID_ARGUMENT, context, "mesh: reset to phase 4");
    ccl4j_phase_run_destroy(run);
    ccl4j_context_destroy(context);
}

void test_cuda_meshes() {
    ccl4j_capabilities capabilities;
    CHECK(ccl4j_get_capabilities(&capabilities) == CCL4J_SUCCESS);
    if (!(capabilities.backends & (1u << CCL4J_BACKEND_CUDA))) {
        std::printf("  SKIPPED: no CUDA device, the CUDA mesh phases are not checked here\n");
        return;
    }
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &context) == CCL4J_SUCCESS);
    if (!context) return;
    check_mesh_runs(context, "CUDA", kGpuMeshAlgorithms, true);
    const TestMesh tm = random_mesh("", 8, 8, 1, CCL4J_CELL_U8, 2, 0.5, 4, 0, CCL4J_MESH_FOREGROUND, 8);
    const ccl4j_mesh mesh = tm.mesh();
    ccl4j_phase_run run = nullptr;
    ccl4j_mesh_options options{};
    options.algorithm = CCL4J_ALGORITHM_MESH_CPU_PARALLEL;
    expect(ccl4j_phase_run_create_mesh(context, &mesh, tm.bytes.data(), &options, &run), CCL4J_UNSUPPORTED, context,
           "a CPU mesh algorithm on CUDA");
    options.algorithm = CCL4J_ALGORITHM_MESH_LOCAL;
    options.tile_size = 40;
    expect(ccl4j_phase_run_create_mesh(context, &mesh, tm.bytes.data(), &options, &run), CCL4J_INVALID_ARGUMENT,
           context, "tile size 40");
    CHECK(run == nullptr);
    ccl4j_context_destroy(context);
}

}  // namespace

int main() {
    std::printf("CPU phases on the generated graphs\n");
    test_cpu_graphs();
    std::printf("CPU phases of the serial algorithms on the generated graphs\n");
    test_cpu_serial_algorithms();
    std::printf("bad arguments\n");
    test_bad_arguments();
    std::printf("CUDA phases\n");
    test_cuda();
    std::printf("CPU mesh phases\n");
    test_cpu_meshes();
    std::printf("mesh bad arguments\n");
    test_mesh_bad_arguments();
    std::printf("CUDA mesh phases\n");
    test_cuda_meshes();
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
