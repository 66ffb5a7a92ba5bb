package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Objects;

import org.ccl4j.engine.serial.SerialUnionFind;

/**
 * Mesh labelling by union-find, in Java, on one thread: the test oracle of the other mesh
 * algorithms ({@link MeshAlgorithm#JAVA}, the {@link Backend#JAVA} mesh backend's, among them).
 *
 * <p>The labels segment serves as the parent array. Every labelled cell is joined with each
 * connected neighbour of the backward half of its neighbourhood, always hooking the larger root
 * under the smaller; so a cell's parent is never larger than the
 * cell, every root is the smallest index of its tree, and one pass in increasing order turns the
 * parents into canonical labels.
 */
public final class MeshUnionFind {
    /** The longest Java array the JVMs in use allocate. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    private MeshUnionFind() {
    }

    /**
     * Labels {@code grid}, into a Java array (an {@code int[]}, or a {@code long[]} for int64 labels,
     * {@link MeshOptions#labelBytesFor}): the labels are on the Java heap.
     *
     * @param grid the cells to label
     * @param options the connectivity, boundaries and mode (the algorithm is ignored)
     * @return the labels, on the Java heap
     * @throws IllegalArgumentException when the grid has more cells than a Java array holds
     */
    public static MeshLabels label(Grid grid, MeshOptions options) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        if (grid.cellCount() > MAX_ARRAY) {
            throw new IllegalArgumentException(grid + " has " + grid.cellCount() + " cells, more than a Java array holds ("
                    + MAX_ARRAY + "): label it into a native segment with label(grid, options, labels)");
        }
        int n = (int) grid.cellCount();
        return label(grid, options, options.labelBytesFor(grid) == Long.BYTES ? MemorySegment.ofArray(new long[n])
                : MemorySegment.ofArray(new int[n]));
    }

    /**
     * Labels {@code grid} into {@code labels}: at least {@code grid.cellCount()} labels of
     * {@code options.labelBytesFor(grid)} bytes (int32 or int64).
     *
     * @param grid the cells to label
     * @param options the connectivity, boundaries and mode (the algorithm is ignored)
     * @param labels where the labels are written
     * @return the labels, over {@code labels}
     */
    public static MeshLabels label(Grid grid, MeshOptions options, MemorySegment labels) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(labels, "labels");
        int labelBytes = options.labelBytesFor(grid);
        String type = labelBytes == Long.BYTES ? "longs" : "ints";
        if (labels.isReadOnly() || labels.byteSize() / labelBytes < grid.cellCount()) {
            throw new IllegalArgumentException("labels must be a writable segment of at least " + grid.cellCount()
                    + " " + type + ", got " + labels.byteSize() + " bytes" + (labels.isReadOnly() ? " (read-only)" : ""));
        }
        long start = System.nanoTime();
        SerialUnionFind.labelMesh(grid.data(), options.settings(grid), labels, labelBytes);
        double ms = (System.nanoTime() - start) / 1e6;
        return new MeshLabels(grid.width(), grid.height(), grid.depth(), labelBytes, labels,
                new Timings(ms, Map.of("label", ms), 0, Backend.JAVA, MeshAlgorithm.JAVA), null);
    }
}
