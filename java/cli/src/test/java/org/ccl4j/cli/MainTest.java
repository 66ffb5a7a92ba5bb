package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.number;
import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.ccl4j.Backend;
import org.ccl4j.Capabilities;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void jsonReportsTheGraphAndItsComponents() throws IOException {
        // two triangles joined by nothing, plus vertex 7 isolated (ids 1..7 in Matrix Market)
        Path mtx = write("g.mtx", """
                %%MatrixMarket matrix coordinate pattern symmetric
                7 7 6
                2 1
                3 2
                3 1
                5 4
                6 5
                6 4
                """);
        for (String backend : List.of("auto", "cpu", "cpu-serial", "java")) {
            Result r = run("label", mtx.toString(), "--json", "--backend", backend);
            assertEquals(0, r.code(), r.err());
            String json = r.out().strip();
            assertTrue(json.startsWith("{") && json.endsWith("}") && json.lines().count() == 1, json);
            assertEquals(7, number(json, "vertices"));
            assertEquals(12, number(json, "arcs"));
            assertEquals(3, number(json, "components"));
            assertEquals(3, number(json, "largestComponent"));
            assertTrue(json.contains("\"timingsMs\":{\"total\":"), json);
            assertTrue(json.contains("\"backend\":\""), json);
        }
    }

    /** A path of {@code n} vertices, one component. */
    private Path path(int n) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int v = 1; v < n; v++) {
            text.append(v - 1).append(' ').append(v).append('\n');
        }
        return write("path.edges", text.toString());
    }

    /**
     * Off CUDA nothing streams: the JSON has no firstBlockMs, the text no "first block" line, and
     * standard error no progress (the labelling's one "done" call shows none), a terminal or not.
     */
    @Test
    void aLabellingThatDoesNotStreamHasNoFirstBlockAndShowsNoProgress() throws IOException {
        Path edges = path(2_000);
        for (String backend : List.of("cpu", "cpu-serial", "java")) {
            for (boolean terminal : new boolean[] {true, false}) {
                String what = backend + (terminal ? ", a terminal" : "");
                Result json = run(terminal, "label", edges.toString(), "--json", "--backend", backend);
                assertEquals(Main.OK, json.code(), json.err());
                assertEquals(1, number(json.out(), "components"), json.out());
                assertFalse(json.out().contains("firstBlockMs"), what + ": " + json.out());
                assertEquals("", json.err(), what);
                Result text = run(terminal, "label", edges.toString(), "--backend", backend);
                assertEquals(Main.OK, text.code(), text.err());
                assertFalse(text.out().contains("first block"), what + ": " + text.out());
                assertEquals("", text.err(), what);
            }
        }
    }

    /**
     * A graph streamed through the GPU (a budget of a few pages) reports the time to its first
     * block in the JSON and the text, and shows its arcs on standard error, unless --quiet.
     */
    @Test
    void aStreamedGraphReportsItsFirstBlockAndShowsItsProgress() throws IOException {
        if (!ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            System.out.println("NOTICE: no CUDA device present - the first block of a streamed graph is not checked"
                    + " in MainTest");
            return;
        }
        int n = 20_000;
        Path edges = path(n);
        long total = 4L * (n - 1); // two arcs an edge, each heard twice (sample, link)
        // One device: across several, each needs room for another's forest besides the budget's ring.
        List<String> streamed = List.of("label", edges.toString(), "--backend", "cuda", "--device", "0",
                "--device-memory", "96K");
        Result r = run(false, concat(streamed, "--json"));
        assertEquals(Main.OK, r.code(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals("streamed", json.get("algorithm").asText(), r.out());
        assertTrue(json.get("firstBlockMs").isNumber() && json.get("firstBlockMs").asDouble() > 0, r.out());
        assertTrue(r.err().matches("(?s)(.*\n)?label: " + total + "/" + total + " \\(100%\\) in 0:\\d\\d\n"),
                "the last plain line, as a mesh's slabs end: " + r.err());

        Result quiet = run(true, concat(streamed, "--json", "--quiet"));
        assertEquals(Main.OK, quiet.code(), quiet.err());
        assertEquals("", quiet.err());
        assertTrue(new ObjectMapper().readTree(quiet.out()).get("firstBlockMs").isNumber(), quiet.out());

        Result text = run(true, concat(streamed));
        assertEquals(Main.OK, text.code(), text.err());
        assertTrue(text.out().matches("(?s).*\nfirst block to the GPU: \\d+\\.\\d{3} ms after the labelling"
                + " started\n.*"), text.out());
        assertTrue(text.err().startsWith("\r[") && text.err().endsWith("\r"), "a bar, cleared: " + text.err());
    }

    private static String[] concat(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void statsAddSizesHistogramAndTopToTheJson() throws IOException {
        // components {0,1,2,3}, {4,5}, {6,7}, {8}, {9}: sizes 4, 2, 2, 1, 1
        Path edges = write("s.edges", "0 1\n1 2\n2 3\n4 5\n7 6\n8 8\n9 9\n");
        for (String backend : List.of("cpu", "cpu-serial", "java")) {
            Result r = run("label", edges.toString(), "--format", "edges", "--json", "--stats", "--backend", backend);
            assertEquals(0, r.code(), r.err());
            String json = r.out().strip();
            assertTrue(json.contains("\"sizes\":{\"components\":5,\"min\":1,\"max\":4,\"mean\":2.0000,\"median\":2.0000}"),
                    json);
            assertTrue(json.contains("\"histogram\":{\"exact\":[{\"size\":1,\"count\":2},{\"size\":2,\"count\":2},"
                    + "{\"size\":4,\"count\":1}],\"log2\":[{\"min\":1,\"max\":1,\"count\":2},{\"min\":2,\"max\":3,"
                    + "\"count\":2},{\"min\":4,\"max\":7,\"count\":1}]}"), json);
            assertTrue(json.contains("\"top\":[{\"label\":0,\"size\":4},{\"label\":4,\"size\":2},{\"label\":6,"
                    + "\"size\":2},{\"label\":8,\"size\":1},{\"label\":9,\"size\":1}]}"), json);
        }
        Result top = run("label", edges.toString(), "--format", "edges", "--json", "--top", "2");
        assertTrue(top.out().contains("\"top\":[{\"label\":0,\"size\":4},{\"label\":4,\"size\":2}]"), top.out());
        Result text = run("label", edges.toString(), "--format", "edges", "--stats");
        assertTrue(text.out().contains("component sizes: min 1, max 4, mean 2.000, median 2"), text.out());
        assertTrue(text.out().contains("largest components (label: size): 0: 4, 4: 2, 6: 2, 8: 1, 9: 1"), text.out());
    }

    @Test
    void compactLabelsAreWrittenWithOut() throws IOException {
        Path edges = write("c.edges", "3 4\n0 2\n");
        Path bin = dir.resolve("compact.bin");
        Result r = run("label", edges.toString(), "--format", "edges", "--compact", "--out", bin.toString());
        assertEquals(0, r.code(), r.err());
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(bin)).order(ByteOrder.LITTLE_ENDIAN);
        int[] labels = new int[5];
        for (int i = 0; i < 5; i++) {
            labels[i] = b.getInt();
        }
        assertEquals(List.of(0, 1, 0, 2, 2), List.of(labels[0], labels[1], labels[2], labels[3], labels[4]));
        assertEquals(2, run("label", edges.toString(), "--format", "edges", "--compact").code());
        assertEquals(2, run("label", edges.toString(), "--format", "edges", "--top", "-1").code());
    }

    @Test
    void labelsAreWrittenAsBinaryAndText() throws IOException {
        Path edges = write("g.edges", "0 1\n2 3\n");
        Path bin = dir.resolve("labels.bin");
        Path txt = dir.resolve("labels.txt");
        assertEquals(0, run("label", edges.toString(), "--format", "edges", "--out", bin.toString()).code());
        assertEquals(0, run("label", edges.toString(), "--format", "edges", "--out", txt.toString()).code());
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(bin)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(16, b.remaining());
        int[] labels = {b.getInt(), b.getInt(), b.getInt(), b.getInt()};
        assertEquals(List.of(0, 0, 2, 2), List.of(labels[0], labels[1], labels[2], labels[3]));
        List<String> lines = Files.readAllLines(txt).stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(List.of("0 0", "1 0", "2 2", "3 2"), lines);
    }

    @Test
    void malformedInputExitsWithThreeAndNamesTheProblem() throws IOException {
        Path badToken = write("bad.edges", "0 1\n1 2 x\n");
        Result r = run("label", badToken.toString(), "--format", "edges");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("bad.edges") && r.err().contains(":2"), r.err());

        Path truncated = dir.resolve("short.egr");
        Files.write(truncated, new byte[] {5, 0, 0, 0, 8, 0, 0, 0, 0, 0});
        r = run("label", truncated.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("short.egr"), r.err());

        r = run("label", dir.resolve("missing.mtx").toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("missing.mtx"), r.err());
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(2, run().code());
        assertEquals(2, run("frobnicate").code());
        assertEquals(2, run("label").code());
        assertEquals(2, run("label", "a", "b").code());
        assertEquals(2, run("label", "x.mtx", "--backend", "quantum").code());
        assertEquals(2, run("label", "x.mtx", "--algorithm", "magic").code());
        assertEquals(2, run("label", "x.mtx", "--bogus").code());
        assertEquals(2, run("label", "x.mtx", "--device").code());
        assertEquals(2, run("label", "x.mtx", "--threads", "many").code());
    }

    /**
     * --devices takes all or a list of indices, --device one index, and not both; a device that does
     * not exist ends with exit code 4 naming it (without a GPU: no CUDA device at all).
     */
    @Test
    void devicesAreAllOrAListAndAMissingOneIsNamed() throws IOException {
        Path edges = write("d.edges", "0 1\n1 2\n4 5\n");
        Result both = run("label", edges.toString(), "--device", "0", "--devices", "0,1");
        assertEquals(2, both.code(), both.err());
        assertTrue(both.err().contains("--device and --devices"), both.err());
        Result word = run("label", edges.toString(), "--devices", "0,gpu1");
        assertEquals(2, word.code(), word.err());
        assertTrue(word.err().contains("'gpu1' is not a device index"), word.err());
        Result negative = run("mesh", "--generate", "spiral:8", "--devices", "-1");
        assertEquals(2, negative.code(), negative.err());
        assertTrue(negative.err().contains("-1"), negative.err());
        Result cpu = run("label", edges.toString(), "--backend", "cpu", "--devices", "0,1", "--json");
        assertEquals(0, cpu.code(), cpu.err());
        assertTrue(cpu.out().contains("\"components\":3"), cpu.out());  // 0-1-2, 3 alone, 4-5
        int count = ComponentLabeler.capabilities().devices().size();
        Result missing = run("label", edges.toString(), "--backend", "cuda", "--devices", "0," + Math.max(1, count));
        assertEquals(4, missing.code(), missing.err());
        assertTrue(missing.err().contains(count == 0 ? "CUDA" : "device " + count + " does not exist"), missing.err());
    }

    /**
     * A thread count past the library's limit is a usage error that names the option and its range,
     * not invalid input naming the library's field (cpu_threads, cpuThreads): on every command and
     * backend that takes --threads, before any work.
     */
    @Test
    void tooManyThreadsAreAUsageErrorNamingTheOptionAndItsRange() throws IOException {
        Path edges = write("g.edges", "0 1\n");
        int processors = Runtime.getRuntime().availableProcessors();
        int limit = Math.max(256, 4 * processors);
        String expected = "ccl4j: --threads 100000 is outside 0.." + limit + " (0: all cores; at most max(256, 4 x "
                + processors + " processors))\n";
        List<List<String>> commands = List.of(
                List.of("label", edges.toString(), "--backend", "cpu"),
                List.of("label", edges.toString(), "--backend", "java"),
                List.of("mesh", "--generate", "spiral:8", "--backend", "cpu"),
                List.of("mesh", "--generate", "spiral:8", "--backend", "java"),
                List.of("bench", "--graphs", "none", "--fields", "none", "--dir", dir.toString()));
        for (List<String> command : commands) {
            List<String> line = new ArrayList<>(command);
            line.addAll(List.of("--threads", "100000"));
            Result r = run(line.toArray(String[]::new));
            assertEquals(Main.USAGE, r.code(), line + ": " + r.err());
            assertTrue(r.err().startsWith(expected), line + ": " + r.err());
        }
        Result r = run("label", edges.toString(), "--backend", "cpu", "--threads", String.valueOf(limit), "--json");
        assertEquals(Main.OK, r.code(), "the limit itself is allowed: " + r.err());
    }

    /**
     * A vertex count that the file's size does not justify is refused naming the option that allows
     * it, not the reader's API (ReadOptions.withMaxVertices); given, the option reads the file.
     */
    @Test
    void aSparseDeclarationIsRefusedNamingMaxVerticesWhichThenAllowsIt() throws IOException {
        Path sparse = write("sparse.edges", "2000000 0\n"); // 10 bytes, 2000001 vertices
        for (String command : List.of("label", "distances")) {
            Result r = run(command, sparse.toString());
            assertEquals(Main.INVALID_INPUT, r.code(), command + ": " + r.err());
            assertTrue(r.err().startsWith("ccl4j: invalid input: " + sparse + ":1: ")
                    && r.err().endsWith(" allow them with --max-vertices 2000001\n"), command + ": " + r.err());
            assertTrue(run(command, "--help").out().contains("--max-vertices=N"), command);
        }
        Result r = run("label", sparse.toString(), "--max-vertices", "2000001", "--json");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals(2000001, number(r.out(), "vertices"));
        assertEquals(2000000, number(r.out(), "components"));

        r = run("label", sparse.toString(), "--max-vertices", "-1");
        assertEquals(Main.USAGE, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: --max-vertices must not be negative, got -1\n"), r.err());
    }

    @Test
    void cudaWithoutADeviceExitsWithFour() throws IOException {
        Result info = run("info", "--json");
        assertEquals(0, info.code());
        if (info.out().contains("\"devices\":[{")) {
            System.out.println("NOTICE: a CUDA device is present - exit code 4 is not exercised");
            return;
        }
        Path edges = write("g.edges", "0 1\n");
        Result r = run("label", edges.toString(), "--backend", "cuda");
        assertEquals(4, r.code(), r.err());
        assertTrue(r.err().contains("unavailable"), r.err());
    }

    @Test
    void infoListsVersionAndBackends() {
        Result r = run("info");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("ccl4j "), r.out());
        assertTrue(r.out().contains("cpu-serial"), r.out());
        Capabilities c = ComponentLabeler.capabilities();
        assertTrue(r.out().contains("library:       version " + c.version() + ", " + c.nativeLibrary() + " ("
                + c.nativeLibraryOrigin() + ")"), r.out());
    }

    /**
     * Without the native library (turned off by property or environment) the CLI labels on the
     * JAVA backend and says so in one plain line of its own form, not in java.util.logging's two
     * lines with a timestamp; info counts the JVM's processors as the java backend's threads.
     */
    @Test
    void withoutTheNativeLibraryOnePlainLineSaysSoAndInfoCountsTheJvmsThreads() throws Exception {
        Path edges = write("g.edges", "0 1\n2 3\n");
        String off = "ccl4j: labels on the JAVA backend: the ccl4j native library is turned off (system property"
                + " ccl4j.native or environment variable CCL4J_NATIVE is false)\n";
        Result r = CliTestSupport.forked(dir, List.of("-Dccl4j.native=false"), null, "label", edges.toString(),
                "--json");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals("java", CliTestSupport.text(r.out(), "backend"));
        assertEquals(off, r.err());
        r = CliTestSupport.forked(dir, List.of(), "export CCL4J_NATIVE=false", "mesh", "--generate", "spiral:9");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals(off, r.err());

        r = CliTestSupport.forked(dir, List.of("-Dccl4j.native=false", "-XX:ActiveProcessorCount=3"), null, "info");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().contains("\ncpu threads:   3 (the JVM's processors, for the java backend)\n"), r.out());
        assertTrue(r.out().contains("\ncuda:          unavailable without the native library\n"), r.out());
        r = CliTestSupport.forked(dir, List.of("-Dccl4j.native=false", "-XX:ActiveProcessorCount=3"), null, "info",
                "--json");
        assertEquals(3, number(r.out(), "cpuThreads"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void infoJsonSaysWhichLibraryWasLoadedAndFromWhere() throws IOException {
        Result r = run("info", "--json");
        assertEquals(0, r.code());
        JsonNode info = new ObjectMapper().readTree(r.out());
        Capabilities c = ComponentLabeler.capabilities();
        assertTrue(Files.isRegularFile(Path.of(info.get("nativeLibrary").asText())), r.out());
        assertEquals(c.nativeLibrary(), info.get("nativeLibrary").asText());
        assertEquals(c.nativeLibraryOrigin(), info.get("nativeLibraryOrigin").asText());
        assertTrue(info.get("nativeLoadError").isNull(), r.out());
    }
}
