package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ccl4j.testing.ForkedJvm;

/**
 * The resident set of a JVM that labels a 200,000-vertex graph 2,000 times without an arena and
 * runs book-keeping calls on each result stays within twice its size at the start (plus 64 MB).
 * Before, every call left native memory to the garbage collector, which the small Java garbage
 * of the calls did not prompt to run: RSS grew by gigabytes. Linux only (RSS from /proc).
 */
class ScratchMemoryBoundTest {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final int ITERATIONS = 2_000;
    private static final long MARGIN_KB = 64 * 1024;

    @Test
    void residentSetStaysBoundedOverManyLabellings(@TempDir Path dir) throws Exception {
        if (!Files.exists(STATUS)) {
            System.out.println("NOTICE: no " + STATUS + " (not Linux) - ScratchMemoryBoundTest is skipped");
        }
        assumeTrue(Files.exists(STATUS), "RSS is read from " + STATUS);
        // A fixed, pre-touched heap: its pages count in the starting RSS, so what grows is native memory.
        // The direct-memory limit (by default the heap's size) would force a GC that frees segments left
        // to the collector; set out of reach, it cannot hide such a leak.
        ForkedJvm.Result r = ForkedJvm.run(dir, Workload.class,
                List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch", "-XX:MaxDirectMemorySize=64g"),
                List.of(Integer.toString(ITERATIONS)), 3, TimeUnit.MINUTES);
        String out = r.output();
        assertTrue(r.finished(), "the workload did not finish in 3 minutes:\n" + out);
        assertEquals(0, r.exitCode(), out);
        List<String> lines = out.lines().toList();
        long start = value(lines, "start");
        long peak = lines.stream().filter(l -> l.startsWith("rss ")).mapToLong(l -> Long.parseLong(l.split(" ")[2]))
                .max().orElseThrow();
        assertEquals(ITERATIONS, value(lines, "done"), out);
        System.out.println("ScratchMemoryBoundTest: RSS " + start + " kB at the start, at most " + peak + " kB over "
                + ITERATIONS + " labellings");
        assertTrue(peak <= 2 * start + MARGIN_KB, "RSS rose from " + start + " kB to " + peak + " kB:\n" + out);
    }

    private static long value(List<String> lines, String key) {
        return lines.stream().filter(l -> l.startsWith(key + " ")).mapToLong(l -> Long.parseLong(l.split(" ")[1]))
                .findFirst().orElseThrow(() -> new AssertionError("no '" + key + "' line in " + lines));
    }

    /** VmRSS of this process, in kB. */
    static long rssKb() throws IOException {
        return Files.readAllLines(STATUS).stream().filter(l -> l.startsWith("VmRSS:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElseThrow();
    }

    /**
     * The forked program: labels and analyses the graph {@code args[0]} times, printing
     * "start KB", "rss I KB" every 100 calls and "done N"; it stops early (exit 2) once RSS is
     * over the bound, and exits 3 when a result differs from an earlier call's. CPU_SERIAL: the
     * native book-keeping, with its scratch memory, at a pace that two busy cores keep steady.
     */
    public static final class Workload {
        public static void main(String[] args) throws IOException {
            int iterations = Integer.parseInt(args[0]);
            try (Arena arena = Arena.ofConfined();
                 ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_SERIAL)) {
                CsrGraph graph = randomGraph(arena, 200_000, 120_000);
                String[] first = new String[CALLS];
                long start = 0;
                // the first calls load the library, start its threads and compile the hot code
                for (int i = -20; i < iterations; i++) {
                    if (i == 0) {
                        start = rssKb();
                        System.out.println("start " + start);
                    }
                    int call = Math.floorMod(i, CALLS);
                    String result = labelAndAnalyse(labeler, graph, call);
                    if (first[call] == null) {
                        first[call] = result;
                    } else if (!first[call].equals(result)) {
                        System.out.println("call " + i + " gave " + result + ", an earlier one " + first[call]);
                        System.exit(3);
                    }
                    if (i % 100 == 99) {
                        long rss = rssKb();
                        System.out.println("rss " + (i + 1) + " " + rss);
                        if (rss > 2 * start + MARGIN_KB) {
                            System.exit(2);
                        }
                    }
                }
                System.out.println("done " + iterations);
            }
        }

        private static final int CALLS = 6;

        /**
         * A labelling without an arena, its count, and book-keeping call number {@code call} (of
         * {@link #CALLS}, taken in turn to keep the run short), their results in a string.
         */
        static String labelAndAnalyse(ComponentLabeler labeler, CsrGraph graph, int call) {
            Labels labels = labeler.label(graph);
            String result = labels.count() + " ";
            return result + switch (call) {
                case 0 -> labels.sizes().byteSize();
                case 1 -> labels.compact(Labels.Order.SIZE_DESCENDING).get(labels.summary().largestLabel());
                case 2 -> labels.filter(2, Integer.MAX_VALUE).count();
                case 3 -> labels.members().members().byteSize();
                case 4 -> labels.componentMembers(labels.summary().largestLabel()).byteSize();
                default -> labels.largestComponentSize();  // the sizes by label, in Java
            };
        }

        static CsrGraph randomGraph(Arena arena, int n, int edges) {
            SplittableRandom random = new SplittableRandom(42);
            int[] sources = random.ints(edges, 0, n).toArray();
            int[] targets = random.ints(edges, 0, n).toArray();
            return CsrGraph.fromEdges(arena, n, sources, targets);
        }
    }
}
