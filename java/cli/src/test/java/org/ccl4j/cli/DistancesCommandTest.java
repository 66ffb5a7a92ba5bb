package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code ccl4j distances}: the JSON rows and the --matrix CSV of a SNAP file whose ids are
 * renumbered, on the CPU and Java backends, against a search written here; the text table; a
 * mistyped algorithm.
 */
class DistancesCommandTest {
    @TempDir
    Path dir;

    // file ids: a path 10 - 20 - 30 - 40, a triangle 7 - 8 - 9 with a tail 9 - 5, an edge 100 - 100 (a self loop)
    private static final long[][] EDGES = {{10, 20}, {30, 20}, {30, 40}, {7, 8}, {8, 9}, {9, 7}, {9, 5}, {100, 100},
            {40, 30}};

    private Path snap() throws IOException {
        StringBuilder s = new StringBuilder("# a test graph\n");
        for (long[] e : EDGES) {
            s.append(e[0]).append('\t').append(e[1]).append('\n');
        }
        return Files.writeString(dir.resolve("graph.txt"), s);
    }

    /** The ids in order of first appearance, as the SNAP reader renumbers them, and the distances. */
    private static int[][] reference(List<Long> ids) {
        for (long[] e : EDGES) {
            for (long id : e) {
                if (!ids.contains(id)) {
                    ids.add(id);
                }
            }
        }
        int n = ids.size();
        List<List<Integer>> adjacency = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            adjacency.add(new ArrayList<>());
        }
        for (long[] e : EDGES) {
            adjacency.get(ids.indexOf(e[0])).add(ids.indexOf(e[1]));
            adjacency.get(ids.indexOf(e[1])).add(ids.indexOf(e[0]));
        }
        int[][] d = new int[n][n];
        for (int s = 0; s < n; s++) {
            Arrays.fill(d[s], -1);
            d[s][s] = 0;
            ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(s));
            while (!queue.isEmpty()) {
                int u = queue.poll();
                for (int v : adjacency.get(u)) {
                    if (d[s][v] < 0) {
                        d[s][v] = d[s][u] + 1;
                        queue.add(v);
                    }
                }
            }
        }
        return d;
    }

    @Test
    void jsonRowsAndMatrixAreThoseOfTheReference() throws IOException {
        Path file = snap();
        List<Long> ids = new ArrayList<>();
        int[][] d = reference(ids);
        int n = ids.size();
        ObjectMapper mapper = new ObjectMapper();
        for (String backend : List.of("cpu", "cpu-serial", "java")) {
            Path csv = dir.resolve("d-" + backend + ".csv");
            Result r = run("distances", file.toString(), "--format", "snap", "--backend", backend, "--json",
                    "--matrix", csv.toString());
            assertEquals(0, r.code(), r.err());
            JsonNode json = mapper.readTree(r.out());
            assertEquals(n, json.get("vertices").asInt());
            // rows: components by smallest (renumbered) vertex, each from the reference matrix
            List<Integer> roots = new ArrayList<>();
            for (int v = 0; v < n; v++) {
                int vv = v;
                boolean smallest = true;
                for (int u = 0; u < v; u++) {
                    smallest &= d[u][vv] < 0;
                }
                if (smallest) {
                    roots.add(v);
                }
            }
            assertEquals(roots.size(), json.get("components").asInt(), backend);
            JsonNode rows = json.get("rows");
            for (int r0 = 0; r0 < roots.size(); r0++) {
                int root = roots.get(r0);
                long k = 0;
                long sum = 0;
                int diameter = 0;
                for (int u = 0; u < n; u++) {
                    if (d[root][u] < 0) {
                        continue;
                    }
                    k++;
                    for (int v = 0; v < n; v++) {
                        if (d[u][v] > 0) {
                            sum += d[u][v];
                            diameter = Math.max(diameter, d[u][v]);
                        }
                    }
                }
                JsonNode row = rows.get(r0);
                String what = backend + " row " + r0;
                assertEquals(root, row.get("label").asInt(), what);
                assertEquals((long) ids.get(root), row.get("fileId").asLong(), what);
                assertEquals(k, row.get("vertices").asLong(), what);
                assertEquals(sum, row.get("pathSum").asLong(), what);
                assertEquals(diameter, row.get("diameter").asInt(), what);
                assertEquals(k < 2 ? 0.0 : (double) sum / ((double) k * (k - 1)), row.get("meanPathLength").asDouble(),
                        what);
            }
            List<String> lines = Files.readAllLines(csv);
            assertEquals(n, lines.size());
            for (int u = 0; u < n; u++) {
                assertEquals(Arrays.stream(d[u]).mapToObj(Integer::toString).toList(), List.of(lines.get(u).split(",")),
                        backend + " matrix row " + u);
            }
        }
    }

    @Test
    void textTableAndRefusals() throws IOException {
        Path file = snap();
        Result text = run("distances", file.toString(), "--format", "snap", "--backend", "java", "--algorithm",
                "floyd-warshall");
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("components: 3"), text.out());
        assertTrue(text.out().contains("diameter"), text.out());
        Result wrong = run("distances", file.toString(), "--algorithm", "dijkstra");
        assertEquals(Main.USAGE, wrong.code(), wrong.err());
        assertTrue(wrong.err().contains("floyd-warshall"), wrong.err());
    }
}
