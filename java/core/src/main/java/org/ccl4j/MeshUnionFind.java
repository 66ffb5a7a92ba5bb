package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.Objects;


/**
 * Mesh labelling by union-find, in Java, on one thread: the test oracle of the other mesh
 * algorithms ({@link MeshParallelUnionFind}, the {@link Backend#JAVA} mesh backend, among them).
 *
 * <p>The labels segment serves as the parent array. Every labelled cell is joined with each
 * connected neighbour of the backward half of its neighbourhood ({@link MeshNeighbourhood}),
 * always hooking the larger root under the smaller; so a cell's parent is never larger than the
 * cell, every root is the smallest index of its tree, and one pass in increasing order turns the
 * parents into canonical labels.
 */
public final class MeshUnionFind {
    private MeshUnionFind() {
    }

    /** Labels {@code grid}, into a Java array: the labels are on the Java heap. */
    public static MeshLabels label(Grid grid, MeshOptions options) {
        Objects.requireNonNull(grid, "grid");
        return label(grid, options, MemorySegment.ofArray(new int[grid.cellCount()]));
    }

    /** Labels {@code grid} into {@code labels} (at least {@code grid.cellCount()} ints). */
    public static MeshLabels label(Grid grid, MeshOptions options, MemorySegment labels) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(labels, "labels");
        if (labels.isReadOnly() || labels.byteSize() < (long) grid.cellCount() * Integer.BYTES) {
            throw new IllegalArgumentException("labels must be a writable segment of at least " + grid.cellCount()
                    + " ints, got " + labels.byteSize() + " bytes" + (labels.isReadOnly() ? " (read-only)" : ""));
        }
        MeshNeighbourhood cells = new MeshNeighbourhood(grid, options);
        long start = System.nanoTime();
        cells.initRows(labels, 0, cells.rows());
        cells.joinRows(0, cells.rows(), (i, j) -> union(labels, i, j));
        // parent(i) <= i and smaller cells are done already, so get(parent(i)) is the root.
        for (int i = 0; i < grid.cellCount(); i++) {
            int p = get(labels, i);
            if (p >= 0) {
                set(labels, i, get(labels, p));
            }
        }
        double ms = (System.nanoTime() - start) / 1e6;
        return new MeshLabels(grid.width(), grid.height(), grid.depth(), labels,
                new Timings(ms, Map.of("label", ms), 0, Backend.JAVA, MeshAlgorithm.JAVA));
    }

    private static int find(MemorySegment parent, int i) {
        while (get(parent, i) != i) {
            set(parent, i, get(parent, get(parent, i)));  // path halving
            i = get(parent, i);
        }
        return i;
    }

    private static void union(MemorySegment parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra < rb) {
            set(parent, rb, ra);
        } else if (rb < ra) {
            set(parent, ra, rb);
        }
    }

    private static int get(MemorySegment parent, int i) {
        return parent.getAtIndex(ValueLayout.JAVA_INT, i);
    }

    private static void set(MemorySegment parent, int i, int value) {
        parent.setAtIndex(ValueLayout.JAVA_INT, i, value);
    }
}
