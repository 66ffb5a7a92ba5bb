package org.ccl4j.io;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.LabelOptions;
import org.ccl4j.Labels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Graphs on disk with component counts computed independently: the repository's test-graphs/
 * and, when ../shared is beside the checkout, the public SNAP graphs in ../shared/graphs.
 */
class ExpectedComponentsTest {
    private static final Path TEST_GRAPHS = Path.of("test-graphs");
    private static final Path SHARED_GRAPHS = Path.of("..", "shared", "graphs");

    static Stream<Arguments> repositoryGraphs() throws IOException {
        return rows(TEST_GRAPHS.resolve("expected.tsv"), TEST_GRAPHS, 1, 2);
    }

    static Stream<Arguments> sharedGraphs() throws IOException {
        Path expected = SHARED_GRAPHS.resolve("expected.tsv");
        if (!Files.exists(expected)) {
            System.out.println("NOTICE: " + expected + " not found - the shared SNAP graphs are not checked");
            return Stream.of(Arguments.of(null, -1L, -1L));
        }
        return rows(expected, SHARED_GRAPHS, 2, 3);
    }

    /** Rows of a TSV with a header line: file, then the components and largest columns. */
    private static Stream<Arguments> rows(Path tsv, Path dir, int componentsColumn, int largestColumn) throws IOException {
        List<Arguments> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(tsv);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            rows.add(Arguments.of(dir.resolve(f[0]), Long.parseLong(f[componentsColumn]), Long.parseLong(f[largestColumn])));
        }
        assertFalse(rows.isEmpty(), tsv + " lists no graphs");
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("repositoryGraphs")
    void repositoryGraphsHaveTheExpectedComponents(Path file, long components, long largest) throws IOException {
        check(file, components, largest);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sharedGraphs")
    void sharedSnapGraphsHaveTheExpectedComponents(Path file, long components, long largest) throws IOException {
        Assumptions.assumeTrue(file != null, "../shared/graphs is not present");
        check(file, components, largest);
    }

    private static void check(Path file, long components, long largest) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = GraphReader.read(file, GraphFormat.AUTO, new ReadOptions(false), arena).graph();
            for (Backend b : new Backend[] {Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL}) {
                try (ComponentLabeler labeler = ComponentLabeler.create(b)) {
                    Labels labels = labeler.label(g, LabelOptions.defaults().withCheckInput(true));
                    assertEquals(components, labels.count(), file + " components on " + b);
                    assertEquals(largest, labels.largestComponentSize(), file + " largest on " + b);
                }
            }
        }
    }
}
