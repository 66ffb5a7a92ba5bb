package org.ccl4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.ccl4j.CsrGraph;
import org.ccl4j.io.internal.suite.BenchSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmarks' suite graphs: generated in the JVM into the cache, then read from it. */
class BenchGraphsTest {
    @TempDir
    Path dir;

    @Test
    void aSuiteGraphIsGeneratedIntoTheCacheAndLoadedOnce() throws Exception {
        Path cache = dir.resolve("cache");
        String previous = System.setProperty("ccl4j.bench.graphs", cache.toString());
        try {
            CsrGraph graph = BenchGraphs.get("grid3d_64");
            assertEquals(64 * 64 * 64, graph.vertexCount());
            assertSame(graph, BenchGraphs.get("grid3d_64"), "loaded once per JVM");
            try (Stream<Path> files = Files.list(cache)) {
                assertEquals(List.of("grid3d_64.egr"), files.map(f -> f.getFileName().toString()).toList(),
                        "no temporary file is left");
            }
        } finally {
            if (previous == null) {
                System.clearProperty("ccl4j.bench.graphs");
            } else {
                System.setProperty("ccl4j.bench.graphs", previous);
            }
        }
    }

    @Test
    void anUnknownGraphIsRefusedNamingTheSuiteGraphs() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BenchGraphs.get("rmat"));
        for (String name : BenchSuite.names()) {
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
    }
}
