// Device queries, pinned host memory, and the per-context device state.
//
// The CUDA runtime is linked statically and finds the driver at run time, so every function
// here must behave on a machine without a driver: the queries answer 0 and create_state throws
// CCL4J_BACKEND_UNAVAILABLE.
#include <cuda_runtime.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_set>

#include "cuda/cuda_check.hpp"
#include "cuda/driver.hpp"

namespace ccl4j::cuda {

namespace {

// A failed query leaves its error behind as the runtime's last error; drop it so that it does
// not surface in an unrelated check later.
int query_or_zero(cudaError_t status, int value) {
    if (status == cudaSuccess) return value;
    cudaGetLastError();
    return 0;
}

// The pointers pinned_alloc handed out, so that pinned_free can tell them from others. Never
// destroyed: frees may still come from other static destructors at exit.
std::mutex& pinned_mutex() {
    static std::mutex* mutex = new std::mutex;
    return *mutex;
}
std::unordered_set<void*>& pinned_pointers() {
    static std::unordered_set<void*>* pointers = new std::unordered_set<void*>;
    return *pointers;
}

}  // namespace

int runtime_version() {
    int version = 0;
    cudaError_t status = cudaRuntimeGetVersion(&version);
    return query_or_zero(status, version);
}

int driver_version() {
    int version = 0;  // the runtime reports 0 when no driver is installed
    cudaError_t status = cudaDriverGetVersion(&version);
    return query_or_zero(status, version);
}

int device_count() {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    return query_or_zero(status, count);
}

void device_info(int index, ccl4j_device_info* out) {
    const int count = device_count();
    if (index < 0 || index >= count) {
        fail(CCL4J_INVALID_ARGUMENT, "CUDA device " + std::to_string(index) + " does not exist (" +
                                         std::to_string(count) + " devices)");
    }
    cudaDeviceProp properties{};
    CCL4J_CUDA_CHECK(cudaGetDeviceProperties(&properties, index));
    *out = ccl4j_device_info{};
    out->index = index;
    out->compute_major = properties.major;
    out->compute_minor = properties.minor;
    out->multiprocessors = properties.multiProcessorCount;
    out->total_memory = static_cast<int64_t>(properties.totalGlobalMem);
    std::snprintf(out->name, sizeof(out->name), "%s", properties.name);
}

void* pinned_alloc(size_t bytes) {
    void* memory = nullptr;
    // Portable: the memory is pinned for every device, whichever context later copies from it.
    if (cudaHostAlloc(&memory, bytes, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
    }
    std::lock_guard<std::mutex> lock(pinned_mutex());
    pinned_pointers().insert(memory);
    return memory;
}

bool pinned_free(void* p) {
    {
        std::lock_guard<std::mutex> lock(pinned_mutex());
        if (pinned_pointers().erase(p) == 0) return false;
    }
    if (cudaFreeHost(p) != cudaSuccess) cudaGetLastError();
    return true;
}

// ---- DeviceState -------------------------------------------------------------------------------

DeviceState::DeviceState(int device) : device(device) {
    const cudaError_t status = cudaSetDevice(device);
    if (status != cudaSuccess) {
        cudaGetLastError();
        fail(CCL4J_BACKEND_UNAVAILABLE, "CUDA device " + std::to_string(device) + " cannot be used: " +
                                            cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
    }
    try {
        CCL4J_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
        CCL4J_CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor,
                                                device));
        CCL4J_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        clock = std::make_unique<PhaseClock>(stream);
    } catch (...) {
        destroy();
        throw;
    }
}

DeviceState::~DeviceState() { destroy(); }

void DeviceState::destroy() noexcept {
    if (cudaSetDevice(device) != cudaSuccess) cudaGetLastError();
    workspaces_.clear();
    clock.reset();
    if (stream) cudaStreamDestroy(stream);
    stream = nullptr;
    cudaGetLastError();
}

void DeviceState::activate() const { CCL4J_CUDA_CHECK(cudaSetDevice(device)); }

void DeviceStateDeleter::operator()(DeviceState* state) const { delete state; }

DeviceStatePtr create_state(int device) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        cudaGetLastError();
        fail(CCL4J_BACKEND_UNAVAILABLE, std::string("no usable CUDA driver or device: ") + cudaGetErrorName(status) +
                                            " (" + cudaGetErrorString(status) + ")");
    }
    if (device < 0 || device >= count) {
        fail(CCL4J_BACKEND_UNAVAILABLE, "CUDA device " + std::to_string(device) + " does not exist (" +
                                            std::to_string(count) + " devices)");
    }
    return DeviceStatePtr(new DeviceState(device));
}

void enable_peer_access(const std::vector<DeviceState*>& states) {
    for (const DeviceState* a : states) {
        for (const DeviceState* b : states) {
            if (a->device == b->device) continue;
            int possible = 0;
            CCL4J_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, a->device, b->device));
            if (!possible) continue;
            a->activate();
            const cudaError_t status = cudaDeviceEnablePeerAccess(b->device, 0);
            if (status != cudaSuccess && status != cudaErrorPeerAccessAlreadyEnabled) check(status, "cudaDeviceEnablePeerAccess");
            cudaGetLastError();  // clears cudaErrorPeerAccessAlreadyEnabled
        }
    }
}

// A resident graph is freed on its own device, whichever device the calling thread has current.
void DeviceGraphDeleter::operator()(DeviceGraph* graph) const {
    if (!graph) return;
    if (cudaSetDevice(graph->device) != cudaSuccess) cudaGetLastError();
    delete graph;
}

}  // namespace ccl4j::cuda
