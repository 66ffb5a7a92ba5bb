package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Graphs;
import org.ccl4j.testing.Oracle;

/**
 * For any edge list (every shape of {@link Graphs}, its edges shuffled, some reversed, repeated
 * and joined by self loops, isolated vertices added), labelling it on every backend (JAVA,
 * CPU_SERIAL, CPU_PARALLEL; CUDA when a device is present, else skipped with a notice), with AUTO
 * and with the Java {@link Algorithm#UNION_FIND}, as two arrays and as pairs, into heap labels,
 * an arena and a segment of the caller's, returns exactly the oracle's canonical labels: those
 * of {@link UnionFind} on the graph {@link GraphBuilder} builds from the same edges. The Java
 * union-find races on small lists split in chunks of a few edges, and the native CSR build
 * behind {@link CsrGraph#fromEdges} returns exactly {@link GraphBuilder}'s graph.
 */
class EdgeLabelingProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the CUDA backend is skipped in EdgeLabelingProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    /** An edge list as given to the library, with the shape it came from. */
    record Edges(String shape, int vertexCount, int[] sources, int[] targets) {
        int[] pairs() {
            int[] pairs = new int[2 * sources.length];
            for (int i = 0; i < sources.length; i++) {
                pairs[2 * i] = sources[i];
                pairs[2 * i + 1] = targets[i];
            }
            return pairs;
        }

        /** The graph as {@link GraphBuilder} builds it: the oracle's input and the CSR build's reference. */
        CsrGraph builderGraph(Arena arena) {
            try (GraphBuilder builder = new GraphBuilder().vertexCount(vertexCount)) {
                for (int i = 0; i < sources.length; i++) {
                    builder.addEdge(sources[i], targets[i]);
                }
                return builder.build(arena);
            }
        }

        @Override
        public String toString() {
            return shape + "(n=" + vertexCount + ", edges=" + sources.length + ")";
        }
    }

    // Edge cases off, as in LabelingProperties: the shapes cover the extremes.
    @Provide
    Arbitrary<Edges> edgeLists() {
        return Combinators.combine(Graphs.any(), Arbitraries.longs()).as(EdgeLabelingProperties::messy);
    }

    /** The edges of {@code g} shuffled, a third reversed, some repeated, self loops and isolated vertices added. */
    static Edges messy(Graphs.EdgeList g, long seed) {
        Random r = new Random(seed);
        int n = g.vertexCount() + r.nextInt(4);
        List<int[]> edges = new ArrayList<>();
        for (int i = 0; i < g.sources().length; i++) {
            int u = g.sources()[i];
            int v = g.targets()[i];
            edges.add(r.nextInt(3) == 0 ? new int[] {v, u} : new int[] {u, v});
            if (r.nextInt(8) == 0) {
                edges.add(new int[] {v, u});
            }
        }
        for (int k = r.nextInt(5); k > 0 && n > 0; k--) {
            int v = r.nextInt(n);
            edges.add(new int[] {v, v});
        }
        java.util.Collections.shuffle(edges, r);
        return new Edges(g.shape(), n, edges.stream().mapToInt(e -> e[0]).toArray(),
                edges.stream().mapToInt(e -> e[1]).toArray());
    }

    @Property(tries = 120, edgeCases = EdgeCasesMode.NONE)
    void everyBackendLabelsEdgeListsAsTheOracle(@ForAll("edgeLists") Edges edges) {
        try (Arena arena = Arena.ofConfined()) {
            int n = edges.vertexCount();
            int[] expected = Oracle.labels(edges.builderGraph(arena));
            List<EdgeList> lists = List.of(EdgeList.fromArrays(arena, n, edges.sources(), edges.targets()),
                    EdgeList.fromPairs(arena, n, edges.pairs()));
            MemorySegment callers = arena.allocate(ValueLayout.JAVA_INT, n + 3L).asSlice(Integer.BYTES);
            for (ComponentLabeler labeler : labelers.values()) {
                for (Algorithm algorithm : List.of(Algorithm.AUTO, Algorithm.UNION_FIND)) {
                    LabelOptions options = LabelOptions.defaults().withAlgorithm(algorithm);
                    boolean java = algorithm == Algorithm.UNION_FIND || labeler.backend() == Backend.JAVA;
                    for (EdgeList list : lists) {
                        String what = labeler.backend() + ", " + algorithm + ", " + list + " of " + edges;
                        Labels heap = labeler.label(list, options);
                        assertArrayEquals(expected, heap.toArray(), what + ", heap labels");
                        assertEquals(java ? Backend.JAVA : labeler.backend(), heap.timings().backend(), what);
                        assertEquals(java ? Algorithm.UNION_FIND : Algorithm.AUTO, heap.timings().algorithm(), what);
                        assertArrayEquals(expected, labeler.label(list, options, arena).toArray(), what + ", arena");
                        callers.fill((byte) 0x5a);
                        Labels written = labeler.label(list, options, callers);
                        assertArrayEquals(expected, written.toArray(), what + ", the caller's segment");
                        assertEquals(0x5a5a5a5a, callers.getAtIndex(ValueLayout.JAVA_INT, n), what + ": wrote past the labels");
                    }
                }
                assertArrayEquals(expected, labeler.labelEdges(n, edges.sources(), edges.targets()),
                        labeler.backend() + ", labelEdges of " + edges);
            }
        }
    }

    /** How the Java union-find runs: threads (0 = all cores) and vertices and edges per chunk (0 = the default). */
    record Split(int threads, long grain) {
    }

    @Provide
    Arbitrary<Split> splits() {
        return Arbitraries.of(new Split(1, 0), new Split(0, 0), new Split(0, 1), new Split(4, 1), new Split(4, 7),
                new Split(3, 64), new Split(8, 3));
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void theJavaUnionFindMatchesTheOracleOnAnySplit(@ForAll("edgeLists") Edges edges, @ForAll("splits") Split split) {
        int n = edges.vertexCount();
        // shared: lists of a shared arena are copied first, those of a confined one read in place
        for (Arena arena : List.of(Arena.ofConfined(), Arena.ofShared())) {
            try (arena) {
                int[] expected = Oracle.labels(edges.builderGraph(arena));
                for (EdgeList list : List.of(EdgeList.fromArrays(arena, n, edges.sources(), edges.targets()),
                        EdgeList.fromPairs(arena, n, edges.pairs()))) {
                    MemorySegment out = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, n));
                    int[] labels = EdgeUnionFind.label(list, split.threads(), split.grain(), out).labels();
                    assertArrayEquals(expected, labels, split + " on " + list + " of " + edges);
                    assertArrayEquals(expected, out.asSlice(0, 4L * n).toArray(ValueLayout.JAVA_INT),
                            split + " on " + list + " of " + edges + ", copied out");
                    assertArrayEquals(expected, EdgeUnionFind.labelSerially(list, null).labels(),
                            "serially, " + list + " of " + edges);
                }
                assertArrayEquals(expected, EdgeUnionFind.label(n, edges.sources(), edges.targets(), split.threads(),
                        split.grain(), null).labels(), split + " on the arrays of " + edges);
            }
        }
    }

    @Property(tries = 150, edgeCases = EdgeCasesMode.NONE)
    void theNativeCsrBuildIsTheBuildersGraph(@ForAll("edgeLists") Edges edges) {
        try (Arena arena = Arena.ofConfined()) {
            int n = edges.vertexCount();
            CsrGraph expected = edges.builderGraph(arena);
            assertSameGraph(expected, CsrGraph.fromEdges(arena, n, edges.sources(), edges.targets()), "arrays");
            assertSameGraph(expected, CsrGraph.fromEdges(arena,
                    EdgeList.fromArrays(arena, n, edges.sources(), edges.targets())), "an edge list");
            assertSameGraph(expected, CsrGraph.fromEdges(arena, EdgeList.fromPairs(arena, n, edges.pairs())), "pairs");
        }
    }

    static void assertSameGraph(CsrGraph expected, CsrGraph actual, String what) {
        assertEquals(expected.vertexCount(), actual.vertexCount(), what + ": vertices");
        assertEquals(expected.offsetBytes(), actual.offsetBytes(), what + ": offset width");
        assertEquals(expected.offsets().byteSize(), actual.offsets().byteSize(), what + ": offsets");
        assertEquals(-1, expected.offsets().mismatch(actual.offsets()), what + ": offsets differ");
        assertEquals(expected.arcCount(), actual.arcCount(), what + ": arcs");
        assertEquals(-1, expected.neighbors().mismatch(actual.neighbors()), what + ": neighbours differ");
    }
}
