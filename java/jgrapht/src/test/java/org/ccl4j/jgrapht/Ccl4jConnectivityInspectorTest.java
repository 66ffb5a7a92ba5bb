package org.ccl4j.jgrapht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.AbstractSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultDirectedGraph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.DefaultListenableGraph;
import org.jgrapht.graph.GraphDelegator;
import org.jgrapht.graph.SimpleGraph;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class Ccl4jConnectivityInspectorTest {

    private static Graph<String, DefaultEdge> graph(List<String> vertices, String... edges) {
        Graph<String, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
        vertices.forEach(g::addVertex);
        for (String e : edges) {
            g.addEdge(e.substring(0, 1), e.substring(1));
        }
        return g;
    }

    @Test
    void anEmptyGraphHasNoComponentAndIsNotConnected() {
        var inspector = new Ccl4jConnectivityInspector<>(graph(List.of()));
        assertEquals(List.of(), inspector.connectedSets());
        assertFalse(inspector.isConnected());
    }

    @Test
    void componentsAndTheirMembersAreInVertexSetOrder() {
        var inspector = new Ccl4jConnectivityInspector<>(graph(List.of("e", "c", "d", "a", "b"), "ab", "ca", "de"));
        assertEquals(List.of(List.of("e", "d"), List.of("c", "a", "b")),
                inspector.connectedSets().stream().map(List::copyOf).toList());
        assertEquals(List.of("c", "a", "b"), List.copyOf(inspector.connectedSetOf("b")));
    }

    @Test
    void aDirectedGraphHasItsWeaklyConnectedComponents() {
        Graph<String, DefaultEdge> g = new DefaultDirectedGraph<>(DefaultEdge.class);
        List.of("a", "b", "c", "d").forEach(g::addVertex);
        g.addEdge("a", "b");
        g.addEdge("c", "b");
        g.addEdge("d", "d");
        var inspector = new Ccl4jConnectivityInspector<>(g);
        assertEquals(List.of(Set.of("a", "b", "c"), Set.of("d")), inspector.connectedSets());
        assertTrue(inspector.pathExists("a", "c"));
        assertTrue(inspector.pathExists("c", "a"));
        assertFalse(inspector.pathExists("a", "d"));
    }

    @Test
    void aVertexNotInTheGraphIsRefusedAsFirstVertexAndUnreachableAsSecond() {
        Graph<String, DefaultEdge> g = graph(List.of("a", "b"), "ab");
        var inspector = new Ccl4jConnectivityInspector<>(g);
        var jgrapht = new ConnectivityInspector<>(g);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> inspector.connectedSetOf("x"));
        assertEquals("the graph has no vertex x", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> jgrapht.connectedSetOf("x"));
        assertThrows(IllegalArgumentException.class, () -> inspector.pathExists("x", "a"));
        assertThrows(IllegalArgumentException.class, () -> jgrapht.pathExists("x", "a"));
        assertFalse(inspector.pathExists("a", "x"));
        assertFalse(jgrapht.pathExists("a", "x"));
        // null is in no graph (ConnectivityInspector's connectedSetOf(null) returns every vertex instead)
        assertThrows(IllegalArgumentException.class, () -> inspector.connectedSetOf(null));
        assertFalse(inspector.pathExists("a", null));
        assertFalse(inspector.connectedSetOf("a").contains("x"));
    }

    @Test
    void integerVerticesAreFoundByValueAndOnlyIntegersInTheGraphAreVertices() {
        // 0..n-1 in any order: numbered through an array, which must answer as a map would
        Graph<Object, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
        List.of(2, 0, 1, 300, 299).forEach(g::addVertex);
        for (int v = 3; v < 299; v++) {
            g.addVertex(v);
        }
        g.addEdge(2, 300);
        g.addEdge(299, 0);
        var inspector = new Ccl4jConnectivityInspector<>(g);
        assertEquals(Set.of(2, 300), inspector.connectedSetOf(Integer.valueOf(300)));
        assertTrue(inspector.pathExists(Integer.valueOf(0), Integer.valueOf(299)));
        for (Object absent : new Object[] {-1, 301, 1L, "0", null}) {
            assertThrows(IllegalArgumentException.class, () -> inspector.connectedSetOf(absent), "vertex " + absent);
            assertFalse(inspector.pathExists(2, absent), "vertex " + absent);
            assertFalse(inspector.connectedSetOf(2).contains(absent), "vertex " + absent);
        }
    }

    @Test
    void nullGraphsAndLabelersAreRefused() {
        assertThrows(NullPointerException.class, () -> new Ccl4jConnectivityInspector<String, DefaultEdge>(null));
        try (ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA)) {
            assertThrows(NullPointerException.class,
                    () -> new Ccl4jConnectivityInspector<String, DefaultEdge>(null, labeler));
        }
        assertThrows(NullPointerException.class, () -> new Ccl4jConnectivityInspector<>(graph(List.of()), null));
    }

    @Test
    void theCollectionsReturnedCannotBeChanged() {
        var inspector = new Ccl4jConnectivityInspector<>(graph(List.of("a", "b", "c"), "ab"));
        List<Set<String>> sets = inspector.connectedSets();
        Set<String> ab = inspector.connectedSetOf("a");
        assertThrows(UnsupportedOperationException.class, () -> sets.add(Set.of("x")));
        assertThrows(UnsupportedOperationException.class, () -> sets.remove(0));
        assertThrows(UnsupportedOperationException.class, () -> ab.add("c"));
        assertThrows(UnsupportedOperationException.class, () -> ab.remove("a"));
        assertThrows(UnsupportedOperationException.class, ab::clear);
        Iterator<String> it = sets.get(0).iterator();
        it.next();
        assertThrows(UnsupportedOperationException.class, it::remove);
        assertEquals(List.of(Set.of("a", "b"), Set.of("c")), inspector.connectedSets());
    }

    @Test
    void onAListenableGraphEveryChangeIsSeenAndEarlierSetsStayAsTheyWere() {
        var g = new DefaultListenableGraph<>(graph(List.of("a", "b", "c"), "ab"));
        var inspector = new Ccl4jConnectivityInspector<>(g);
        var jgrapht = new ConnectivityInspector<>(g);
        g.addGraphListener(inspector);
        g.addGraphListener(jgrapht);
        assertEquals(List.of(Set.of("a", "b"), Set.of("c")), inspector.connectedSets());
        jgrapht.connectedSets();  // its edgeAdded fails before a first query
        Set<String> c = inspector.connectedSetOf("c");

        g.addEdge("b", "c");
        assertEquals(List.of(Set.of("a", "b", "c")), inspector.connectedSets());
        assertTrue(inspector.isConnected());
        assertTrue(inspector.pathExists("a", "c"));
        assertEquals(Set.of("c"), c);

        g.addVertex("d");
        assertEquals(List.of(Set.of("a", "b", "c"), Set.of("d")), inspector.connectedSets());
        assertFalse(inspector.isConnected());

        g.removeEdge("a", "b");
        assertEquals(List.of(Set.of("a"), Set.of("b", "c"), Set.of("d")), inspector.connectedSets());

        g.removeVertex("d");
        assertEquals(List.of(Set.of("a"), Set.of("b", "c")), inspector.connectedSets());
        assertEquals(new HashSet<>(jgrapht.connectedSets()), new HashSet<>(inspector.connectedSets()));
    }

    @Test
    void unregisteredItKeepsItsAnswerAsConnectivityInspectorDoes() {
        Graph<String, DefaultEdge> g = graph(List.of("a", "b"));
        var inspector = new Ccl4jConnectivityInspector<>(g);
        var jgrapht = new ConnectivityInspector<>(g);
        assertFalse(inspector.isConnected());
        assertFalse(jgrapht.isConnected());
        g.addEdge("a", "b");
        assertFalse(inspector.isConnected());
        assertFalse(jgrapht.isConnected());
        assertTrue(new Ccl4jConnectivityInspector<>(g).isConnected());
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"JAVA", "CPU_SERIAL", "CPU_PARALLEL"})
    void theCallersLabelerLabelsAndIsLeftOpen(Backend backend) {
        try (ComponentLabeler labeler = ComponentLabeler.create(backend);
             Arena arena = Arena.ofConfined()) {
            var inspector = new Ccl4jConnectivityInspector<>(graph(List.of("a", "b", "c"), "bc"), labeler);
            assertEquals(List.of(Set.of("a"), Set.of("b", "c")), inspector.connectedSets());
            CsrGraph path = CsrGraph.fromEdges(arena, 3, new int[] {0, 1}, new int[] {1, 2});
            assertEquals(1, labeler.label(path).count(), "the labeler labels after the inspector's use");
        }
    }

    @Test
    void aLabelerClosedByItsCallerIsNotUsed() {
        ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_SERIAL);
        var inspector = new Ccl4jConnectivityInspector<>(graph(List.of("a", "b"), "ab"), labeler);
        labeler.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, inspector::connectedSets);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void moreEdgesThanAnIntArrayHoldsAreRefused() {
        Graph<String, DefaultEdge> g = new GraphDelegator<>(graph(List.of("a"))) {
            @Override
            public Set<DefaultEdge> edgeSet() {
                return new AbstractSet<>() {
                    @Override
                    public int size() {
                        return Integer.MAX_VALUE;  // what Set.size() says of more elements
                    }

                    @Override
                    public Iterator<DefaultEdge> iterator() {
                        throw new AssertionError("the edges must not be read");
                    }
                };
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                new Ccl4jConnectivityInspector<>(g)::connectedSets);
        assertEquals("the graph has at least 2147483647 edges; Ccl4jConnectivityInspector lists them in int arrays,"
                + " which hold at most 2147483639", e.getMessage());
    }
}
