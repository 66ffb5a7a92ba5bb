package org.ccl4j;

import org.ccl4j.testing.Oracle;
import org.ccl4j.testing.Graphs;
import org.ccl4j.testing.BackendLabelers;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * For any graph, every algorithm on every backend returns exactly the oracle's canonical labels.
 * CUDA takes part when a device is present; otherwise it is skipped with a printed notice.
 */
class LabelingProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the CUDA backend is skipped in LabelingProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    // Edge cases are off: the graph shapes already cover the extremes, and jqwik's combined edge
    // cases of shape, size and seed would otherwise use up every try on a handful of tiny graphs.
    @Provide
    Arbitrary<Graphs.EdgeList> graphs() {
        return Graphs.any();
    }

    @Property(tries = 150, edgeCases = EdgeCasesMode.NONE)
    void everyAlgorithmOnEveryBackendMatchesTheOracle(@ForAll("graphs") Graphs.EdgeList edges) {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph narrow = edges.toCsr(arena);
            int[] expected = Oracle.labels(narrow);
            for (CsrGraph g : List.of(narrow, Graphs.withWideOffsets(narrow, arena))) {
                for (var run : runs()) {
                    Labels labels = labelers.get(run.backend()).label(g, LabelOptions.defaults().withAlgorithm(run.algorithm()));
                    assertArrayEquals(expected, labels.toArray(), run + " on " + edges + " with " + g.offsetBytes()
                            + "-byte offsets");
                    assertEquals(run.backend(), labels.timings().backend());
                }
            }
        }
    }

    @Property(tries = 100, edgeCases = EdgeCasesMode.NONE)
    void theOracleAgreesWithBreadthFirstSearch(@ForAll("graphs") Graphs.EdgeList edges) {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = edges.toCsr(arena);
            assertArrayEquals(Oracle.bfsLabels(g), Oracle.labels(g), edges.toString());
        }
    }

    @Property(tries = 40, edgeCases = EdgeCasesMode.NONE)
    void componentStatisticsMatchTheLabels(@ForAll("graphs") Graphs.EdgeList edges) {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = edges.toCsr(arena);
            Labels labels = labelers.get(Backend.CPU_PARALLEL).label(g);
            int[] l = labels.toArray();
            Map<Integer, Integer> sizes = new java.util.HashMap<>();
            for (int x : l) {
                sizes.merge(x, 1, Integer::sum);
            }
            assertEquals(sizes.size(), labels.count());
            assertEquals(sizes.values().stream().mapToInt(Integer::intValue).max().orElse(0), labels.largestComponentSize());
            for (int v = 0; v < l.length; v++) {
                assertEquals(sizes.get(l[v]).intValue(), labels.componentSize(v));
            }
        }
    }

    private record Run(Backend backend, Algorithm algorithm) {
    }

    /** The algorithms with both a CPU and a CUDA implementation. */
    private static final List<Algorithm> NATIVE_ALGORITHMS = List.of(Algorithm.ECL_CC, Algorithm.HAWICK_EDGE,
            Algorithm.HAWICK_VERTEX, Algorithm.HAWICK_BFS, Algorithm.KOMURA, Algorithm.AFFOREST);

    private static List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        runs.add(new Run(Backend.JAVA, Algorithm.UNION_FIND));
        for (Backend b : List.of(Backend.CPU_SERIAL, Backend.CPU_PARALLEL)) {
            for (Algorithm a : NATIVE_ALGORITHMS) {
                runs.add(new Run(b, a));
            }
            runs.add(new Run(b, Algorithm.CPU_REFERENCE));
        }
        if (labelers.containsKey(Backend.CUDA)) {
            for (Algorithm a : NATIVE_ALGORITHMS) {
                runs.add(new Run(Backend.CUDA, a));
            }
        }
        return runs;
    }
}
