// What the GPU benchmark programs share: pinned host memory, .egr loading, the check of their
// labels, medians, kernel times, option lists and random site fields.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/csr.hpp"
#include "common/parallel.hpp"
#include "cuda/cuda_backend.hpp"

namespace ccl4j::bench {

// Host memory from the library's pinned allocator, freed on scope exit.
class Pinned {
public:
    explicit Pinned(size_t bytes) : data_(cuda::pinned_alloc(bytes ? bytes : 1)) {
        if (!data_) throw std::runtime_error("cannot pin " + std::to_string(bytes) + " bytes of host memory");
    }
    Pinned(const Pinned&) = delete;
    Pinned& operator=(const Pinned&) = delete;
    ~Pinned() { cuda::pinned_free(data_); }
    template <class T>
    T* as() const {
        return static_cast<T*>(data_);
    }

private:
    void* data_;
};

// A graph read from an .egr file into pinned memory.
struct LoadedGraph {
    int32_t n = 0;
    int64_t arcs = 0;
    int offset_width = 4;
    std::unique_ptr<Pinned> offsets;
    std::unique_ptr<Pinned> neighbors;

    Graph view() const { return Graph{n, arcs, offset_width, offsets->as<void>(), neighbors->as<int32_t>()}; }
    int64_t offset(int64_t v) const {
        return offset_width == 8 ? offsets->as<int64_t>()[v] : offsets->as<int32_t>()[v];
    }
};

// Reads an .egr file (int32 n, int32 arcs, int32 offsets[n + 1], int32 neighbours[arcs]) into
// pinned memory; with offsets64, widens the offsets to int64.
inline LoadedGraph load_egr(const std::string& path, bool offsets64) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw std::runtime_error("cannot open " + path);
    int32_t header[2];
    LoadedGraph g;
    bool ok = std::fread(header, sizeof(int32_t), 2, file) == 2 && header[0] >= 0 && header[1] >= 0;
    if (ok) {
        g.n = header[0];
        g.arcs = header[1];
        const size_t offsets = static_cast<size_t>(g.n) + 1;
        g.offset_width = offsets64 ? 8 : 4;
        g.offsets = std::make_unique<Pinned>(offsets * g.offset_width);
        g.neighbors = std::make_unique<Pinned>(static_cast<size_t>(g.arcs) * sizeof(int32_t));
        ok = std::fread(g.offsets->as<int32_t>(), sizeof(int32_t), offsets, file) == offsets &&
             std::fread(g.neighbors->as<int32_t>(), sizeof(int32_t), g.arcs, file) == static_cast<size_t>(g.arcs);
        if (ok && offsets64) {
            // Widen in place from the back, so no 32-bit value is overwritten before it is read.
            const int32_t* narrow = g.offsets->as<int32_t>();
            int64_t* wide = g.offsets->as<int64_t>();
            for (size_t i = offsets; i-- > 0;) wide[i] = narrow[i];
        }
    }
    std::fclose(file);
    if (!ok) throw std::runtime_error(path + " is not a complete .egr file");
    return g;
}

// Checks that labels are the canonical labelling of g's components; returns the component count,
// or -1 (after printing why) when they are not. Equal labels across every arc make each label
// class a union of components, and each class holds its label's vertex; so with as many classes
// as components, each is one component and its label, a vertex no larger than any member, is
// the component's smallest vertex.
inline int64_t verify(const LoadedGraph& g, const int32_t* labels) {
    const int32_t* neighbors = g.neighbors->as<int32_t>();
    int64_t components = 0;
    for (int32_t v = 0; v < g.n; ++v) {
        const int32_t label = labels[v];
        if (label < 0 || label > v || labels[label] != label) {
            std::printf("    WRONG: vertex %d has label %d, which is not a smaller-or-equal root\n", v, label);
            return -1;
        }
        components += label == v;
        for (int64_t a = g.offset(v); a < g.offset(v + 1); ++a) {
            if (labels[neighbors[a]] != label) {
                std::printf("    WRONG: arc %d -> %d joins labels %d and %d\n", v, neighbors[a], label,
                            labels[neighbors[a]]);
                return -1;
            }
        }
    }
    return components;
}

inline double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// Kernel time of a run: every phase but the copies (h2d, d2h).
inline double kernel_ms(const ccl4j_timings& t) {
    double sum = 0;
    for (int32_t i = 0; i < t.phase_count; ++i) {
        if (std::strcmp(t.phases[i].name, "h2d") != 0 && std::strcmp(t.phases[i].name, "d2h") != 0) sum += t.phases[i].ms;
    }
    return sum;
}

// A comma-separated option value as its parts.
inline std::vector<std::string> split(const std::string& list) {
    std::vector<std::string> parts;
    std::stringstream in(list);
    for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
    return parts;
}

inline uint64_t mix(uint64_t x) {  // splitmix64's finaliser
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// A random site field: cell i is 1 with probability p, drawn from a hash of (seed, i), so that any
// program (scripts/gpu/cupy-mesh.py too) draws the same cells; in parallel.
inline void random_sites(int64_t n, double p, uint64_t seed, uint8_t* cells) {
    const uint64_t threshold = static_cast<uint64_t>(p * 18446744073709551616.0);
    parallel::for_each(int64_t{0}, n, 0, [&](int64_t i) {
        cells[i] = mix(seed * 0x100000001b3ull ^ static_cast<uint64_t>(i)) < threshold;
    });
}

}  // namespace ccl4j::bench
