package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A CSR graph as the engines take it: {@code vertexCount + 1} offsets of {@code offsetBytes} (4 or
 * 8) bytes and {@code arcCount} neighbour ids, both native-order and checked for shape by the API
 * ({@code CsrGraph}). The segments are the graph's own, not read-only views: native code receives
 * them as arguments, so that the FFM runtime refuses freed ones.
 */
public record GraphData(int vertexCount, long arcCount, int offsetBytes, MemorySegment offsets,
                        MemorySegment neighbors) {
    /** Offset {@code v}, unchecked against the arcs: callers check what they follow. */
    public long offset(int v) {
        return offsetBytes == Long.BYTES ? offsets.getAtIndex(ValueLayout.JAVA_LONG, v)
                : offsets.getAtIndex(ValueLayout.JAVA_INT, v);
    }

    /** The id of arc {@code arc}, unchecked against the vertex count. */
    public int neighbor(long arc) {
        return neighbors.getAtIndex(ValueLayout.JAVA_INT, arc);
    }
}
