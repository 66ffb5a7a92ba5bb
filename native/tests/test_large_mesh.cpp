// A mesh past INT32_MAX cells through ccl4j_label_mesh64 on every backend present: 2048 x 1024 x
// 1025 cells (2^31 + 2^21). Its even layers below the last hold full rows at even y, each a
// cluster of its own (rows two apart touch at no connectivity, nor do layers two apart); the last
// layer is full, one cluster whose canonical label, w * h * 1024, is past INT32_MAX. With a
// periodic z axis the last layer touches layer 0, so it and the rows of layer 0 become one
// cluster labelled 0. Run at 6 and 26 connectivity, open and periodic in z.
//
// Needs about 20 GB of host memory (and as much device memory on CUDA): not part of ctest;
// `scripts/gpu/native-check.sh --large` runs it on the GPU machine. A backend without the memory is
// skipped with a notice (ccl4j_mesh_memory_needs says what there is).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"

namespace {

using namespace ccl4j::test;

constexpr int32_t kWidth = 2048, kHeight = 1024, kDepth = 1025;

int64_t index_of(int64_t x, int64_t y, int64_t z) { return x + kWidth * (y + int64_t(kHeight) * z); }

// The canonical label of cell (x, y, z), -1 for background.
int64_t expected(int32_t y, int32_t z, bool periodic) {
    if (z == kDepth - 1) return periodic ? 0 : index_of(0, 0, kDepth - 1);
    if (z % 2 != 0 || y % 2 != 0) return -1;
    return periodic && z == 0 ? 0 : index_of(0, y, z);
}

void check_backend(ccl4j_backend backend, const std::vector<uint8_t>& cells) {
    ccl4j_context c = nullptr;
    if (ccl4j_context_create(backend, 0, &c) != CCL4J_SUCCESS) {
        std::printf("SKIPPED: backend %d is not present\n", backend);
        return;
    }
    ccl4j_mesh m{};
    m.width = kWidth;
    m.height = kHeight;
    m.depth = kDepth;
    m.cell_type = CCL4J_CELL_U8;
    ccl4j_memory_needs needs;
    CHECK(ccl4j_mesh_memory_needs(c, &m, nullptr, 8, &needs) == CCL4J_SUCCESS);
    const int64_t n = index_of(0, 0, kDepth);
    CHECK(needs.labels_bytes == n * 8);
    if (needs.device_bytes > needs.device_available ||
        (needs.host_available >= 0 && needs.labels_bytes + needs.host_bytes > needs.host_available)) {
        std::printf("SKIPPED: backend %d: %lld bytes of labels and %lld of device memory needed, %lld and %lld available\n",
                    backend, static_cast<long long>(needs.labels_bytes), static_cast<long long>(needs.device_bytes),
                    static_cast<long long>(needs.host_available), static_cast<long long>(needs.device_available));
        ccl4j_context_destroy(c);
        return;
    }
    std::vector<int64_t> labels(static_cast<size_t>(n));
    for (int connectivity : {6, 26}) {
        for (bool periodic : {false, true}) {
            ccl4j_mesh_options o{};
            o.connectivity = connectivity;
            o.periodic = periodic ? CCL4J_PERIODIC_Z : 0;
            ccl4j_timings t;
            const std::string what = "backend " + std::to_string(backend) + " c" + std::to_string(connectivity) +
                                     (periodic ? " periodic z" : " open");
            if (ccl4j_label_mesh64(c, &m, cells.data(), &o, labels.data(), &t) != CCL4J_SUCCESS) {
                CHECK_MSG(false, what + ": " + ccl4j_context_error_message(c));
                continue;
            }
            int64_t wrong = 0, first_wrong = -1;
            for (int32_t z = 0; z < kDepth; ++z) {
                for (int32_t y = 0; y < kHeight; ++y) {
                    const int64_t want = expected(y, z, periodic);
                    const int64_t* row = labels.data() + index_of(0, y, z);
                    for (int32_t x = 0; x < kWidth; ++x) {
                        if (row[x] != want) {
                            if (first_wrong < 0) first_wrong = index_of(x, y, z);
                            ++wrong;
                        }
                    }
                }
            }
            CHECK_MSG(wrong == 0, what + ": " + std::to_string(wrong) + " wrong labels, the first at index " +
                                      std::to_string(first_wrong));
            std::printf("%s: %.1f ms\n", what.c_str(), t.total_ms);
        }
    }
    ccl4j_context_destroy(c);
}

}  // namespace

int main() {
    std::vector<uint8_t> cells(static_cast<size_t>(index_of(0, 0, kDepth)));
    for (int32_t z = 0; z < kDepth; ++z) {
        for (int32_t y = 0; y < kHeight; ++y) {
            const uint8_t on = expected(y, z, false) >= 0 ? 1 : 0;
            std::fill_n(cells.data() + index_of(0, y, z), kWidth, on);
        }
    }
    for (ccl4j_backend backend : {CCL4J_BACKEND_CUDA, CCL4J_BACKEND_CPU_PARALLEL, CCL4J_BACKEND_CPU_SERIAL}) {
        check_backend(backend, cells);
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
