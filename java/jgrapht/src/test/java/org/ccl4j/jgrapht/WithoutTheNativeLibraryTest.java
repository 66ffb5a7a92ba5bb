package org.ccl4j.jgrapht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.ccl4j.testing.ForkedJvm;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the native library turned off ({@code -Dccl4j.native=false}, in a JVM of its own since the
 * library loads once per JVM), the inspector's own labeler is a JAVA one: it answers, and says why
 * once, however many labellings there are.
 */
class WithoutTheNativeLibraryTest {
    @Test
    void theInspectorsOwnLabelerFallsBackToJavaAndSaysSoOnce(@TempDir Path dir) throws Exception {
        ForkedJvm.Result r = ForkedJvm.run(dir, TwoLabellings.class, List.of("-Dccl4j.native=false"), List.of(),
                2, TimeUnit.MINUTES);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.output().contains("[[a, b], [c]] false\n[[a, b, c]] true\n"), r.describe());
        String warning = "ccl4j-jgrapht labels on the JAVA backend: the ccl4j native library is turned off";
        assertEquals(1, r.output().lines().filter(line -> line.contains(warning)).count(), r.describe());
    }

    /** Labels a graph, changes it and labels it again, each time with a new inspector. */
    public static final class TwoLabellings {
        public static void main(String[] args) {
            Graph<String, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
            List.of("a", "b", "c").forEach(g::addVertex);
            g.addEdge("a", "b");
            var first = new Ccl4jConnectivityInspector<>(g);
            System.out.println(first.connectedSets() + " " + first.isConnected());
            g.addEdge("b", "c");
            var second = new Ccl4jConnectivityInspector<>(g);
            System.out.println(second.connectedSets() + " " + second.isConnected());
        }
    }
}
