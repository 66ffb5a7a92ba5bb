package org.ccl4j.io.internal.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.ccl4j.UnionFind;
import org.ccl4j.io.GraphGenerator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The suites' graphs: the component counts that bench checks its results against. */
class BenchSuiteTest {
    private static final Path SHARED_BENCHMARKS = Path.of("..", "shared", "BENCHMARKS.md");

    /** The quick suite's counts are those of the generated graphs, by the Java union-find. */
    @Test
    void theQuickSuitesComponentCountsAreTheGeneratedGraphs() {
        for (BenchSuite.Graph g : BenchSuite.QUICK) {
            try (Arena arena = Arena.ofConfined()) {
                int[] labels = UnionFind.labels(g.generate().toCsrGraph(arena));
                long components = 0;
                for (int v = 0; v < labels.length; v++) {
                    if (labels[v] == v) {
                        components++;
                    }
                }
                assertEquals(g.components(), components, g.name());
            }
        }
    }

    /** generate-graph takes a suite graph's name where a kind goes: the names must name one graph and no kind. */
    @Test
    void suiteGraphNamesAreUniqueAndNoGeneratorKind() {
        List<String> names = BenchSuite.names();
        assertEquals(BenchSuite.QUICK.size() + BenchSuite.FULL.size(), names.size(), names.toString());
        assertEquals(names.size(), names.stream().distinct().count(), names.toString());
        assertTrue(names.stream().noneMatch(GraphGenerator.kinds()::contains), names.toString());
        for (String name : names) {
            assertEquals(name, BenchSuite.graph(name).orElseThrow().name());
        }
        assertTrue(BenchSuite.graph("rmat").isEmpty());
    }

    /** The full suite is the table of shared/BENCHMARKS.md: names, generator arguments and component counts. */
    @Test
    void theFullSuiteIsTheTableOfSharedBenchmarks() throws IOException {
        if (!Files.exists(SHARED_BENCHMARKS)) {
            System.out.println("NOTICE: " + SHARED_BENCHMARKS + " not found - the full suite is not compared with it");
        }
        Assumptions.assumeTrue(Files.exists(SHARED_BENCHMARKS), SHARED_BENCHMARKS + " not found");
        // | name | `gengraph KIND g.egr PARAMS` | vertices | arcs | components |
        List<String> table = new ArrayList<>();
        for (String line : Files.readAllLines(SHARED_BENCHMARKS)) {
            String[] cells = line.split("\\|");
            if (cells.length == 6 && cells[2].strip().startsWith("`gengraph ")) {
                List<String> words = new ArrayList<>(List.of(cells[2].strip().replace("`", "").split(" +")));
                words.subList(0, 1).clear(); // gengraph
                words.remove(1); // the output file
                table.add(cells[1].strip() + " " + words + " " + cells[5].strip().replace(",", ""));
            }
        }
        List<String> suite = BenchSuite.FULL.stream().map(g -> g.name() + " " + g.generator() + " " + g.components())
                .toList();
        assertEquals(table, suite);
    }
}
