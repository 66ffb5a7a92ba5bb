// The steps of Komura 2016's generalized label reduction (section 3) that the CPU
// (cpu/komura.cpp, one thread) and the GPU (cuda/komura.cu, a thread per site) take alike: the
// initialisation of one vertex and the label reduction of one pair. Labels keep label[v] <= v
// with label[v] a vertex of v's component, so following them goes down to a root
// (label[r] == r). The backends differ only in how they touch a label, which `Labels` says:
//   Labels::load(p)         *p (a relaxed atomic load on the GPU, where other threads write);
//   Labels::lower(p, value) *p = min(*p, value), returning the old *p (atomicMin on the GPU).
#pragma once

#include <cstdint>

#include "common/host_device.hpp"

namespace ccl4j::komura {

// Step (i) for vertex v, whose neighbours are neighbors[begin, end): label[v] = its smallest
// lower neighbour (or v), and its residual list, its other lower neighbours, goes to the front of
// its own stretch residual[begin, end), residual_count[v] entries long.
template <class Offset>
CCL4J_HOST_DEVICE void init_vertex(const int32_t* neighbors, Offset begin, Offset end, int32_t v, int32_t* label,
                                   int32_t* residual, Offset* residual_count) {
    int32_t smallest = v;
    for (Offset arc = begin; arc < end; ++arc) smallest = smallest < neighbors[arc] ? smallest : neighbors[arc];
    Offset count = 0;
    for (Offset arc = begin; arc < end; ++arc) {
        const int32_t u = neighbors[arc];
        if (u < v && u != smallest) residual[begin + count++] = u;
    }
    label[v] = smallest;
    residual_count[v] = count;
}

// Follows labels from label[v] to a root. On the GPU labels only decrease, and only to vertices
// they lead to, so a walk read while others write still ends at a root.
template <class Labels>
CCL4J_HOST_DEVICE int32_t root_of(int32_t* label, int32_t v) {
    int32_t l = Labels::load(&label[v]);
    for (int32_t next; (next = Labels::load(&label[l])) != l;) l = next;
    return l;
}

// The paper's Algorithm 1 for site i and j from its residual list: the larger of the two roots is
// hung below the smaller with lower (atomicMin). When that entry already held another vertex, the
// pair moves on to that vertex and the smaller root, until a lower finds the two joined.
template <class Labels>
CCL4J_HOST_DEVICE void reduce_pair(int32_t* label, int32_t i, int32_t j) {
    int32_t label1 = root_of<Labels>(label, i);
    int32_t label2 = root_of<Labels>(label, j);
    if (label1 == label2) return;
    if (label1 < label2) {
        const int32_t smaller = label1;
        label1 = label2;
        label2 = smaller;
    }
    for (;;) {
        const int32_t label3 = Labels::lower(&label[label1], label2);
        if (label3 == label2) return;
        if (label3 > label2) {
            label1 = label3;  // label1 hung below label3: hang label3 below label2 too
        } else {
            label1 = label2;  // label1 stays below label3 < label2: hang label2 below label3
            label2 = label3;
        }
    }
}

}  // namespace ccl4j::komura
