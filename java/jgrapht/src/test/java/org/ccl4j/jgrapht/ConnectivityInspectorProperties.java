package org.ccl4j.jgrapht;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;

/**
 * For any JGraphT graph (simple, multi- and pseudographs, directed or not; string and record
 * vertices; empty graphs and isolated vertices), {@link Ccl4jConnectivityInspector} answers every
 * query as JGraphT's {@link ConnectivityInspector} does: on the JAVA backend (a labeler of the
 * caller's) and with the inspector's own labeler (the native CPU backend).
 */
class ConnectivityInspectorProperties {
    private static ComponentLabeler javaLabeler;

    @BeforeContainer
    static void openLabeler() {
        javaLabeler = ComponentLabeler.create(Backend.JAVA);
    }

    @AfterContainer
    static void closeLabeler() {
        javaLabeler.close();
    }

    // Edge cases are off: the core's shapes cover the extremes (as in the core's LabelingProperties).
    @Provide
    Arbitrary<TestGraphs.Case> graphs() {
        return TestGraphs.cases();
    }

    @Property(tries = 150, edgeCases = EdgeCasesMode.NONE)
    void onTheJavaBackendItAnswersAsConnectivityInspector(@ForAll("graphs") TestGraphs.Case c) {
        Graph<Object, DefaultEdge> g = c.build();
        assertSameAnswers(g, new Ccl4jConnectivityInspector<>(g, javaLabeler), c);
    }

    @Property(tries = 150, edgeCases = EdgeCasesMode.NONE)
    void withItsOwnLabelerItAnswersAsConnectivityInspector(@ForAll("graphs") TestGraphs.Case c) {
        Graph<Object, DefaultEdge> g = c.build();
        assertSameAnswers(g, new Ccl4jConnectivityInspector<>(g), c);
    }

    /** Every query of {@code actual} against a ConnectivityInspector's, the vertices asked for by equal copies. */
    private static void assertSameAnswers(Graph<Object, DefaultEdge> g,
                                          Ccl4jConnectivityInspector<Object, DefaultEdge> actual, TestGraphs.Case c) {
        ConnectivityInspector<Object, DefaultEdge> expected = new ConnectivityInspector<>(g);
        List<Set<Object>> expectedSets = expected.connectedSets();
        List<Set<Object>> actualSets = actual.connectedSets();
        assertEquals(new HashSet<>(expectedSets), new HashSet<>(actualSets), "the components, " + c);
        // both ways: JGraphT's sets read ours through their iterators, ours read theirs through contains
        assertEquals(expectedSets, actualSets, "the components in order, " + c);
        assertEquals(actualSets, expectedSets, "the components in order, " + c);
        assertEquals(expected.isConnected(), actual.isConnected(), "isConnected, " + c);
        for (Object v : g.vertexSet()) {
            Set<Object> set = actual.connectedSetOf(TestGraphs.copyOf(v));
            assertEquals(expected.connectedSetOf(v), set, "connectedSetOf(" + v + "), " + c);
            assertEquals(set, expected.connectedSetOf(v), "connectedSetOf(" + v + "), " + c);
        }
        List<Object> vertices = new ArrayList<>(g.vertexSet());
        Random r = new Random(c.seed());
        for (int i = 0; i < 200 && !vertices.isEmpty(); i++) {
            Object u = vertices.get(r.nextInt(vertices.size()));
            // half of the pairs from one component, or most would be unconnected where components are many
            List<Object> among = i % 2 == 0 ? vertices : new ArrayList<>(expected.connectedSetOf(u));
            Object w = among.get(r.nextInt(among.size()));
            assertEquals(expected.pathExists(u, w), actual.pathExists(TestGraphs.copyOf(u), TestGraphs.copyOf(w)),
                    "pathExists(" + u + ", " + w + "), " + c);
        }
    }
}
