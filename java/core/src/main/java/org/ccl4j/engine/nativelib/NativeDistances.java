package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.ccl4j.engine.spi.DistanceMethod;
import org.ccl4j.engine.spi.DistanceRows;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.internal.ffi.ccl4j_distance_options;
import org.ccl4j.internal.ffi.ccl4j_timings;

/**
 * Distances within components from the native library ({@code ccl4j/distances.h}) on the engine's
 * context, under its lock: every buffer is an argument of its own, allocated here for the call.
 */
final class NativeDistances {
    private NativeDistances() {
    }

    private static MemorySegment options(Arena arena, DistanceMethod method) {
        MemorySegment o = ccl4j_distance_options.allocate(arena);
        ccl4j_distance_options.algorithm(o, method.code());
        return o;
    }

    static DistanceRows rows(NativeCalls calls, MemorySegment context, GraphData graph, DistanceMethod method) {
        try (Arena call = Arena.ofConfined()) {
            int n = graph.vertexCount();
            long room = Math.max(1, n);
            MemorySegment first = call.allocate(ValueLayout.JAVA_INT, room);
            MemorySegment vertices = call.allocate(ValueLayout.JAVA_LONG, room);
            MemorySegment sums = call.allocate(ValueLayout.JAVA_LONG, room);
            MemorySegment diameters = call.allocate(ValueLayout.JAVA_INT, room);
            MemorySegment means = call.allocate(ValueLayout.JAVA_DOUBLE, room);
            MemorySegment count = call.allocate(ValueLayout.JAVA_LONG);
            MemorySegment timings = ccl4j_timings.allocate(call);
            calls.check(ccl4j_graph_distances(context, NativeCalls.csr(call, graph), graph.offsets(), graph.neighbors(),
                    options(call, method), n, first, vertices, sums, diameters, means, count, timings), context);
            int k = (int) count.get(ValueLayout.JAVA_LONG, 0);
            List<DistanceRows.Row> rows = new ArrayList<>(k);
            for (int r = 0; r < k; r++) {
                rows.add(new DistanceRows.Row(first.getAtIndex(ValueLayout.JAVA_INT, r),
                        vertices.getAtIndex(ValueLayout.JAVA_LONG, r), sums.getAtIndex(ValueLayout.JAVA_LONG, r),
                        diameters.getAtIndex(ValueLayout.JAVA_INT, r), means.getAtIndex(ValueLayout.JAVA_DOUBLE, r)));
            }
            return new DistanceRows(rows, Abi.backendName(ccl4j_timings.backend(timings)),
                    DistanceMethod.of(ccl4j_timings.algorithm(timings)), ccl4j_timings.total_ms(timings),
                    NativeCalls.phases(timings));
        }
    }

    static int[] matrix(NativeCalls calls, MemorySegment context, GraphData graph, DistanceMethod method) {
        int n = graph.vertexCount();
        long entries = (long) n * n;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment matrix = call.allocate(ValueLayout.JAVA_INT, Math.max(1, entries));
            calls.check(ccl4j_graph_distance_matrix(context, NativeCalls.csr(call, graph), graph.offsets(),
                    graph.neighbors(), options(call, method), entries, matrix, MemorySegment.NULL), context);
            return matrix.asSlice(0, entries * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
        }
    }
}
