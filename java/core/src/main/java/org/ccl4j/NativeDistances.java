package org.ccl4j;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.ccl4j.internal.ffi.ccl4j_distance_options;
import org.ccl4j.internal.ffi.ccl4j_timings;

/**
 * Distances within components from the native library ({@code ccl4j/distances.h}) on a labeler's
 * context: every buffer is an argument of its own, allocated here for the call.
 */
final class NativeDistances {
    private NativeDistances() {
    }

    private static MemorySegment options(Arena arena, DistanceAlgorithm algorithm) {
        MemorySegment o = ccl4j_distance_options.allocate(arena);
        ccl4j_distance_options.algorithm(o, algorithm.nativeCode());
        return o;
    }

    static Distances rows(ComponentLabeler labeler, CsrGraph graph, DistanceAlgorithm algorithm) {
        Distances[] result = new Distances[1];
        labeler.withContext(context -> {
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
                int status = ccl4j_graph_distances(context, NativeCalls.csr(call, graph), graph.offsetsSegment(),
                        graph.neighborsSegment(), options(call, algorithm), n, first, vertices, sums, diameters, means,
                        count, timings);
                NativeCalls.check(status, context);
                int k = (int) count.get(ValueLayout.JAVA_LONG, 0);
                List<ComponentDistances> rows = new ArrayList<>(k);
                for (int r = 0; r < k; r++) {
                    rows.add(new ComponentDistances(first.getAtIndex(ValueLayout.JAVA_INT, r),
                            vertices.getAtIndex(ValueLayout.JAVA_LONG, r), sums.getAtIndex(ValueLayout.JAVA_LONG, r),
                            diameters.getAtIndex(ValueLayout.JAVA_INT, r), means.getAtIndex(ValueLayout.JAVA_DOUBLE, r)));
                }
                result[0] = new Distances(rows, NativeCalls.backend(ccl4j_timings.backend(timings)),
                        DistanceAlgorithm.values()[ccl4j_timings.algorithm(timings)], ccl4j_timings.total_ms(timings),
                        NativeCalls.phases(timings));
            }
        });
        return result[0];
    }

    static DistanceMatrix matrix(ComponentLabeler labeler, CsrGraph graph, DistanceAlgorithm algorithm) {
        int n = graph.vertexCount();
        DistanceMatrix.checkSize(n, "a distance matrix");
        int[] distances = new int[n * n];
        labeler.withContext(context -> {
            try (Arena call = Arena.ofConfined()) {
                long entries = (long) n * n;
                MemorySegment matrix = call.allocate(ValueLayout.JAVA_INT, Math.max(1, entries));
                int status = ccl4j_graph_distance_matrix(context, NativeCalls.csr(call, graph), graph.offsetsSegment(),
                        graph.neighborsSegment(), options(call, algorithm), entries, matrix, MemorySegment.NULL);
                NativeCalls.check(status, context);
                MemorySegment.copy(matrix, ValueLayout.JAVA_INT, 0, distances, 0, distances.length);
            }
        });
        return new DistanceMatrix(n, distances);
    }
}
