// Lattices, the Philox generator, bond percolation and Swendsen-Wang through the C ABI; the GPU
// against the CPU when a device is present (a notice otherwise).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ccl4j.h"
#include "check.hpp"
#include "common/philox.hpp"

using namespace ccl4j::test;

namespace {

struct Arrays {
    ccl4j_lattice_info info{};
    std::vector<int32_t> offsets, neighbors, bonds;
};

Arrays read(ccl4j_lattice_kind kind, int32_t length, int32_t periodic) {
    ccl4j_lattice lattice = nullptr;
    Arrays a;
    CHECK(ccl4j_lattice_create(kind, length, periodic, 7, &lattice) == CCL4J_SUCCESS);
    CHECK(ccl4j_lattice_get_info(lattice, &a.info) == CCL4J_SUCCESS);
    a.offsets.resize(a.info.vertex_count + 1);
    a.neighbors.resize(a.info.arc_count);
    a.bonds.resize(a.info.arc_count);
    CHECK(ccl4j_lattice_copy(lattice, a.offsets.data(), a.neighbors.data(), a.bonds.data(), nullptr, nullptr) ==
          CCL4J_SUCCESS);
    ccl4j_lattice_destroy(lattice);
    return a;
}

void test_philox_known_answers() {
    // Random123's known-answer vectors for Philox-4x32-10.
    const ccl4j::Philox4x32 zero = ccl4j::philox4x32_10({{0, 0, 0, 0}}, 0, 0);
    CHECK(zero.v[0] == 0x6627e8d5u && zero.v[1] == 0xe169c58du && zero.v[2] == 0xbc57ac4cu && zero.v[3] == 0x9b00dbd8u);
    const ccl4j::Philox4x32 ones =
        ccl4j::philox4x32_10({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu);
    CHECK(ones.v[0] == 0x408f276du && ones.v[1] == 0x41c83b0eu && ones.v[2] == 0xa20bc7c6u && ones.v[3] == 0x6d5451fdu);
    const ccl4j::Philox4x32 pi =
        ccl4j::philox4x32_10({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u, 0x299f31d0u);
    CHECK(pi.v[0] == 0xd16cfe09u && pi.v[1] == 0x94fdccebu && pi.v[2] == 0x5001e420u && pi.v[3] == 0x24126ea1u);
}

// Every bond index appears on exactly two arcs, u -> v and v -> u.
void check_bonds(const Arrays& a, const std::string& what) {
    std::vector<int> seen(a.info.bond_count, 0);
    std::vector<int64_t> ends(a.info.bond_count, 0);
    bool ok = true;
    for (int32_t v = 0; v < a.info.vertex_count; ++v) {
        for (int32_t arc = a.offsets[v]; arc < a.offsets[v + 1]; ++arc) {
            const int32_t b = a.bonds[arc];
            if (b < 0 || b >= a.info.bond_count) {
                ok = false;
                continue;
            }
            ++seen[b];
            ends[b] += static_cast<int64_t>(v) * 3 + a.neighbors[arc] * 5;  // same sum from both arcs
            ends[b] -= static_cast<int64_t>(a.neighbors[arc]) * 3 + static_cast<int64_t>(v) * 5;
        }
    }
    for (int64_t b = 0; b < a.info.bond_count; ++b) ok = ok && seen[b] == 2 && ends[b] == 0;
    CHECK_MSG(ok && a.info.arc_count == 2 * a.info.bond_count, what + ": bond indices");
}

void test_lattices() {
    struct Periodic {
        ccl4j_lattice_kind kind;
        int32_t length, sites, z;
    };
    for (const Periodic& c : {Periodic{CCL4J_LATTICE_SQUARE, 6, 36, 4}, Periodic{CCL4J_LATTICE_TRIANGULAR, 5, 25, 6},
                              Periodic{CCL4J_LATTICE_HONEYCOMB, 6, 36, 3}, Periodic{CCL4J_LATTICE_SIMPLE_CUBIC, 4, 64, 6},
                              Periodic{CCL4J_LATTICE_BCC, 3, 54, 8}}) {
        const Arrays a = read(c.kind, c.length, 1);
        const std::string what = "periodic kind " + std::to_string(c.kind);
        CHECK_MSG(a.info.vertex_count == c.sites, what);
        bool regular = true;
        for (int32_t v = 0; v < a.info.vertex_count; ++v) regular = regular && a.offsets[v + 1] - a.offsets[v] == c.z;
        CHECK_MSG(regular && a.info.bond_count == int64_t{c.z} * c.sites / 2, what + ": coordination");
        CHECK_MSG(a.info.side0_count == 0 && a.info.side1_count == 0, what + ": no sides");
        check_bonds(a, what);
    }
    const int64_t L = 5;
    struct Open {
        ccl4j_lattice_kind kind;
        int64_t bonds, side;
    };
    for (const Open& c : {Open{CCL4J_LATTICE_SQUARE, 2 * L * (L - 1), L},
                          Open{CCL4J_LATTICE_TRIANGULAR, 2 * L * (L - 1) + (L - 1) * (L - 1), L},
                          Open{CCL4J_LATTICE_HONEYCOMB, L * (L - 1) + (L - 1) * L / 2, L},  // L odd: half the rungs, rounded down
                          Open{CCL4J_LATTICE_SIMPLE_CUBIC, 3 * L * L * (L - 1), L * L},
                          Open{CCL4J_LATTICE_BCC, (2 * L - 1) * (2 * L - 1) * (2 * L - 1), 2 * L * L}}) {
        const Arrays a = read(c.kind, static_cast<int32_t>(L), 0);
        const std::string what = "open kind " + std::to_string(c.kind);
        CHECK_MSG(a.info.bond_count == c.bonds, what + ": " + std::to_string(a.info.bond_count) + " bonds");
        CHECK_MSG(a.info.side0_count == c.side && a.info.side1_count == c.side, what + ": sides");
        check_bonds(a, what);
    }
    for (ccl4j_lattice_kind kind : {CCL4J_LATTICE_BETHE, CCL4J_LATTICE_BETHE_RANDOM}) {
        const Arrays a = read(kind, 4, 0);
        const std::string what = "Bethe kind " + std::to_string(kind);
        CHECK_MSG(a.info.vertex_count == 3 * 16 - 2 && a.info.bond_count == a.info.vertex_count - 1, what);
        int leaves = 0, inner = 0;
        for (int32_t v = 0; v < a.info.vertex_count; ++v) {
            const int32_t d = a.offsets[v + 1] - a.offsets[v];
            leaves += d == 1;
            inner += d == 3;
        }
        CHECK_MSG(leaves == 24 && inner == 22 && a.info.side0_count == 1 && a.info.side1_count == 24, what);
        check_bonds(a, what);
    }
    ccl4j_lattice lattice = nullptr;
    CHECK(ccl4j_lattice_create(CCL4J_LATTICE_HONEYCOMB, 5, 1, 0, &lattice) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_lattice_create(CCL4J_LATTICE_BETHE, 3, 1, 0, &lattice) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_lattice_create(99, 3, 0, 0, &lattice) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_lattice_create(CCL4J_LATTICE_SQUARE, 1 << 20, 0, 0, &lattice) == CCL4J_INVALID_ARGUMENT);
}

struct Outcome {
    std::vector<uint8_t> spanning;
    std::vector<int32_t> labels;
    ccl4j_percolation_result result{};
    std::vector<double> m, e;
};

Outcome percolate(ccl4j_context context, ccl4j_lattice lattice, double p, int32_t count) {
    Outcome o;
    ccl4j_lattice_info info{};
    ccl4j_lattice_get_info(lattice, &info);
    o.spanning.resize(count);
    o.labels.resize(info.vertex_count);
    ccl4j_percolation percolation = nullptr;
    CHECK(ccl4j_percolation_create(context, lattice, nullptr, &percolation) == CCL4J_SUCCESS);
    CHECK(ccl4j_percolation_run(percolation, p, 42, 1000, count, o.spanning.data(), o.labels.data(), &o.result) ==
          CCL4J_SUCCESS);
    ccl4j_percolation_destroy(percolation);
    return o;
}

Outcome sweep(ccl4j_context context, ccl4j_lattice lattice, double temperature, int32_t sweeps) {
    Outcome o;
    o.m.resize(sweeps);
    o.e.resize(sweeps);
    ccl4j_ising ising = nullptr;
    CHECK(ccl4j_ising_create(context, lattice, nullptr, 9, &ising) == CCL4J_SUCCESS);
    CHECK(ccl4j_ising_sweep(ising, temperature, sweeps, o.m.data(), o.e.data(), nullptr) == CCL4J_SUCCESS);
    ccl4j_ising_destroy(ising);
    return o;
}

void test_trivial_probabilities() {
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &context) == CCL4J_SUCCESS);
    ccl4j_lattice lattice = nullptr;
    CHECK(ccl4j_lattice_create(CCL4J_LATTICE_TRIANGULAR, 16, 0, 0, &lattice) == CCL4J_SUCCESS);
    const Outcome closed = percolate(context, lattice, 0.0, 3);
    const Outcome open = percolate(context, lattice, 1.0, 3);
    CHECK(closed.result.spanning == 0 && open.result.spanning == 3);
    bool identity = true, single = true;
    for (int32_t v = 0; v < 256; ++v) {
        identity = identity && closed.labels[v] == v;
        single = single && open.labels[v] == 0;
    }
    CHECK(identity && single);
    ccl4j_percolation percolation = nullptr;
    CHECK(ccl4j_percolation_create(context, lattice, nullptr, &percolation) == CCL4J_SUCCESS);
    CHECK(ccl4j_percolation_run(percolation, 1.5, 0, 0, 1, nullptr, nullptr, nullptr) == CCL4J_INVALID_ARGUMENT);
    CHECK(ccl4j_percolation_run(percolation, 0.5, 0, 0, -1, nullptr, nullptr, nullptr) == CCL4J_INVALID_ARGUMENT);
    ccl4j_percolation_destroy(percolation);
    ccl4j_lattice_destroy(lattice);
    ccl4j_context_destroy(context);
}

void test_cuda_matches_cpu() {
    ccl4j_capabilities caps{};
    ccl4j_get_capabilities(&caps);
    if (!(caps.backends & (1u << CCL4J_BACKEND_CUDA))) {
        std::printf("NOTICE: no CUDA device, the GPU percolation and Swendsen-Wang checks are skipped\n");
        return;
    }
    ccl4j_context cpu = nullptr, gpu = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &cpu) == CCL4J_SUCCESS);
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CUDA, 0, &gpu) == CCL4J_SUCCESS);
    const int64_t bonds = 1'000'003;
    std::vector<uint8_t> a(bonds), b(bonds);
    CHECK(ccl4j_draw_bonds(cpu, bonds, 123456789012345ull, 77, 0.3472, a.data()) == CCL4J_SUCCESS);
    CHECK(ccl4j_draw_bonds(gpu, bonds, 123456789012345ull, 77, 0.3472, b.data()) == CCL4J_SUCCESS);
    CHECK(a == b);
    for (ccl4j_lattice_kind kind : {CCL4J_LATTICE_HONEYCOMB, CCL4J_LATTICE_TRIANGULAR, CCL4J_LATTICE_SIMPLE_CUBIC,
                                    CCL4J_LATTICE_BCC, CCL4J_LATTICE_BETHE_RANDOM}) {
        ccl4j_lattice lattice = nullptr;
        const int32_t length = kind == CCL4J_LATTICE_BETHE_RANDOM ? 14 : (kind >= CCL4J_LATTICE_SIMPLE_CUBIC ? 24 : 160);
        CHECK(ccl4j_lattice_create(kind, length, 0, 5, &lattice) == CCL4J_SUCCESS);
        for (double p : {0.2, 0.35, 0.5, 0.65, 0.9}) {
            const Outcome c = percolate(cpu, lattice, p, 12);
            const Outcome g = percolate(gpu, lattice, p, 12);
            CHECK_MSG(c.spanning == g.spanning && c.labels == g.labels,
                      "kind " + std::to_string(kind) + " p " + std::to_string(p));
        }
        ccl4j_lattice_destroy(lattice);
    }
    for (ccl4j_lattice_kind kind : {CCL4J_LATTICE_SQUARE, CCL4J_LATTICE_SIMPLE_CUBIC}) {
        ccl4j_lattice lattice = nullptr;
        CHECK(ccl4j_lattice_create(kind, kind == CCL4J_LATTICE_SQUARE ? 64 : 12, 1, 0, &lattice) == CCL4J_SUCCESS);
        const Outcome c = sweep(cpu, lattice, 2.3, 25);
        const Outcome g = sweep(gpu, lattice, 2.3, 25);
        CHECK_MSG(c.m == g.m && c.e == g.e, "Swendsen-Wang kind " + std::to_string(kind));
        ccl4j_lattice_destroy(lattice);
    }
    ccl4j_context_destroy(cpu);
    ccl4j_context_destroy(gpu);
}

void test_ising_limits() {
    ccl4j_context context = nullptr;
    CHECK(ccl4j_context_create(CCL4J_BACKEND_CPU_PARALLEL, 0, &context) == CCL4J_SUCCESS);
    ccl4j_lattice lattice = nullptr;
    CHECK(ccl4j_lattice_create(CCL4J_LATTICE_SQUARE, 32, 1, 0, &lattice) == CCL4J_SUCCESS);
    const Outcome cold = sweep(context, lattice, 1.0, 50);
    const Outcome hot = sweep(context, lattice, 50.0, 50);
    double cold_m = 0, hot_m = 0;
    for (int i = 25; i < 50; ++i) {
        cold_m += std::abs(cold.m[i]) / 25;
        hot_m += std::abs(hot.m[i]) / 25;
    }
    CHECK_MSG(cold_m > 0.99 && hot_m < 0.1, std::to_string(cold_m) + " " + std::to_string(hot_m));
    CHECK(cold.e[49] < -1.9);  // the ground state has e = -2
    ccl4j_lattice_destroy(lattice);
    ccl4j_context_destroy(context);
}

}  // namespace

int main() {
    run("Philox known answers", test_philox_known_answers);
    run("lattices", test_lattices);
    run("p = 0 and p = 1", test_trivial_probabilities);
    run("Ising limits", test_ising_limits);
    run("CUDA against CPU", test_cuda_matches_cpu);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
