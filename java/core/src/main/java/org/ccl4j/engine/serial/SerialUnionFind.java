package org.ccl4j.engine.serial;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.engine.spi.EdgeData;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.MeshSettings;

/**
 * Union-find with path halving on one thread, through segments: the test oracle of every other
 * algorithm (the API's {@code UnionFind} and {@code MeshUnionFind} are these), and the JVM engine's
 * labelling where native access is denied to the module and memory cannot be reached by address.
 *
 * <p>Union by index (the larger root is attached to the smaller) keeps every root the smallest
 * element of its set, so one pass in increasing order, in which every parent is already final,
 * turns the parents into canonical labels.
 */
public final class SerialUnionFind {
    private SerialUnionFind() {
    }

    /**
     * Writes canonical labels of {@code graph} into {@code labels} ({@code vertexCount} ints). Ids
     * are followed unchecked but through bounds-checked accesses: a malformed graph throws.
     */
    public static void label(GraphData graph, MemorySegment labels) {
        int n = graph.vertexCount();
        int[] parent = identity(n);
        for (int u = 0; u < n; u++) {
            long end = graph.offset(u + 1);
            for (long a = graph.offset(u); a < end; a++) {
                int v = graph.neighbor(a);
                if (v > u) {
                    union(parent, u, v);
                }
            }
        }
        pointAtRoots(parent, labels);
    }

    /**
     * Writes canonical labels of {@code edges} into {@code labels} unless it is null; returns the
     * parents, which are the labels.
     *
     * @throws IllegalArgumentException naming the first edge with an id outside {@code [0, n)}
     */
    public static int[] label(EdgeData edges, MemorySegment labels) {
        int n = edges.vertexCount();
        int[] parent = identity(n);
        for (long e = 0; e < edges.edgeCount(); e++) {
            int u = edges.source(e);
            int v = edges.target(e);
            if (Integer.compareUnsigned(u, n) >= 0 || Integer.compareUnsigned(v, n) >= 0) {
                throw EdgeData.badEdge(e, u, v, n);
            }
            union(parent, u, v);
        }
        pointAtRoots(parent, labels);
        return parent;
    }

    /**
     * Labels {@code grid} into {@code labels} (the parent array: ints, or longs when
     * {@code labelBytes} is 8): every labelled cell joined with each connected neighbour of the
     * backward half of its neighbourhood ({@link MeshNeighbourhood}).
     */
    public static void labelMesh(GridData grid, MeshSettings settings, MemorySegment labels, int labelBytes) {
        LabelArray parent = new LabelArray(labels, labelBytes == Long.BYTES);
        MeshNeighbourhood cells = new MeshNeighbourhood(grid, settings);
        cells.initRows(labels, parent.wide(), 0, cells.rows());
        cells.joinRows(0, cells.rows(), (a, b) -> union(parent, a, b));
        // parent(i) <= i and smaller cells are done already, so get(parent(i)) is the root.
        for (long i = 0; i < grid.cellCount(); i++) {
            long p = parent.get(i);
            if (p >= 0) {
                parent.set(i, parent.get(p));
            }
        }
    }

    private static int[] identity(int n) {
        int[] parent = new int[n];
        for (int v = 0; v < n; v++) {
            parent[v] = v;
        }
        return parent;
    }

    /**
     * Points every vertex of a complete forest whose roots are the smallest of their trees at its
     * root (parents are smaller, so final when visited), and copies the result into {@code out}
     * unless it is null.
     */
    public static void pointAtRoots(int[] parent, MemorySegment out) {
        for (int v = 0; v < parent.length; v++) {
            parent[v] = parent[parent[v]];
        }
        if (out != null) {
            MemorySegment.copy(parent, 0, out, ValueLayout.JAVA_INT, 0, parent.length);
        }
    }

    private static int find(int[] parent, int v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];  // path halving
            v = parent[v];
        }
        return v;
    }

    /** Joins the sets of {@code a} and {@code b}, the larger root hooked under the smaller. */
    public static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra < rb) {
            parent[rb] = ra;
        } else if (rb < ra) {
            parent[ra] = rb;
        }
    }

    private static long find(LabelArray parent, long i) {
        while (parent.get(i) != i) {
            parent.set(i, parent.get(parent.get(i)));  // path halving
            i = parent.get(i);
        }
        return i;
    }

    private static void union(LabelArray parent, long a, long b) {
        long ra = find(parent, a);
        long rb = find(parent, b);
        if (ra < rb) {
            parent.set(rb, ra);
        } else if (rb < ra) {
            parent.set(ra, rb);
        }
    }
}
