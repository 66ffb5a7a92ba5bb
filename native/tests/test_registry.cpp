// The algorithm registry (algorithms/registry.hpp) and the one validation of options
// (api/options.hpp): the table is consistent with itself and with ccl4j.h, every CPU plan it lists
// labels correctly, and the option translation resolves and refuses what the ABI documents.
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "api/options.hpp"
#include "ccl4j.h"
#include "common/error.hpp"
#include "check.hpp"
#include "test_graphs.hpp"

using namespace ccl4j::test;
namespace reg = ccl4j::algorithms;

void test_table() {
    std::set<ccl4j_algorithm> ids;
    std::set<std::string> names;
    for (const reg::Algorithm& a : reg::all()) {
        const std::string what = a.label();
        CHECK_MSG(ids.insert(a.id).second, what + ": id listed once");
        CHECK_MSG(names.insert(a.name).second, what + ": name listed once");
        CHECK_MSG(reg::find(a.id) == &a, what + ": found by id");
        CHECK_MSG(a.backends != 0 && (a.backends & ~(reg::kCpu | reg::kCuda)) == 0, what + ": backends");
        const bool graph = a.kind == reg::Kind::Graph;
        CHECK_MSG(graph ? a.id > CCL4J_ALGORITHM_AUTO && a.id < CCL4J_ALGORITHM_MESH_NEIGHBOR
                        : a.id >= CCL4J_ALGORITHM_MESH_NEIGHBOR,
                  what + ": id in its kind's range of ccl4j.h");
        // Each backend the entry names has its plan, and no other backend has one.
        CHECK_MSG((graph ? a.graph_cpu != nullptr : a.mesh_cpu != nullptr) == a.runs_on_cpu(), what + ": CPU plan");
        CHECK_MSG(!(graph ? a.mesh_cpu || a.mesh_cuda : a.graph_cpu || a.graph_cuda || a.graph_streamed),
                  what + ": plans of its kind only");
        // A streamed entry runs on the host graph itself: no plan over a device copy beside it.
        CHECK_MSG(!(a.graph_streamed && a.graph_cuda), what + ": streamed or in memory");
#ifdef CCL4J_WITH_CUDA
        CHECK_MSG((graph ? a.graph_cuda || a.graph_streamed : a.mesh_cuda != nullptr) == a.runs_on_cuda(),
                  what + ": CUDA plan");
        // A tree plan is the labelling's CUDA plan without its finalize: only beside one.
        CHECK_MSG(!a.mesh_cuda_tree || a.mesh_cuda, what + ": tree plan beside a CUDA plan");
        CHECK_MSG((a.mesh_cuda_tree != nullptr) == (a.id == CCL4J_ALGORITHM_MESH_UNION_FIND), what + ": tree plan");
#else
        CHECK_MSG(!a.mesh_cuda_tree, what + ": no tree plan without CUDA");
#endif
        CHECK_MSG(graph && a.runs_on_cuda() ? !a.cuda_phases.empty() : a.cuda_phases.empty(), what + ": CUDA phases");
    }
    CHECK(reg::find(CCL4J_ALGORITHM_AUTO) == nullptr);
    CHECK(reg::find(99) == nullptr);
    CHECK(reg::first_id(reg::Kind::Graph) == CCL4J_ALGORITHM_ECL_CC);
    CHECK(reg::last_id(reg::Kind::Graph) == CCL4J_ALGORITHM_STREAMED);
    CHECK(reg::first_id(reg::Kind::Mesh) == CCL4J_ALGORITHM_MESH_NEIGHBOR);
    CHECK(reg::last_id(reg::Kind::Mesh) == CCL4J_ALGORITHM_MESH_CPU_PARALLEL);
    // AUTO: Afforest on the CPU whatever the graph; on CUDA Afforest above three arcs per vertex.
    CHECK(reg::default_graph_algorithm(false, 10, 0) == CCL4J_ALGORITHM_AFFOREST);
    CHECK(reg::default_graph_algorithm(false, 10, 100) == CCL4J_ALGORITHM_AFFOREST);
    CHECK(reg::default_graph_algorithm(true, 10, 30) == CCL4J_ALGORITHM_ECL_CC);
    CHECK(reg::default_graph_algorithm(true, 10, 31) == CCL4J_ALGORITHM_AFFOREST);
    CHECK(reg::default_graph_algorithm(true, 0, 0) == CCL4J_ALGORITHM_ECL_CC);
    CHECK(reg::default_graph_algorithm(true, INT32_MAX, 4LL * INT32_MAX) == CCL4J_ALGORITHM_AFFOREST);
    // A host graph whose copy does not fit the device streams, on CUDA only.
    CHECK(reg::default_graph_algorithm(true, 10, 30, {false, false}) == CCL4J_ALGORITHM_STREAMED);
    CHECK(reg::default_graph_algorithm(false, 10, 30, {false, false}) == CCL4J_ALGORITHM_AFFOREST);
    // One in page-locked memory is read in place from 48 arcs a vertex.
    CHECK(reg::default_graph_algorithm(true, 10, 480, {true, true}) == CCL4J_ALGORITHM_STREAMED);
    CHECK(reg::default_graph_algorithm(true, 10, 479, {true, true}) == CCL4J_ALGORITHM_AFFOREST);
    CHECK(reg::default_graph_algorithm(true, 10, 480, {true, false}) == CCL4J_ALGORITHM_AFFOREST);
    CHECK(reg::find(CCL4J_ALGORITHM_STREAMED)->runs_on_cuda() && !reg::find(CCL4J_ALGORITHM_STREAMED)->runs_on_cpu());
    CHECK(reg::default_mesh_algorithm(true) == CCL4J_ALGORITHM_MESH_UNION_FIND);
    CHECK(reg::default_mesh_algorithm(false) == CCL4J_ALGORITHM_MESH_CPU_PARALLEL);
    CHECK(std::string(reg::find(CCL4J_ALGORITHM_HAWICK_BFS)->name) == "HAWICK_BFS");
    CHECK(std::string(reg::find(CCL4J_ALGORITHM_MESH_KOMURA)->name) == "MESH_KOMURA");
    check_fails([] { reg::cuda_graph_algorithm(CCL4J_ALGORITHM_CPU_REFERENCE); }, CCL4J_UNSUPPORTED,
                "CPU reference on CUDA");
    check_fails([] { reg::cuda_graph_algorithm(CCL4J_ALGORITHM_MESH_LOCAL); }, CCL4J_UNSUPPORTED, "mesh id as graph");
    check_fails([] { reg::cuda_mesh_algorithm(CCL4J_ALGORITHM_MESH_CPU_RASTER); }, CCL4J_UNSUPPORTED,
                "CPU mesh algorithm on CUDA");
    check_fails([] { reg::cuda_mesh_algorithm(CCL4J_ALGORITHM_ECL_CC); }, CCL4J_UNSUPPORTED, "graph id as mesh");
}

// Every graph algorithm's CPU plan from the table, run phase by phase, gives the reference labels.
void test_cpu_plans() {
    for (const HostGraph& g : {grid2d(17, 9), rmat(10, 4, 7), random_components(40, 12, 3), isolated(5)}) {
        const std::vector<int32_t> expected = reference_labels(g);
        for (const reg::Algorithm& a : reg::all()) {
            if (a.kind != reg::Kind::Graph || !a.runs_on_cpu()) continue;
            for (int threads : {1, 3}) {
                ccl4j::LabelOptions options;
                options.algorithm = a.id;
                std::vector<int32_t> labels(static_cast<size_t>(g.n), -7);
                ccl4j_timings timings;
                ccl4j::PhaseLog log(&timings);
                for (const ccl4j::Phase& phase : a.graph_cpu(g.view64(), options, threads, labels.data(), log)) phase.run();
                check_labels(labels, expected, a.label() + " with " + std::to_string(threads) + " threads");
                CHECK_MSG(timings.phase_count > 0, a.label() + ": phases logged");
            }
        }
    }
}

ccl4j_label_options graph_options(ccl4j_algorithm algorithm, int32_t block_size, int32_t warp, int32_t block) {
    ccl4j_label_options o{};
    o.algorithm = algorithm;
    o.block_size = block_size;
    o.warp_threshold = warp;
    o.block_threshold = block;
    return o;
}

void test_label_options() {
    using ccl4j::api::label_options;
    const ccl4j::LabelOptions defaults = label_options(nullptr);
    CHECK(defaults.algorithm == CCL4J_ALGORITHM_ECL_CC && !defaults.check_input && defaults.block_size == 0);
    CHECK(defaults.warp_threshold == 16 && defaults.block_threshold == 352 && defaults.max_iterations == 0);
    ccl4j_label_options o = graph_options(CCL4J_ALGORITHM_AUTO, 64, 2, 40);
    o.flags = CCL4J_CHECK_INPUT;
    o.cpu_threads = 3;
    o.max_iterations = 9;
    const ccl4j::LabelOptions given = label_options(&o, CCL4J_ALGORITHM_KOMURA);
    CHECK(given.algorithm == CCL4J_ALGORITHM_KOMURA && given.check_input && given.cpu_threads == 3);
    CHECK(given.block_size == 64 && given.warp_threshold == 2 && given.block_threshold == 40 && given.max_iterations == 9);
    CHECK(label_options(&(o = graph_options(CCL4J_ALGORITHM_HAWICK_BFS, 1024, 0, 0))).algorithm == CCL4J_ALGORITHM_HAWICK_BFS);
    for (int32_t block_size : {-32, 16, 48, 2048}) {
        o = graph_options(CCL4J_ALGORITHM_ECL_CC, block_size, 0, 0);
        check_fails([&] { label_options(&o); }, CCL4J_INVALID_ARGUMENT, "block size " + std::to_string(block_size));
    }
    for (ccl4j_algorithm id : {-1, 9, 16, 24, 99}) {
        o = graph_options(id, 0, 0, 0);
        check_fails([&] { label_options(&o); }, CCL4J_INVALID_ARGUMENT, "graph algorithm " + std::to_string(id));
    }
    o = graph_options(CCL4J_ALGORITHM_ECL_CC, 0, 400, 0);
    check_fails([&] { label_options(&o); }, CCL4J_INVALID_ARGUMENT, "warp threshold above the default block threshold");
    o = graph_options(CCL4J_ALGORITHM_ECL_CC, 0, 0, -1);
    check_fails([&] { label_options(&o); }, CCL4J_INVALID_ARGUMENT, "negative block threshold");
    o = graph_options(CCL4J_ALGORITHM_ECL_CC, 0, 0, 0);
    o.cpu_threads = -1;
    check_fails([&] { label_options(&o); }, CCL4J_INVALID_ARGUMENT, "negative threads");
    o.cpu_threads = 0;
    o.max_iterations = -1;
    check_fails([&] { label_options(&o); }, CCL4J_INVALID_ARGUMENT, "negative max_iterations");
}

void test_mesh_options() {
    using ccl4j::api::mesh_options;
    CHECK(mesh_options(nullptr, CCL4J_BACKEND_CUDA).algorithm == CCL4J_ALGORITHM_MESH_UNION_FIND);
    CHECK(mesh_options(nullptr, CCL4J_BACKEND_CPU_SERIAL).algorithm == CCL4J_ALGORITHM_MESH_CPU_PARALLEL);
    ccl4j_mesh_options o{};
    o.algorithm = CCL4J_ALGORITHM_MESH_LOCAL;
    o.block_size = 128;
    o.tile_size = 16;
    o.max_iterations = 5;
    o.periodic = CCL4J_PERIODIC_X | CCL4J_PERIODIC_Z;
    o.mode = CCL4J_MESH_SAME_VALUE;
    o.connectivity = 8;
    const ccl4j::MeshOptions m = mesh_options(&o, CCL4J_BACKEND_CUDA);
    CHECK(m.algorithm == CCL4J_ALGORITHM_MESH_LOCAL && m.tuning.block_size == 128 && m.tuning.tile_size == 16);
    CHECK(m.tuning.max_iterations == 5 && m.periodic[0] && !m.periodic[1] && m.periodic[2] && m.same_value);
    CHECK(m.connectivity == 8);
    check_fails([&] { mesh_options(&o, CCL4J_BACKEND_CPU_PARALLEL); }, CCL4J_UNSUPPORTED, "GPU algorithm on the CPU");
    o = {};
    o.algorithm = CCL4J_ALGORITHM_MESH_CPU_RASTER;
    check_fails([&] { mesh_options(&o, CCL4J_BACKEND_CUDA); }, CCL4J_UNSUPPORTED, "CPU algorithm on CUDA");
    for (ccl4j_algorithm id : {CCL4J_ALGORITHM_ECL_CC, 25, 99}) {
        o.algorithm = id;
        check_fails([&] { mesh_options(&o, CCL4J_BACKEND_CUDA); }, CCL4J_INVALID_ARGUMENT, "mesh algorithm " + std::to_string(id));
    }
    o = {};
    o.block_size = 48;
    check_fails([&] { mesh_options(&o, CCL4J_BACKEND_CUDA); }, CCL4J_INVALID_ARGUMENT, "block size 48");
    o = {};
    o.tile_size = -1;
    check_fails([&] { mesh_options(&o, CCL4J_BACKEND_CUDA); }, CCL4J_INVALID_ARGUMENT, "negative tile size");
    o = {};
    o.mode = 2;
    check_fails([&] { mesh_options(&o, CCL4J_BACKEND_CUDA); }, CCL4J_INVALID_ARGUMENT, "mode 2");
    o = {};
    o.periodic = 8;
    check_fails([&] { mesh_options(&o, CCL4J_BACKEND_CUDA); }, CCL4J_INVALID_ARGUMENT, "periodic bit 8");
    o = {};
    o.flags = 1;
    check_fails([&] { mesh_options(&o, CCL4J_BACKEND_CUDA); }, CCL4J_INVALID_ARGUMENT, "mesh flags");
}

// What ccl4j_get_algorithm_info reports of each entry, its backends and int64 backends among them,
// and that a CPU context labels int64 labels with exactly the algorithms it reports so.
void test_algorithm_info() {
    const int32_t count = ccl4j_algorithm_count();
    CHECK(count == static_cast<int32_t>(reg::all().size()));
    const uint32_t cpu = (1u << CCL4J_BACKEND_CPU_PARALLEL) | (1u << CCL4J_BACKEND_CPU_SERIAL);
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_SERIAL, 0, &context) == CCL4J_SUCCESS);
    const uint8_t cells[4] = {1, 1, 0, 1};
    int64_t labels[4] = {};
    for (int32_t i = 0; i < count; ++i) {
        ccl4j_algorithm_info info{};
        CHECK(ccl4j_get_algorithm_info(i, &info) == CCL4J_SUCCESS);
        const reg::Algorithm& a = reg::all()[static_cast<size_t>(i)];
        const std::string what = a.label();
        CHECK_MSG(info.id == a.id && std::string(info.name) == a.name, what + ": id and name");
        CHECK_MSG((info.wide_backends & ~info.backends) == 0, what + ": int64 labels only where it runs");
        CHECK_MSG(((info.wide_backends & cpu) != 0) == (a.mesh_cpu_wide != nullptr), what + ": int64 on the CPU");
        CHECK_MSG(((info.wide_backends >> CCL4J_BACKEND_CUDA) & 1u) == (a.mesh_cuda_wide != nullptr ? 1u : 0u),
                  what + ": int64 on CUDA");
        if (info.kind == CCL4J_ALGORITHM_KIND_MESH && (info.backends & cpu) != 0) {
            ccl4j_mesh mesh{2, 2, 1, CCL4J_CELL_U8, 0, 0};
            ccl4j_mesh_options options{};
            options.algorithm = info.id;
            const ccl4j_status status = ccl4j_label_mesh64(context, &mesh, cells, &options, labels, nullptr);
            CHECK_MSG(status == ((info.wide_backends & cpu) != 0 ? CCL4J_SUCCESS : CCL4J_UNSUPPORTED),
                      what + ": ccl4j_label_mesh64 as reported");
        }
    }
    ccl4j_context_destroy(context);
}

int main() {
    run("table", test_table);
    run("algorithm info", test_algorithm_info);
    run("CPU plans", test_cpu_plans);
    run("label options", test_label_options);
    run("mesh options", test_mesh_options);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
