package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Graphs;
import org.ccl4j.testing.Oracle;

/**
 * What a graph labelling's {@link ProgressListener} hears: one {@code ("done", 2m, 2m)} on every
 * backend and algorithm that does not stream, and, for a graph streamed through the GPU, stages
 * {@code sample}, {@code link}, {@code done} in that order, the first call before the end, arcs that
 * never go back, and the same {@code ("done", 2m, 2m)} last. The streamed property is CUDA only:
 * without a device it prints a notice and checks nothing.
 */
class GraphProgressProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);
    private static final List<String> STAGES = List.of("sample", "link", "done");

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the progress of streamed graphs is not checked in GraphProgressProperties",
                Devices.of(0));
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    /** One call of the listener. */
    private record Call(String stage, long done, long total) {
    }

    /** Keeps every call; the library's threads call it one at a time. */
    private static final class Recorder implements ProgressListener {
        private final List<Call> calls = new ArrayList<>();

        @Override
        public synchronized void progress(String stage, long done, long total) {
            calls.add(new Call(stage, done, total));
        }

        synchronized List<Call> calls() {
            return List.copyOf(calls);
        }
    }

    @Example
    void everyLabellingThatDoesNotStreamIsHeardOnceDone() {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph graph = Graphs.make(3, 5_000, 11).toCsr(arena);
            int[] expected = Oracle.labels(graph);
            Call done = new Call("done", 2 * graph.arcCount(), 2 * graph.arcCount());
            for (Map.Entry<Backend, ComponentLabeler> e : labelers.entrySet()) {
                // UNION_FIND runs in the JVM on every backend, the others in the library
                for (Algorithm algorithm : List.of(Algorithm.AUTO, Algorithm.UNION_FIND)) {
                    Recorder heard = new Recorder();
                    Labels labels = e.getValue().label(graph, LabelOptions.defaults().withAlgorithm(algorithm)
                            .withProgress(heard));
                    assertArrayEquals(expected, labels.toArray(), e.getKey() + ", " + algorithm);
                    assertEquals(List.of(done), heard.calls(), e.getKey() + ", " + algorithm);
                }
            }
        }
    }

    @Example
    void edgeListsAreNotHeard() {
        for (Map.Entry<Backend, ComponentLabeler> e : labelers.entrySet()) {
            Recorder heard = new Recorder();
            int[] labels = e.getValue().labelEdges(4, new int[] {0, 2}, new int[] {1, 3},
                    LabelOptions.defaults().withProgress(heard));
            assertArrayEquals(new int[] {0, 0, 2, 2}, labels, e.getKey().toString());
            assertEquals(List.of(), heard.calls(), e.getKey().toString());
        }
    }

    @Provide
    Arbitrary<Graphs.EdgeList> graphs() {
        return Graphs.any();
    }

    @Property(tries = 40, edgeCases = EdgeCasesMode.NONE)
    void aStreamedGraphIsHeardAsItGoesThenDone(@ForAll("graphs") Graphs.EdgeList edges) {
        ComponentLabeler cuda = labelers.get(Backend.CUDA);
        if (cuda == null) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph graph = edges.toCsr(arena);
            int n = graph.vertexCount();
            long total = 2 * graph.arcCount();
            // the parent array, its bitmap and two staging buffers of a few hundred bytes: many blocks
            long budget = 4L * n + (n / 32 + 1) * 4L + 512 + 700;
            Recorder heard = new Recorder();
            Labels labels = cuda.label(graph, LabelOptions.defaults().withAlgorithm(Algorithm.STREAMED)
                    .withDeviceMemory(budget).withProgress(heard));
            assertArrayEquals(Oracle.labels(graph), labels.toArray(), edges.toString());
            List<Call> calls = heard.calls();
            String seen = edges + ": " + calls;
            assertEquals(new Call("done", total, total), calls.getLast(), seen);
            if (graph.arcCount() > 0) {
                assertNotEquals("done", calls.getFirst().stage(), "the first block is heard before the end: " + seen);
            }
            int stage = 0;
            long done = 0;
            for (Call c : calls.subList(0, calls.size() - 1)) {
                int s = STAGES.indexOf(c.stage());
                assertTrue(s >= stage && s < STAGES.indexOf("done"), "stages in order, done once: " + seen);
                assertTrue(c.done() >= done && c.done() <= total, "arcs never go back nor past the total: " + seen);
                assertEquals(total, c.total(), seen);
                stage = s;
                done = c.done();
            }
        }
    }
}
