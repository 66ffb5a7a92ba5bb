package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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

import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Edges;
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
    // Edge cases off, as in LabelingProperties: the shapes cover the extremes.
    @Provide
    Arbitrary<Edges> edgeLists() {
        return Edges.any();
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
