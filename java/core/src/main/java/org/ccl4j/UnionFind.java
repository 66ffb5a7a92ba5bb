package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

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
     */
    public static void label(CsrGraph graph, MemorySegment labels) {
        int n = graph.vertexCount();
        if (labels.byteSize() < (long) n * Integer.BYTES) {
            throw new IllegalArgumentException("labels segment holds " + labels.byteSize() / Integer.BYTES
                    + " ints but the graph has " + n + " vertices");
        }
        int[] parent = new int[n];
        for (int v = 0; v < n; v++) {
            parent[v] = v;
        }
        for (int u = 0; u < n; u++) {
            long end = graph.rawOffset(u + 1);
            for (long a = graph.rawOffset(u); a < end; a++) {
                int v = graph.rawNeighbor(a);
                if (v > u) {
                    union(parent, u, v);
                }
            }
        }
        for (int v = 0; v < n; v++) {
            // Roots are smaller than their members, so parents are final when visited in order.
            int root = parent[v] == v ? v : parent[parent[v]];
            parent[v] = root;
            labels.setAtIndex(ValueLayout.JAVA_INT, v, root);
        }
    }

    /** Canonical labels of {@code graph} as a Java array. */
    public static int[] labels(CsrGraph graph) {
        int[] out = new int[graph.vertexCount()];
        label(graph, MemorySegment.ofArray(out));
        return out;
    }

    private static int find(int[] parent, int v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    }

    /** Joins the sets of {@code a} and {@code b}, the larger root hooked under the smaller. */
    static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra < rb) {
            parent[rb] = ra;
        } else if (rb < ra) {
            parent[ra] = rb;
        }
    }
}
