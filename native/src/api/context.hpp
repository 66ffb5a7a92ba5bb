// What the files of the C ABI share: the handles behind the opaque pointers of ccl4j.h and the
// translation of C++ failures into status codes and messages. Each api_*.cpp implements one
// section of ccl4j.h; no exception leaves any of them.
#pragma once

#include <new>
#include <stdexcept>
#include <string>

#include "ccl4j.h"
#include "common/error.hpp"
#ifdef CCL4J_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

struct ccl4j_context_s {
    ccl4j_backend backend = CCL4J_BACKEND_CPU_PARALLEL;
    int32_t device = -1;
    std::string error;
#ifdef CCL4J_WITH_CUDA
    ccl4j::cuda::DeviceStatePtr cuda;
#endif
};

struct ccl4j_device_graph_s {
#ifdef CCL4J_WITH_CUDA
    ccl4j::cuda::DeviceGraphPtr graph;
#endif
};

namespace ccl4j::api {

// The calling thread's last failure of a function that has no context.
std::string& thread_error();

// CUDA devices usable now; 0 when the library was built without CUDA.
int cuda_device_count();

const char* backend_name(ccl4j_backend backend);

// Checks and fills in the defaults of graph-labelling options (AUTO becomes ECL-CC).
ccl4j_label_options resolve_options(const ccl4j_label_options* options);

// Throws CCL4J_UNSUPPORTED unless the context runs on CUDA; `what` names the operation.
void require_cuda(const ccl4j_context_s& context, const char* what);

// Runs body and turns any failure into a status code, recording its message in `message`.
template <class Body>
ccl4j_status guarded(std::string& message, Body body) {
    try {
        body();
        message.clear();
        return CCL4J_SUCCESS;
    } catch (const Error& e) {
        message = e.what();
        return e.status();
    } catch (const std::bad_alloc&) {
        message = "out of host memory";
        return CCL4J_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        message = std::string("internal error: ") + e.what();
        return CCL4J_INTERNAL_ERROR;
    } catch (...) {
        message = "internal error: unknown exception";
        return CCL4J_INTERNAL_ERROR;
    }
}

// guarded() for functions that take a context: a NULL context is reported per thread.
template <class Body>
ccl4j_status with_context(ccl4j_context_s* context, Body body) {
    if (!context) return guarded(thread_error(), [] { fail(CCL4J_INVALID_ARGUMENT, "context is NULL"); });
    return guarded(context->error, body);
}

}  // namespace ccl4j::api
