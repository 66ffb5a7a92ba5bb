package org.ccl4j;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.internal.ffi.ccl4j_statistics_options;

/**
 * Statistics tables from the native library: a statistics call leaves the table with the
 * labeler's context (on its device for CUDA), and the columns are copied from there into the
 * table's segments, under the same hold of the context.
 */
final class NativeStatistics {
    private NativeStatistics() {
    }

    /** The options as a {@code ccl4j_statistics_options}; NULL values for the grid's own cells. */
    static MemorySegment options(Arena arena, Numbering numbering, Intensity intensity) {
        MemorySegment s = ccl4j_statistics_options.allocate(arena);
        ccl4j_statistics_options.numbering(s, numbering.nativeCode());
        if (intensity != null) {
            ccl4j_statistics_options.intensity_type(s, intensity.type().nativeCode());
            ccl4j_statistics_options.intensity_row_stride(s, intensity.rowStride());
            ccl4j_statistics_options.intensity_layer_stride(s, intensity.layerStride());
        }
        return s;
    }

    /** Copies every column of the context's table ({@code rows} rows) into new columns in {@code arena}. */
    static StatisticsColumns columns(MemorySegment context, long rows, boolean mesh, Arena arena) {
        StatisticsColumns columns = new StatisticsColumns(arena, rows, mesh);
        for (StatisticsColumn c : columns.names()) {
            NativeCalls.check(ccl4j_statistics_column(context, c.nativeCode(), 0, rows, columns.writable(c)), context);
        }
        return columns;
    }

    /**
     * The table of canonical mesh labels of {@code grid} (native, a label per cell, int64 when
     * {@code wide}), made with {@code mesh}, on {@code labeler}'s backend; the labels in the
     * numbering go to {@code out} (native, or null).
     */
    static StatisticsColumns mesh(ComponentLabeler labeler, Grid grid, MeshOptions mesh, MemorySegment labels,
                                  boolean wide, StatisticsOptions options, MemorySegment out, Arena arena) {
        StatisticsColumns[] result = new StatisticsColumns[1];
        labeler.withContext(context -> {
            try (Arena call = Arena.ofConfined()) {
                Intensity intensity = options.intensity();
                MemorySegment count = call.allocate(ValueLayout.JAVA_LONG);
                MemorySegment shape = NativeCalls.mesh(call, grid);
                MemorySegment meshOptions = NativeCalls.meshOptions(call, mesh, MeshAlgorithm.AUTO);
                MemorySegment statistics = options(call, options.numbering(), intensity);
                MemorySegment values = intensity == null ? MemorySegment.NULL : intensity.values();
                MemorySegment target = out == null ? MemorySegment.NULL : out;
                int status = wide
                        ? ccl4j_mesh64_statistics(context, shape, grid.cells(), meshOptions, labels, statistics, values,
                                target, count)
                        : ccl4j_mesh_statistics(context, shape, grid.cells(), meshOptions, labels, statistics, values,
                                target, count);
                NativeCalls.check(status, context);
                result[0] = columns(context, count.get(ValueLayout.JAVA_LONG, 0), true, arena);
            }
        });
        return result[0];
    }

    /** The table of a graph's canonical labels (native) on {@code labeler}'s backend; {@code out} as above. */
    static StatisticsColumns graph(ComponentLabeler labeler, CsrGraph graph, MemorySegment labels, Numbering numbering,
                                   MemorySegment out, Arena arena) {
        StatisticsColumns[] result = new StatisticsColumns[1];
        labeler.withContext(context -> {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment count = call.allocate(ValueLayout.JAVA_LONG);
                int status = ccl4j_graph_statistics(context, NativeCalls.csr(call, graph), graph.offsetsSegment(),
                        graph.neighborsSegment(), labels, numbering.nativeCode(),
                        out == null ? MemorySegment.NULL : out, count);
                NativeCalls.check(status, context);
                result[0] = columns(context, count.get(ValueLayout.JAVA_LONG, 0), false, arena);
            }
        });
        return result[0];
    }
}
