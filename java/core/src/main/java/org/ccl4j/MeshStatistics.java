package org.ccl4j;

import static org.ccl4j.engine.spi.StatisticsTable.Column.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.internal.OwnedArena;

/**
 * The statistics of a mesh's components, one row per component in the order of its
 * {@link Numbering}, and the cells' labels in that numbering: a columnar table, one off-heap
 * segment per {@link StatisticsColumn}, with typed accessors and a {@link Region} view per row.
 *
 * <p>How the values are computed, on every backend alike: sizes, bounding boxes, faces and the sums
 * of coordinates are exact integers and a centroid is the coordinate sum over the size as doubles,
 * so they agree bit for bit across backends; integer intensities are summed exactly in 64 bits, so
 * their sums and means do too; float intensities are summed in double in an order that depends on
 * the backend and its threads (equal to about 1e-12 relative). NaN intensities take no part in the
 * minimum and maximum (NumPy's nanmin and nanmax: NaN only for a component whose every intensity
 * is NaN) and make the sum and mean NaN (np.sum, np.mean), on every backend. On periodic axes a
 * component that crosses the boundary keeps its cells' coordinates in the array: its bounding box and centroid
 * are those of its cells as stored, as OpenCV or scikit-image report for the same array, rather
 * than of an unwrapped copy, which a component wrapping all the way round (one that percolates)
 * does not have. Whether it wraps around a periodic axis (percolates) is in {@link #wraps(int)}.
 * A table made {@link StatisticsOptions#withMeasurements() with measurements} also has the shape
 * columns, from which {@link #measurements(Spacing)} derives scikit-image's shape properties.
 *
 * <p>The table's memory is an arena's: the caller's (the overloads that take one), or the table's
 * own, freed by {@link #close()}, or by the garbage collector once the table is unreachable (a
 * forgotten table does not keep its memory for good; the segments it hands out are valid while it
 * is reachable). Reading after that throws {@link IllegalStateException}.
 */
public final class MeshStatistics implements AutoCloseable {
    private final int width;
    private final int height;
    private final int depth;
    private final Numbering numbering;
    private final int labelBytes;
    private final MemorySegment labels;
    private final StatisticsTable columns;
    private final Timings timings;
    private final OwnedArena owned;  // null when the caller's arena holds the memory
    private final Engine engine;  // whose backend made the table; null: none in particular

    MeshStatistics(int width, int height, int depth, Numbering numbering, int labelBytes, MemorySegment labels,
                   StatisticsTable columns, Timings timings, OwnedArena owned, Engine engine) {
        this.width = width;
        this.height = height;
        this.depth = depth;
        this.numbering = numbering;
        this.labelBytes = labelBytes;
        this.labels = labels;
        this.columns = columns;
        this.timings = timings;
        this.owned = owned;
        this.engine = engine;
    }

    /**
     * The number of components: the table's rows.
     *
     * @return the number of rows
     */
    public int count() {
        return (int) columns.rows();
    }

    /**
     * The numbering of the rows and labels.
     *
     * @return the numbering
     */
    public Numbering numbering() {
        return numbering;
    }

    /**
     * Cells per row of the labelled grid.
     *
     * @return the width
     */
    public int width() {
        return width;
    }

    /**
     * Rows per layer of the labelled grid.
     *
     * @return the height
     */
    public int height() {
        return height;
    }

    /**
     * Layers of the labelled grid, 1 in 2D.
     *
     * @return the depth
     */
    public int depth() {
        return depth;
    }

    /**
     * The cells' labels in the table's numbering ({@code width * height * depth} native-order ints,
     * or longs when {@link #isWide()}, x fastest, read-only): the label of row r's cells is
     * {@link #label(int) label(r)}, background cells hold {@link Numbering#background()}.
     *
     * @return the labels, read-only
     */
    public MemorySegment labels() {
        return labels.asReadOnly();
    }

    /**
     * The bytes of one of {@link #labels()}: 4 (int32), or 8 (int64) for the labels of large grids.
     *
     * @return 4 or 8
     */
    public int labelBytes() {
        return labelBytes;
    }

    /**
     * Whether the labels are int64 ({@link MeshOptions#labelBytesFor(Grid)}).
     *
     * @return whether the labels are int64
     */
    public boolean isWide() {
        return labelBytes == Long.BYTES;
    }

    /**
     * The labels as {@link MeshLabels} (not copied), for the book-keeping of {@link Labels} (sizes,
     * histograms, member lists) on the backend that made the table.
     *
     * @return the canonical labels
     * @throws IllegalStateException unless the table's numbering is {@link Numbering#CANONICAL}, the
     *                               labels that {@code MeshLabels} hold
     */
    public MeshLabels canonicalLabels() {
        if (numbering != Numbering.CANONICAL) {
            throw new IllegalStateException("the labels of this table are in " + numbering
                    + " numbering; MeshLabels hold canonical ones (Numbering.CANONICAL)");
        }
        return new MeshLabels(width, height, depth, labelBytes, labels, timings, engine, this);
    }

    /**
     * What the labelling call measured (the statistics are a phase of it), or null when no labelling ran.
     *
     * @return the timings, or null
     */
    public Timings timings() {
        return timings;
    }

    /**
     * A column, read-only: {@link #count()} values of the column's layout.
     *
     * @param column a column of mesh tables ({@link StatisticsColumn#inMeshTables()})
     * @return its values, one per row
     */
    public MemorySegment column(StatisticsColumn column) {
        return columns.get(java.util.Objects.requireNonNull(column, "column").column());
    }

    /**
     * The row's label in the table's numbering (a long: canonical labels of large grids exceed an int).
     *
     * @param row the row index, below {@link #count()}
     * @return its label
     */
    public long label(int row) {
        return columns.getLong(LABEL, row);
    }

    /**
     * The component's smallest linear cell index (its canonical label).
     *
     * @param row the row index, below {@link #count()}
     * @return its smallest cell index
     */
    public long first(int row) {
        return columns.getLong(FIRST, row);
    }

    /**
     * Its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return its number of cells
     */
    public long size(int row) {
        return columns.getLong(SIZE, row);
    }

    /**
     * The smallest x of its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the box's smallest x
     */
    public int minX(int row) {
        return columns.getInt(MIN_X, row);
    }

    /**
     * The smallest y of its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the box's smallest y
     */
    public int minY(int row) {
        return columns.getInt(MIN_Y, row);
    }

    /**
     * The smallest z of its cells (0 in 2D).
     *
     * @param row the row index, below {@link #count()}
     * @return the box's smallest z
     */
    public int minZ(int row) {
        return columns.getInt(MIN_Z, row);
    }

    /**
     * The largest x of its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the box's largest x
     */
    public int maxX(int row) {
        return columns.getInt(MAX_X, row);
    }

    /**
     * The largest y of its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the box's largest y
     */
    public int maxY(int row) {
        return columns.getInt(MAX_Y, row);
    }

    /**
     * The largest z of its cells (0 in 2D).
     *
     * @param row the row index, below {@link #count()}
     * @return the box's largest z
     */
    public int maxZ(int row) {
        return columns.getInt(MAX_Z, row);
    }

    /**
     * The mean x of its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the centroid's x
     */
    public double centroidX(int row) {
        return columns.getDouble(CENTROID_X, row);
    }

    /**
     * The mean y of its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the centroid's y
     */
    public double centroidY(int row) {
        return columns.getDouble(CENTROID_Y, row);
    }

    /**
     * The mean z of its cells (0 in 2D).
     *
     * @param row the row index, below {@link #count()}
     * @return the centroid's z
     */
    public double centroidZ(int row) {
        return columns.getDouble(CENTROID_Z, row);
    }

    /**
     * The {@link Face} bits of the faces it touches.
     *
     * @param row the row index, below {@link #count()}
     * @return its {@link Face} bits
     */
    public int touches(int row) {
        return columns.getInt(TOUCHES, row);
    }

    /**
     * The sum of the intensity over its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the intensity's sum
     */
    public double sum(int row) {
        return columns.getDouble(SUM, row);
    }

    /**
     * The smallest intensity of its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the intensity's minimum
     */
    public double min(int row) {
        return columns.getDouble(MIN, row);
    }

    /**
     * The largest intensity of its cells.
     *
     * @param row the row index, below {@link #count()}
     * @return the intensity's maximum
     */
    public double max(int row) {
        return columns.getDouble(MAX, row);
    }

    /**
     * The mean intensity of its cells: the sum over the size.
     *
     * @param row the row index, below {@link #count()}
     * @return the intensity's mean
     */
    public double mean(int row) {
        return columns.getDouble(MEAN, row);
    }

    /**
     * The periodic axes it wraps around: bits 1 = x, 2 = y, 4 = z ({@link StatisticsColumn#WRAPS}).
     *
     * @param row the row index, below {@link #count()}
     * @return its wrap bits
     */
    public int wraps(int row) {
        return columns.getInt(WRAPS, row);
    }

    /**
     * Whether the table has the measurement columns ({@link StatisticsOptions#withMeasurements()}).
     *
     * @return whether it was made with measurements
     */
    public boolean measured() {
        return columns.measured();
    }

    /**
     * scikit-image's shape properties of the rows (regionprops' {@code area}, {@code moments_central},
     * {@code inertia_tensor}, {@code orientation}, {@code axis_major_length}, ... ) under {@code spacing}.
     *
     * @param spacing the cell's extents along x, y and z
     * @return the measures of this table's rows, valid while the table is
     * @throws IllegalStateException when the table was made without measurements
     */
    public Measurements measurements(Spacing spacing) {
        return new Measurements(columns, java.util.Objects.requireNonNull(spacing, "spacing"), depth > 1);
    }

    /**
     * As {@link #measurements(Spacing)} in unit cells.
     *
     * @return the measures of this table's rows in cells
     * @throws IllegalStateException when the table was made without measurements
     */
    public Measurements measurements() {
        return measurements(Spacing.UNIT);
    }

    /**
     * Row {@code row} as a record.
     *
     * @param row the row index, below {@link #count()}
     * @return the row's values
     */
    public Region region(int row) {
        return new Region(label(row), first(row), size(row), minX(row), minY(row), minZ(row), maxX(row), maxY(row),
                maxZ(row), centroidX(row), centroidY(row), centroidZ(row), touches(row), sum(row), min(row), max(row),
                mean(row), wraps(row));
    }

    /**
     * The rows as records, in order.
     *
     * @return one record per row
     */
    public Stream<Region> regions() {
        return LongStream.range(0, count()).mapToObj(r -> region((int) r));
    }

    /**
     * The first min(k, count()) rows as records.
     *
     * @param k the number of rows wanted
     * @return at most {@code k} records
     */
    public List<Region> regions(int k) {
        if (k < 0) {
            throw new IllegalArgumentException("k must not be negative, got " + k);
        }
        return regions().limit(k).toList();
    }

    /** Frees the table's memory when it is its own; tables in a caller's arena live as long as it does. */
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }

    @Override
    public String toString() {
        return "MeshStatistics[" + width + "x" + height + (depth > 1 ? "x" + depth : "") + ", " + count()
                + " components, " + numbering + "]";
    }
}
