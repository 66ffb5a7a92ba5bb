package org.ccl4j;

import static org.ccl4j.engine.spi.StatisticsTable.Column.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.internal.OwnedArena;

/**
 * The statistics of a graph's components, one row per component in the order of its
 * {@link Numbering}, and the vertices' labels in that numbering: a columnar table, one off-heap
 * segment per {@link StatisticsColumn} of graphs, with typed accessors and a
 * {@link ComponentStatistics} view per row. Every value is an exact integer, the same on every
 * backend. The memory is an arena's: the caller's, or the table's own, freed by {@link #close()} or
 * by the garbage collector once the table is unreachable (its segments are valid while it is reachable).
 */
public final class GraphStatistics implements AutoCloseable {
    private final Numbering numbering;
    private final MemorySegment labels;
    private final StatisticsTable columns;
    private final Timings timings;
    private final OwnedArena owned;  // null when the caller's arena holds the memory

    GraphStatistics(Numbering numbering, MemorySegment labels, StatisticsTable columns, Timings timings, OwnedArena owned) {
        this.numbering = numbering;
        this.labels = labels;
        this.columns = columns;
        this.timings = timings;
        this.owned = owned;
    }

    /** The same table with the timings of the labelling that made it. */
    GraphStatistics withTimings(Timings t) {
        return new GraphStatistics(numbering, labels, columns, t, owned);
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
     * The vertices' labels in the table's numbering (native-order ints, read-only).
     *
     * @return the labels, read-only
     */
    public MemorySegment labels() {
        return labels.asReadOnly();
    }

    /**
     * What the labelling call measured, or null when no labelling ran.
     *
     * @return the timings, or null
     */
    public Timings timings() {
        return timings;
    }

    /**
     * A column of graph tables, read-only: {@link #count()} values of the column's layout.
     *
     * @param column a column of graph tables ({@link StatisticsColumn#inGraphTables()})
     * @return its values, one per row
     */
    public MemorySegment column(StatisticsColumn column) {
        return columns.get(java.util.Objects.requireNonNull(column, "column").column());
    }

    /**
     * The row's label in the table's numbering.
     *
     * @param row the row index, below {@link #count()}
     * @return its label
     */
    public int label(int row) {
        return (int) columns.getLong(LABEL, row);  // vertex ids and rows are ints
    }

    /**
     * The smallest vertex id (the canonical label).
     *
     * @param row the row index, below {@link #count()}
     * @return its smallest vertex id
     */
    public int minVertex(int row) {
        return (int) columns.getLong(FIRST, row);
    }

    /**
     * The largest vertex id.
     *
     * @param row the row index, below {@link #count()}
     * @return its largest vertex id
     */
    public int maxVertex(int row) {
        return columns.getInt(MAX_VERTEX, row);
    }

    /**
     * Its vertices.
     *
     * @param row the row index, below {@link #count()}
     * @return its vertex count
     */
    public long vertices(int row) {
        return columns.getLong(SIZE, row);
    }

    /**
     * Its edges: arcs {@code u -> v} with {@code u < v}, and self-loop arcs.
     *
     * @param row the row index, below {@link #count()}
     * @return its edge count
     */
    public long edges(int row) {
        return columns.getLong(EDGES, row);
    }

    /**
     * The largest number of arcs leaving one of its vertices.
     *
     * @param row the row index, below {@link #count()}
     * @return its largest degree
     */
    public long maxDegree(int row) {
        return columns.getLong(MAX_DEGREE, row);
    }

    /**
     * Row {@code row} as a record.
     *
     * @param row the row index, below {@link #count()}
     * @return the row's values
     */
    public ComponentStatistics component(int row) {
        return new ComponentStatistics(label(row), minVertex(row), maxVertex(row), vertices(row), edges(row),
                maxDegree(row));
    }

    /**
     * The rows as records, in order.
     *
     * @return one record per row
     */
    public Stream<ComponentStatistics> components() {
        return LongStream.range(0, count()).mapToObj(r -> component((int) r));
    }

    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }

    @Override
    public String toString() {
        return "GraphStatistics[" + count() + " components, " + numbering + "]";
    }
}
