package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.forked;
import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The failures that are neither usage nor input errors: out of memory, interrupts, algorithms
 * that do not converge, generators asked for more than their limits. Each is one line (or one
 * JSON object) with its own exit code, never a stack trace.
 */
class FailureKindsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** A command that fails as it is told: how an error no real command throws on demand reaches the user. */
    @Command(name = "fail")
    static final class Failing implements Callable<Integer> {
        private final Throwable failure;

        @Option(names = "--json")
        boolean json;

        Failing(Throwable failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() throws Exception {
            if (failure instanceof Error e) {
                throw e;
            }
            throw (Exception) failure;
        }
    }

    /** Runs {@code fail} in the CLI's own command tree: its error handling and execution strategy. */
    private static Result failWith(Throwable failure, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine(false, new PrintWriter(out, true), new PrintWriter(err, true));
        cli.addSubcommand("fail", new Failing(failure));
        cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)); // a subcommand added late has its own
        List<String> line = new ArrayList<>(List.of("fail"));
        line.addAll(List.of(args));
        int code = cli.execute(line.toArray(String[]::new));
        return new Result(code, out.toString(), err.toString());
    }

    private static void assertOneLineWithoutTrace(String err) {
        assertEquals(1, err.lines().count(), err);
        assertFalse(err.contains("\tat ") || err.contains("Exception") || err.contains("Error"), err);
    }

    private static JsonNode error(Result r, String kind, int exitCode) throws IOException {
        assertEquals(exitCode, r.code(), r.out() + r.err());
        assertEquals("", r.err());
        assertEquals(1, r.out().strip().lines().count(), r.out());
        JsonNode error = JSON.readTree(r.out());
        assertEquals(kind, error.get("kind").asText(), r.out());
        assertEquals(exitCode, error.get("exitCode").asInt());
        return error;
    }

    private List<String> files() throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void anOutOfMemoryErrorIsOneLineWithAHintAndItsOwnExitCode() throws IOException {
        long gib = Math.max(1, Math.ceilDiv(2 * Runtime.getRuntime().maxMemory(), 1L << 30));
        String expected = "out of memory: Java heap space; raise the JVM's heap limit with -Xmx (for ./ccl4j:"
                + " CCL4J_JAVA_OPTS=-Xmx" + gib + "g)";
        Result r = failWith(new OutOfMemoryError("Java heap space"));
        assertEquals(Main.OUT_OF_MEMORY, r.code(), r.err());
        assertEquals("", r.out());
        assertEquals("ccl4j: " + expected + "\n", r.err());

        JsonNode error = error(failWith(new OutOfMemoryError("Java heap space"), "--json"), "out-of-memory",
                Main.OUT_OF_MEMORY);
        assertEquals(expected, error.get("error").asText());

        // wrapped in an exception (as a writer's lambda would), and without a message
        r = failWith(new UncheckedIOException(new IOException(new OutOfMemoryError())));
        assertEquals(Main.OUT_OF_MEMORY, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: out of memory: the Java heap is exhausted; raise "), r.err());
        assertOneLineWithoutTrace(r.err());
    }

    /** A graph whose heap is known in advance is refused before anything is allocated or written. */
    @Test
    void aGraphThatCannotFitInTheHeapIsRefusedUpFront() throws Exception {
        Path file = dir.resolve("grid.egr");
        // 2048 x 2048: 8.4 million edges, 16 bytes each, and 4.2 million vertices, 8 bytes each, in a heap of 32 MiB
        Result r = forked(dir, List.of("-Xmx32m"), null, "generate-graph", "grid2d", file.toString(), "2048");
        assertEquals(Main.OUT_OF_MEMORY, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: out of memory: generate-graph grid2d 2048 needs about 159.9 MiB of Java"
                + " heap, more than the "), r.err());
        assertTrue(r.err().contains(" this JVM has free; raise the JVM's heap limit with -Xmx (for ./ccl4j:"
                + " CCL4J_JAVA_OPTS=-Xmx1g)"), r.err());
        assertOneLineWithoutTrace(r.err());
        assertEquals(List.of(), files());

        r = forked(dir, List.of("-Xmx32m"), null, "generate-graph", "--json", "grid2d", file.toString(), "2048");
        assertTrue(error(r, "out-of-memory", Main.OUT_OF_MEMORY).get("error").asText()
                .startsWith("out of memory: generate-graph grid2d 2048 needs about 159.9 MiB"), r.out());

        // an alloy's spins, a byte per cell
        r = forked(dir, List.of("-Xmx32m"), null, "mesh", "--generate", "alloy:8192:1:1");
        assertEquals(Main.OUT_OF_MEMORY, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: out of memory: --generate alloy:8192:1:1 needs about 64.0 MiB of Java"
                + " heap"), r.err());
        assertOneLineWithoutTrace(r.err());
    }

    /**
     * An interrupt while the graph is written closes its channel (ClosedByInterruptException,
     * which has no message): the run stops with "interrupted", leaving no file.
     */
    @Test
    void anInterruptedWriteIsReportedAsSuchAndLeavesNoFile() throws IOException {
        Path file = dir.resolve("line.egr");
        Result r;
        Result json;
        try {
            Thread.currentThread().interrupt();
            r = run("generate-graph", "line", file.toString(), "10");
            Thread.interrupted();
            Thread.currentThread().interrupt();
            json = run("generate-graph", "--json", "line", file.toString(), "10");
            assertTrue(Thread.currentThread().isInterrupted(), "the thread stays interrupted");
        } finally {
            Thread.interrupted();
        }
        assertEquals(Main.INTERRUPTED, r.code(), r.err());
        assertEquals("ccl4j: interrupted\n", r.err());
        assertEquals("interrupted", error(json, "interrupted", Main.INTERRUPTED).get("error").asText());
        assertEquals(List.of(), files());
    }

    @Test
    void anInterruptedWaitIsReportedAsSuch() throws IOException {
        try {
            Result r = failWith(new InterruptedException());
            assertEquals(Main.INTERRUPTED, r.code());
            assertEquals("ccl4j: interrupted\n", r.err());
            error(failWith(new InterruptedException("sleep interrupted"), "--json"), "interrupted", Main.INTERRUPTED);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anAlgorithmStoppedByMaxIterationsDidNotConverge() throws IOException {
        // a path of 8 vertices: Hawick's edge kernel needs several passes to carry the smallest label along
        Path graph = Files.writeString(dir.resolve("path.edges"), "0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n");
        List<String> label = List.of("label", graph.toString(), "--algorithm", "hawick-edge", "--backend", "cpu");
        Result r = run(concat(label, "--max-iterations", "1"));
        assertEquals(Main.NOT_CONVERGED, r.code(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("ccl4j: did not converge: ") && r.err().contains("within 1 iterations")
                && r.err().endsWith("; raise --max-iterations (0, the default, lets every correct run finish) or"
                        + " choose another --algorithm\n"), r.err());
        assertOneLineWithoutTrace(r.err());
        error(run(concat(label, "--max-iterations", "1", "--json")), "not-converged", Main.NOT_CONVERGED);

        // a limit that suffices changes nothing
        r = run(concat(label, "--max-iterations", "100", "--json"));
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals(1, CliTestSupport.number(r.out(), "components"));

        // the cells of the spiral's two arms need many raster scans
        r = run("mesh", "--generate", "spiral:32", "--mode", "same-value", "--algorithm", "cpu-raster",
                "--max-iterations", "1");
        assertEquals(Main.NOT_CONVERGED, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: did not converge: ") && r.err().contains("(max_iterations)"), r.err());
        r = run("mesh", "--generate", "spiral:32", "--mode", "same-value", "--algorithm", "cpu-raster",
                "--max-iterations", "5000", "--json");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals(2, CliTestSupport.number(r.out(), "clusters"));

        r = run(concat(label, "--max-iterations", "-1"));
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().startsWith("ccl4j: --max-iterations must not be negative, got -1\n"), r.err());
    }

    @Test
    void anAlloyPastTheLimitsIsAUsageErrorNamingTheLimit() throws IOException {
        Result r = run("mesh", "--generate", "alloy:9:1000000000:1");
        assertEquals(Main.USAGE, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: --generate alloy:9:1000000000:1: 1000000000 steps exceed the limit of"
                + " 100000; give --allow-long-generate to run them\n"), r.err());

        JsonNode error = error(run("mesh", "--generate", "alloy:2000:5000:1", "--json"), "usage", Main.USAGE);
        assertEquals("--generate alloy:2000:5000:1: 4000000 cells x 5000 steps = 20000000000 cell updates exceed the"
                + " limit of 10000000000; give --allow-long-generate to run them", error.get("error").asText());

        // a single cell has no bonds to exchange: past the step limit, yet instant with the limits lifted
        assertEquals(Main.USAGE, run("mesh", "--generate", "alloy:1:100001:1").code());
        r = run("mesh", "--generate", "alloy:1:100001:1", "--allow-long-generate", "--json");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals(1, CliTestSupport.number(r.out(), "cells"));
    }

    @Test
    void aLongGenerationShowsItsProgressOnATerminalOnly() {
        String[] mesh = {"mesh", "--generate", "alloy:6:3000:2", "--json"};
        Result terminal = run(true, mesh);
        assertEquals(Main.OK, terminal.code(), terminal.err());
        assertTrue(terminal.err().startsWith("\r[") && terminal.err().contains("generating alloy:6:3000:2"),
                terminal.err());
        assertTrue(terminal.err().endsWith("\r"), "the bar is cleared: " + terminal.err());
        assertTrue(terminal.out().startsWith("{\"width\":6,"), terminal.out());
        // elsewhere a run under 10 s leaves nothing in the log
        assertEquals("", run(false, mesh).err());
        assertEquals("", run(true, "mesh", "--generate", "alloy:6:3000:2", "--no-progress").err());
    }

    @Test
    void theHelpDocumentsTheNewExitCodesAndOptions() {
        String top = run("--help").out();
        String codes = top.substring(top.indexOf("Exit codes:"));
        for (String line : List.of("5 +an output file cannot be written", "6 +out of memory", "7 +an iterative"
                + " algorithm did not converge within --max-iterations", "130 +interrupted")) {
            assertTrue(Pattern.compile("\n  " + line).matcher(codes).find(), line + " in " + codes);
        }
        assertTrue(top.contains("output-error, out-of-memory, not-converged or interrupted"), top);
        assertTrue(run("label", "--help").out().contains("--max-iterations=N"));
        String mesh = run("mesh", "--help").out();
        assertTrue(mesh.contains("--max-iterations=N") && mesh.contains("--allow-long-generate")
                && mesh.contains("at most 100000 steps"), mesh);
    }

    private static String[] concat(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}
