package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The progress of long commands on standard error, whatever standard output is. */
class ProgressTest {
    private static final long SECOND = 1_000_000_000L;

    /** A clock the test moves. */
    private static final class Clock {
        long now = 7 * SECOND; // not zero: the progress must measure from its own start

        long seconds(long s) {
            now += s * SECOND;
            return now;
        }
    }

    @Test
    void onATerminalTheBarIsRedrawnInPlaceWithElapsedTimeAndEta() {
        StringWriter text = new StringWriter();
        Clock clock = new Clock();
        String first = "[######..................]  25% elapsed 0:05, ETA 0:15  L=16 T=2.2000";
        String second = "[############............]  50% elapsed 0:10, ETA 0:10  L=32";
        try (Progress p = new Progress(new PrintWriter(text), Progress.Mode.TERMINAL, "ising", 100, () -> clock.now)) {
            clock.seconds(5);
            p.advance(25, "L=16 T=2.2000");
            assertEquals("\r" + first, text.toString());
            p.advance(25, "L=16 T=2.3000"); // within 0.1 s of the last drawing: not drawn
            assertEquals("\r" + first, text.toString());
            clock.seconds(5);
            p.advance(0, "L=32");
            assertEquals("\r" + first + "\r" + second + " ".repeat(first.length() - second.length()), text.toString(),
                    "spaces over the rest of the longer line before");
        }
        assertTrue(text.toString().endsWith("\r" + second + " ".repeat(first.length() - second.length()) + "\r"
                + " ".repeat(second.length()) + "\r"), "cleared at the end: " + text);
        assertFalse(text.toString().contains("\n"), text.toString());
    }

    @Test
    void elsewhereItWritesAPlainLineEveryTenSecondsAndTheTimeTakenAtTheEnd() {
        StringWriter text = new StringWriter();
        Clock clock = new Clock();
        try (Progress p = new Progress(new PrintWriter(text), Progress.Mode.LINES, "percolation", 400,
                () -> clock.now)) {
            clock.seconds(9);
            p.advance(100, "N=4096 p=0.6000");
            assertEquals("", text.toString(), "nothing before 10 s");
            clock.seconds(1);
            p.advance(100, "N=4096 p=0.6100");
            assertEquals("percolation: 200/400 (50%), elapsed 0:10, ETA 0:10, N=4096 p=0.6100\n", text.toString());
            clock.seconds(3650);
            p.advance(200, "N=16384 p=0.7000");
        }
        assertEquals("percolation: 200/400 (50%), elapsed 0:10, ETA 0:10, N=4096 p=0.6100\n"
                + "percolation: 400/400 (100%), elapsed 1:01:00, ETA 0:00, N=16384 p=0.7000\n"
                + "percolation: 400/400 (100%) in 1:01:00\n", text.toString());
    }

    @Test
    void workThatIsUsuallyShortLeavesNoLineWhenItIsShort() {
        StringWriter text = new StringWriter();
        Clock clock = new Clock();
        try (Progress p = new Progress(new PrintWriter(text), Progress.Mode.LINES, "generate alloy", 50,
                () -> clock.now, false, Long::toString)) {
            clock.seconds(9);
            p.advance(50, "");
        }
        assertEquals("", text.toString(), "done within the first 10 s");

        clock.seconds(1);
        try (Progress p = new Progress(new PrintWriter(text), Progress.Mode.LINES, "generate alloy", 50,
                () -> clock.now, false, Long::toString)) {
            clock.seconds(12);
            p.advance(20, "");
            clock.seconds(18);
            p.advance(30, "");
        }
        assertEquals("generate alloy: 20/50 (40%), elapsed 0:12, ETA 0:18\n"
                + "generate alloy: 50/50 (100%), elapsed 0:30, ETA 0:00\n"
                + "generate alloy: 50/50 (100%) in 0:30\n", text.toString(), "a long run ends as any other");
    }

    @Test
    void aSweepShowsItsProgressWhileItsResultsGoElsewhere() {
        String[] ising = {"ising", "--L", "4,6", "--T", "2,3", "--sweeps", "20", "--warmup", "5", "--backend", "cpu",
                "--json"};
        // standard output captured, i.e. redirected; standard error a terminal
        Result r = run(true, ising);
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().startsWith("{\"results\":[") && r.out().lines().count() == 1, r.out());
        assertFalse(r.out().contains("\r") || r.out().contains("ETA"), "no progress in the results: " + r.out());
        assertTrue(r.err().startsWith("\r[") && r.err().contains("% elapsed 0:0") && r.err().contains("ETA "),
                r.err());
        assertTrue(r.err().endsWith("\r"), "the bar is cleared at the end: " + r.err());

        // standard error not a terminal either: the last plain line counts every sweep, 2 sizes x 2 T x (5 + 20)
        r = run(false, ising);
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.err().matches("ising: 100/100 \\(100%\\) in 0:\\d\\d\n"), r.err());

        r = run(true, concat(ising, "--no-progress"));
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals("", r.err());
        assertEquals("", run(false, concat(ising, "--quiet")).err());
    }

    @Test
    void theReadingOfAFileCountsMebibytes() {
        StringWriter text = new StringWriter();
        Clock clock = new Clock();
        try (Progress p = new Progress(new PrintWriter(text), Progress.Mode.LINES, "read big.edges", 32L << 20,
                () -> clock.now, false, HeapLimit::size)) {
            clock.seconds(10);
            p.advance(8L << 20, "reading big.edges");
            clock.seconds(4);
            p.advance(24L << 20, "building the graph");
        }
        assertEquals("read big.edges: 8.0 MiB/32.0 MiB (25%), elapsed 0:10, ETA 0:30, reading big.edges\n"
                + "read big.edges: 32.0 MiB/32.0 MiB (100%) in 0:14\n", text.toString());
    }

    /** The offset of the descriptors open on a file: where a reader of it has come to. */
    @Test
    void theOffsetOfAFileIsWhereItsReadersAre(@TempDir Path dir) throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fdinfo")), "the offsets come from Linux's /proc");
        Path file = Files.write(dir.resolve("f.bin"), new byte[10_000]);
        Path real = file.toRealPath();
        assertEquals(0, ReadProgress.offset(real), "not open");
        try (InputStream in = Files.newInputStream(file)) {
            in.readNBytes(1234);
            assertEquals(1234, ReadProgress.offset(real));
            try (InputStream second = Files.newInputStream(file)) {
                second.readNBytes(5000);
                assertEquals(5000, ReadProgress.offset(real), "the furthest reader");
            }
        }
        assertEquals(0, ReadProgress.offset(real), "closed");
    }

    /**
     * A graph file past {@link GraphInput#PROGRESS_BYTES} shows its reading on standard error,
     * unless --quiet; the time the reading took is in the text and the JSON, of label and
     * distances.
     */
    @Test
    void aLargeGraphFileShowsItsReadingAndTheOutputsItsTime(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("large.edges");
        long lines = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            // a path: one component
            for (long bytes = 0; bytes <= GraphInput.PROGRESS_BYTES; lines++) {
                String line = lines + " " + (lines + 1) + "\n";
                out.write(line);
                bytes += line.length();
            }
        }
        ObjectMapper mapper = new ObjectMapper();
        Result r = run(true, "label", file.toString(), "--backend", "cpu", "--json");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.err().startsWith("\r[........................]   0% elapsed 0:00, ETA ?  reading large.edges"),
                r.err());
        assertTrue(r.err().endsWith("\r") && !r.err().contains("\n"), "the bar is cleared at the end: " + r.err());
        JsonNode json = mapper.readTree(r.out());
        assertEquals(lines + 1, json.get("vertices").asLong());
        assertTrue(json.get("readMs").isNumber() && json.get("readMs").asDouble() > 0, r.out());

        r = run(true, "label", file.toString(), "--backend", "cpu", "--quiet");
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().matches("(?s)\\Q" + file + "\\E: " + (lines + 1) + " vertices, " + 2 * lines
                + " arcs \\(EDGES\\), read in \\d+\\.\\d m?s\n.*"), r.out());

        // a small file shows no progress, and reports its time all the same
        Path small = Files.writeString(dir.resolve("small.edges"), "0 1\n2 3\n");
        for (String command : new String[] {"label", "distances"}) {
            r = run(true, command, small.toString(), "--json");
            assertEquals(Main.OK, r.code(), r.err());
            assertEquals("", r.err(), command);
            assertTrue(mapper.readTree(r.out()).get("readMs").isNumber(), command + ": " + r.out());
            assertTrue(run(command, small.toString()).out().lines().findFirst().orElseThrow().matches(
                    ".*: 4 vertices, 4 arcs \\(EDGES\\), read in \\d+\\.\\d m?s"), command);
        }
    }

    private static String[] concat(String[] args, String more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = more;
        return all;
    }
}
