// The symmetry test of the input checks, shared by the host (validate.cpp) and the GPU
// (cuda/input_check.cu): each arc u -> v adds h({u, v}) when u < v and subtracts it when u > v,
// modulo the prime p = 2^61 - 1 (a self loop is its own reverse and adds nothing). The sum is
// zero when every arc has its reverse as often. Otherwise some pair {u, v} has a count difference
// c, 0 < |c| < p, and for a keyed h that acts as a random function the sum is zero with
// probability 1/p. One hash per arc, one pass, no allocation; a failure is explained by the exact
// test.
#pragma once

#include <cstdint>

#include "common/host_device.hpp"

namespace ccl4j {

constexpr uint64_t kArcHashPrime = (uint64_t(1) << 61) - 1;

// a + b modulo the prime, for a, b below it.
CCL4J_HOST_DEVICE uint64_t add_mod(uint64_t a, uint64_t b) {
    const uint64_t s = a + b;
    return s >= kArcHashPrime ? s - kArcHashPrime : s;
}

// A keyed mix of the pair (low, high) (the splitmix64 finaliser), reduced modulo the prime.
CCL4J_HOST_DEVICE uint64_t arc_hash(uint64_t key, uint32_t low, uint32_t high) {
    uint64_t x = key ^ (uint64_t(low) << 32 | high);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    x = (x & kArcHashPrime) + (x >> 61);
    return x >= kArcHashPrime ? x - kArcHashPrime : x;
}

// The contribution of the arc from -> to (ids not negative): +h({from, to}) upwards,
// -h({from, to}) downwards, modulo the prime.
CCL4J_HOST_DEVICE uint64_t arc_difference(uint64_t key, uint32_t from, uint32_t to) {
    if (from == to) return 0;
    return from < to ? arc_hash(key, from, to) : kArcHashPrime - arc_hash(key, to, from);
}

// The key, drawn once per process so that no input is built to defeat the test.
uint64_t arc_hash_key();

}  // namespace ccl4j
