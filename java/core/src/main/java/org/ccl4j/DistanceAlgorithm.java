package org.ccl4j;

import org.ccl4j.engine.spi.DistanceMethod;

/**
 * How {@link ComponentLabeler#distances} and {@link ComponentLabeler#distanceMatrix} compute
 * shortest-path distances.
 */
public enum DistanceAlgorithm {
    /** {@link #BFS}. */
    AUTO,
    /**
     * A breadth-first search from every vertex, O(n (n + m)): on the CPU backends in parallel over
     * the sources, on CUDA 64 sources per machine word and many words at once, one launch per level
     * (Leist, Playne &amp; Hawick 2009, section 4); a plain search per source on the JAVA backend.
     */
    BFS,
    /**
     * Floyd and Warshall's O(n^3) relaxation of the n x n matrix, the CPU baseline of Leist, Playne
     * &amp; Hawick 2009 (section 4.4): the CPU and JAVA backends only, at most
     * {@link DistanceMatrix#MAX_VERTICES} vertices.
     */
    FLOYD_WARSHALL;

    /** The engines' method of the same name. */
    DistanceMethod method() {
        return DistanceMethod.valueOf(name());
    }
}
