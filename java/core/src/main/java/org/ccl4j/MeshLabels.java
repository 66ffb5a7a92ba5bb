package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.ContactSettings;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.engine.spi.WideCounts;
import org.ccl4j.internal.OwnedArena;
import org.ccl4j.internal.UninitializedMemory;

/**
 * Canonical component labels of a mesh: each labelled cell holds the smallest linear index
 * {@code x + width * (y + height * z)} of its component (a cluster, in percolation's words),
 * background cells (zero cells in foreground mode) hold -1.
 *
 * <p>Labels are int32 ({@link #labelBytes()} 4) on grids of at most {@link Integer#MAX_VALUE}
 * cells, and int64 (8, "wide") beyond or when {@link MeshOptions#wideLabels()} asks for them. The
 * accessors here read either as longs. The book-keeping of int32 labels (count, sizes, histograms,
 * compaction, member lists) is that of {@link Labels}, through {@link #labels()}. Int64 labels have
 * the count, the size of a cell's cluster and the largest cluster ({@link #count()},
 * {@link #componentSize(long)}, {@link #largestComponentSize()}, {@link #largestComponentLabel()}),
 * computed in Java on all cores in memory of a bit a cell and 8 bytes a cluster (a copy of 4 or 8
 * bytes a cell, as the int32 book-keeping makes, would not fit beside the labels of the largest
 * grids), and {@link #statistics} tables as int32 labels do (computed on the host, see
 * {@link ComponentLabeler#labelWithStatistics}); {@link #labels()} and {@link #toArray()} need
 * int32 labels.
 *
 * <p>The labels are where they were written: in the caller's arena or segment for the labelling
 * overloads that take one; for the others ({@link ComponentLabeler#label(Grid)},
 * {@link MeshUnionFind#label(Grid, MeshOptions)}) on the Java heap, or for int64 labels of
 * {@link ComponentLabeler#label(Grid, MeshOptions)} in native memory that the garbage collector
 * frees (past 2^31 entries they fit no Java array). Once their memory is freed, reading them (and
 * the book-keeping) throws {@link IllegalStateException}.
 */
public final class MeshLabels {
    private final GridDims dims;
    private final int labelBytes;
    private final MemorySegment segment;  // exactly cellCount() labels
    private final Labels labels;  // the book-keeping of int32 labels; null for int64 ones
    private final Timings timings;
    private final Engine engine;  // whose backend made the labels; null: none in particular
    private WideCounts wide;  // the book-keeping of int64 labels, computed on demand
    private final Object memoryOwner;  // kept reachable: it frees the labels' memory once it is not

    /**
     * Int32 labels of a {@code width × height × depth} mesh in {@code labels} (native-order ints, x
     * fastest, native or on the Java heap; not copied), for instance labels saved earlier;
     * {@code timings} may be null when nothing was measured.
     *
     * @param width cells per row
     * @param height rows per layer
     * @param depth layers, 1 in 2D
     * @param labels the labels, {@code width * height * depth} ints
     * @param timings what the labelling measured, or null
     */
    public MeshLabels(int width, int height, int depth, MemorySegment labels, Timings timings) {
        this(width, height, depth, Integer.BYTES, labels, timings, null);
    }

    /**
     * Labels of a {@code width × height × depth} mesh in {@code labels}: native-order ints
     * ({@code labelBytes} 4) or longs (8), x fastest, native or on the Java heap, not copied.
     *
     * @param width cells per row
     * @param height rows per layer
     * @param depth layers, 1 in 2D
     * @param labelBytes 4 for int32 labels, 8 for int64
     * @param labels the labels, {@code width * height * depth} of them
     * @param timings what the labelling measured, or null
     * @throws IllegalArgumentException when {@code labelBytes} is neither 4 nor 8, int32 labels
     *                                  are asked for more than {@link Integer#MAX_VALUE} cells, or
     *                                  the segment is too small or not aligned to a label
     */
    public MeshLabels(int width, int height, int depth, int labelBytes, MemorySegment labels, Timings timings) {
        this(width, height, depth, labelBytes, labels, timings, null);
    }

    MeshLabels(int width, int height, int depth, int labelBytes, MemorySegment labels, Timings timings,
               Engine engine) {
        this(width, height, depth, labelBytes, labels, timings, engine, null);
    }

    /** Labels in memory that {@code memoryOwner} (a statistics table) frees once it is unreachable. */
    MeshLabels(int width, int height, int depth, int labelBytes, MemorySegment labels, Timings timings,
               Engine engine, Object memoryOwner) {
        Objects.requireNonNull(labels, "labels");
        if (width < 1 || height < 1 || depth < 1) {
            throw new IllegalArgumentException("mesh dimensions must be positive, got " + width + "x" + height + "x"
                    + depth);
        }
        if (labelBytes != Integer.BYTES && labelBytes != Long.BYTES) {
            throw new IllegalArgumentException("labels are 4 (int32) or 8 (int64) bytes, got " + labelBytes);
        }
        this.dims = new GridDims(width, height, depth);
        long count = dims.cellCount();
        String type = labelBytes == Long.BYTES ? "longs" : "ints";
        if (labelBytes == Integer.BYTES && count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a " + describe() + " mesh has " + count + " cells, more than int32 labels"
                    + " number (" + Integer.MAX_VALUE + "): its labels are int64 (labelBytes 8)");
        }
        if (labels.byteSize() / labelBytes < count) {
            throw new IllegalArgumentException("the labels segment holds " + labels.byteSize() / labelBytes + " " + type
                    + ", a " + describe() + " mesh needs " + count);
        }
        if (labels.maxByteAlignment() < labelBytes || labels.isNative() && labels.address() % labelBytes != 0) {
            throw new IllegalArgumentException("the labels segment is not aligned to " + labelBytes + " bytes");
        }
        this.labelBytes = labelBytes;
        this.segment = labels.asSlice(0, count * labelBytes);
        this.timings = timings;
        this.engine = engine;
        this.labels = labelBytes == Integer.BYTES ? new Labels(segment, (int) count, timings, engine, memoryOwner)
                : null;
        this.memoryOwner = memoryOwner;
    }

    /** The same labels, copied onto the Java heap (int32 labels only). */
    MeshLabels copyToHeap() {
        return new MeshLabels(dims, labels.copyToHeap());
    }

    private MeshLabels(GridDims dims, Labels labels) {
        this.dims = dims;
        this.labelBytes = Integer.BYTES;
        this.labels = labels;
        this.segment = labels.segment();
        this.timings = labels.timings();
        this.engine = null;
        this.memoryOwner = null;  // the heap's
    }

    /**
     * Cells per row of the mesh (along x).
     *
     * @return the width
     */
    public int width() {
        return dims.width();
    }

    /**
     * Rows per layer of the mesh (along y).
     *
     * @return the height
     */
    public int height() {
        return dims.height();
    }

    /**
     * 1 for a 2D mesh.
     *
     * @return the depth
     */
    public int depth() {
        return dims.depth();
    }

    /**
     * The mesh's dimensions.
     *
     * @return the width, height and depth
     */
    public GridDims dims() {
        return dims;
    }

    /**
     * {@code width() * height() * depth()}: the number of labels.
     *
     * @return the number of labels
     */
    public long cellCount() {
        return dims.cellCount();
    }

    /**
     * The bytes of one label: 4 for int32 labels, 8 for int64 ones.
     *
     * @return 4 or 8
     */
    public int labelBytes() {
        return labelBytes;
    }

    /**
     * Whether the labels are int64: {@code labelBytes() == 8}.
     *
     * @return whether the labels are int64
     */
    public boolean isWide() {
        return labels == null;
    }

    /**
     * The label of the cell at a linear index: the smallest index of its component, or -1 for background.
     *
     * @param index a linear index, below {@link #cellCount()}
     * @return the cell's label, or -1
     */
    public long get(long index) {
        Objects.checkIndex(index, cellCount());
        return labels != null ? labels.get((int) index) : alive().getAtIndex(ValueLayout.JAVA_LONG, index);
    }

    /**
     * The label of cell (x, y, z).
     *
     * @param x the column
     * @param y the row
     * @param z the layer, 0 in 2D
     * @return the cell's label, or -1 for background
     */
    public long get(int x, int y, int z) {
        return get(index(x, y, z));
    }

    /**
     * A read-only view of the labels: {@link #cellCount()} native-order ints, or longs when
     * {@link #labelBytes()} is 8, x fastest.
     *
     * @return the labels, read-only
     */
    public MemorySegment segment() {
        return labels != null ? labels.segment() : alive().asReadOnly();
    }

    /**
     * The labels as {@link Labels}, one entry per cell, for the rest of the book-keeping: component
     * sizes, histograms, compaction, member lists and filters, with background cells (-1) left out.
     *
     * @return the labels as {@link Labels}, over the same memory
     * @throws IllegalStateException for int64 labels, which {@link Labels} (int32) cannot hold
     */
    public Labels labels() {
        if (labels == null) {
            throw wideLabels("have no Labels view (Labels hold int32 labels)");
        }
        return labels;
    }

    /**
     * The labels copied into a Java array.
     *
     * @return the labels, {@link #cellCount()} ints
     * @throws IllegalStateException for int64 labels
     */
    public int[] toArray() {
        if (labels == null) {
            throw wideLabels("do not fit an int[]");
        }
        return labels.toArray();
    }

    /**
     * The labels compacted to 0..{@link #count()}-1 by smallest member (the clusters' raster order,
     * {@link Labels.Order#SMALLEST_MEMBER}), background cells -1, in a new segment of {@code arena}:
     * ints for int32 labels, longs for int64 ones (through the book-keeping's bitmap of roots, on
     * all cores where the labels allow).
     *
     * @param arena where the compacted labels are allocated
     * @return the compacted labels
     */
    public MemorySegment compact(Arena arena) {
        Objects.requireNonNull(arena, "arena");
        if (labels != null) {
            MemorySegment compact = labels.compact(Labels.Order.SMALLEST_MEMBER).segment();
            return arena.allocate(compact.byteSize(), Integer.BYTES).copyFrom(compact);
        }
        MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG, cellCount());
        wide().compact(alive(), cellCount(), out);
        return out;
    }

    /**
     * What the labelling call measured, or null when these labels were not produced by a call.
     *
     * @return the timings, or null
     */
    public Timings timings() {
        return timings;
    }

    /**
     * The number of components, background excluded (as {@link Labels#count()}).
     *
     * @return the number of components
     */
    public long count() {
        return labels != null ? labels.count() : wide().components();
    }

    /**
     * The number of cells of the largest component, 0 when every cell is background.
     *
     * @return the size of the largest component
     */
    public long largestComponentSize() {
        return labels != null ? labels.largestComponentSize() : wide().largestSize();
    }

    /**
     * The label of the largest component (the smallest such label on ties), or -1 when every cell is background.
     *
     * @return the label of the largest component, or -1
     */
    public long largestComponentLabel() {
        return labels != null ? labels.largestComponentLabel() : wide().largestLabel();
    }

    /**
     * The number of cells of the component of the cell at a linear index; 0 for a background cell.
     *
     * @param index a linear index, below {@link #cellCount()}
     * @return the size of its component, or 0
     */
    public long componentSize(long index) {
        Objects.checkIndex(index, cellCount());
        if (labels != null) {
            return labels.componentSize((int) index);
        }
        long label = get(index);
        return label < 0 ? 0 : wide().size(label);
    }

    /**
     * The number of cells of the component of cell (x, y, z); 0 for a background cell.
     *
     * @param x the column
     * @param y the row
     * @param z the layer, 0 in 2D
     * @return the size of its component, or 0
     */
    public long componentSize(int x, int y, int z) {
        return componentSize(index(x, y, z));
    }

    /** The int64 book-keeping, made at its first use (in the JVM, whatever the backend). */
    private synchronized WideCounts wide() {
        if (wide == null) {
            try (Engine jvm = Engines.jvm(Ccl4jException.FAILURES)) {
                wide = jvm.wideCounts(alive(), cellCount());
            }
        }
        return wide;
    }

    /** The labels' memory, checked to be alive (int64 labels; Labels checks its own). */
    private MemorySegment alive() {
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the memory of these labels was freed (its arena is closed)");
        }
        return segment;
    }

    private IllegalStateException wideLabels(String what) {
        return new IllegalStateException("the int64 labels of a " + describe() + " mesh " + what
                + ": use count(), componentSize(index), largestComponentSize(), largestComponentLabel(), get(index),"
                + " statistics(grid) and segment() (longs)");
    }

    /**
     * The statistics of these labels' clusters, with {@code grid} (the labelled grid) as intensity:
     * one row per cluster in {@link Numbering#RASTER raster numbering} (scikit-image's labels), computed on
     * the labels' backend. The table owns its memory: close it to free it.
     *
     * @param grid the labelled grid
     * @return the table; close it to free its memory
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
     * @param grid the labelled grid
     * @param options the options the labels were made with
     * @param statistics the numbering of the rows and the intensity to sum
     * @return the table; close it to free its memory
     * @throws IllegalArgumentException when the grid's or the intensity's extents are not these
     *                                  labels', or the labels are not canonical (naming the first
     *                                  entry that is not)
     */
    public MeshStatistics statistics(Grid grid, MeshOptions options, StatisticsOptions statistics) {
        return OwnedArena.make(owned -> statistics(grid, options, statistics, owned.arena(), owned));
    }

    /**
     * As {@link #statistics(Grid, MeshOptions, StatisticsOptions)}, with the table and its labels in {@code arena}.
     *
     * @param grid the labelled grid
     * @param options the options the labels were made with
     * @param statistics the numbering of the rows and the intensity to sum
     * @param arena where the table and its labels are allocated
     * @return the table
     */
    public MeshStatistics statistics(Grid grid, MeshOptions options, StatisticsOptions statistics, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        return statistics(grid, options, statistics, arena, null);
    }

    private MeshStatistics statistics(Grid grid, MeshOptions mesh, StatisticsOptions options, Arena arena,
                                      OwnedArena owned) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(mesh, "options");
        Objects.requireNonNull(options, "statistics");
        if (!GridDims.of(grid).equals(dims)) {
            throw new IllegalArgumentException("the grid is " + grid.width() + "x" + grid.height() + "x" + grid.depth()
                    + ", the labels " + describe() + ": they must match");
        }
        options.intensityFor(grid);  // checks its extents
        MemorySegment out = UninitializedMemory.allocate(arena, alive().byteSize(), labelBytes);
        MemorySegment.copy(segment, 0, out, 0, segment.byteSize());
        try (Engines.Lease lease = Engines.lease(engine, false, Ccl4jException.FAILURES)) {
            StatisticsTable columns = lease.engine().meshStatistics(grid.data(), mesh.settings(grid), out, labelBytes,
                    options.numbering().rows(), options.intensityData(), options.measurements(), out, arena);
            return new MeshStatistics(width(), height(), depth(), options.numbering(), labelBytes, out, columns, null, owned,
                    lease.temporary() ? null : engine);
        }
    }

    /**
     * The contacts between these labels' components with open boundaries: which labels touch and
     * how (cc3d's {@code contacts} and {@code region_graph}), computed on the labels' backend.
     *
     * @param connectivity 4 or 8 in 2D, 6 (faces), 18 (faces and edges) or 26 (all) in 3D, 0 for
     *                     faces; on a single layer 6 acts as 4, 18 and 26 as 8
     * @return one row per pair of touching labels
     * @throws IllegalArgumentException when the connectivity does not fit the grid, or a label is
     *                                  outside -1 .. cellCount()-1 (naming the first such cell)
     */
    public Contacts contacts(int connectivity) {
        return contacts(connectivity, false, false, false);
    }

    /**
     * As {@link #contacts(int)}, with the cells on opposite boundaries of the periodic axes
     * touching too (as they do for labels made with those boundaries).
     *
     * @param connectivity 4 or 8 in 2D, 6, 18 or 26 in 3D, 0 for faces
     * @param periodicX whether x wraps around
     * @param periodicY whether y wraps around
     * @param periodicZ whether z wraps around
     * @return one row per pair of touching labels
     */
    public Contacts contacts(int connectivity, boolean periodicX, boolean periodicY, boolean periodicZ) {
        boolean threeD = dims.depth() > 1;
        int fitted = switch (connectivity) {
            case 0 -> threeD ? 6 : 4;
            case 4, 8 -> {
                if (threeD) {
                    throw new IllegalArgumentException("connectivity " + connectivity + " does not fit a " + describe()
                            + " volume: expected 6, 18 or 26");
                }
                yield connectivity;
            }
            case 6 -> threeD ? 6 : 4;
            case 18, 26 -> threeD ? connectivity : 8;
            default -> throw new IllegalArgumentException("connectivity must be 4 or 8 (2D), 6, 18 or 26 (3D), or 0"
                    + " for faces, got " + connectivity);
        };
        ContactSettings settings = new ContactSettings(dims.width(), dims.height(), dims.depth(), fitted, periodicX,
                periodicY, periodicZ);
        MemorySegment host = labels != null ? labels.hostSegment() : alive();
        try (Engines.Lease lease = Engines.lease(engine, false, Ccl4jException.FAILURES)) {
            return new Contacts(lease.engine().contacts(host, labelBytes, settings), fitted, threeD);
        }
    }

    /** "512x512x1", as messages name a mesh. */
    private String describe() {
        return dims.width() + "x" + dims.height() + "x" + dims.depth();
    }

    private long index(int x, int y, int z) {
        Objects.checkIndex(x, dims.width());
        Objects.checkIndex(y, dims.height());
        Objects.checkIndex(z, dims.depth());
        return x + (long) dims.width() * (y + (long) dims.height() * z);
    }

    @Override
    public String toString() {
        return "MeshLabels[" + dims + (labels == null ? ", int64" : "")
                + ", components=" + count()
                + ", largest=" + largestComponentSize() + "]";
    }
}
