package org.ccl4j;

import java.lang.foreign.MemorySegment;

import org.ccl4j.engine.serial.SerialUnionFind;

/**
 * Union-find with path halving over a {@link CsrGraph}, in plain Java on one thread: the oracle
 * every other algorithm is tested against, the {@link Backend#JAVA} backend's parallel union-find
 * among them.
 *
 * <p>Union by index (the larger root is attached to the smaller) keeps every root the smallest
 * vertex of its set, so the result is canonical without a relabelling pass.
 */
public final class UnionFind {
    private UnionFind() {
    }

    /**
     * Writes canonical labels of {@code graph} into {@code labels} ({@code vertexCount} ints):
     * each vertex gets the smallest vertex id of its component.
     *
     * @param graph the graph to label
     * @param labels where the labels are written, at least {@code graph.vertexCount()} ints
     */
    public static void label(CsrGraph graph, MemorySegment labels) {
        int n = graph.vertexCount();
        if (labels.byteSize() < (long) n * Integer.BYTES) {
            throw new IllegalArgumentException("labels segment holds " + labels.byteSize() / Integer.BYTES
                    + " ints but the graph has " + n + " vertices");
        }
        SerialUnionFind.label(graph.data(), labels);
    }

    /**
     * Canonical labels of {@code graph} as a Java array.
     *
     * @param graph the graph to label
     * @return the canonical labels, one per vertex
     */
    public static int[] labels(CsrGraph graph) {
        int[] out = new int[graph.vertexCount()];
        label(graph, MemorySegment.ofArray(out));
        return out;
    }
}
