package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.ccl4j.internal.ffi.ccl4j_h;

/**
 * Distances within components on closed forms (paths, stars, cliques, grids), the refusals (an
 * asymmetric graph, a matrix too large, Floyd-Warshall on CUDA, a closed labeler) on every backend
 * present, and the constants the Java side repeats from the header. The GPU runs when a device is
 * present; otherwise a notice says it is skipped.
 */
class DistancesTest {
    private static List<ComponentLabeler> labelers() {
        List<ComponentLabeler> all = new java.util.ArrayList<>(List.of(ComponentLabeler.create(Backend.JAVA),
                ComponentLabeler.create(Backend.CPU_SERIAL), ComponentLabeler.create(Backend.CPU_PARALLEL)));
        if (ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            all.add(ComponentLabeler.create(Backend.CUDA));
        } else {
            System.out.println("NOTICE: no CUDA device present - DistancesTest skips the CUDA backend");
        }
        return all;
    }

    private static CsrGraph graph(Arena arena, int n, int[][] edges) {
        int[] sources = new int[edges.length];
        int[] targets = new int[edges.length];
        for (int i = 0; i < edges.length; i++) {
            sources[i] = edges[i][0];
            targets[i] = edges[i][1];
        }
        return CsrGraph.fromEdges(arena, n, sources, targets);
    }

    @Test
    void closedForms() {
        int n = 50;
        int leaves = 30;
        int[][] edges = new int[(n - 1) + leaves + 6][];
        int e = 0;
        for (int v = 1; v < n; v++) {
            edges[e++] = new int[] {v - 1, v};  // a path on 0..49
        }
        for (int i = 1; i <= leaves; i++) {
            edges[e++] = new int[] {n + i, n};  // a star around 50 (its smallest vertex)
        }
        int c = n + leaves + 1;
        edges[e++] = new int[] {c, c + 1};  // a 4-clique on 81..84
        edges[e++] = new int[] {c, c + 2};
        edges[e++] = new int[] {c, c + 3};
        edges[e++] = new int[] {c + 1, c + 2};
        edges[e++] = new int[] {c + 1, c + 3};
        edges[e++] = new int[] {c + 2, c + 3};
        int total = c + 4 + 1;  // and an isolated vertex
        long pathSum = 0;
        for (long d = 1; d < n; d++) {
            pathSum += 2 * d * (n - d);
        }
        List<ComponentDistances> expected = List.of(
                new ComponentDistances(0, n, pathSum, n - 1, pathSum / (double) (n * (n - 1))),
                new ComponentDistances(n, leaves + 1, 2L * leaves + 2L * 2 * leaves * (leaves - 1) / 2, 2,
                        (2.0 * leaves + 2.0 * leaves * (leaves - 1)) / ((leaves + 1) * leaves)),
                new ComponentDistances(c, 4, 12, 1, 1.0),
                new ComponentDistances(c + 4, 1, 0, 0, 0.0));
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = graph(arena, total, edges);
            for (ComponentLabeler labeler : labelers()) {
                try (labeler) {
                    Distances d = labeler.distances(g);
                    assertEquals(expected, d.components(), labeler.backend().toString());
                    assertEquals(DistanceAlgorithm.BFS, d.algorithm());
                    assertTrue(d.phasesMs().containsKey("bfs"), d.phasesMs().toString());
                    DistanceMatrix m = labeler.distanceMatrix(g);
                    assertEquals(n - 1, m.distance(0, n - 1));
                    assertEquals(2, m.distance(n + 1, n + 2));
                    assertEquals(-1, m.distance(0, n));
                    assertEquals(0, m.distance(total - 1, total - 1));
                }
            }
        }
    }

    @Test
    void gridDiameterIsTheManhattanSpan() {
        int w = 13;
        int h = 7;
        int[][] edges = new int[(w - 1) * h + w * (h - 1)][];
        int e = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (x + 1 < w) {
                    edges[e++] = new int[] {y * w + x, y * w + x + 1};
                }
                if (y + 1 < h) {
                    edges[e++] = new int[] {y * w + x, (y + 1) * w + x};
                }
            }
        }
        // sum over ordered pairs of |dx| + |dy|: h^2 * sum_x + w^2 * sum_y, with sum_x = 2 sum_d d (w - d)
        long sumX = 0;
        for (long d = 1; d < w; d++) {
            sumX += 2 * d * (w - d);
        }
        long sumY = 0;
        for (long d = 1; d < h; d++) {
            sumY += 2 * d * (h - d);
        }
        long expected = (long) h * h * sumX + (long) w * w * sumY;
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = graph(arena, w * h, edges);
            for (ComponentLabeler labeler : labelers()) {
                try (labeler) {
                    for (DistanceAlgorithm a : labeler.backend() == Backend.CUDA ? List.of(DistanceAlgorithm.BFS)
                            : List.of(DistanceAlgorithm.BFS, DistanceAlgorithm.FLOYD_WARSHALL)) {
                        ComponentDistances row = labeler.distances(g, a).component(0);
                        assertEquals(expected, row.pathSum(), labeler.backend() + " " + a);
                        assertEquals(w - 1 + h - 1, row.diameter());
                    }
                }
            }
        }
    }

    @Test
    void refusals() {
        try (Arena arena = Arena.ofConfined()) {
            // 0 -> 1 without 1 -> 0
            CsrGraph oneWay = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 1), Integer.BYTES,
                    arena.allocateFrom(ValueLayout.JAVA_INT, 1));
            int big = DistanceMatrix.MAX_VERTICES + 1;
            MemorySegment zeros = arena.allocate(ValueLayout.JAVA_INT, big + 1L);
            CsrGraph large = CsrGraph.wrap(zeros, Integer.BYTES, arena.allocate(ValueLayout.JAVA_INT, 0));
            for (ComponentLabeler labeler : labelers()) {
                try (labeler) {
                    assertThrows(IllegalArgumentException.class, () -> labeler.distances(oneWay));
                    assertThrows(IllegalArgumentException.class, () -> labeler.distanceMatrix(oneWay));
                    IllegalArgumentException e =
                            assertThrows(IllegalArgumentException.class, () -> labeler.distanceMatrix(large));
                    assertTrue(e.getMessage().contains(String.valueOf(DistanceMatrix.MAX_VERTICES)), e.getMessage());
                    if (labeler.backend() == Backend.CUDA) {
                        assertThrows(UnsupportedOperationException.class,
                                () -> labeler.distances(oneWay, DistanceAlgorithm.FLOYD_WARSHALL));
                    } else {
                        assertThrows(IllegalArgumentException.class,
                                () -> labeler.distances(large, DistanceAlgorithm.FLOYD_WARSHALL));
                    }
                    // isolated vertices beyond the matrix limit are fine for the rows
                    assertEquals(big, labeler.distances(large).count());
                    labeler.close();
                    assertThrows(IllegalStateException.class, () -> labeler.distances(oneWay));
                }
            }
        }
    }

    @Test
    void javaRepeatsTheHeaderConstants() {
        assertEquals(ccl4j_h.CCL4J_DISTANCE_MATRIX_MAX_VERTICES(), DistanceMatrix.MAX_VERTICES);
        assertEquals(ccl4j_h.CCL4J_DISTANCES_AUTO(), org.ccl4j.engine.spi.DistanceMethod.AUTO.code());
        assertEquals(ccl4j_h.CCL4J_DISTANCES_BFS(), org.ccl4j.engine.spi.DistanceMethod.BFS.code());
        assertEquals(ccl4j_h.CCL4J_DISTANCES_FLOYD_WARSHALL(), org.ccl4j.engine.spi.DistanceMethod.FLOYD_WARSHALL.code());
    }
}
