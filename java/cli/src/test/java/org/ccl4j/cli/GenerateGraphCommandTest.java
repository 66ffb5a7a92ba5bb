package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.number;
import static org.ccl4j.cli.CliTestSupport.run;
import static org.ccl4j.cli.CliTestSupport.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.ccl4j.cli.CliTestSupport.Result;
import org.ccl4j.io.GraphGenerator;
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
