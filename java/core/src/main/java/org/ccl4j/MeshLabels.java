package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;


/**
 * Canonical cluster labels of a mesh, off-heap: each labelled cell holds the smallest linear index
 * {@code x + width * (y + height * z)} of its cluster, background cells (zero cells in foreground
 * mode) hold -1. Cluster statistics are computed on first use.
 */
public final class MeshLabels {
    private final int width;
    private final int height;
    private final int depth;
    private final MemorySegment labels;
    private final Timings timings;
    private MemorySegment sizes;
    private long clusterCount;
    private int largestLabel = -1;

    /**
     * Labels of a {@code width × height × depth} mesh in {@code labels} (native-order ints, x fastest),
     * for instance labels saved earlier; {@code timings} may be null when nothing was measured.
     */
    public MeshLabels(int width, int height, int depth, MemorySegment labels, Timings timings) {
        Objects.requireNonNull(labels, "labels");
        if (width < 1 || height < 1 || depth < 1) {
            throw new IllegalArgumentException("mesh dimensions must be positive, got " + width + "x" + height + "x" + depth);
        }
        long count = (long) width * height * depth;
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a mesh holds at most " + Integer.MAX_VALUE + " cells, got " + count);
        }
        if (labels.byteSize() < count * Integer.BYTES) {
            throw new IllegalArgumentException("the labels segment holds " + labels.byteSize() / Integer.BYTES
                    + " ints, a " + width + "x" + height + "x" + depth + " mesh needs " + count);
        }
        if (labels.isNative() && labels.address() % Integer.BYTES != 0) {
            throw new IllegalArgumentException("the labels segment is not aligned to 4 bytes");
        }
        this.width = width;
        this.height = height;
        this.depth = depth;
        this.labels = labels.asSlice(0, count * Integer.BYTES);
        this.timings = timings;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** 1 for a 2D mesh. */
    public int depth() {
        return depth;
    }

    public int cellCount() {
        return width * height * depth;
    }

    /** The label of the cell at a linear index: the smallest index of its cluster, or -1 for background. */
    public int get(int index) {
        Objects.checkIndex(index, cellCount());
        return labels.getAtIndex(ValueLayout.JAVA_INT, index);
    }

    /** The label of cell (x, y, z). */
    public int get(int x, int y, int z) {
        return get(index(x, y, z));
    }

    /** A read-only view of the labels ({@link #cellCount()} native-order ints, x fastest). */
    public MemorySegment segment() {
        return labels.asReadOnly();
    }

    /**
     * The labels as {@link Labels}, for book-keeping: component sizes, histograms, compaction,
     * member lists and filters, with background cells (-1) left out.
     */
    public Labels labels() {
        return Labels.of(labels, cellCount());
    }

    /** The labels copied into a Java array. */
    public int[] toArray() {
        return labels.toArray(ValueLayout.JAVA_INT);
    }

    /** What the labelling call measured, or null when these labels were not produced by a call. */
    public Timings timings() {
        return timings;
    }

    /** The number of clusters, background excluded. */
    public long clusterCount() {
        computeSizes();
        return clusterCount;
    }

    /** The number of cells of the largest cluster, 0 when every cell is background. */
    public int largestClusterSize() {
        computeSizes();
        return largestLabel < 0 ? 0 : sizes.getAtIndex(ValueLayout.JAVA_INT, largestLabel);
    }

    /** The label of the largest cluster (the smallest such label on ties), or -1 when every cell is background. */
    public int largestClusterLabel() {
        computeSizes();
        return largestLabel;
    }

    /** The number of cells of the cluster of the cell at a linear index; 0 for a background cell. */
    public int clusterSize(int index) {
        int label = get(index);
        if (label < 0) {
            return 0;
        }
        computeSizes();
        return sizes.getAtIndex(ValueLayout.JAVA_INT, label);
    }

    /** The number of cells of the cluster of cell (x, y, z); 0 for a background cell. */
    public int clusterSize(int x, int y, int z) {
        return clusterSize(index(x, y, z));
    }

    private int index(int x, int y, int z) {
        Objects.checkIndex(x, width);
        Objects.checkIndex(y, height);
        Objects.checkIndex(z, depth);
        return x + width * (y + height * z);
    }

    private synchronized void computeSizes() {
        if (sizes != null) {
            return;
        }
        int n = cellCount();
        MemorySegment counts = Arena.ofAuto().allocate(ValueLayout.JAVA_INT, n);
        for (int i = 0; i < n; i++) {
            int l = labels.getAtIndex(ValueLayout.JAVA_INT, i);
            if (l < -1 || l >= n) {
                throw new IllegalStateException("cell " + i + " holds label " + l + ", outside -1.." + (n - 1));
            }
            if (l >= 0) {
                counts.setAtIndex(ValueLayout.JAVA_INT, l, counts.getAtIndex(ValueLayout.JAVA_INT, l) + 1);
            }
        }
        long clusters = 0;
        int best = -1;
        int bestSize = 0;
        for (int l = 0; l < n; l++) {
            int size = counts.getAtIndex(ValueLayout.JAVA_INT, l);
            if (size > 0) {
                clusters++;
                if (size > bestSize) {
                    bestSize = size;
                    best = l;
                }
            }
        }
        clusterCount = clusters;
        largestLabel = best;
        sizes = counts;
    }

    @Override
    public String toString() {
        return "MeshLabels[" + width + "x" + height + (depth > 1 ? "x" + depth : "") + ", clusters=" + clusterCount()
                + ", largest=" + largestClusterSize() + "]";
    }
}
