package org.ccl4j.bench.phases;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.LabelOptions;
import org.ccl4j.PinnedMemory;
import org.ccl4j.UnionFind;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.ReadOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-phase runs from Java: every phase sequence (in order, and from a reset to each phase) of
 * every native algorithm on the CPU backends (and on CUDA) labels the graph as the Java union-find
 * does; a fixpoint phase loops as often as the labelling call; bad arguments give clear exceptions. CUDA takes
 * part when a device is present; otherwise it is skipped with a printed notice.
 */
class PhaseRunTest {
    private static final Algorithm[] GPU_ALGORITHMS = {Algorithm.ECL_CC, Algorithm.HAWICK_EDGE,
            Algorithm.HAWICK_VERTEX, Algorithm.HAWICK_BFS, Algorithm.KOMURA, Algorithm.AFFOREST};

    private static Arena arena;
    private static Map<String, CsrGraph> graphs;

    @BeforeAll
    static void graphs() throws IOException {
        arena = Arena.ofShared();
        graphs = new LinkedHashMap<>();
        for (String file : List.of("random.egr", "components.el", "symmetric-pattern.mtx", "road.gr")) {
            graphs.put(file, GraphReader.read(Path.of("test-graphs", file), GraphFormat.AUTO, ReadOptions.defaults(), arena)
                    .graph());
        }
        graphs.put("one vertex", CsrGraph.fromEdges(arena, 1, new int[0], new int[0]));
        graphs.put("shuffled path 5000", shuffledPath(5000, 1));
        graphs.put("sparse random 20000", sparseRandom(20000, 15000, 2));
        graphs.put("hubs", hubs(30000, 3));
    }

    @AfterAll
    static void close() {
        arena.close();
    }

    private static CsrGraph shuffledPath(int n, long seed) {
        List<Integer> order = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            order.add(v);
        }
        java.util.Collections.shuffle(order, new Random(seed));
        int[] s = new int[n - 1];
        int[] t = new int[n - 1];
        for (int i = 1; i < n; i++) {
            s[i - 1] = order.get(i - 1);
            t[i - 1] = order.get(i);
        }
        return CsrGraph.fromEdges(arena, n, s, t);
    }

    private static CsrGraph sparseRandom(int n, int m, long seed) {
        Random r = new Random(seed);
        int[] s = new int[m];
        int[] t = new int[m];
        for (int i = 0; i < m; i++) {
            s[i] = r.nextInt(n);
            t[i] = r.nextInt(n);
        }
        return CsrGraph.fromEdges(arena, n, s, t);
    }

    /** A sparse background with a few vertices of degree above ECL-CC's warp and block thresholds. */
    private static CsrGraph hubs(int n, long seed) {
        Random r = new Random(seed);
        List<int[]> edges = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            edges.add(new int[] {r.nextInt(n), r.nextInt(n)});
        }
        for (int hub = 0; hub < 20; hub++) {
            int degree = hub % 2 == 0 ? 1000 : 100;
            for (int i = 0; i < degree; i++) {
                edges.add(new int[] {hub * 97, r.nextInt(n)});
            }
        }
        return CsrGraph.fromEdges(arena, n, edges.stream().mapToInt(e -> e[0]).toArray(),
                edges.stream().mapToInt(e -> e[1]).toArray());
    }

    private static int[] oracle(CsrGraph g) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment labels = a.allocate(ValueLayout.JAVA_INT, g.vertexCount());
            UnionFind.label(g, labels);
            return labels.toArray(ValueLayout.JAVA_INT);
        }
    }

    private static boolean cudaPresent() {
        return ComponentLabeler.capabilities().backends().contains(Backend.CUDA);
    }

    /** In order, then from a reset to every phase (twice: a reset restores what the phase needs). */
    private static void checkSequences(PhaseRun run, int[] expected, String what) {
        int count = run.phases().size();
        for (int i = 0; i < count; i++) {
            assertTrue(run.run(i) >= 0, what + ": time of " + run.phases().get(i));
            assertTrue(run.lastIterations() >= 0, what);
        }
        assertArrayEquals(expected, run.labels(), what + ": phases in order");
        for (int start = 0; start < count; start++) {
            for (int repeat = 0; repeat < 2; repeat++) {
                run.reset(start);
                for (int i = start; i < count; i++) {
                    run.run(i);
                }
                assertArrayEquals(expected, run.labels(), what + ": after a reset to " + run.phases().get(start));
            }
        }
    }

    @Test
    void cpuPhasesOfTheParallelAlgorithmsReproduceTheOracle() {
        Map<Algorithm, List<String>> names = Map.of(Algorithm.ECL_CC, List.of("init", "compute", "finalize"),
                Algorithm.AFFOREST, List.of("init", "sample", "compress", "link", "finalize"));
        for (Backend backend : List.of(Backend.CPU_PARALLEL, Backend.CPU_SERIAL)) {
            for (Map.Entry<Algorithm, List<String>> algorithm : names.entrySet()) {
                for (Map.Entry<String, CsrGraph> e : graphs.entrySet()) {
                    try (PhaseRun run = PhaseRun.open(backend, 0, e.getValue(), algorithm.getKey())) {
                        assertEquals(algorithm.getValue(), run.phases());
                        checkSequences(run, oracle(e.getValue()), algorithm.getKey() + " on " + backend + " on "
                                + e.getKey());
                    }
                }
            }
        }
    }

    @Test
    void cpuPhasesOfTheSerialAlgorithmsReproduceTheOracle() {
        Map<Algorithm, List<String>> names = Map.of(Algorithm.HAWICK_EDGE, List.of("init", "propagate"),
                Algorithm.HAWICK_VERTEX, List.of("init", "propagate"), Algorithm.HAWICK_BFS,
                List.of("init", "search"), Algorithm.KOMURA, List.of("init", "analysis1", "reduction", "analysis2"),
                Algorithm.CPU_REFERENCE, List.of("label"));
        for (Backend backend : List.of(Backend.CPU_PARALLEL, Backend.CPU_SERIAL)) {
            for (Algorithm algorithm : List.of(Algorithm.HAWICK_EDGE, Algorithm.HAWICK_VERTEX, Algorithm.HAWICK_BFS,
                    Algorithm.KOMURA, Algorithm.CPU_REFERENCE)) {
                for (Map.Entry<String, CsrGraph> e : graphs.entrySet()) {
                    try (PhaseRun run = PhaseRun.open(backend, 0, e.getValue(), algorithm)) {
                        assertEquals(names.get(algorithm), run.phases());
                        checkSequences(run, oracle(e.getValue()), algorithm + " on " + backend + " on " + e.getKey());
                    }
                }
            }
        }
    }

    @Test
    void aFixpointPhaseLoopsAsOftenAsTheLabellingCall() {
        CsrGraph g = graphs.get("shuffled path 5000");
        for (Algorithm algorithm : List.of(Algorithm.HAWICK_EDGE, Algorithm.HAWICK_VERTEX, Algorithm.HAWICK_BFS)) {
            int expected;
            try (ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_SERIAL)) {
                expected = labeler.label(g, LabelOptions.defaults().withAlgorithm(algorithm)).timings().iterations();
            }
            try (PhaseRun run = PhaseRun.open(Backend.CPU_SERIAL, 0, g, algorithm)) {
                run.run(0);
                run.run(1);
                assertEquals(expected, run.lastIterations(), algorithm + ": iterations of " + run.phases().get(1));
                assertTrue(expected > 1, algorithm + ": " + expected + " iterations");
            }
        }
    }

    @Test
    void cudaPhasesOfEveryAlgorithmReproduceTheOracle() {
        if (!cudaPresent()) {
            System.out.println("NOTICE: no CUDA device present - the CUDA phases are not checked in PhaseRunTest");
            return;
        }
        Map<Algorithm, List<String>> names = Map.of(Algorithm.ECL_CC,
                List.of("init", "compute1", "compute2", "compute3", "finalize"), Algorithm.HAWICK_EDGE,
                List.of("init", "propagate"), Algorithm.HAWICK_VERTEX, List.of("init", "propagate"),
                Algorithm.HAWICK_BFS, List.of("init", "search"), Algorithm.KOMURA,
                List.of("init", "analysis1", "reduction", "analysis2"), Algorithm.AFFOREST,
                List.of("init", "sample", "compress", "link", "finalize"));
        for (Algorithm algorithm : GPU_ALGORITHMS) {
            for (Map.Entry<String, CsrGraph> e : graphs.entrySet()) {
                try (PhaseRun run = PhaseRun.open(Backend.CUDA, 0, e.getValue(), algorithm)) {
                    assertEquals(names.get(algorithm), run.phases());
                    checkSequences(run, oracle(e.getValue()), algorithm + " on CUDA on " + e.getKey());
                }
            }
        }
        try (Probes probes = Probes.cuda(0); Arena a = Arena.ofConfined()) {
            assertTrue(probes.copyToDevice(PinnedMemory.allocate(a, 1 << 20)) > 0);
            assertTrue(probes.copyToDevice(a.allocate(1 << 20)) > 0);
            assertThrows(IllegalArgumentException.class, () -> probes.copyToDevice(MemorySegment.ofArray(new int[4])));
        }
    }

    @Test
    void badArgumentsAreNamed() {
        CsrGraph g = graphs.get("random.egr");
        var e = assertThrows(IllegalArgumentException.class, () -> PhaseRun.open(Backend.JAVA, 0, g, Algorithm.ECL_CC));
        assertTrue(e.getMessage().contains("JAVA"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> PhaseRun.open(Backend.CPU_SERIAL, 0, g, Algorithm.UNION_FIND));
        assertTrue(e.getMessage().contains("union-find"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PhaseRun.open(Backend.CPU_PARALLEL, 0,
                CsrGraph.fromEdges(arena, 0, new int[0], new int[0]), Algorithm.ECL_CC));
        assertTrue(e.getMessage().contains("at least one vertex"), e.getMessage());
        if (cudaPresent()) {
            var u = assertThrows(UnsupportedOperationException.class,
                    () -> PhaseRun.open(Backend.CUDA, 0, g, Algorithm.CPU_REFERENCE));
            assertTrue(u.getMessage().contains("CUDA"), u.getMessage());
        } else {
            assertThrows(org.ccl4j.BackendUnavailableException.class, () -> PhaseRun.open(Backend.CUDA, 0, g,
                    Algorithm.ECL_CC));
            assertThrows(org.ccl4j.BackendUnavailableException.class, () -> Probes.cuda(0));
        }

        PhaseRun run = PhaseRun.open(Backend.CPU_PARALLEL, 0, g, Algorithm.ECL_CC);
        e = assertThrows(IllegalArgumentException.class, () -> run.run(2));
        assertTrue(e.getMessage().contains("needs the state"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> run.run(3));
        assertTrue(e.getMessage().contains("outside 0..2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> run.reset(-1));
        assertTrue(e.getMessage().contains("outside 0..3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> run.phase("compute1"));
        assertTrue(e.getMessage().contains("[init, compute, finalize]"), e.getMessage());
        assertEquals(1, run.phase("compute"));
        run.close();
        run.close();
        assertThrows(IllegalStateException.class, () -> run.run(0));
    }

    @Test
    void theEmptyCallReturnsItsArgument() {
        Probes.load();
        assertEquals(42, Probes.noop(42));
        assertEquals(-1, Probes.noop(-1));
    }
}
