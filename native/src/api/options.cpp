// ABI options -> internal options, validated once (options.hpp).
#include "api/options.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"

namespace ccl4j::api {
namespace {

int32_t max_cpu_threads() { return std::max(256, 4 * parallel::processor_count()); }

// Every calling thread keeps a team of workers, as many as the most it has asked for, until it
// ends: thread counts far beyond the machine are refused here rather than kept.
void check_threads(int32_t cpu_threads) {
    if (cpu_threads < 0) fail(CCL4J_INVALID_ARGUMENT, "cpu_threads is negative: " + std::to_string(cpu_threads));
    const int32_t limit = max_cpu_threads();
    if (cpu_threads > limit) {
        fail(CCL4J_INVALID_ARGUMENT, "cpu_threads " + std::to_string(cpu_threads) + " is more than " +
                                         std::to_string(limit) + ", the most this machine is given (max(256, 4 x " +
                                         std::to_string(parallel::processor_count()) + " processors))");
    }
}

void check_iterations(int32_t max_iterations) {
    if (max_iterations < 0) {
        fail(CCL4J_INVALID_ARGUMENT, "max_iterations is negative: " + std::to_string(max_iterations));
    }
}

}  // namespace

const char* backend_name(ccl4j_backend b) {
    switch (b) {
        case CCL4J_BACKEND_AUTO: return "AUTO";
        case CCL4J_BACKEND_CUDA: return "CUDA";
        case CCL4J_BACKEND_CPU_PARALLEL: return "CPU_PARALLEL";
        case CCL4J_BACKEND_CPU_SERIAL: return "CPU_SERIAL";
        default: return "unknown";
    }
}

int32_t checked_block_size(int32_t block_size) {
    if (block_size < 0 || block_size > 1024 || block_size % 32 != 0) {
        fail(CCL4J_INVALID_ARGUMENT,
             "block_size must be 0 or a multiple of 32 up to 1024, got " + std::to_string(block_size));
    }
    return block_size;
}

LabelOptions label_options(const ccl4j_label_options* options, ccl4j_algorithm automatic) {
    ccl4j_label_options o{};
    if (options) o = *options;
    LabelOptions out;
    const algorithms::Algorithm* algorithm = algorithms::find(o.algorithm == CCL4J_ALGORITHM_AUTO ? automatic : o.algorithm);
    if (!algorithm || algorithm->kind != algorithms::Kind::Graph) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown algorithm " + std::to_string(o.algorithm) + " (graph algorithms are " +
                                         std::to_string(algorithms::first_id(algorithms::Kind::Graph)) + ".." +
                                         std::to_string(algorithms::last_id(algorithms::Kind::Graph)) + ", or AUTO = 0)");
    }
    out.algorithm = algorithm->id;
    out.across_devices = o.algorithm == CCL4J_ALGORITHM_STREAMED;
    out.check_input = (o.flags & CCL4J_CHECK_INPUT) != 0;
    check_threads(o.cpu_threads);
    out.cpu_threads = o.cpu_threads;
    out.block_size = checked_block_size(o.block_size);
    if (o.warp_threshold < 0 || o.block_threshold < 0) {
        fail(CCL4J_INVALID_ARGUMENT, "degree thresholds must not be negative");
    }
    out.warp_threshold = o.warp_threshold ? o.warp_threshold : LabelOptions::kDefaultWarpThreshold;
    out.block_threshold = o.block_threshold ? o.block_threshold : LabelOptions::kDefaultBlockThreshold;
    if (out.warp_threshold > out.block_threshold) {
        fail(CCL4J_INVALID_ARGUMENT, "warp_threshold " + std::to_string(out.warp_threshold) +
                                         " exceeds block_threshold " + std::to_string(out.block_threshold));
    }
    check_iterations(o.max_iterations);
    out.max_iterations = o.max_iterations;
    if (o.device_memory < 0) {
        fail(CCL4J_INVALID_ARGUMENT, "device_memory is negative: " + std::to_string(o.device_memory));
    }
    out.device_memory = o.device_memory;
    out.progress = o.progress;
    out.progress_user = o.progress_user;
    return out;
}

MeshOptions mesh_options(const ccl4j_mesh_options* options, ccl4j_backend backend) {
    using algorithms::Kind;
    ccl4j_mesh_options o{};
    if (options) o = *options;
    const algorithms::Algorithm* algorithm = algorithms::find(o.algorithm);
    if (o.algorithm != CCL4J_ALGORITHM_AUTO && (!algorithm || algorithm->kind != Kind::Mesh)) {
        fail(CCL4J_INVALID_ARGUMENT,
             "algorithm " + std::to_string(o.algorithm) + (algorithm ? " is a graph algorithm, not" : " is unknown: not") +
                 " a mesh algorithm (expected AUTO = 0 or a CCL4J_ALGORITHM_MESH_* id, " +
                 std::to_string(algorithms::first_id(Kind::Mesh)) + ".." + std::to_string(algorithms::last_id(Kind::Mesh)) +
                 ")");
    }
    if (o.flags != 0) fail(CCL4J_INVALID_ARGUMENT, "no mesh flags are defined, got flags " + std::to_string(o.flags));
    check_threads(o.cpu_threads);
    MeshOptions out;
    out.cpu_threads = o.cpu_threads;
    out.tuning.block_size = checked_block_size(o.block_size);
    if (o.tile_size < 0) fail(CCL4J_INVALID_ARGUMENT, "tile_size is negative: " + std::to_string(o.tile_size));
    out.tuning.tile_size = o.tile_size;
    check_iterations(o.max_iterations);
    out.tuning.max_iterations = o.max_iterations;

    const bool cuda = backend == CCL4J_BACKEND_CUDA;
    if (o.algorithm == CCL4J_ALGORITHM_AUTO) algorithm = algorithms::find(algorithms::default_mesh_algorithm(cuda));
    if (cuda && !algorithm->runs_on_cuda()) {
        fail(CCL4J_UNSUPPORTED,
             "mesh algorithm " + algorithm->label() + " runs on the CPU backends, not on CUDA; use a CPU context");
    }
    if (!cuda && !algorithm->runs_on_cpu()) {
        fail(CCL4J_UNSUPPORTED, "mesh algorithm " + algorithm->label() +
                                    " is a GPU algorithm and needs a CUDA context; this one is " + backend_name(backend));
    }
    out.algorithm = algorithm->id;

    out.connectivity = o.connectivity;
    if (o.periodic & ~(CCL4J_PERIODIC_X | CCL4J_PERIODIC_Y | CCL4J_PERIODIC_Z)) {
        fail(CCL4J_INVALID_ARGUMENT, "periodic has unknown bits: " + std::to_string(o.periodic) + " (X = 1, Y = 2, Z = 4)");
    }
    out.periodic[0] = (o.periodic & CCL4J_PERIODIC_X) != 0;
    out.periodic[1] = (o.periodic & CCL4J_PERIODIC_Y) != 0;
    out.periodic[2] = (o.periodic & CCL4J_PERIODIC_Z) != 0;
    if (o.mode != CCL4J_MESH_FOREGROUND && o.mode != CCL4J_MESH_SAME_VALUE) {
        fail(CCL4J_INVALID_ARGUMENT, "unknown mesh mode " + std::to_string(o.mode) +
                                         " (expected CCL4J_MESH_FOREGROUND = 0 or CCL4J_MESH_SAME_VALUE = 1)");
    }
    out.same_value = o.mode == CCL4J_MESH_SAME_VALUE;
    if (!(o.delta >= 0) || !std::isfinite(o.delta)) {
        fail(CCL4J_INVALID_ARGUMENT, "delta " + std::to_string(o.delta) + " is not a finite number >= 0");
    }
    if (o.delta != 0 && !out.same_value) {
        fail(CCL4J_INVALID_ARGUMENT, "delta " + std::to_string(o.delta) +
                                         " applies to CCL4J_MESH_SAME_VALUE only; foreground mode connects every non-zero cell");
    }
    out.delta = o.delta;
    return out;
}

DistanceOptions distance_options(const ccl4j_distance_options* options, ccl4j_backend backend) {
    const ccl4j_distance_options o = options ? *options : ccl4j_distance_options{};
    DistanceOptions out;
    check_threads(o.cpu_threads);
    out.cpu_threads = o.cpu_threads;
    switch (o.algorithm) {
        case CCL4J_DISTANCES_AUTO:
        case CCL4J_DISTANCES_BFS: out.algorithm = CCL4J_DISTANCES_BFS; break;
        case CCL4J_DISTANCES_FLOYD_WARSHALL:
            if (backend == CCL4J_BACKEND_CUDA) {
                fail(CCL4J_UNSUPPORTED, "Floyd-Warshall runs on the CPU backends only; use BFS on CUDA");
            }
            out.algorithm = CCL4J_DISTANCES_FLOYD_WARSHALL;
            break;
        default:
            fail(CCL4J_INVALID_ARGUMENT, "unknown distances algorithm " + std::to_string(o.algorithm) +
                                             " (expected CCL4J_DISTANCES_AUTO = 0, _BFS = 1 or _FLOYD_WARSHALL = 2)");
    }
    return out;
}

}  // namespace ccl4j::api
