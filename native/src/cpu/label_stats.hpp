// The book-keeping of a label array on the CPU: its components (label, size) in smallest-member
// order and the id of each label, from which the C ABI derives counts, orders, compaction,
// histograms and member lists. Labels are in [0, count) or -1 (ignored).
#pragma once

#include <cstdint>
#include <vector>

#include "ccl4j.h"
#include "common/csr.hpp"

namespace ccl4j::cpu {

struct ComponentTable {
    int32_t count = 0;           // entries of the label array
    int64_t labelled = 0;        // entries that are not -1
    std::vector<int32_t> label;  // per component, in smallest-member order
    std::vector<int32_t> size;   // per component, in smallest-member order
    std::vector<int32_t> id;     // per label value: its component's index above, -1 when unused
};

// The component of entry `index`, labelled `label` >= 0, as t.id holds it, read again after the
// analysis: a label another thread changed during the call (ccl4j.h forbids it) fails the call
// with Error(CCL4J_INVALID_INPUT) instead of indexing the tables out of bounds.
int32_t component_of(const ComponentTable& t, int64_t index, int32_t label);

// Validates the labels (Error(CCL4J_INVALID_INPUT) naming the first bad entry) and tabulates
// their components; threads 1 runs serially, 0 on all threads.
ComponentTable analyze(const int32_t* labels, int32_t count, int threads);

// position[c] = where component c (smallest-member order) stands in `order`.
std::vector<int32_t> positions(const ComponentTable& table, int32_t order);

// The size histogram of the table's components: (size or smallest size of the bin, components).
void histogram(const ComponentTable& table, int32_t binning, std::vector<int32_t>& bin_sizes,
               std::vector<int32_t>& bin_counts);

// CSR member lists in `order` (position from positions()); members ascending.
void members(const ComponentTable& table, const int32_t* labels, const std::vector<int32_t>& position,
             int32_t* offsets, int32_t* members);

// The members of the component labelled `label`, ascending (returns the size; writes at most capacity).
int64_t component_members(const int32_t* labels, int32_t count, int32_t label, int64_t capacity, int32_t* out);

// The subgraph of `graph` induced by the ascending, distinct `vertices` (checked here).
int64_t induced_arc_count(const Graph& graph, const int32_t* vertices, int32_t vertex_count);
void induced_subgraph(const Graph& graph, const int32_t* vertices, int32_t vertex_count, int32_t offset_width,
                      void* offsets, int32_t* neighbors);

}  // namespace ccl4j::cpu
