// Tests of contacts between components (ccl4j/contacts.h) through libccl4j.so on every backend
// present: random labellings of small 2D and 3D meshes, every connectivity, open and periodic
// axes, against a reference here that walks every cell's whole neighbourhood (each contact seen
// from both cells); a hand-counted 2x2 case; partial capacities and NULL columns; and the
// refusals (bad labels naming the cell, connectivities that do not fit, NULL arguments). The GPU
// part prints a notice and is skipped when no CUDA device is present.
// Prints every failure and "N passed, M failed".
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"

namespace {

using namespace ccl4j::test;

struct Table {
    std::vector<int32_t> first, second;
    std::vector<int64_t> contacts, x, y, z;
};

std::string message(ccl4j_context context) { return ccl4j_context_error_message(context); }

// Both calls of the ABI: the count, then the rows.
ccl4j_status contacts_of(ccl4j_context context, const ccl4j_mesh& mesh, const std::vector<int32_t>& labels,
                         int32_t connectivity, uint32_t periodic, Table& t) {
    int64_t pairs = -1;
    ccl4j_status status = ccl4j_mesh_contacts(context, &mesh, labels.data(), connectivity, periodic, 0, nullptr,
                                              nullptr, nullptr, nullptr, nullptr, nullptr, &pairs);
    if (status != CCL4J_SUCCESS) return status;
    t.first.assign(pairs, -9);
    t.second.assign(pairs, -9);
    t.contacts.assign(pairs, -9);
    t.x.assign(pairs, -9);
    t.y.assign(pairs, -9);
    t.z.assign(pairs, -9);
    int64_t again = -1;
    status = ccl4j_mesh_contacts(context, &mesh, labels.data(), connectivity, periodic, pairs, t.first.data(),
                                 t.second.data(), t.contacts.data(), t.x.data(), t.y.data(), t.z.data(), &again);
    CHECK(again == pairs);
    return status;
}

// Every ordered pair of neighbouring cells, so each contact twice; halved at the end.
Table reference(const ccl4j_mesh& m, const std::vector<int32_t>& labels, int32_t connectivity, uint32_t periodic) {
    const bool three_d = m.depth > 1;
    int32_t c = connectivity == 0 ? (three_d ? 6 : 4) : connectivity;
    if (!three_d) c = c == 4 || c == 6 ? 4 : 8;  // ccl4j/contacts.h: the 3D stencils act as planar ones in 2D
    const int32_t extent[3] = {m.width, m.height, m.depth};
    std::map<std::pair<int32_t, int32_t>, std::vector<int64_t>> counts;  // contacts, x, y, z faces
    for (int32_t z = 0; z < m.depth; ++z)
        for (int32_t y = 0; y < m.height; ++y)
            for (int32_t x = 0; x < m.width; ++x) {
                const int32_t a = labels[x + m.width * (y + m.height * z)];
                for (int dz = -1; dz <= 1; ++dz)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx) {
                            const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
                            if (nonzero == 0) continue;
                            const bool planar = c == 4 || c == 8;
                            if (planar && dz != 0) continue;
                            if ((c == 4 || c == 6) && nonzero > 1) continue;
                            if (c == 18 && nonzero > 2) continue;
                            int32_t p[3] = {x + dx, y + dy, z + dz};
                            bool inside = true;
                            for (int axis = 0; axis < 3; ++axis) {
                                if (p[axis] >= 0 && p[axis] < extent[axis]) continue;
                                if (!(periodic & (1u << axis))) inside = false;
                                p[axis] = (p[axis] + extent[axis]) % extent[axis];
                            }
                            if (!inside) continue;
                            const int32_t b = labels[p[0] + m.width * (p[1] + m.height * p[2])];
                            if (a < 0 || b < 0 || a == b) continue;
                            std::vector<int64_t>& row = counts[{std::min(a, b), std::max(a, b)}];
                            row.resize(4);
                            ++row[0];
                            if (nonzero == 1) ++row[dx != 0 ? 1 : dy != 0 ? 2 : 3];
                        }
            }
    Table t;
    for (const auto& [pair, row] : counts) {
        t.first.push_back(pair.first);
        t.second.push_back(pair.second);
        t.contacts.push_back(row[0] / 2);
        t.x.push_back(row[1] / 2);
        t.y.push_back(row[2] / 2);
        t.z.push_back(row[3] / 2);
    }
    return t;
}

bool same(const Table& a, const Table& b) {
    return a.first == b.first && a.second == b.second && a.contacts == b.contacts && a.x == b.x && a.y == b.y &&
           a.z == b.z;
}

void check_random(ccl4j_context context, const std::string& backend) {
    std::mt19937_64 rng(47);
    int rows = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const bool three_d = trial % 2 == 1;
        ccl4j_mesh m{int32_t(1 + rng() % 7), int32_t(1 + rng() % 7), three_d ? int32_t(2 + rng() % 5) : 1,
                     CCL4J_CELL_I32, 0, 0};
        const int32_t cells = m.width * m.height * m.depth;
        const int32_t choices_2d[] = {0, 4, 8, 6, 18, 26};
        const int32_t choices_3d[] = {0, 6, 18, 26};
        const int32_t connectivity = three_d ? choices_3d[rng() % 4] : choices_2d[rng() % 6];
        const uint32_t periodic = uint32_t(rng() % 8);
        // few distinct labels, so that regions are large enough to touch in every way
        const int32_t distinct = int32_t(1 + rng() % 5);
        std::vector<int32_t> palette;
        for (int32_t i = 0; i < distinct; ++i) palette.push_back(int32_t(rng() % cells));
        std::vector<int32_t> labels(cells);
        for (int32_t& l : labels) l = rng() % 6 == 0 ? -1 : palette[rng() % distinct];
        Table got;
        const std::string what = backend + " " + std::to_string(m.width) + "x" + std::to_string(m.height) + "x" +
                                 std::to_string(m.depth) + " connectivity " + std::to_string(connectivity) +
                                 " periodic " + std::to_string(periodic);
        const ccl4j_status status = contacts_of(context, m, labels, connectivity, periodic, got);
        CHECK_MSG(status == CCL4J_SUCCESS, what + ": " + message(context));
        const Table expected = reference(m, labels, connectivity, periodic);
        CHECK_MSG(same(got, expected), what);
        rows += int(expected.first.size());
    }
    CHECK_MSG(rows > 400, "the random meshes have contacts: " + std::to_string(rows));
}

// 0 1
// 2 3: faces across x (0-1, 2-3) and y (0-2, 1-3), corners (0-3, 1-2) only under 8.
void check_by_hand(ccl4j_context context, const std::string& backend) {
    const ccl4j_mesh m{2, 2, 1, CCL4J_CELL_I32, 0, 0};
    const std::vector<int32_t> labels{0, 1, 2, 3};
    Table t;
    CHECK_MSG(contacts_of(context, m, labels, 8, 0, t) == CCL4J_SUCCESS, backend + ": " + message(context));
    CHECK(t.first == (std::vector<int32_t>{0, 0, 0, 1, 1, 2}));
    CHECK(t.second == (std::vector<int32_t>{1, 2, 3, 2, 3, 3}));
    CHECK(t.contacts == (std::vector<int64_t>{1, 1, 1, 1, 1, 1}));
    CHECK(t.x == (std::vector<int64_t>{1, 0, 0, 0, 0, 1}));
    CHECK(t.y == (std::vector<int64_t>{0, 1, 0, 0, 1, 0}));
    CHECK(t.z == (std::vector<int64_t>{0, 0, 0, 0, 0, 0}));
    // 26 on a single layer is 8, even across a periodic z: the layer does not touch itself again
    CHECK_MSG(contacts_of(context, m, labels, 26, CCL4J_PERIODIC_Z, t) == CCL4J_SUCCESS, backend);
    CHECK(t.contacts == (std::vector<int64_t>{1, 1, 1, 1, 1, 1}));
    CHECK_MSG(contacts_of(context, m, labels, 4, 0, t) == CCL4J_SUCCESS, backend + ": " + message(context));
    CHECK(t.first == (std::vector<int32_t>{0, 0, 1, 2}) && t.second == (std::vector<int32_t>{1, 2, 3, 3}));
    // periodic x on a width of 2: 0 and 1 share two faces, the one inside and the one across the edge
    CHECK_MSG(contacts_of(context, m, labels, 4, CCL4J_PERIODIC_X, t) == CCL4J_SUCCESS, backend);
    CHECK(t.contacts.size() == 4 && t.contacts[0] == 2 && t.x[0] == 2);

    // a partial capacity writes the first rows; NULL columns are skipped
    std::vector<int32_t> first(6, -9), second(6, -9);
    int64_t pairs = 0;
    CHECK(ccl4j_mesh_contacts(context, &m, labels.data(), 8, 0, 2, first.data(), second.data(), nullptr, nullptr,
                              nullptr, nullptr, &pairs) == CCL4J_SUCCESS);
    CHECK(pairs == 6 && first[0] == 0 && second[1] == 2 && first[2] == -9);
}

void check_refusals(ccl4j_context context, const std::string& backend) {
    const ccl4j_mesh flat{3, 2, 1, CCL4J_CELL_I32, 0, 0};
    const ccl4j_mesh volume{2, 2, 2, CCL4J_CELL_I32, 0, 0};
    std::vector<int32_t> labels{0, 0, 1, 1, -1, 7};  // 7 is past the 6 cells
    int64_t pairs = 0;
    CHECK(ccl4j_mesh_contacts(context, &flat, labels.data(), 4, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, &pairs) == CCL4J_INVALID_INPUT);
    CHECK_MSG(message(context).find("entry 5 has label 7") != std::string::npos, backend + ": " + message(context));
    labels[5] = -2;
    CHECK(ccl4j_mesh_contacts(context, &flat, labels.data(), 4, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, &pairs) == CCL4J_INVALID_INPUT);
    labels[5] = 1;
    std::vector<int32_t> cube(8, 0);
    CHECK(ccl4j_mesh_contacts(context, &volume, cube.data(), 8, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, &pairs) == CCL4J_INVALID_ARGUMENT);
    CHECK_MSG(message(context).find("connectivity 8 does not fit a 3D mesh") != std::string::npos, message(context));
    CHECK(ccl4j_mesh_contacts(context, &flat, labels.data(), 12, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, &pairs) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_mesh_contacts(context, &flat, labels.data(), 4, 8, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, &pairs) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_mesh_contacts(context, &flat, nullptr, 4, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                              &pairs) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_mesh_contacts(context, nullptr, labels.data(), 4, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, &pairs) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_mesh_contacts(context, &flat, labels.data(), 4, 0, -1, nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, &pairs) == CCL4J_INVALID_ARGUMENT);
    const ccl4j_mesh huge{65536, 65536, 1, CCL4J_CELL_I32, 0, 0};
    CHECK(ccl4j_mesh_contacts(context, &huge, labels.data(), 4, 0, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                              nullptr, &pairs) == CCL4J_INVALID_ARGUMENT);
}

// A larger volume than the random ones: several chunks of rows on the parallel CPU backend, and
// many blocks on the GPU.
void check_large(ccl4j_context context, const std::string& backend) {
    const ccl4j_mesh m{97, 61, 23, CCL4J_CELL_I32, 0, 0};
    const int32_t cells = m.width * m.height * m.depth;
    std::mt19937_64 rng(7);
    std::vector<int32_t> labels(cells);
    for (int32_t i = 0; i < cells; ++i) labels[i] = rng() % 9 == 0 ? -1 : int32_t((i / 7 + rng() % 3) % 4000);
    for (int32_t connectivity : {6, 18, 26}) {
        Table got;
        CHECK_MSG(contacts_of(context, m, labels, connectivity, CCL4J_PERIODIC_Z, got) == CCL4J_SUCCESS,
                  backend + ": " + message(context));
        CHECK_MSG(same(got, reference(m, labels, connectivity, CCL4J_PERIODIC_Z)),
                  backend + " large, connectivity " + std::to_string(connectivity));
    }
}

}  // namespace

int main() {
    for (ccl4j_backend backend : {CCL4J_BACKEND_CPU_SERIAL, CCL4J_BACKEND_CPU_PARALLEL, CCL4J_BACKEND_CUDA}) {
        const char* name = backend == CCL4J_BACKEND_CUDA ? "CUDA" : backend == CCL4J_BACKEND_CPU_SERIAL ? "CPU_SERIAL"
                                                                                                         : "CPU_PARALLEL";
        ccl4j_context context = nullptr;
        if (ccl4j_context_create(backend, 0, &context) != CCL4J_SUCCESS) {
            std::printf("NOTICE: %s skipped, no context: %s\n", name, ccl4j_context_error_message(nullptr));
            continue;
        }
        run((std::string("contacts by hand, ") + name).c_str(), [&] { check_by_hand(context, name); });
        run((std::string("contacts random, ") + name).c_str(), [&] { check_random(context, name); });
        run((std::string("contacts large, ") + name).c_str(), [&] { check_large(context, name); });
        run((std::string("contacts refusals, ") + name).c_str(), [&] { check_refusals(context, name); });
        ccl4j_context_destroy(context);
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
