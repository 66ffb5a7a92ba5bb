package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/** The columns of a statistics table: one off-heap segment per column, k values each, in one arena. */
final class StatisticsColumns {
    private final Map<StatisticsColumn, MemorySegment> columns = new EnumMap<>(StatisticsColumn.class);
    private final long rows;

    /** Room for {@code rows} rows of every column of a mesh ({@code mesh}) or graph table. */
    StatisticsColumns(Arena arena, long rows, boolean mesh) {
        this.rows = rows;
        for (StatisticsColumn c : StatisticsColumn.values()) {
            if (mesh ? c.inMeshTables() : c.inGraphTables()) {
                columns.put(c, arena.allocate(c.layout(), Math.max(1, rows)));
            }
        }
    }

    long rows() {
        return rows;
    }

    Iterable<StatisticsColumn> names() {
        return columns.keySet();
    }

    /** The column's segment, writable (for the engines). */
    MemorySegment writable(StatisticsColumn c) {
        return columns.get(c);
    }

    /** The column, read-only, exactly {@code rows} values. */
    MemorySegment get(StatisticsColumn c) {
        Objects.requireNonNull(c, "column");
        MemorySegment s = columns.get(c);
        if (s == null) {
            throw new IllegalArgumentException("this table has no column " + c);
        }
        return s.asSlice(0, rows * c.layout().byteSize()).asReadOnly();
    }

    int getInt(StatisticsColumn c, long row) {
        return columns.get(c).getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, Objects.checkIndex(row, rows));
    }

    long getLong(StatisticsColumn c, long row) {
        return columns.get(c).getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, Objects.checkIndex(row, rows));
    }

    double getDouble(StatisticsColumn c, long row) {
        return columns.get(c).getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, Objects.checkIndex(row, rows));
    }
}
