package org.ccl4j.engine.spi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.ccl4j.internal.UninitializedMemory;

/**
 * The columns of a statistics table as the engines fill them: one off-heap segment per column, a
 * value per row, all in one arena (the API's {@code MeshStatistics} and {@code GraphStatistics}
 * read them).
 */
public final class StatisticsTable {
    /**
     * A column: its ABI code ({@code CCL4J_COLUMN_*}), the layout of a value and the tables that
     * have it (the API's {@code StatisticsColumn} documents each).
     */
    public enum Column {
        LABEL(0, ValueLayout.JAVA_LONG, true, true),
        FIRST(1, ValueLayout.JAVA_LONG, true, true),
        SIZE(2, ValueLayout.JAVA_LONG, true, true),
        MIN_X(3, ValueLayout.JAVA_INT, true, false),
        MIN_Y(4, ValueLayout.JAVA_INT, true, false),
        MIN_Z(5, ValueLayout.JAVA_INT, true, false),
        MAX_X(6, ValueLayout.JAVA_INT, true, false),
        MAX_Y(7, ValueLayout.JAVA_INT, true, false),
        MAX_Z(8, ValueLayout.JAVA_INT, true, false),
        CENTROID_X(9, ValueLayout.JAVA_DOUBLE, true, false),
        CENTROID_Y(10, ValueLayout.JAVA_DOUBLE, true, false),
        CENTROID_Z(11, ValueLayout.JAVA_DOUBLE, true, false),
        TOUCHES(12, ValueLayout.JAVA_INT, true, false),
        SUM(13, ValueLayout.JAVA_DOUBLE, true, false),
        MIN(14, ValueLayout.JAVA_DOUBLE, true, false),
        MAX(15, ValueLayout.JAVA_DOUBLE, true, false),
        MEAN(16, ValueLayout.JAVA_DOUBLE, true, false),
        EDGES(17, ValueLayout.JAVA_LONG, false, true),
        MAX_VERTEX(18, ValueLayout.JAVA_INT, false, true),
        MAX_DEGREE(19, ValueLayout.JAVA_LONG, false, true),
        WRAPS(20, ValueLayout.JAVA_INT, true, false),
        MOMENT_XX(21, ValueLayout.JAVA_DOUBLE, true, false),
        MOMENT_YY(22, ValueLayout.JAVA_DOUBLE, true, false),
        MOMENT_ZZ(23, ValueLayout.JAVA_DOUBLE, true, false),
        MOMENT_XY(24, ValueLayout.JAVA_DOUBLE, true, false),
        MOMENT_XZ(25, ValueLayout.JAVA_DOUBLE, true, false),
        MOMENT_YZ(26, ValueLayout.JAVA_DOUBLE, true, false),
        PERIMETER(27, ValueLayout.JAVA_DOUBLE, true, false),
        PERIMETER_8(28, ValueLayout.JAVA_DOUBLE, true, false),
        FACES_X(29, ValueLayout.JAVA_LONG, true, false),
        FACES_Y(30, ValueLayout.JAVA_LONG, true, false),
        FACES_Z(31, ValueLayout.JAVA_LONG, true, false);

        private final int code;
        private final ValueLayout layout;
        private final boolean mesh;
        private final boolean graph;

        Column(int code, ValueLayout layout, boolean mesh, boolean graph) {
            this.code = code;
            this.layout = layout;
            this.mesh = mesh;
            this.graph = graph;
        }

        public int code() {
            return code;
        }

        public ValueLayout layout() {
            return layout;
        }

        public boolean inMeshTables() {
            return mesh;
        }

        public boolean inGraphTables() {
            return graph;
        }

        /** Whether it is a measurement: in mesh tables made with measurements only. */
        public boolean isMeasurement() {
            return code >= MOMENT_XX.code;
        }

        /** Whether a table of this kind ({@code mesh} or graph, {@code measured} or not) has it. */
        public boolean in(boolean mesh, boolean measured) {
            return (mesh ? this.mesh : graph) && (measured || !isMeasurement());
        }
    }

    /** The bits of {@link Column#TOUCHES}: x = 0, x = width - 1, y = 0, ... (the ABI's {@code CCL4J_FACE_*}). */
    public static final int X_MIN = 1;
    public static final int X_MAX = 2;
    public static final int Y_MIN = 4;
    public static final int Y_MAX = 8;
    public static final int Z_MIN = 16;
    public static final int Z_MAX = 32;

    private final Map<Column, MemorySegment> columns = new EnumMap<>(Column.class);
    private final long rows;

    /**
     * Room for {@code rows} rows of every column of a mesh ({@code mesh}) or graph table, in
     * {@code arena}: one block, not zeroed (the engines write every row), cut into the columns.
     */
    public StatisticsTable(Arena arena, long rows, boolean mesh) {
        this(arena, rows, mesh, false);
    }

    /** As {@link #StatisticsTable(Arena, long, boolean)}, with the measurement columns when {@code measured}. */
    public StatisticsTable(Arena arena, long rows, boolean mesh, boolean measured) {
        this.rows = rows;
        long room = Math.max(1, rows) * Long.BYTES;  // every value takes at most 8 bytes, aligned so
        long columnCount = Arrays.stream(Column.values()).filter(c -> c.in(mesh, measured)).count();
        MemorySegment block = UninitializedMemory.allocate(arena, columnCount * room, Long.BYTES);
        long at = 0;
        for (Column c : Column.values()) {
            if (c.in(mesh, measured)) {
                columns.put(c, block.asSlice(at, Math.max(1, rows) * c.layout().byteSize()));
                at += room;
            }
        }
    }

    public long rows() {
        return rows;
    }

    public Set<Column> columns() {
        return columns.keySet();
    }

    /** Whether it has the measurement columns. */
    public boolean measured() {
        return columns.containsKey(Column.MOMENT_XX);
    }

    /** The column's segment, writable: for the engines that fill it. */
    public MemorySegment writable(Column c) {
        return columns.get(c);
    }

    /** The column, read-only, exactly {@link #rows()} values. */
    public MemorySegment get(Column c) {
        Objects.requireNonNull(c, "column");
        return present(c).asSlice(0, rows * c.layout().byteSize()).asReadOnly();
    }

    /** The column's segment; IllegalArgumentException when the table lacks it, naming why. */
    private MemorySegment present(Column c) {
        MemorySegment s = columns.get(c);
        if (s == null) {
            throw new IllegalArgumentException(c.isMeasurement() && c.inMeshTables()
                    ? "this table was made without measurements: " + c + " needs StatisticsOptions.withMeasurements()"
                    : "this table has no column " + c);
        }
        return s;
    }

    public int getInt(Column c, long row) {
        return present(c).getAtIndex(ValueLayout.JAVA_INT, Objects.checkIndex(row, rows));
    }

    public long getLong(Column c, long row) {
        return present(c).getAtIndex(ValueLayout.JAVA_LONG, Objects.checkIndex(row, rows));
    }

    public double getDouble(Column c, long row) {
        return present(c).getAtIndex(ValueLayout.JAVA_DOUBLE, Objects.checkIndex(row, rows));
    }

    public void setInt(Column c, long row, int value) {
        columns.get(c).setAtIndex(ValueLayout.JAVA_INT, row, value);
    }

    public void setLong(Column c, long row, long value) {
        columns.get(c).setAtIndex(ValueLayout.JAVA_LONG, row, value);
    }

    public void setDouble(Column c, long row, double value) {
        columns.get(c).setAtIndex(ValueLayout.JAVA_DOUBLE, row, value);
    }
}
