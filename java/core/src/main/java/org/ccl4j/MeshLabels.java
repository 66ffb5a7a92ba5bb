package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;


/**
 * Canonical component labels of a mesh: each labelled cell holds the smallest linear index
 * {@code x + width * (y + height * z)} of its component (a cluster, in percolation's words),
 * background cells (zero cells in foreground mode) hold -1. The book-keeping (count, sizes,
 * histograms, compaction, member lists) is that of {@link Labels}, through {@link #labels()}.
 *
 * <p>The labels are where they were written: in the caller's arena or segment for the labelling
 * overloads that take one, on the Java heap for the others ({@link ComponentLabeler#label(Grid)},
 * {@link MeshUnionFind#label(Grid, MeshOptions)}). Once their memory is freed, reading them (and
 * the book-keeping) throws {@link IllegalStateException}.
 */
public final class MeshLabels {
    private final int width;
    private final int height;
    private final int depth;
    private final Labels labels;

    /**
     * Labels of a {@code width × height × depth} mesh in {@code labels} (native-order ints, x fastest,
     * native or on the Java heap; not copied), for instance labels saved earlier; {@code timings} may
     * be null when nothing was measured.
     */
    public MeshLabels(int width, int height, int depth, MemorySegment labels, Timings timings) {
        this(width, height, depth, labels, timings, null);
    }

    MeshLabels(int width, int height, int depth, MemorySegment labels, Timings timings, ComponentLabeler owner) {
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
        this.labels = new Labels(labels.asSlice(0, count * Integer.BYTES), (int) count, timings, owner);
    }

    /** The same labels, copied onto the Java heap. */
    MeshLabels copyToHeap() {
        return new MeshLabels(width, height, depth, labels.copyToHeap());
    }

    private MeshLabels(int width, int height, int depth, Labels labels) {
        this.width = width;
        this.height = height;
        this.depth = depth;
        this.labels = labels;
    }

    /** Cells per row of the mesh (along x). */
    public int width() {
        return width;
    }

    /** Rows per layer of the mesh (along y). */
    public int height() {
        return height;
    }

    /** 1 for a 2D mesh. */
    public int depth() {
        return depth;
    }

    /** {@code width() * height() * depth()}: the number of labels. */
    public int cellCount() {
        return width * height * depth;
    }

    /** The label of the cell at a linear index: the smallest index of its component, or -1 for background. */
    public int get(int index) {
        return labels.get(index);
    }

    /** The label of cell (x, y, z). */
    public int get(int x, int y, int z) {
        return get(index(x, y, z));
    }

    /** A read-only view of the labels ({@link #cellCount()} native-order ints, x fastest). */
    public MemorySegment segment() {
        return labels.segment();
    }

    /**
     * The labels as {@link Labels}, one entry per cell, for the rest of the book-keeping: component
     * sizes, histograms, compaction, member lists and filters, with background cells (-1) left out.
     */
    public Labels labels() {
        return labels;
    }

    /** The labels copied into a Java array. */
    public int[] toArray() {
        return labels.toArray();
    }

    /** What the labelling call measured, or null when these labels were not produced by a call. */
    public Timings timings() {
        return labels.timings();
    }

    /** The number of components, background excluded (as {@link Labels#count()}). */
    public long count() {
        return labels.count();
    }

    /** The number of cells of the largest component, 0 when every cell is background. */
    public int largestComponentSize() {
        return labels.largestComponentSize();
    }

    /** The label of the largest component (the smallest such label on ties), or -1 when every cell is background. */
    public int largestComponentLabel() {
        return labels.largestComponentLabel();
    }

    /** The number of cells of the component of the cell at a linear index; 0 for a background cell. */
    public int componentSize(int index) {
        return labels.componentSize(index);
    }

    /** The number of cells of the component of cell (x, y, z); 0 for a background cell. */
    public int componentSize(int x, int y, int z) {
        return componentSize(index(x, y, z));
    }

    /**
     * The statistics of these labels' clusters, with {@code grid} (the labelled grid) as intensity:
     * one row per cluster in raster numbering (the labels of OpenCV and scikit-image), computed on
     * the labels' backend. The table owns its memory: close it to free it.
     */
    public MeshStatistics statistics(Grid grid) {
        return statistics(grid, MeshOptions.defaults(), StatisticsOptions.defaults());
    }

    /**
     * The statistics of these labels' clusters in the numbering of {@code statistics}, summing its
     * intensity (default: {@code grid}, the labelled grid). {@code options} are those the labels were
     * made with: their boundaries, connectivity and mode decide which clusters wrap around a
     * periodic axis. The table owns its memory.
     *
     * @throws IllegalArgumentException when the grid's or the intensity's extents are not these
     *                                  labels', or the labels are not canonical (naming the first
     *                                  entry that is not)
     */
    public MeshStatistics statistics(Grid grid, MeshOptions options, StatisticsOptions statistics) {
        return OwnedArena.make(owned -> statistics(grid, options, statistics, owned, owned));
    }

    /** As {@link #statistics(Grid, MeshOptions, StatisticsOptions)}, with the table and its labels in {@code arena}. */
    public MeshStatistics statistics(Grid grid, MeshOptions options, StatisticsOptions statistics, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        return statistics(grid, options, statistics, arena, null);
    }

    private MeshStatistics statistics(Grid grid, MeshOptions mesh, StatisticsOptions options, Arena arena, Arena owned) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(mesh, "options");
        Objects.requireNonNull(options, "statistics");
        mesh.connectivityFor(grid);
        if (grid.width() != width || grid.height() != height || grid.depth() != depth) {
            throw new IllegalArgumentException("the grid is " + grid.width() + "x" + grid.height() + "x" + grid.depth()
                    + ", the labels " + width + "x" + height + "x" + depth + ": they must match");
        }
        Intensity intensity = options.intensityFor(grid);
        MemorySegment out = labels.copyInto(arena);
        ComponentLabeler labeler = labels.statisticsLabeler();
        StatisticsColumns columns;
        if (labeler == null) {
            columns = JavaStatistics.mesh(grid, mesh, out, intensity, options.numbering(), out, arena);
        } else {
            if (!grid.cells().isNative() || !intensity.values().isNative()) {
                throw new IllegalArgumentException("the cells of " + grid + " or its intensity are on the Java heap; the "
                        + labeler.backend() + " backend needs them off-heap");
            }
            columns = NativeStatistics.mesh(labeler, grid, mesh, out, options, out, arena);
        }
        return new MeshStatistics(width, height, depth, options.numbering(), out, columns, null, owned, labeler);
    }

    private int index(int x, int y, int z) {
        Objects.checkIndex(x, width);
        Objects.checkIndex(y, height);
        Objects.checkIndex(z, depth);
        return x + width * (y + height * z);
    }

    @Override
    public String toString() {
        return "MeshLabels[" + width + "x" + height + (depth > 1 ? "x" + depth : "") + ", components=" + count()
                + ", largest=" + largestComponentSize() + "]";
    }
}
