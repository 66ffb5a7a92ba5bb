package org.ccl4j.engine.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.LabelOptions;
import org.ccl4j.Labels;
import org.ccl4j.Timings;
import org.ccl4j.UnionFind;
import org.ccl4j.testing.EngineData;
import org.ccl4j.testing.Graphs;
import org.ccl4j.testing.Oracle;

/**
 * The JAVA backend's parallel union-find ({@link ParallelUnionFind}) returns exactly the labels of
 * the single-threaded oracle {@link UnionFind}, on every graph shape, on one thread and on several
 * with chunks of a few vertices (so that the threads really race on small graphs), into native and
 * heap labels; and through {@link ComponentLabeler} on the default grain, graphs and labels in
 * confined arenas.
 */
class ParallelUnionFindProperties {
    /** How to run: threads (0 = all cores) and vertices per chunk (0 = the default). */
    record Split(int threads, long grain) {
    }

    @Provide
    Arbitrary<Graphs.EdgeList> graphs() {
        return Graphs.any();
    }

    @Provide
    Arbitrary<Split> splits() {
        return Arbitraries.of(new Split(1, 0), new Split(0, 0), new Split(0, 1), new Split(4, 1), new Split(4, 5),
                new Split(3, 64), new Split(8, 3));
    }

    @Property(tries = 250, edgeCases = EdgeCasesMode.NONE)
    void matchesTheOracle(@ForAll("graphs") Graphs.EdgeList edges, @ForAll("splits") Split split) {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph narrow = edges.toCsr(arena);
            int[] expected = Oracle.labels(narrow);
            for (CsrGraph g : List.of(narrow, Graphs.withWideOffsets(narrow, arena))) {
                MemorySegment offHeap = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, g.vertexCount()));
                ParallelUnionFind.label(EngineData.graph(g), offHeap, split.threads(), split.grain());
                assertArrayEquals(expected, offHeap.asSlice(0, 4L * g.vertexCount()).toArray(ValueLayout.JAVA_INT),
                        split + " on " + edges + ", native labels, " + g.offsetBytes() + "-byte offsets");
                int[] heap = new int[g.vertexCount()];
                ParallelUnionFind.label(EngineData.graph(g), MemorySegment.ofArray(heap), split.threads(), split.grain());
                assertArrayEquals(expected, heap, split + " on " + edges + ", heap labels");
            }
        }
    }

    /** Graphs of every shape with 100,000 vertices, in chunks of 1 to 257 vertices on 4 threads. */
    @Test
    void largeGraphsOfEveryShapeOnFourThreads() {
        for (int shape = 0; shape <= 11; shape++) {
            Graphs.EdgeList edges = Graphs.make(shape, 100_000, 1_000 + shape);
            try (Arena arena = Arena.ofShared()) {
                CsrGraph g = edges.toCsr(arena);
                int[] expected = Oracle.labels(g);
                for (long grain : new long[] {1, 16, 257, 0}) {
                    int[] labels = new int[g.vertexCount()];
                    ParallelUnionFind.label(EngineData.graph(g), MemorySegment.ofArray(labels), 4, grain);
                    assertArrayEquals(expected, labels, edges + " in chunks of " + grain);
                }
            }
        }
    }

    /** Stars, whose hub every chunk's vertices hook onto at once, with the hub first, last and in the middle. */
    @Test
    void starsWithTheirHubFirstLastAndInTheMiddle() {
        int n = 300_000;
        for (int centre : new int[] {0, n / 2, n - 1}) {
            int[] leaves = IntStream.range(0, n).filter(v -> v != centre && v % 1000 != 7).toArray();
            int[] sources = new int[leaves.length];  // every 1000th vertex stays alone
            Arrays.fill(sources, centre);
            int[] targets = leaves;
            try (Arena arena = Arena.ofConfined()) {
                CsrGraph g = CsrGraph.fromEdges(arena, n, sources, targets);
                int[] expected = Oracle.labels(g);
                int[] labels = new int[n];
                ParallelUnionFind.label(EngineData.graph(g), MemorySegment.ofArray(labels), 4, 1000);
                assertArrayEquals(expected, labels, "star centred at " + centre);
            }
        }
    }

    /**
     * Through the JAVA backend: default grain and all cores, a graph large enough to be split,
     * graph and labels in a confined arena; the phases are timed.
     */
    @Test
    void theJavaBackendLabelsAConfinedGraphOnAllCores() {
        Random random = new Random(5);
        int n = 400_000;
        int[] sources = random.ints(300_000, 0, n).toArray();
        int[] targets = random.ints(300_000, 0, n).toArray();
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA)) {
            CsrGraph g = CsrGraph.fromEdges(arena, n, sources, targets);
            int[] expected = Oracle.labels(g);
            for (int threads : new int[] {0, 1, 3}) {
                Labels labels = labeler.label(g, LabelOptions.defaults().withCpuThreads(threads), arena);
                assertArrayEquals(expected, labels.toArray(), threads + " threads");
                Timings t = labels.timings();
                assertEquals(List.of("init", "compute", "finalize"), List.copyOf(t.phasesMs().keySet()));
                assertEquals(Backend.JAVA, t.backend());
                assertEquals(Algorithm.UNION_FIND, t.algorithm());
            }
        }
    }
}
