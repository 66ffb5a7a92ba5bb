package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.number;
import static org.ccl4j.cli.CliTestSupport.run;
import static org.ccl4j.cli.CliTestSupport.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.ccl4j.CsrGraph;
import org.ccl4j.cli.CliTestSupport.Result;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphGenerator;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.ReadOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ccl4j generate-graph KIND FILE PARAM...}. */
class GenerateGraphCommandTest {
    @TempDir
    Path dir;

    @Test
    void writesTheGeneratorsGraphAndSaysHowBigItIs() throws Exception {
        Path file = dir.resolve("rmat.egr");
        Files.writeString(file, "an older file");
        Result r = run("generate-graph", "rmat", file.toString(), "12", "8");
        assertEquals(Main.OK, r.code(), r.err());
        GraphGenerator.Csr expected = GraphGenerator.generate("rmat", List.of("12", "8"));
        Path reference = dir.resolve("reference.bin");
        expected.writeEgr(reference);
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(file));
        assertTrue(r.out().startsWith(file + ": " + expected.vertexCount() + " vertices, " + expected.arcCount()
                + " arcs, "), r.out());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.count(), "no temporary file is left");
        }
    }

    @Test
    void jsonNamesTheGraphAndItsCounts() {
        Path file = dir.resolve("g.egr");
        Result r = run("generate-graph", "--json", "disjoint", file.toString(), "1000", "5000", "10");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals("disjoint", text(r.out(), "kind"));
        assertTrue(r.out().contains("\"params\":[\"1000\",\"5000\",\"10\"]"), r.out());
        assertEquals(1000, number(r.out(), "vertices"));
        assertTrue(number(r.out(), "arcs") > 0, r.out());
    }

    /**
     * GAPBS's .el reader takes pairs of numbers until one fails to parse and counts max id + 1
     * vertices: every line is "u v", 0-based, each edge once, and the isolated last vertex of this
     * R-MAT graph is the self loop that makes the count right (GAPBS drops self loops after counting).
     */
    @Test
    void elIsAnEdgeListWithNothingButPairsOfIds() throws Exception {
        Path file = dir.resolve("rmat.el");
        Result r = run("generate-graph", "rmat", file.toString(), "10", "2", "--format", "el");
        assertEquals(Main.OK, r.code(), r.err());
        GraphGenerator.Csr expected = GraphGenerator.generate("rmat", List.of("10", "2"));
        int n = expected.vertexCount();
        assertEquals(expected.offsets()[n - 1], expected.offsets()[n], "the last vertex is isolated");
        List<String> lines = Files.readAllLines(file);
        int maxId = 0;
        long edges = 0;
        for (String line : lines) {
            assertTrue(line.matches("\\d+ \\d+"), line);
            String[] ids = line.split(" ");
            int u = Integer.parseInt(ids[0]);
            int v = Integer.parseInt(ids[1]);
            maxId = Math.max(maxId, Math.max(u, v));
            edges += u != v ? 1 : 0;
        }
        assertEquals(n - 1, maxId);
        assertEquals(n - 1 + " " + (n - 1), lines.get(lines.size() - 1));
        assertEquals(expected.arcCount() / 2, edges);
        try (Arena arena = Arena.ofConfined()) {
            assertSameGraph(expected, GraphReader.read(file, GraphFormat.EDGES, ReadOptions.defaults(), arena).graph());
        }
    }

    /** The other formats are GraphWriter's: read back, each gives the generated graph. */
    @Test
    void everyFormatReadsBackAsTheGeneratedGraph() throws Exception {
        GraphGenerator.Csr expected = GraphGenerator.generate("bond2d", List.of("30", "0.5"));
        for (String format : List.of("egr", "el", "mtx", "snap", "dimacs", "edges")) {
            Path file = dir.resolve("g." + format);
            Result r = run("generate-graph", "--json", "--format", format, "bond2d", file.toString(), "30", "0.5");
            assertEquals(Main.OK, r.code(), r.err());
            assertEquals(format, text(r.out(), "format"));
            GraphFormat read = format.equals("el") ? GraphFormat.EDGES : GraphFormat.fromName(format);
            try (Arena arena = Arena.ofConfined()) {
                // SNAP renumbers by first appearance unless told to keep the ids
                assertSameGraph(expected, GraphReader.read(file, read, new ReadOptions(true), arena).graph());
            }
        }
    }

    /** A suite graph by name is the generator's graph with the suite's arguments. */
    @Test
    void aSuiteGraphIsNamedWithoutParameters() throws Exception {
        Path byName = dir.resolve("by-name.egr");
        Result r = run("generate-graph", "--json", "grid3d_64", byName.toString());
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals("grid3d", text(r.out(), "kind"));
        assertTrue(r.out().contains("\"params\":[\"64\"]"), r.out());
        Path byKind = dir.resolve("by-kind.egr");
        assertEquals(Main.OK, run("generate-graph", "grid3d", byKind.toString(), "64").code());
        assertArrayEquals(Files.readAllBytes(byKind), Files.readAllBytes(byName));

        Result extra = run("generate-graph", "rmat18", dir.resolve("x.egr").toString(), "18", "8");
        assertEquals(Main.USAGE, extra.code());
        assertTrue(extra.err().contains("rmat18 is a graph of the bench suites and takes no PARAM, got [18, 8]"),
                extra.err());
        Result format = run("generate-graph", "--json", "--format", "gml", "line", dir.resolve("x.gml").toString(), "4");
        assertEquals(Main.USAGE, format.code());
        assertTrue(text(format.out(), "error").contains("unknown graph format 'gml'; expected one of egr, el, mtx, snap,"
                + " dimacs, edges"), format.out());
        assertFalse(Files.exists(dir.resolve("x.egr")) || Files.exists(dir.resolve("x.gml")), "nothing is written");
    }

    private static void assertSameGraph(GraphGenerator.Csr expected, CsrGraph actual) {
        assertEquals(expected.vertexCount(), actual.vertexCount());
        for (int v = 0; v <= expected.vertexCount(); v++) {
            assertEquals(expected.offsets()[v], actual.offset(v), "offset " + v);
        }
        assertArrayEquals(expected.neighbours(), actual.neighbors().toArray(ValueLayout.JAVA_INT));
    }

    @Test
    void badKindsAndParametersAreUsageErrorsThatSayWhatIsWrong() {
        Path file = dir.resolve("g.egr");
        Result kind = run("generate-graph", "grid4d", file.toString(), "10");
        assertEquals(Main.USAGE, kind.code());
        assertTrue(kind.err().contains("unknown graph kind 'grid4d'; known kinds: grid2d, "), kind.err());
        Result count = run("generate-graph", "rmat", file.toString(), "12");
        assertEquals(Main.USAGE, count.code());
        assertTrue(count.err().contains("rmat takes 2 parameters (rmat SCALE EDGEFACTOR), got 1: [12]"), count.err());
        Result value = run("generate-graph", "--json", "bond2d", file.toString(), "100", "2");
        assertEquals(Main.USAGE, value.code());
        assertEquals("bond2d: P must be a probability from 0 to 1, got '2'", text(value.out(), "error"));
        assertFalse(Files.exists(file), "nothing is written");
    }

    @Test
    void theHelpDescribesEveryKind() {
        Result help = run("generate-graph", "--help");
        assertEquals(Main.OK, help.code(), help.err());
        assertTrue(help.out().startsWith("usage: ccl4j generate-graph "), help.out());
        for (String kind : GraphGenerator.kinds()) {
            assertTrue(help.out().contains("\n  " + kind + " "), kind + " in " + help.out());
        }
        assertEquals(help.out(), run("generate-graph", "-h").out());
        assertEquals(help.out(), run("help", "generate-graph").out());
        assertTrue(run("--help").out().contains("\n  generate-graph "), "the top-level help lists the command");
    }
}
