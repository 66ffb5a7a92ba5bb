package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link EdgeList}: its factories and their checks, and labelling it on every CPU backend (and
 * CUDA when present): results, timings, and every way a call is refused, with the message it
 * gives; {@link CsrGraph#fromEdges} on arrays and edge lists.
 */
class EdgeListTest {
    /** 0-1-2 path, 3 isolated, 4-5 edge; with a repeat, a reversed edge and a self loop. */
    private static final int[] SOURCES = {0, 2, 1, 5, 3, 1};
    private static final int[] TARGETS = {1, 1, 2, 4, 3, 0};
    private static final int[] EXPECTED = {0, 0, 0, 3, 4, 4};

    private static final List<ComponentLabeler> labelers = new ArrayList<>();

    @BeforeAll
    static void open() {
        for (Backend b : List.of(Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL)) {
            labelers.add(ComponentLabeler.create(b));
        }
        if (ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            labelers.add(ComponentLabeler.create(Backend.CUDA));
        } else {
            System.out.println("NOTICE: no CUDA device present - EdgeListTest skips the CUDA backend");
        }
    }

    @AfterAll
    static void close() {
        labelers.forEach(ComponentLabeler::close);
        labelers.clear();
    }

    private static int[] pairs(int[] sources, int[] targets) {
        int[] pairs = new int[2 * sources.length];
        for (int i = 0; i < sources.length; i++) {
            pairs[2 * i] = sources[i];
            pairs[2 * i + 1] = targets[i];
        }
        return pairs;
    }

    @Test
    void factoriesViewTheEdgesAsGiven() {
        try (Arena arena = Arena.ofConfined()) {
            EdgeList separate = EdgeList.fromArrays(arena, 6, SOURCES, TARGETS);
            EdgeList interleaved = EdgeList.fromPairs(arena, 6, pairs(SOURCES, TARGETS));
            MemorySegment s = arena.allocateFrom(ValueLayout.JAVA_INT, SOURCES);
            MemorySegment t = arena.allocateFrom(ValueLayout.JAVA_INT, TARGETS);
            EdgeList wrapped = EdgeList.wrap(6, s, t);
            EdgeList wrappedPairs = EdgeList.wrapPairs(6, arena.allocateFrom(ValueLayout.JAVA_INT, pairs(SOURCES, TARGETS)));
            for (EdgeList e : List.of(separate, interleaved, wrapped, wrappedPairs)) {
                assertEquals(6, e.vertexCount());
                assertEquals(SOURCES.length, e.edgeCount());
                for (int i = 0; i < SOURCES.length; i++) {
                    assertEquals(SOURCES[i], e.source(i), e + " source " + i);
                    assertEquals(TARGETS[i], e.target(i), e + " target " + i);
                }
                assertThrows(IndexOutOfBoundsException.class, () -> e.source(SOURCES.length));
                assertThrows(IndexOutOfBoundsException.class, () -> e.target(-1));
                assertTrue(e.sources().isReadOnly() && e.targets().isReadOnly(), e.toString());
            }
            assertFalse(separate.isInterleaved());
            assertTrue(interleaved.isInterleaved());
            assertEquals(TARGETS[1], interleaved.targets().getAtIndex(ValueLayout.JAVA_INT, 2));
            // wrapped, not copied: a change shows
            s.setAtIndex(ValueLayout.JAVA_INT, 0, 3);
            assertEquals(3, wrapped.source(0));
            assertEquals("EdgeList[vertices=6, edges=6, pairs]", interleaved.toString());
        }
    }

    @Test
    void malformedListsAreRefusedWhenMade() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ints = arena.allocate(ValueLayout.JAVA_INT, 8);
            assertMessage("sources has 2 entries but targets has 1",
                    () -> EdgeList.fromArrays(arena, 3, new int[] {0, 1}, new int[] {1}));
            assertMessage("vertex count must not be negative, got -1",
                    () -> EdgeList.fromArrays(arena, -1, new int[] {0}, new int[] {0}));
            assertMessage("pairs has 3 entries, an odd number: not whole pairs",
                    () -> EdgeList.fromPairs(arena, 3, new int[] {0, 1, 2}));
            assertMessage("sources holds 8 ids but targets holds 7",
                    () -> EdgeList.wrap(9, ints, ints.asSlice(4)));
            assertMessage("targets must be a native (off-heap) segment",
                    () -> EdgeList.wrap(9, ints, MemorySegment.ofArray(new int[8])));
            assertMessage("sources segment of 6 bytes is not a whole number of 32-bit ids",
                    () -> EdgeList.wrap(9, ints.asSlice(0, 6), ints.asSlice(0, 6)));
            assertThrows(IllegalArgumentException.class, () -> EdgeList.wrap(9, ints.asSlice(2, 8), ints.asSlice(0, 8)),
                    "misaligned by 2 bytes");
            assertMessage("pairs segment of 12 bytes does not hold whole pairs of 32-bit ids",
                    () -> EdgeList.wrapPairs(9, ints.asSlice(0, 12)));
            assertThrows(NullPointerException.class, () -> EdgeList.wrap(3, null, ints));
        }
        Arena closed = Arena.ofConfined();
        MemorySegment freed = closed.allocate(ValueLayout.JAVA_INT, 4);
        closed.close();
        assertThrows(IllegalStateException.class, () -> EdgeList.wrapPairs(3, freed));
    }

    @Test
    void everyBackendLabelsTheEdgesCanonicallyAndTimesThePhases() {
        try (Arena arena = Arena.ofConfined()) {
            for (ComponentLabeler labeler : labelers) {
                for (EdgeList e : List.of(EdgeList.fromArrays(arena, 6, SOURCES, TARGETS),
                        EdgeList.fromPairs(arena, 6, pairs(SOURCES, TARGETS)))) {
                    Labels labels = labeler.label(e);
                    assertArrayEquals(EXPECTED, labels.toArray(), labeler.backend() + " " + e);
                    assertEquals(3, labels.count());
                    Timings t = labels.timings();
                    List<String> phases = List.copyOf(t.phasesMs().keySet());
                    assertEquals(labeler.backend() == Backend.CUDA ? List.of("h2d", "init", "link", "finalize", "d2h")
                            : List.of("init", "link", "finalize"), phases, labeler.backend() + " " + t);
                    assertEquals(labeler.backend(), t.backend());
                    assertEquals(labeler.backend() == Backend.JAVA ? Algorithm.UNION_FIND : Algorithm.AUTO, t.algorithm());
                    for (double ms : t.phasesMs().values()) {
                        assertTrue(ms >= 0 && ms <= t.totalMs(), t.toString());
                    }
                }
                assertArrayEquals(EXPECTED, labeler.labelEdges(6, SOURCES, TARGETS), labeler.backend().toString());
                assertArrayEquals(new int[] {0, 1, 2}, labeler.labelEdges(3, new int[0], new int[0]));
                assertArrayEquals(new int[0], labeler.labelEdges(0, new int[0], new int[0]));
            }
        }
    }

    /** Random edges over many vertices: every backend on all its threads agrees with the oracle. */
    @Test
    void aLargeRandomListOnEveryBackend() {
        Random random = new Random(7);
        int n = 300_000;
        int[] sources = random.ints(250_000, 0, n).toArray();
        int[] targets = random.ints(250_000, 0, n).toArray();
        try (Arena arena = Arena.ofConfined()) {
            GraphBuilder builder = new GraphBuilder().vertexCount(n);
            for (int i = 0; i < sources.length; i++) {
                builder.addEdge(sources[i], targets[i]);
            }
            int[] expected = UnionFind.labels(builder.build(arena));
            for (ComponentLabeler labeler : labelers) {
                assertArrayEquals(expected, labeler.labelEdges(n, sources, targets), labeler.backend().toString());
            }
        }
    }

    @Test
    void idsOutOfRangeAreRefusedNamingTheFirstBadEdge() {
        try (Arena arena = Arena.ofConfined()) {
            int[] sources = {0, 1, 2, -3, 9};
            int[] targets = {1, 2, 7, 0, 0};
            for (ComponentLabeler labeler : labelers) {
                for (Algorithm algorithm : List.of(Algorithm.AUTO, Algorithm.UNION_FIND)) {
                    LabelOptions options = LabelOptions.defaults().withAlgorithm(algorithm);
                    String what = labeler.backend() + " " + algorithm;
                    assertMessage("edge 2 (2, 7): id 7 is outside [0, 5)",
                            () -> labeler.label(EdgeList.fromArrays(arena, 5, sources, targets), options), what);
                    assertMessage("edge 2 (2, 7): id 7 is outside [0, 5)",
                            () -> labeler.label(EdgeList.fromPairs(arena, 5, pairs(sources, targets)), options), what);
                    assertMessage("edge 3 (-3, 0): id -3 is outside [0, 5)", () -> labeler.labelEdges(5,
                            new int[] {0, 1, 2, -3}, new int[] {1, 2, 3, 0}, options), what);
                    assertMessage("edge 0 (-2147483648, 2147483647): id -2147483648 is outside [0, 5)",
                            () -> labeler.labelEdges(5, new int[] {Integer.MIN_VALUE}, new int[] {Integer.MAX_VALUE},
                                    options), what);
                }
                assertThrows(IllegalArgumentException.class, () -> labeler.labelEdges(0, new int[] {0}, new int[] {0}),
                        "edges without vertices on " + labeler.backend());
            }
        }
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingRuns() {
        try (Arena arena = Arena.ofConfined()) {
            EdgeList edges = EdgeList.fromArrays(arena, 6, SOURCES, TARGETS);
            for (ComponentLabeler labeler : labelers) {
                LabelOptions defaults = LabelOptions.defaults();
                assertMessage("labels segment holds 5 ints but the edge list has 6 vertices",
                        () -> labeler.label(edges, defaults, arena.allocate(ValueLayout.JAVA_INT, 5)));
                assertMessage("labels must be a writable native (off-heap) segment",
                        () -> labeler.label(edges, defaults, MemorySegment.ofArray(new int[6])));
                MemorySegment sources = arena.allocateFrom(ValueLayout.JAVA_INT, SOURCES);
                EdgeList wrapped = EdgeList.wrap(6, sources, arena.allocateFrom(ValueLayout.JAVA_INT, TARGETS));
                assertMessage("the labels segment overlaps the edge list's sources: labels must not share memory"
                        + " with the input", () -> labeler.label(wrapped, defaults, sources));
                MemorySegment pairs = arena.allocateFrom(ValueLayout.JAVA_INT, pairs(SOURCES, TARGETS));
                assertMessage("the labels segment overlaps the edge list's sources: labels must not share memory"
                        + " with the input", () -> labeler.label(EdgeList.wrapPairs(6, pairs), defaults, pairs.asSlice(24)));
                assertMessage("sources has 2 entries but targets has 1",
                        () -> labeler.labelEdges(3, new int[] {0, 1}, new int[] {1}));
                assertMessage("vertex count must not be negative, got -4",
                        () -> labeler.labelEdges(-4, new int[0], new int[0]));
                for (Algorithm csrOnly : List.of(Algorithm.ECL_CC, Algorithm.HAWICK_BFS, Algorithm.CPU_REFERENCE)) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> labeler.label(edges, defaults.withAlgorithm(csrOnly)));
                    assertTrue(e.getMessage().startsWith(csrOnly + " labels CSR graphs; an edge list is labelled by a"
                            + " union-find over its edges"), e.getMessage());
                }
                assertThrows(IllegalArgumentException.class,
                        () -> labeler.label(edges, defaults.withCpuThreads(100_000)), "100000 threads");
            }
        }
    }

    @Test
    void freedMemoryIsRefused() {
        Arena edgesArena = Arena.ofConfined();
        EdgeList edges = EdgeList.fromArrays(edgesArena, 6, SOURCES, TARGETS);
        edgesArena.close();
        try (Arena arena = Arena.ofConfined()) {
            for (ComponentLabeler labeler : labelers) {
                assertMessage(IllegalStateException.class,
                        "the memory of the edge list's sources was freed (its arena is closed)",
                        () -> labeler.label(edges));
                Arena labelsArena = Arena.ofConfined();
                MemorySegment labels = labelsArena.allocate(ValueLayout.JAVA_INT, 6);
                labelsArena.close();
                EdgeList live = EdgeList.fromArrays(arena, 6, SOURCES, TARGETS);
                assertThrows(IllegalStateException.class, () -> labeler.label(live, LabelOptions.defaults(), labels));
            }
            assertMessage(IllegalStateException.class, "the memory of the edge list was freed (its arena is closed)",
                    () -> CsrGraph.fromEdges(arena, edges));
            assertThrows(IllegalStateException.class, () -> edges.source(0));
        }
        ComponentLabeler closed = ComponentLabeler.create(Backend.CPU_SERIAL);
        closed.close();
        assertMessage(IllegalStateException.class, "this ComponentLabeler is closed",
                () -> closed.labelEdges(2, new int[] {0}, new int[] {1}));
    }

    @Test
    void fromEdgesBuildsTheBuildersGraph() {
        try (Arena arena = Arena.ofConfined()) {
            GraphBuilder builder = new GraphBuilder().vertexCount(7);
            for (int i = 0; i < SOURCES.length; i++) {
                builder.addEdge(SOURCES[i], TARGETS[i]);
            }
            CsrGraph expected = builder.build(arena);
            EdgeLabelingProperties.assertSameGraph(expected, CsrGraph.fromEdges(arena, 7, SOURCES, TARGETS), "arrays");
            EdgeLabelingProperties.assertSameGraph(expected,
                    CsrGraph.fromEdges(arena, EdgeList.fromPairs(arena, 7, pairs(SOURCES, TARGETS))), "pairs");
            CsrGraph g = CsrGraph.fromEdges(arena, 7, SOURCES, TARGETS);
            assertEquals(4, g.offsetBytes());
            assertEquals(List.of(1L, 2L, 1L, 0L, 1L, 1L, 0L), List.of(g.degree(0), g.degree(1), g.degree(2), g.degree(3),
                    g.degree(4), g.degree(5), g.degree(6)));
            assertEquals(2, g.neighbor(g.offset(1) + 1));
            // arrays: the vertex count grows to the largest id + 1, as GraphBuilder's does
            assertEquals(6, CsrGraph.fromEdges(arena, 2, SOURCES, TARGETS).vertexCount());
            assertEquals(0, CsrGraph.fromEdges(arena, 0, new int[0], new int[0]).vertexCount());
            assertMessage("vertex ids must be in 0..2147483646, got edge 1 - -1",
                    () -> CsrGraph.fromEdges(arena, 3, new int[] {0, 1}, new int[] {1, -1}));
            assertMessage("vertex ids must be in 0..2147483646, got edge 2147483647 - 0",
                    () -> CsrGraph.fromEdges(arena, 3, new int[] {Integer.MAX_VALUE}, new int[] {0}));
            assertMessage("sources has 1 entries but targets has 0",
                    () -> CsrGraph.fromEdges(arena, 3, new int[] {0}, new int[0]));
            // edge lists: the vertex count is the list's, and ids beyond it are refused
            assertMessage("edge 1 (2, 1): id 2 is outside [0, 2)",
                    () -> CsrGraph.fromEdges(arena, EdgeList.fromArrays(arena, 2, SOURCES, TARGETS)));
        }
    }

    private static void assertMessage(String message, Runnable call) {
        assertMessage(IllegalArgumentException.class, message, call);
    }

    private static void assertMessage(String message, Runnable call, String what) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run, what);
        assertEquals(message, e.getMessage(), what);
    }

    private static void assertMessage(Class<? extends RuntimeException> type, String message, Runnable call) {
        RuntimeException e = assertThrows(type, call::run);
        assertEquals(message, e.getMessage());
    }
}
