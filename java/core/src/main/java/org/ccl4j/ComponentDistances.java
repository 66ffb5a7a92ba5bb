package org.ccl4j;

/**
 * Shortest-path distances within one component of a graph, unweighted (every edge counts 1).
 *
 * @param label          the component's canonical label: its smallest vertex id
 * @param vertices       its vertex count k
 * @param pathSum        the sum of d(u, v) over the ordered pairs of distinct vertices of the
 *                       component (twice the sum over unordered pairs), exact
 * @param diameter       the largest d(u, v) in the component; 0 for a single vertex
 * @param meanPathLength {@code pathSum / (k (k - 1))} in double, 0 for a single vertex: the mean
 *                       shortest-path length over pairs of distinct vertices
 */
public record ComponentDistances(int label, long vertices, long pathSum, int diameter, double meanPathLength) {
}
