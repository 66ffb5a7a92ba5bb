package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.RowNumbering;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.internal.ffi.ccl4j_timings;

/**
 * Statistics tables from the native library: a statistics call leaves the table with the context
 * (on its device for CUDA), and the columns are copied from there into the table's segments, under
 * the same hold of the context (the engine's lock, which every method here runs under).
 */
final class NativeStatistics {
    private NativeStatistics() {
    }

    /** Copies every column of the context's table ({@code rows} rows) into a new table in {@code arena}. */
    private static StatisticsTable table(NativeCalls calls, MemorySegment context, long rows, boolean mesh,
                                         boolean measured, Arena arena) {
        StatisticsTable table = new StatisticsTable(arena, rows, mesh, measured);
        for (StatisticsTable.Column c : table.columns()) {
            calls.check(ccl4j_statistics_column(context, c.code(), 0, rows, table.writable(c)), context);
        }
        return table;
    }

    private static MemorySegment values(IntensityData intensity) {
        return intensity == null ? MemorySegment.NULL : intensity.values();
    }

    /** Labels {@code grid} and makes its table in one call ({@code ccl4j_label_mesh*_statistics}). */
    static Engine.StatisticsRun labelMesh(NativeCalls calls, MemorySegment context, GridData grid,
                                          MeshSettings settings, int labelBytes, RowNumbering numbering,
                                          IntensityData intensity, boolean measures, MemorySegment labels,
                                          Arena arena) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment timings = ccl4j_timings.allocate(call);
            MemorySegment count = call.allocate(ValueLayout.JAVA_LONG);
            MemorySegment mesh = NativeCalls.mesh(call, grid);
            MemorySegment options = NativeCalls.meshOptions(call, settings);
            MemorySegment statistics = NativeCalls.statisticsOptions(call, numbering, intensity, measures);
            calls.check(labelBytes == Long.BYTES
                    ? ccl4j_label_mesh64_statistics(context, mesh, grid.cells(), options, statistics, values(intensity),
                            labels, count, timings)
                    : ccl4j_label_mesh_statistics(context, mesh, grid.cells(), options, statistics, values(intensity),
                            labels, count, timings), context);
            return new Engine.StatisticsRun(table(calls, context, count.get(ValueLayout.JAVA_LONG, 0), true, measures,
                    arena), NativeCalls.meshTimings(timings));
        }
    }

    /** The table of canonical mesh labels of {@code grid}; the labels in the numbering go to {@code out} (or NULL). */
    static StatisticsTable mesh(NativeCalls calls, MemorySegment context, GridData grid, MeshSettings settings,
                                MemorySegment labels, int labelBytes, RowNumbering numbering, IntensityData intensity,
                                boolean measures, MemorySegment out, Arena arena) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment count = call.allocate(ValueLayout.JAVA_LONG);
            MemorySegment shape = NativeCalls.mesh(call, grid);
            MemorySegment options = NativeCalls.meshOptions(call, settings.withAlgorithm("AUTO"));
            MemorySegment statistics = NativeCalls.statisticsOptions(call, numbering, intensity, measures);
            MemorySegment target = out == null ? MemorySegment.NULL : out;
            calls.check(labelBytes == Long.BYTES
                    ? ccl4j_mesh64_statistics(context, shape, grid.cells(), options, labels, statistics,
                            values(intensity), target, count)
                    : ccl4j_mesh_statistics(context, shape, grid.cells(), options, labels, statistics,
                            values(intensity), target, count), context);
            return table(calls, context, count.get(ValueLayout.JAVA_LONG, 0), true, measures, arena);
        }
    }

    /** The table of a graph's canonical labels; {@code out} as for meshes. */
    static StatisticsTable graph(NativeCalls calls, MemorySegment context, GraphData graph, MemorySegment labels,
                                 RowNumbering numbering, MemorySegment out, Arena arena) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment count = call.allocate(ValueLayout.JAVA_LONG);
            calls.check(ccl4j_graph_statistics(context, NativeCalls.csr(call, graph), graph.offsets(),
                    graph.neighbors(), labels, numbering.code(), out == null ? MemorySegment.NULL : out, count),
                    context);
            return table(calls, context, count.get(ValueLayout.JAVA_LONG, 0), false, false, arena);
        }
    }
}
