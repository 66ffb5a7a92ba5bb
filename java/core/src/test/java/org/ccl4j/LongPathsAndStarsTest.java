package org.ccl4j;

import org.ccl4j.testing.Graphs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The shapes that make fixpoint algorithms quadratic: an ordered path and a star of 2^20 vertices
 * finish on every algorithm and backend, and an iteration limit stops a loop with an error.
 */
class LongPathsAndStarsTest {
    private static final int N = 1 << 20;

    private static List<Backend> backends() {
        List<Backend> list = new ArrayList<>(List.of(Backend.CPU_SERIAL, Backend.CPU_PARALLEL));
        if (ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            list.add(Backend.CUDA);
        } else {
            System.out.println("NOTICE: no CUDA device present - long paths and stars are not run on CUDA");
        }
        return list;
    }

    private static void labelsEverythingZero(CsrGraph g, String shape) {
        for (Backend b : backends()) {
            try (ComponentLabeler labeler = ComponentLabeler.create(b)) {
                for (Algorithm a : Algorithm.values()) {
                    if (a == Algorithm.AUTO || (a == Algorithm.CPU_REFERENCE && b == Backend.CUDA)
                            || (a == Algorithm.STREAMED && b != Backend.CUDA)) {
                        continue;
                    }
                    Labels labels = labeler.label(g, LabelOptions.defaults().withAlgorithm(a));
                    assertEquals(1, labels.count(), a + " on " + b + ", " + shape);
                    assertEquals(0, labels.get(N - 1), a + " on " + b + ", " + shape);
                    assertEquals(N, labels.largestComponentSize(), a + " on " + b + ", " + shape);
                }
            }
        }
    }

    @Test
    void orderedPathOfTwoToTheTwenty() {
        int[] sources = new int[N - 1];
        int[] targets = new int[N - 1];
        for (int v = 1; v < N; v++) {
            sources[v - 1] = v - 1;
            targets[v - 1] = v;
        }
        try (Arena arena = Arena.ofConfined()) {
            labelsEverythingZero(CsrGraph.fromEdges(arena, N, sources, targets), "path");
        }
    }

    @Test
    void starOfTwoToTheTwentyLeavesCentredAtTheLastVertex() {
        int[] sources = new int[N - 1];
        int[] targets = new int[N - 1];
        for (int v = 0; v < N - 1; v++) {
            sources[v] = N - 1;
            targets[v] = v;
        }
        try (Arena arena = Arena.ofConfined()) {
            labelsEverythingZero(CsrGraph.fromEdges(arena, N, sources, targets), "star");
        }
    }

    @Test
    void iterationLimitStopsAFixpointLoopWithAnError() {
        // a shuffled path needs many propagation rounds; two are far too few
        Graphs.EdgeList path = Graphs.make(2, 5_000, 11);
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_SERIAL)) {
            CsrGraph g = path.toCsr(arena);
            for (Algorithm a : List.of(Algorithm.HAWICK_EDGE, Algorithm.HAWICK_VERTEX, Algorithm.HAWICK_BFS)) {
                Ccl4jException e = assertThrows(Ccl4jException.class,
                        () -> labeler.label(g, LabelOptions.defaults().withAlgorithm(a).withMaxIterations(2)));
                assertEquals(Ccl4jException.Status.NOT_CONVERGED, e.status(), a + ": " + e.getMessage());
                assertTrue(e.getMessage().contains("2"), e.getMessage());
                Labels labels = labeler.label(g, LabelOptions.defaults().withAlgorithm(a));
                assertTrue(labels.timings().iterations() > 2, a + " took " + labels.timings().iterations() + " iterations");
            }
        }
    }
}
