package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.number;
import static org.ccl4j.cli.CliTestSupport.run;
import static org.ccl4j.cli.CliTestSupport.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.UnionFind;
import org.ccl4j.cli.CliTestSupport.Result;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.ReadOptions;
import org.ccl4j.io.internal.suite.BenchSuite;
import org.ccl4j.Grid;
import org.ccl4j.io.grid.GridGenerators;
import org.ccl4j.MeshOptions;
import org.ccl4j.MeshUnionFind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ccl4j bench}: what it reports for graphs and mesh fields, checked independently. */
class BenchCommandTest {
    @TempDir
    Path dir;

    /** The JSON objects of one array of the output, as strings (the bench JSON has no nested arrays there). */
    private static List<String> entries(String json, String array) {
        int start = json.indexOf("\"" + array + "\":[");
        assertTrue(start >= 0, "no " + array + " in " + json);
        int end = json.indexOf(']', start);
        List<String> objects = new ArrayList<>();
        Matcher m = Pattern.compile("\\{\"(field|graph)\".*?\"iterations\":\\d+\\}").matcher(json.substring(start, end));
        while (m.find()) {
            objects.add(m.group());
        }
        return objects;
    }

    @Test
    void meshFieldsWithEveryCpuAlgorithmMatchTheJavaUnionFind() {
        Result r = run("bench", "--suite", "quick", "--graphs", "none", "--fields", "2d_1024_p05,3d_64_p035",
                "--backend", "cpu-serial", "--mesh-algorithm", "all", "--runs", "1", "--warmup", "0", "--json");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(entries(r.out(), "results").isEmpty(), "--graphs none labels no graph");
        List<String> meshes = entries(r.out(), "meshes");
        assertEquals(6, meshes.size(), r.out());  // 2 fields x (cpu-raster, cpu-equivalence, cpu-parallel)
        try (Arena arena = Arena.ofConfined()) {
            for (String m : meshes) {
                MeshBench.Field f = MeshBench.QUICK.stream().filter(q -> q.name().equals(text(m, "field"))).findFirst()
                        .orElseThrow();
                Grid grid = GridGenerators.percolation(arena, f.width(), f.height(), f.depth(), f.p(), 1);
                long clusters = MeshUnionFind.label(grid, MeshOptions.defaults()).count();
                assertEquals(clusters, number(m, "clusters"), m);
                assertEquals(f.depth() == 1 ? 4 : 6, number(m, "connectivity"), m);
                assertEquals(f.cells(), number(m, "cells"), m);
                assertEquals("ok", text(m, "oracle"), m);
                assertEquals("cpu-serial", text(m, "backend"), m);
            }
        }
        assertEquals(List.of("cpu-raster", "cpu-equivalence", "cpu-parallel"),
                meshes.subList(0, 3).stream().map(m -> text(m, "algorithm")).toList());
    }

    /**
     * The _c8 / _c26 fields are labelled, and checked, at full connectivity: their cluster counts
     * are those of a flood fill over the 8 / 26 neighbours of the same cells, fewer than over the
     * face neighbours.
     */
    @Test
    void fullyConnectedFieldsOnTheCpuMatchAFloodFill() {
        Result r = run("bench", "--suite", "quick", "--graphs", "none", "--fields", "2d_1024_p05_c8,3d_64_p025_c26",
                "--backend", "cpu", "--mesh-algorithm", "all", "--runs", "1", "--warmup", "0", "--json");
        assertEquals(Main.OK, r.code(), r.err());
        List<String> meshes = entries(r.out(), "meshes");
        assertEquals(2 * MeshBench.algorithms("all", Backend.CPU_PARALLEL).size(), meshes.size(), r.out());
        try (Arena arena = Arena.ofConfined()) {
            for (String m : meshes) {
                MeshBench.Field f = MeshBench.QUICK.stream().filter(q -> q.name().equals(text(m, "field"))).findFirst()
                        .orElseThrow();
                Grid grid = GridGenerators.percolation(arena, f.width(), f.height(), f.depth(), f.p(), 1);
                long full = floodFillClusters(grid, true);
                assertEquals(f.depth() == 1 ? 8 : 26, number(m, "connectivity"), m);
                assertEquals(full, number(m, "clusters"), m);
                assertTrue(full < floodFillClusters(grid, false), "diagonal neighbours join clusters: " + m);
                assertEquals("ok", text(m, "oracle"), m);
            }
        }
    }

    /** Clusters of a percolation grid's occupied cells over the face neighbours, or all 8 / 26. */
    private static long floodFillClusters(Grid grid, boolean diagonals) {
        int w = grid.width();
        int h = grid.height();
        int d = grid.depth();
        boolean[] seen = new boolean[(int) grid.cellCount()];
        int[] stack = new int[(int) grid.cellCount()];
        long clusters = 0;
        for (int start = 0; start < seen.length; start++) {
            if (seen[start] || grid.get(start) == 0) {
                continue;
            }
            clusters++;
            seen[start] = true;
            int top = 0;
            stack[top++] = start;
            while (top > 0) {
                int i = stack[--top];
                int x = i % w;
                int y = i / w % h;
                int z = i / w / h;
                for (int dz = -1; dz <= 1; dz++) {
                    for (int dy = -1; dy <= 1; dy++) {
                        for (int dx = -1; dx <= 1; dx++) {
                            int steps = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
                            int nx = x + dx;
                            int ny = y + dy;
                            int nz = z + dz;
                            if (steps == 0 || (!diagonals && steps > 1) || nx < 0 || ny < 0 || nz < 0 || nx >= w
                                    || ny >= h || nz >= d) {
                                continue;
                            }
                            int j = (nz * h + ny) * w + nx;
                            if (!seen[j] && grid.get(j) != 0) {
                                seen[j] = true;
                                stack[top++] = j;
                            }
                        }
                    }
                }
            }
        }
        return clusters;
    }

    @Test
    void tableAndMarkdownListEveryField() throws Exception {
        Path markdown = dir.resolve("bench.md");
        Result r = run("bench", "--suite", "quick", "--graphs", "none", "--backend", "java", "--runs", "1", "--warmup",
                "0", "--markdown", markdown.toString());
        assertEquals(Main.OK, r.code(), r.err());
        String md = Files.readString(markdown);
        for (MeshBench.Field f : MeshBench.QUICK) {
            assertTrue(r.out().contains(f.name()), r.out());
            assertTrue(md.contains("| " + f.name() + " | java |"), md);
        }
        assertTrue(!r.out().contains("MISMATCH") && !md.contains("MISMATCH"), r.out());
    }

    /** Graphs generated in this JVM into an empty cache (no ../shared, no compiler), then taken from it. */
    @Test
    void graphsOfTheSuiteAreGeneratedCachedAndMatchTheUnionFind() throws Exception {
        Path cache = dir.resolve("cache");
        String[] args = {"bench", "--suite", "quick", "--graphs", "bond2d_1024_p05,rmat18", "--fields", "none",
            "--backend", "cpu", "--runs", "1", "--warmup", "0", "--dir", cache.toString(), "--json"};
        Result r = run(args);
        assertEquals(Main.OK, r.code(), r.err());
        List<String> results = entries(r.out(), "results");
        assertEquals(2, results.size(), r.out());
        assertTrue(entries(r.out(), "meshes").isEmpty(), "--fields none labels no field");
        try (Arena arena = Arena.ofConfined()) {
            for (String result : results) {
                BenchSuite.Graph g = BenchSuite.graph(text(result, "graph")).orElseThrow();
                CsrGraph graph = GraphReader.read(cache.resolve(g.name() + ".egr"), GraphFormat.EGR,
                        ReadOptions.defaults(), arena).graph();
                int[] labels = UnionFind.labels(graph);
                long components = java.util.stream.IntStream.range(0, labels.length).filter(v -> labels[v] == v).count();
                assertEquals(g.components(), components, g.name());
                assertEquals(components, number(result, "components"), r.out());
                assertEquals(graph.vertexCount(), number(result, "vertices"));
                assertEquals("ok", text(result, "oracle"));
            }
        }
        try (Stream<Path> files = Files.list(cache)) {
            assertEquals(List.of("bond2d_1024_p05.egr", "rmat18.egr"),
                    files.map(f -> f.getFileName().toString()).sorted().toList(), "no temporary file is left");
        }
        FileTime written = Files.getLastModifiedTime(cache.resolve("rmat18.egr"));
        Result again = run(args);
        assertEquals(Main.OK, again.code(), again.err());
        assertEquals(written, Files.getLastModifiedTime(cache.resolve("rmat18.egr")), "the cached file is used");
    }

    /** The kernel column sums a labelling's kernel phases once: not the transfers, not one device's own. */
    @Test
    void theKernelColumnLeavesOutTransfersAndEachDevicesOwnPhases() {
        Map<String, Double> phases = new java.util.LinkedHashMap<>();
        phases.put("init", 1.0);
        phases.put("sample", 10.0);
        phases.put("merge samples", 0.5);
        phases.put("link", 20.0);
        phases.put("d2h", 3.0);
        phases.put("sample 0", 9.0);
        phases.put("sample 1", 9.5);
        phases.put("link 0", 19.0);
        phases.put("link 12", 18.0);
        assertEquals(31.5, BenchCommand.kernelMs(phases), 1e-12);
        assertEquals(4.0, BenchCommand.kernelMs(Map.of("h2d", 2.0, "compute1", 4.0)), 1e-12);
    }

    /** --file benches a graph file of one's own beside (or, with --graphs none, instead of) the suite. */
    @Test
    void aGraphFileOfOnesOwnIsBenchedAndCheckedAgainstTheUnionFind() throws Exception {
        Path own = dir.resolve("own.edges");
        Files.writeString(own, "0 1\n1 2\n4 5\n7 7\n");  // {0,1,2}, {3}, {4,5}, {6}, {7}
        Result r = run("bench", "--graphs", "none", "--fields", "none", "--file", own.toString(), "--backend", "cpu",
                "--algorithm", "all", "--runs", "1", "--warmup", "0", "--json");
        assertEquals(Main.OK, r.code(), r.err());
        List<String> results = entries(r.out(), "results");
        assertTrue(results.size() >= 2, r.out());
        for (String result : results) {
            assertEquals("own.edges", text(result, "graph"), result);
            assertEquals(5, number(result, "components"), result);
            assertEquals(8, number(result, "vertices"), result);
            assertEquals("ok", text(result, "oracle"), result);
        }
        Result missing = run("bench", "--graphs", "none", "--fields", "none", "--file", dir.resolve("none.mtx").toString(),
                "--backend", "cpu", "--runs", "1", "--warmup", "0");
        assertEquals(3, missing.code(), missing.err());
        assertTrue(missing.err().contains("none.mtx"), missing.err());
    }

    /** --threads sets the CPU backend's threads, for graphs and fields, and the output says so. */
    @Test
    void threadsRunTheCpuBackendOnThatManyThreads() throws Exception {
        Result r = run("bench", "--suite", "quick", "--graphs", "grid3d_64", "--fields", "3d_64_p035", "--backend", "cpu",
                "--threads", "1", "--runs", "1", "--warmup", "0", "--dir", dir.toString(), "--json");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(text(r.out(), "device").endsWith(" (--threads 1)"), r.out());
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
            CsrGraph graph = GraphReader.read(dir.resolve("grid3d_64.egr"), GraphFormat.EGR, ReadOptions.defaults(), arena)
                    .graph();
            assertEquals(CliNames.algorithm(labeler.label(graph).timings().algorithm()),
                    text(entries(r.out(), "results").get(0), "algorithm"), "the algorithm that AUTO ran");
        }
        assertEquals("ok", text(entries(r.out(), "results").get(0), "oracle"), r.out());
        assertEquals("ok", text(entries(r.out(), "meshes").get(0), "oracle"), r.out());
        Result table = run("bench", "--suite", "quick", "--graphs", "grid3d_64", "--fields", "none", "--backend", "cpu",
                "--threads", "2", "--runs", "1", "--warmup", "0", "--dir", dir.toString());
        assertEquals(Main.OK, table.code(), table.err());
        assertTrue(table.out().startsWith("device: ") && table.out().lines().findFirst().orElseThrow()
                .endsWith(" (--threads 2)"), table.out());
        Result all = run("bench", "--suite", "quick", "--graphs", "grid3d_64", "--fields", "none", "--backend", "cpu",
                "--runs", "1", "--warmup", "0", "--dir", dir.toString(), "--json");
        assertTrue(!text(all.out(), "device").contains("--threads"), all.out());
        Result negative = run("bench", "--threads", "-1", "--json");
        assertEquals(Main.USAGE, negative.code());
        assertEquals("--runs must be at least 1, --warmup, --max-iterations and --threads not negative",
                text(negative.out(), "error"));
    }

    @Test
    void unknownFieldsAndAlgorithmsAreUsageErrors() {
        assertEquals(Main.USAGE, run("bench", "--fields", "2d_7_p05").code());
        assertEquals(Main.USAGE, run("bench", "--graphs", "nosuch").code());
        assertEquals(Main.USAGE, run("bench", "--graphs", "none", "--mesh-algorithm", "nosuch").code());
        assertEquals(Main.USAGE, run("bench", "--graphs", "none", "--backend", "cpu", "--mesh-algorithm", "union-find").code());
    }
}
