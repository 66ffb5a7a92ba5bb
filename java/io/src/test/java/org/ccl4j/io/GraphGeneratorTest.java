package org.ccl4j.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.ccl4j.CsrGraph;
import org.ccl4j.UnionFind;
import org.ccl4j.io.GraphGenerator.Csr;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link GraphGenerator}: every kind at small sizes against the reference generator's files, the
 * CSR invariants, determinism, parameter errors, and the counts that {@code shared/BENCHMARKS.md}
 * gives for some of the full suite's graphs (when {@code ../shared} is beside the checkout).
 */
class GraphGeneratorTest {
    private static final Path SHARED_BENCHMARKS = Path.of("..", "shared", "BENCHMARKS.md");

    /**
     * The full-suite graphs checked against shared/BENCHMARKS.md by default: cheap ones with more
     * than one component, among them the most intricate kind, powerlaw (2, 7 and 7 s on the idle
     * 2-core development machine; about three times that when it is busy). The system property
     * {@code ccl4j.test.fullSuite} names others (comma-separated) or {@code all}.
     */
    private static final Set<String> CHEAP_FULL_SUITE_GRAPHS = Set.of("bond2d_4096_p05", "disjoint_5m",
            "powerlaw_2e22");

    @TempDir
    Path dir;

    /**
     * Small graphs of every kind, including edge cases (P of 0 and 1, odd K, fewer edges than
     * random streams, more groups than vertices, a single vertex), with the SHA-256 of the
     * {@code .egr} file that the reference generator (gengraph.cpp, 16 OpenMP threads) writes.
     */
    static Stream<Arguments> referenceFiles() {
        return Stream.of(
                reference("grid2d 64", "4525383b55840cf5ffad41a9965f979fb952801dd6af37a3dc054bcf2555a181"),
                reference("bond2d 128 0.5", "28dfe3f692946d8cf2e8ea882ca9962f2f7f640cfce94bd6fe4984bf509c0a86"),
                // every bond kept: the full lattice, and no random numbers drawn
                reference("bond2d 64 1", "4525383b55840cf5ffad41a9965f979fb952801dd6af37a3dc054bcf2555a181"),
                reference("grid3d 16", "ff0b4f14676330fece655a12c67d487ebfd8604a99395343aa32b53212ded123"),
                reference("uniform 12 4", "369e0529c52ad0daa1e5b66523fade1eb61164f4d9d7154f5bd51a36725ed274"),
                reference("rmat 14 8", "a2c32f3c5b22c6e4f44aa744b6255ccd46509e4fc368373e2c94642021e87b4c"),
                reference("rmat 3 5", "d839d501cae85d1a6f53ee741dcfb3496f814768c500582cc3d0eb825e3bc765"),
                reference("ws 12 10 0.1", "33344a62949537565631d73ddba303f7b79118097333c8c8b868c0e8482122f9"),
                reference("ws 12 7 0", "6dda77209c3e9415ba6d439ea757dd393a7ebb6f9adac0963638aa18659260aa"),
                reference("powerlaw 14 16", "f5c788370fbb779c7c75ab4c6b7326bd41cec3655bafce0f8a185669a0edfa2d"),
                reference("powerlaw 2 7", "7c5b926e7f91169aa0478334ca519805f7824ee7425973b278b1c3d748295609"),
                reference("line 10", "804746e6235056a8486e6fe01d89377740331a675ccc2a0efd22c5c0ccb90e27"),
                reference("line 0", "4cbbd8ca5215b8d161aec181a74b694f4e24b001d5b081dc0030ed797a8973e0"),
                reference("shuffledline 12", "334ed118088a6ee87ebb96b40cf7511c71849e933460bf575edccd910b6339a9"),
                reference("disjoint 30000 200000 100", "b59f56005c5dd68a879d72c33264de3a5c6d498b73fc6cbff2e3034b624e4299"),
                reference("disjoint 1000 5000 2000", "5ddd41e5e9a5c678a87ed9541872a394289049385508d31ef505eeb85e3e99d5"));
    }

    private static Arguments reference(String command, String sha256) {
        return command(command, sha256);
    }

    /** The kind and the parameter list of a command such as "rmat 14 8", then {@code more}. */
    private static Arguments command(String command, Object... more) {
        List<String> words = List.of(command.split(" "));
        List<Object> arguments = new ArrayList<>(List.of(words.get(0), words.subList(1, words.size())));
        arguments.addAll(List.of(more));
        return Arguments.of(arguments.toArray());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("referenceFiles")
    void writesTheReferenceGeneratorsFileByteForByte(String kind, List<String> params, String sha256) throws Exception {
        Csr g = GraphGenerator.generate(kind, params);
        assertValidCsr(g);
        Path file = dir.resolve("g.egr");
        g.writeEgr(file);
        assertEquals(8 + 4L * (g.vertexCount() + 1) + 4L * g.arcCount(), Files.size(file));
        assertEquals(sha256, sha256(file), kind + " " + params);
    }

    @Test
    void theReferenceFilesCoverEveryKind() {
        Set<Object> covered = referenceFiles().map(a -> a.get()[0]).collect(Collectors.toSet());
        assertEquals(Set.copyOf(GraphGenerator.kinds()), covered);
    }

    /** Graphs big enough for every parallel loop to split into many blocks, one or more per kind. */
    static Stream<Arguments> parallelCases() {
        return Stream.of("grid2d 300", "bond2d 300 0.5", "grid3d 40", "uniform 16 4", "rmat 16 8", "rmat 3 5",
                "ws 16 10 0.1", "powerlaw 16 16", "line 16", "shuffledline 16", "disjoint 50000 300000 50")
                .map(GraphGeneratorTest::command);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("parallelCases")
    void theSameGraphTwiceAndWithAnyNumberOfThreads(String kind, List<String> params) throws Exception {
        Csr common = GraphGenerator.generate(kind, params);
        assertValidCsr(common);
        assertEquals(common, GraphGenerator.generate(kind, params), "twice in the common pool");
        assertEquals(common, inPool(1, kind, params), "in a pool of 1 thread");
        assertEquals(common, inPool(3, kind, params), "in a pool of 3 threads");
    }

    /** Parallel streams started by a fork-join pool's task run in that pool. */
    private static Csr inPool(int threads, String kind, List<String> params) throws Exception {
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            return pool.submit(() -> GraphGenerator.generate(kind, params)).get();
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void toCsrGraphIsTheGraphThatTheEgrReaderReads() throws IOException {
        Csr g = GraphGenerator.generate("rmat", List.of("12", "8"));
        Path file = dir.resolve("rmat.egr");
        g.writeEgr(file);
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph copy = g.toCsrGraph(arena);
            copy.check();
            assertEquals(Integer.BYTES, copy.offsetBytes());
            assertArrayEquals(g.offsets(), copy.offsets().toArray(ValueLayout.JAVA_INT));
            assertArrayEquals(g.neighbours(), copy.neighbors().toArray(ValueLayout.JAVA_INT));
            CsrGraph read = GraphReader.read(file, GraphFormat.EGR, ReadOptions.defaults(), arena).graph();
            assertEquals(read.vertexCount(), copy.vertexCount());
            assertArrayEquals(read.offsets().toArray(ValueLayout.JAVA_INT), copy.offsets().toArray(ValueLayout.JAVA_INT));
            assertArrayEquals(read.neighbors().toArray(ValueLayout.JAVA_INT), copy.neighbors().toArray(ValueLayout.JAVA_INT));
        }
    }

    @Test
    void writingReplacesAnExistingFile() throws IOException {
        Path file = dir.resolve("g.egr");
        Files.write(file, new byte[100_000]);
        GraphGenerator.generate("line", List.of("2")).writeEgr(file);
        // 4 vertices, 6 arcs: 0-1-2-3
        assertEquals(8 + 4 * 5 + 4 * 6, Files.size(file));
    }

    static Stream<Arguments> badParameters() {
        return Stream.of(
                bad("grid4d 10", "unknown graph kind 'grid4d'; known kinds: grid2d, bond2d, grid3d, uniform, rmat, ws,"
                        + " powerlaw, line, shuffledline, disjoint"),
                bad("rmat 22", "rmat takes 2 parameters (rmat SCALE EDGEFACTOR), got 1: [22]"),
                bad("rmat 22 8 1", "rmat takes 2 parameters (rmat SCALE EDGEFACTOR), got 3: [22, 8, 1]"),
                bad("line", "line takes 1 parameter (line SCALE), got 0: []"),
                bad("rmat x 8", "rmat: SCALE must be an integer, got 'x'"),
                bad("rmat 31 8", "rmat: SCALE must be an integer from 0 to 30, got '31'"),
                bad("rmat 22 -1", "rmat: EDGEFACTOR must be an integer from 0 to 2147483647, got '-1'"),
                bad("line 2.5", "line: SCALE must be an integer, got '2.5'"),
                bad("bond2d 100 1.5", "bond2d: P must be a probability from 0 to 1, got '1.5'"),
                bad("bond2d 100 p", "bond2d: P must be a probability from 0 to 1, got 'p'"),
                bad("ws 10 4 NaN", "ws: P must be a probability from 0 to 1, got 'NaN'"),
                bad("grid2d 0", "grid2d: SIDE must be an integer from 1 to 32768, got '0'"),
                bad("grid3d 2000", "grid3d: SIDE must be an integer from 1 to 1024, got '2000'"),
                bad("disjoint 10 10 0", "disjoint: COMPONENTS must be an integer from 1 to 1073741824, got '0'"),
                bad("uniform 30 4", "uniform: 4294967296 edges need 8589934592 arcs before duplicate removal; at most"
                        + " 2147483639 are supported"));
    }

    private static Arguments bad(String command, String message) {
        return command(command, message);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badParameters")
    void badParametersAreNamedInTheMessage(String kind, List<String> params, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GraphGenerator.generate(kind, params));
        assertEquals(message, e.getMessage());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badParameters")
    void heapBytesRefusesWhatGenerateRefuses(String kind, List<String> params, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GraphGenerator.heapBytes(kind, params));
        assertEquals(message, e.getMessage());
    }

    @Test
    void heapBytesCountsTheEdgeListsTheVerticesAndTheKindsTables() {
        // grid2d 10: 180 edges, 100 vertices, no tables of its own
        assertEquals(16 * 180 + 8 * 100, GraphGenerator.heapBytes("grid2d", List.of("10")));
        // the suite's largest graph, about 1.5 GB (the class description): 2^21 * 44 edges, a permutation
        long n = 1 << 21;
        assertEquals(16 * n * 44 + 8 * n + 4 * n, GraphGenerator.heapBytes("rmat", List.of("21", "44")));
        // the power-law tables double per vertex what the CSR needs
        assertEquals(16 * n * 4 + 8 * n + 16 * n + 8, GraphGenerator.heapBytes("powerlaw", List.of("21", "8")));
        // what generate builds fits in the estimate
        for (List<String> command : List.of(List.of("bond2d", "64", "0.5"), List.of("disjoint", "1000", "5000", "10"),
                List.of("shuffledline", "12"), List.of("ws", "10", "6", "0.1"))) {
            Csr g = GraphGenerator.generate(command.get(0), command.subList(1, command.size()));
            long held = 4L * (g.offsets().length + g.neighbours().length);
            assertTrue(held <= GraphGenerator.heapBytes(command.get(0), command.subList(1, command.size())),
                    command.toString());
        }
    }

    @Test
    void anEdgeCountBeyondTheLongRangeIsRefusedNotOverflowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GraphGenerator.generate("disjoint", List.of("10", String.valueOf(Long.MAX_VALUE), "2")));
        assertEquals("disjoint: 9223372036854775807 edges need 18446744073709551614 arcs before duplicate removal;"
                + " at most 2147483639 are supported", e.getMessage());
    }

    /** The fast power-law weight is the correctly rounded one; the slow path decides near ties. */
    @Test
    void powerLawWeightsAreCorrectlyRounded() {
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 20_000; i++) {
            long x = i < 1000 ? i + 1 : 1 + random.nextLong(1L << 30);
            double fast = GraphGenerator.powerLawWeight(x);
            assertEquals(GraphGenerator.powerLawWeightSlow(x), fast, "x = " + x);
        }
    }

    /** A full-suite graph's row of shared/BENCHMARKS.md: its generator command and counts. */
    record SuiteRow(String name, String kind, List<String> params, long vertices, long arcs, long components) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Object> fullSuiteRows() throws IOException {
        if (!Files.exists(SHARED_BENCHMARKS)) {
            System.out.println("NOTICE: " + SHARED_BENCHMARKS + " not found - the full suite's counts are not checked");
            return Stream.of("skipped: " + SHARED_BENCHMARKS + " not found");
        }
        String selection = System.getProperty("ccl4j.test.fullSuite", "");
        Set<String> names = selection.isBlank() ? CHEAP_FULL_SUITE_GRAPHS : Set.of(selection.split(","));
        List<SuiteRow> rows = suiteTable();
        List<String> known = rows.stream().map(SuiteRow::name).toList();
        for (String name : names) {
            assertTrue(name.equals("all") || known.contains(name), "ccl4j.test.fullSuite: no graph " + name
                    + " in " + SHARED_BENCHMARKS + " (" + known + ")");
        }
        return rows.stream().filter(r -> names.contains("all") || names.contains(r.name())).map(Object.class::cast);
    }

    /** The table of shared/BENCHMARKS.md's "Graph suite": | name | `gengraph KIND g.egr PARAMS` | n | arcs | components |. */
    private static List<SuiteRow> suiteTable() throws IOException {
        List<SuiteRow> rows = new ArrayList<>();
        for (String line : Files.readAllLines(SHARED_BENCHMARKS)) {
            String[] cells = line.split("\\|");
            if (cells.length != 6 || !cells[2].strip().startsWith("`gengraph ")) {
                continue;
            }
            List<String> words = List.of(cells[2].strip().replace("`", "").split(" +"));
            rows.add(new SuiteRow(cells[1].strip(), words.get(1), words.subList(3, words.size()), count(cells[3]),
                    count(cells[4]), count(cells[5])));
        }
        assertEquals(11, rows.size(), "graph rows in " + SHARED_BENCHMARKS);
        return rows;
    }

    private static long count(String cell) {
        return Long.parseLong(cell.strip().replace(",", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fullSuiteRows")
    void fullSuiteGraphsHaveTheCountsOfSharedBenchmarks(Object row) {
        Assumptions.assumeTrue(row instanceof SuiteRow, row::toString);
        SuiteRow r = (SuiteRow) row;
        Csr g = GraphGenerator.generate(r.kind(), r.params());
        assertEquals(r.vertices(), g.vertexCount(), "vertices");
        assertEquals(r.arcs(), g.arcCount(), "arcs");
        try (Arena arena = Arena.ofConfined()) {
            int[] labels = UnionFind.labels(g.toCsrGraph(arena));
            long components = 0;
            for (int v = 0; v < labels.length; v++) {
                if (labels[v] == v) {
                    components++;
                }
            }
            assertEquals(r.components(), components, "components");
        }
    }

    /**
     * Offsets from 0 to the arc count, never decreasing; each neighbour list strictly increasing
     * (no duplicates), in range and without the vertex itself; every arc's reverse present.
     */
    static void assertValidCsr(Csr g) {
        int n = g.vertexCount();
        int[] offsets = g.offsets();
        int[] neighbours = g.neighbours();
        assertEquals(n + 1, offsets.length);
        assertEquals(0, offsets[0]);
        assertEquals(neighbours.length, offsets[n]);
        for (int v = 0; v < n; v++) {
            assertTrue(offsets[v] <= offsets[v + 1], "offsets decrease at vertex " + v);
            for (int a = offsets[v]; a < offsets[v + 1]; a++) {
                int w = neighbours[a];
                assertTrue(w >= 0 && w < n, "neighbour " + w + " of " + v + " out of range");
                assertTrue(w != v, "self loop at " + v);
                assertTrue(a == offsets[v] || neighbours[a - 1] < w, "neighbours of " + v + " not strictly increasing");
                assertTrue(Arrays.binarySearch(neighbours, offsets[w], offsets[w + 1], v) >= 0,
                        "arc " + v + "->" + w + " has no reverse");
            }
        }
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
