package org.ccl4j.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.ccl4j.CsrGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every graph in test-graphs/ reads, as the format its name or content says, with the expected size. */
class TestGraphsTest {
    private static final Path DIR = Path.of("test-graphs");

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            banner.dat            | MTX    |    4 |    4
            clean.egr             | EGR    |   12 |   16
            colouring.col         | DIMACS |   12 |   18
            commas.csv            | EDGES  |    7 |    6
            components.el         | EDGES  |   16 |   24
            dimacs.graph          | DIMACS |    5 |    6
            general-real.mtx      | MTX    |    6 |    6
            isolated.edges        | EDGES  |   10 |    6
            only-comments.snap    | SNAP   |    0 |    0
            pattern-values.mtx    | MTX    |    6 |    6
            random.egr            | EGR    | 5000 | 8000
            random.el             | EDGES  | 3000 | 4600
            road.gr               | DIMACS |    9 |   12
            skew-integer.mtx      | MTX    |    7 |   10
            sparse-ids.txt        | SNAP   |    9 |   12
            symmetric-pattern.mtx | MTX    |    8 |   10
            temporal.snap         | SNAP   |   10 |   16
            unclean.egr           | EGR    |    7 |    8
            values-nan.mtx        | MTX    |    7 |   10
            weighted.egr          | EGR    |    6 |   12
            """)
    void reads(String name, GraphFormat format, int vertices, long arcs) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(DIR.resolve(name), arena);
            assertEquals(format, f.format());
            CsrGraph g = f.graph();
            assertEquals(vertices, g.vertexCount());
            assertEquals(arcs, g.arcCount());
            assertEquals(format == GraphFormat.SNAP, f.hasOriginalIds());
            g.check();
        }
    }

    @Test
    void sparseSnapIdsAreKept() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(DIR.resolve("sparse-ids.txt"), arena);
            assertEquals(9_000_000_000_000_000_001L, f.originalIds().getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertEquals(Long.MAX_VALUE, f.originalIds().getAtIndex(ValueLayout.JAVA_LONG, 8));
        }
    }
}
