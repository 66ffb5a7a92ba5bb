package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An edge list as the engines take it: edge {@code i} joins the ints at index {@code i * stride}
 * of {@code sources} and of {@code targets} (stride 1: two arrays; 2: one array of pairs, where
 * {@code targets} is the pairs from the first target on). The ids are unchecked: every engine
 * checks each id as it reads it.
 */
public record EdgeData(int vertexCount, long edgeCount, int stride, MemorySegment sources, MemorySegment targets) {
    public int source(long edge) {
        return sources.getAtIndex(ValueLayout.JAVA_INT, edge * stride);
    }

    public int target(long edge) {
        return targets.getAtIndex(ValueLayout.JAVA_INT, edge * stride);
    }

    /** Whether both segments are still alive: native code must never be handed freed memory. */
    public boolean alive() {
        return sources.scope().isAlive() && targets.scope().isAlive();
    }

    /** The error of an edge with an id outside {@code [0, vertexCount)}, worded as the native library's. */
    public static IllegalArgumentException badEdge(long edge, int u, int v, int vertexCount) {
        int bad = Integer.compareUnsigned(u, vertexCount) < 0 ? v : u;
        return new IllegalArgumentException("edge " + edge + " (" + u + ", " + v + "): id " + bad + " is outside [0, "
                + vertexCount + ")");
    }
}
