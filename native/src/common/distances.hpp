// Distances within components (ccl4j/distances.h) as the backends share them: the validated
// options, the rows of a graph's components in canonical order, and the one way a mean path
// length is computed from a path sum.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ccl4j.h"

namespace ccl4j {

// Options of a distances call, validated by api::distance_options (api/options.cpp).
struct DistanceOptions {
    int32_t algorithm = CCL4J_DISTANCES_BFS;  // resolved: BFS or FLOYD_WARSHALL, never AUTO
    int32_t cpu_threads = 0;
};

// The components of a graph as rows in canonical order (by smallest vertex), with their sums.
struct DistanceRows {
    std::vector<int32_t> first;      // the smallest vertex (the canonical label)
    std::vector<int64_t> vertices;   // k
    std::vector<int64_t> path_sum;   // sum of d(u, v) over ordered pairs of distinct vertices
    std::vector<int32_t> diameter;   // the largest eccentricity

    size_t size() const { return first.size(); }
};

// Rows of canonical labels (n entries): their first vertices and sizes, sums zero; row[v] (n
// entries) receives the row of v's component. Roots are numbered in raster order, as ccl4j's
// canonical numbering does.
inline DistanceRows rows_of(const int32_t* labels, int32_t n, int32_t* row) {
    DistanceRows rows;
    for (int32_t v = 0; v < n; ++v) {
        if (labels[v] == v) {
            row[v] = static_cast<int32_t>(rows.first.size());
            rows.first.push_back(v);
        } else {
            row[v] = row[labels[v]];  // labels[v] < v: its row is known
        }
    }
    const size_t k = rows.first.size();
    rows.vertices.assign(k, 0);
    rows.path_sum.assign(k, 0);
    rows.diameter.assign(k, 0);
    for (int32_t v = 0; v < n; ++v) ++rows.vertices[row[v]];
    return rows;
}

// Adds per-source results (the sum of a source's distances to the vertices it reaches, and its
// eccentricity) into the rows of their components.
inline void add_sources(DistanceRows& rows, const int32_t* row, int32_t n, const int64_t* sums,
                        const int32_t* eccentricities) {
    for (int32_t s = 0; s < n; ++s) {
        rows.path_sum[row[s]] += sums[s];
        rows.diameter[row[s]] = std::max(rows.diameter[row[s]], eccentricities[s]);
    }
}

// The mean shortest-path length of a component of k vertices, the same on every backend.
inline double mean_path_length(int64_t path_sum, int64_t k) {
    return k < 2 ? 0.0 : static_cast<double>(path_sum) / (static_cast<double>(k) * static_cast<double>(k - 1));
}

}  // namespace ccl4j
