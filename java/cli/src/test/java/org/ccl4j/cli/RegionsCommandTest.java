package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code --regions} of {@code mesh} and {@code label}: every value of the CSV against a labelling
 * and accumulation written here (breadth-first search in raster order), the JSON, and the errors.
 */
class RegionsCommandTest {
    private static final List<String> BACKENDS = List.of("cpu", "cpu-serial", "java");

    @TempDir
    Path dir;

    /** A grid of ints, x fastest. */
    private record Cells(int width, int height, int depth, int[] values) {
    }

    /** Random cells: zero with probability 1 - density, else a value in [1, 255] (or [-1000, 1000] signed). */
    private static Cells random(int width, int height, int depth, double density, boolean signed, long seed) {
        Random random = new Random(seed);
        int[] values = new int[width * height * depth];
        for (int i = 0; i < values.length; i++) {
            if (random.nextDouble() < density) {
                values[i] = signed ? random.nextInt(2001) - 1000 : 1 + random.nextInt(255);
            }
        }
        return new Cells(width, height, depth, values);
    }

    /**
     * The expected CSV lines: components of the non-zero cells of {@code grid} found by a
     * breadth-first search started at each unlabelled cell in raster order, accumulated in longs.
     */
    private static List<String> reference(Cells grid, int connectivity, Cells intensity) {
        int w = grid.width();
        int h = grid.height();
        int d = grid.depth();
        int[] label = new int[grid.values().length];
        List<String> lines = new ArrayList<>();
        lines.add("label,size,xmin,ymin,zmin,xmax,ymax,zmax,cx,cy,cz,sum,min,max,mean,touches,wraps");
        int next = 0;
        for (int start = 0; start < label.length; start++) {
            if (grid.values()[start] == 0 || label[start] != 0) {
                continue;
            }
            label[start] = ++next;
            long size = 0;
            long sx = 0;
            long sy = 0;
            long sz = 0;
            long sum = 0;
            int[] lo = {w, h, d};
            int[] hi = {-1, -1, -1};
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(start));
            while (!queue.isEmpty()) {
                int i = queue.poll();
                int[] p = {i % w, i / w % h, i / (w * h)};
                size++;
                sx += p[0];
                sy += p[1];
                sz += p[2];
                for (int a = 0; a < 3; a++) {
                    lo[a] = Math.min(lo[a], p[a]);
                    hi[a] = Math.max(hi[a], p[a]);
                }
                long v = intensity.values()[i];
                sum += v;
                min = Math.min(min, v);
                max = Math.max(max, v);
                for (int dz = -1; dz <= 1; dz++) {
                    for (int dy = -1; dy <= 1; dy++) {
                        for (int dx = -1; dx <= 1; dx++) {
                            int steps = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
                            boolean near = connectivity == 4 || connectivity == 6 ? steps == 1 : steps >= 1;
                            int x = p[0] + dx;
                            int y = p[1] + dy;
                            int z = p[2] + dz;
                            if (near && x >= 0 && x < w && y >= 0 && y < h && z >= 0 && z < d) {
                                int j = x + w * (y + h * z);
                                if (grid.values()[j] != 0 && label[j] == 0) {
                                    label[j] = next;
                                    queue.add(j);
                                }
                            }
                        }
                    }
                }
            }
            String touches = (lo[0] == 0 ? "x-" : "") + (hi[0] == w - 1 ? "x+" : "") + (lo[1] == 0 ? "y-" : "")
                    + (hi[1] == h - 1 ? "y+" : "") + (d > 1 && lo[2] == 0 ? "z-" : "")
                    + (d > 1 && hi[2] == d - 1 ? "z+" : "");
            lines.add(String.join(",", Stream.of(next, size, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2],
                    (double) sx / size, (double) sy / size, (double) sz / size, (double) sum, (double) min,
                    (double) max, (double) sum / size, touches, "").map(String::valueOf).toList())); // open: no wraps
        }
        return lines;
    }

    /** A binary PGM of values in [0, 255]. */
    private Path pgm(String name, Cells cells) throws IOException {
        byte[] header = ("P5\n" + cells.width() + " " + cells.height() + "\n255\n").getBytes(StandardCharsets.US_ASCII);
        byte[] bytes = Arrays.copyOf(header, header.length + cells.values().length);
        for (int i = 0; i < cells.values().length; i++) {
            bytes[header.length + i] = (byte) cells.values()[i];
        }
        return Files.write(dir.resolve(name), bytes);
    }

    /** A raw little-endian int32 volume. */
    private Path rawInts(String name, Cells cells) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(cells.values().length * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        Arrays.stream(cells.values()).forEach(b::putInt);
        return Files.write(dir.resolve(name), b.array());
    }

    /** A raw uint8 volume. */
    private Path rawBytes(String name, Cells cells) throws IOException {
        byte[] bytes = new byte[cells.values().length];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) cells.values()[i];
        }
        return Files.write(dir.resolve(name), bytes);
    }

    /** Runs {@code args} with --regions on every CPU and Java backend; the CSV must be {@code expected}. */
    private void assertRegions(List<String> expected, String... args) throws IOException {
        for (String backend : BACKENDS) {
            Path csv = dir.resolve("regions-" + backend + ".csv");
            List<String> all = new ArrayList<>(List.of(args));
            all.addAll(List.of("--backend", backend, "--regions", csv.toString()));
            Result r = run(all.toArray(String[]::new));
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("regions: " + csv + " (" + (expected.size() - 1) + " rows)"), r.out());
            assertEquals(expected, Files.readAllLines(csv), backend + " " + all);
        }
    }

    @Test
    void imageRegionsAreThoseOfTheReference() throws IOException {
        // rows enough for the Java engine to split its loops among threads
        Cells image = random(213, 157, 1, 0.55, false, 1);
        Path file = pgm("image.pgm", image);
        for (int connectivity : new int[] {4, 8}) {
            assertRegions(reference(image, connectivity, image), "mesh", file.toString(), "--connectivity",
                    Integer.toString(connectivity));
        }
    }

    @Test
    void volumeRegionsAreThoseOfTheReference() throws IOException {
        Cells volume = random(11, 9, 7, 0.3, false, 2);
        Path file = rawBytes("volume.raw", volume);
        for (int connectivity : new int[] {6, 26}) {
            assertRegions(reference(volume, connectivity, volume), "mesh", file.toString(), "--dims", "11x9x7",
                    "--connectivity", Integer.toString(connectivity));
        }
    }

    @Test
    void int64LabelsHaveTheSameRegions() throws IOException {
        Cells volume = random(11, 9, 7, 0.3, false, 2);
        Path file = rawBytes("volume.raw", volume);
        for (int connectivity : new int[] {6, 26}) {
            assertRegions(reference(volume, connectivity, volume), "mesh", file.toString(), "--dims", "11x9x7",
                    "--connectivity", Integer.toString(connectivity), "--int64-labels");
        }
        Cells image = random(213, 157, 1, 0.55, false, 1);
        assertRegions(reference(image, 8, image), "mesh", pgm("image.pgm", image).toString(), "--connectivity", "8",
                "--int64-labels");
    }

    @Test
    void intensityGridsAreSummed() throws IOException {
        Cells image = random(29, 17, 1, 0.6, false, 3);
        Cells grey = random(29, 17, 1, 1.0, false, 4);
        assertRegions(reference(image, 8, grey), "mesh", pgm("image.pgm", image).toString(), "--connectivity", "8",
                "--intensity", pgm("grey.pgm", grey).toString());
        // signed int32 cells and intensities, through --type i32 for both
        Cells volume = random(8, 7, 6, 0.4, true, 5);
        Cells values = random(8, 7, 6, 1.0, true, 6);
        assertRegions(reference(volume, 26, values), "mesh", rawInts("volume.raw", volume).toString(), "--dims",
                "8x7x6", "--type", "i32", "--connectivity", "26", "--intensity", rawInts("values.raw", values).toString());
    }

    /** The expected graph CSV of an undirected graph without loops or repeated edges, by union-find. */
    private static List<String> graphReference(int n, List<int[]> edges) {
        int[] parent = new int[n];
        Arrays.setAll(parent, v -> v);
        int[] degree = new int[n];
        for (int[] e : edges) {
            parent[find(parent, e[0])] = find(parent, e[1]);
            degree[e[0]]++;
            degree[e[1]]++;
        }
        List<String> lines = new ArrayList<>(List.of("label,vertices,edges,min_vertex,max_vertex,max_degree"));
        int[] row = new int[n];  // by root: 1 + the row, in order of the smallest vertex
        long[][] acc = new long[n][];  // vertices, edges, max vertex, max degree
        List<Integer> firsts = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            int r = find(parent, v);
            if (row[r] == 0) {
                firsts.add(v);
                row[r] = firsts.size();
                acc[r] = new long[4];
            }
            acc[r][0]++;
            acc[r][2] = v;
            acc[r][3] = Math.max(acc[r][3], degree[v]);
        }
        for (int[] e : edges) {
            acc[find(parent, e[0])][1]++;
        }
        for (int first : firsts) {
            long[] a = acc[find(parent, first)];
            lines.add(row[find(parent, first)] + "," + a[0] + "," + a[1] + "," + first + "," + a[2] + "," + a[3]);
        }
        return lines;
    }

    private static int find(int[] parent, int v) {
        while (parent[v] != v) {
            v = parent[v];
        }
        return v;
    }

    /** Distinct random edges u < v among n vertices. */
    private static List<int[]> randomEdges(int n, int count, long seed) {
        Random random = new Random(seed);
        List<int[]> edges = new ArrayList<>();
        boolean[] seen = new boolean[n * n];
        while (edges.size() < count) {
            int u = random.nextInt(n);
            int v = random.nextInt(n);
            if (u < v && !seen[u * n + v]) {
                seen[u * n + v] = true;
                edges.add(new int[] {u, v});
            }
        }
        return edges;
    }

    @Test
    void graphRegionsAreThoseOfTheReference() throws IOException {
        int n = 60;
        List<int[]> edges = randomEdges(n, 45, 7);
        List<String> expected = graphReference(n, edges);
        StringBuilder mtx = new StringBuilder("%%MatrixMarket matrix coordinate pattern symmetric\n")
                .append(n).append(' ').append(n).append(' ').append(edges.size()).append('\n');
        StringBuilder el = new StringBuilder();
        for (int[] e : edges) {
            mtx.append(e[1] + 1).append(' ').append(e[0] + 1).append('\n');
            el.append(e[0]).append(' ').append(e[1]).append('\n');
        }
        Path m = Files.writeString(dir.resolve("graph.mtx"), mtx);
        for (String backend : BACKENDS) {
            Path csv = dir.resolve("graph-" + backend + ".csv");
            Result r = run("label", m.toString(), "--backend", backend, "--regions", csv.toString());
            assertEquals(0, r.code(), r.err());
            assertEquals(expected, Files.readAllLines(csv), backend);
        }
        int largest = edges.stream().mapToInt(e -> e[1]).max().orElseThrow();
        Path e = Files.writeString(dir.resolve("graph.el"), el);
        Path csv = dir.resolve("graph-el.csv");
        Result r = run("label", e.toString(), "--regions", csv.toString());
        assertEquals(0, r.code(), r.err());
        // the edge list has the vertices 0..largest
        assertEquals(graphReference(largest + 1, edges), Files.readAllLines(csv));
    }

    @Test
    void jsonListsTheRowsUpToTheLimit() throws IOException {
        Cells image = random(20, 15, 1, 0.5, false, 8);
        Path file = pgm("image.pgm", image);
        List<String> expected = reference(image, 4, image);
        int rows = expected.size() - 1;
        Path csv = dir.resolve("r.csv");
        ObjectMapper mapper = new ObjectMapper();

        Result r = run("mesh", file.toString(), "--regions", csv.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode regions = mapper.readTree(r.out()).get("regions");
        assertEquals(rows, regions.get("count").asInt());
        String[] header = expected.get(0).split(",");
        for (int i = 0; i < rows; i++) {
            JsonNode row = regions.get("rows").get(i);
            String[] values = expected.get(i + 1).split(",", -1);
            for (int c = 0; c < header.length; c++) {
                assertEquals(values[c], row.get(header[c]).asText(), "row " + i + " " + header[c]);
            }
        }

        r = run("mesh", file.toString(), "--regions", csv.toString(), "--json", "--top", Integer.toString(rows));
        assertEquals(rows, mapper.readTree(r.out()).get("regions").get("rows").size());
        r = run("mesh", file.toString(), "--regions", csv.toString(), "--json", "--top", Integer.toString(rows - 1));
        regions = mapper.readTree(r.out()).get("regions");
        assertEquals(rows, regions.get("count").asInt());
        assertFalse(regions.has("rows"));

        Path graph = Files.writeString(dir.resolve("g.el"), "0 1\n2 3\n3 4\n");
        r = run("label", graph.toString(), "--regions", csv.toString(), "--json", "--top", "1");
        regions = mapper.readTree(r.out()).get("regions");
        assertEquals(2, regions.get("count").asInt());
        assertFalse(regions.has("rows"));
        r = run("label", graph.toString(), "--regions", csv.toString(), "--json");
        assertEquals("{\"label\":2,\"vertices\":3,\"edges\":2,\"min_vertex\":2,\"max_vertex\":4,\"max_degree\":2}",
                mapper.readTree(r.out()).get("regions").get("rows").get(1).toString());
    }

    /**
     * The wraps column names the periodic axes a cluster wraps around, and --stats lists the
     * largest clusters by the table's labels 1..k, as the CSV numbers them, not by canonical label.
     */
    @Test
    void wrapsAreListedAndStatsNumberTheClustersAsTheTableDoes() throws IOException {
        // a dot (row 1), a row across the grid (row 2, wrapping around x), a pair (row 3)
        Cells image = new Cells(6, 5, 1, new int[] {
            1, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0,
            1, 1, 1, 1, 1, 1,
            0, 0, 0, 0, 0, 0,
            0, 1, 1, 0, 0, 0});
        Path file = pgm("stripes.pgm", image);
        ObjectMapper mapper = new ObjectMapper();
        for (String backend : BACKENDS) {
            for (boolean wide : new boolean[] {false, true}) {
                List<String> args = new ArrayList<>(List.of("mesh", file.toString(), "--periodic-axes", "x",
                        "--backend", backend, "--stats"));
                if (wide) {
                    args.add("--int64-labels");
                }
                String what = args.toString();
                Path csv = dir.resolve("stripes.csv");
                args.addAll(List.of("--regions", csv.toString()));
                Result r = run(args.toArray(String[]::new));
                assertEquals(0, r.code(), what + ": " + r.err());
                List<String> rows = Files.readAllLines(csv);
                assertTrue(rows.get(0).endsWith(",touches,wraps"), rows.get(0));
                // label, size and wraps of each row
                assertEquals(List.of("1 1 ", "2 6 x", "3 2 "), rows.subList(1, rows.size()).stream().map(row -> {
                    String[] values = row.split(",", -1);
                    return values[0] + " " + values[1] + " " + values[values.length - 1];
                }).toList(), what);
                assertTrue(r.out().contains("largest components (label: size): 2: 6, 3: 2, 1: 1\n"), what + ": "
                        + r.out());

                args.add("--json");
                JsonNode json = mapper.readTree(run(args.toArray(String[]::new)).out());
                assertEquals("[{\"label\":2,\"size\":6},{\"label\":3,\"size\":2},{\"label\":1,\"size\":1}]",
                        json.get("top").toString(), what);
                assertEquals("x", json.get("regions").get("rows").get(1).get("wraps").asText(), what);
            }
        }

        // graphs too: components {0..3}, {4}, {5, 6}
        Path graph = Files.writeString(dir.resolve("g.el"), "5 6\n0 1\n1 2\n2 3\n");
        Result r = run("label", graph.toString(), "--stats", "--regions", dir.resolve("g.csv").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("largest components (label: size): 1: 4, 3: 2, 2: 1\n"), r.out());
        // without --regions, the canonical labels that --out writes
        r = run("label", graph.toString(), "--stats");
        assertTrue(r.out().contains("largest components (label: size): 0: 4, 5: 2, 4: 1\n"), r.out());
    }

    @Test
    void errorsAreNamed() throws IOException {
        Path image = pgm("image.pgm", random(6, 3, 1, 0.5, false, 9));
        Path csv = dir.resolve("r.csv");
        Path missing = dir.resolve("missing.pgm");

        Result r = run("mesh", image.toString(), "--regions", csv.toString(), "--intensity", missing.toString());
        assertEquals(Main.INVALID_INPUT, r.code());
        assertTrue(r.err().contains("no such file: " + missing), r.err());

        Path small = pgm("small.pgm", random(5, 3, 1, 0.5, false, 10));
        r = run("mesh", image.toString(), "--regions", csv.toString(), "--intensity", small.toString());
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().contains("--intensity " + small + " is 5x3, the grid 6x3: they must have the same extents"),
                r.err());

        r = run("mesh", image.toString(), "--intensity", image.toString());
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().contains("--intensity gives the values that --regions sums; give --regions FILE"), r.err());
        r = run("mesh", image.toString(), "--regions", csv.toString(), "--top", "-1");
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().contains("--top must not be negative"), r.err());
        assertFalse(Files.exists(csv));

        r = run("mesh", image.toString(), "--regions", dir.resolve("no/such/dir.csv").toString());
        assertEquals(Main.OUTPUT_ERROR, r.code());
    }

    @Test
    void measuresComeInTheSpacingsUnits() throws IOException {
        // a 2 x 2 square at (1, 0) and a single cell at (4, 2), in 6 x 3
        Cells cells = new Cells(6, 3, 1, new int[] {0, 9, 9, 0, 0, 0, 0, 9, 9, 0, 0, 0, 0, 0, 0, 0, 9, 0});
        Path image = pgm("square.pgm", cells);
        for (String backend : BACKENDS) {
            Path csv = dir.resolve("square-" + backend + ".csv");
            Result r = run("mesh", image.toString(), "--regions", csv.toString(), "--spacing", "2,3",
                    "--backend", backend);
            assertEquals(0, r.code(), backend + ": " + r.err());
            List<String> lines = Files.readAllLines(csv);
            List<String> header = List.of(lines.get(0).split(","));
            assertEquals(3, lines.size(), backend + ": " + lines);
            String[] square = lines.get(1).split(",", -1);
            // area 4 cells of 2 x 3; offsets of +-1/2 cell: mu_xx = 4 (1/2 * 2)^2 = 4, mu_yy = 4 (3/2)^2 = 9;
            // faces: 4 normal to x of length 3 and 4 normal to y of length 2; anisotropic: no perimeter
            assertEquals("24.0", square[header.indexOf("area")], backend);
            assertEquals("4.0", square[header.indexOf("mu_xx")], backend);
            assertEquals("9.0", square[header.indexOf("mu_yy")], backend);
            assertEquals("0.0", square[header.indexOf("mu_xy")], backend);
            assertEquals("20.0", square[header.indexOf("surface_area")], backend);
            assertEquals("NaN", square[header.indexOf("perimeter")], backend);
            // 4 wide, 6 tall: tensor diag(mu_yy, mu_xx) / 4 = diag(9/4, 1), axis lengths 4 sqrt(9/4) = 6 and
            // 4, the major one along y: orientation 0
            assertEquals("6.0", square[header.indexOf("axis_major_length")], backend);
            assertEquals("4.0", square[header.indexOf("axis_minor_length")], backend);
            assertEquals("0.0", square[header.indexOf("orientation")], backend);
            assertEquals("NaN", square[header.indexOf("eigval_2")], backend);

            r = run("mesh", image.toString(), "--regions", csv.toString(), "--measure", "--backend", backend);
            assertEquals(0, r.code(), backend + ": " + r.err());
            String[] unit = Files.readAllLines(csv).get(1).split(",", -1);
            assertEquals("4.0", unit[header.indexOf("perimeter")], backend);  // 4 border cells, each of weight 1
        }
    }

    @Test
    void spacingErrorsAreNamed() throws IOException {
        Path image = pgm("image.pgm", random(6, 3, 1, 0.5, false, 9));
        Path csv = dir.resolve("r.csv");
        Result r = run("mesh", image.toString(), "--spacing", "1,2");
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().contains("--spacing gives the units of --regions' measures and --contacts' area"), r.err());
        r = run("mesh", image.toString(), "--regions", csv.toString(), "--spacing", "1,0");
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().contains("a spacing must be positive and finite"), r.err());
        r = run("mesh", image.toString(), "--regions", csv.toString(), "--spacing", "1,x");
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().contains("--spacing: x is not a number"), r.err());
        r = run("mesh", image.toString(), "--regions", csv.toString(), "--spacing", "1");
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().contains("--spacing takes DX,DY or DX,DY,DZ"), r.err());
        assertFalse(Files.exists(csv));
    }
}
