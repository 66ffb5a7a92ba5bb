package org.ccl4j.engine.spi;

import java.util.List;
import java.util.Map;

/**
 * Distances within the components of a graph: a row per component in canonical order, with what
 * the call measured (backend by the API's constant name).
 */
public record DistanceRows(List<Row> rows, String backend, DistanceMethod method, double totalMs,
                           Map<String, Double> phasesMs) {
    /**
     * One component: its smallest vertex, its vertex count, the exact sum of d(u, v) over ordered
     * pairs of distinct vertices, the diameter and the mean distance.
     */
    public record Row(int first, long vertices, long sum, int diameter, double mean) {
        /** The mean of a component of {@code vertices} vertices, {@code sum / (k (k - 1))}, as the native library computes it. */
        public static double mean(long sum, long vertices) {
            return vertices < 2 ? 0.0 : (double) sum / ((double) vertices * (double) (vertices - 1));
        }
    }
}
