package org.ccl4j.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.ccl4j.Grid;
import org.ccl4j.io.grid.GridGenerators;
import org.ccl4j.io.grid.GridReader;
import org.ccl4j.io.grid.GridWriter;
import org.ccl4j.io.grid.LabelImageWriter;
import org.ccl4j.MeshLabels;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.MeshUnionFind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** {@code ccl4j mesh}: results against {@link MeshUnionFind}, written files, and every error exit. */
class MeshCommandTest {
    /**
     * The JSON object of the mesh command, keys in order; timingsMs holds total and then the phases,
     * memoryBytes what the labelling needed and what was available (-1: unknown).
     */
    private static final Pattern JSON = Pattern.compile("\\{\"width\":\\d+,\"height\":\\d+,\"depth\":\\d+,\"cells\":\\d+,"
            + "\"clusters\":\\d+,\"largestCluster\":\\d+,\"labelBytes\":[48],\"backend\":\"[a-z-]+\","
            + "\"algorithm\":\"[a-z-]+\",\"iterations\":\\d+,\"slabs\":\\d+,\"timingsMs\":\\{\"total\":[0-9.]+(,\"[A-Za-z0-9_-]+\":[0-9.]+)*},"
            + "\"memoryBytes\":\\{\"cells\":\\d+,\"labels\":\\d+,\"hostWorking\":\\d+,\"device\":\\d+,"
            + "\"hostAvailable\":-?\\d+,\"deviceAvailable\":-?\\d+}}");

    /** Each CPU algorithm with the backend that "auto" gives it, the default, and the Java one. */
    private static final List<List<String>> RUNS = List.of(
            List.of(),
            List.of("--algorithm", "cpu-raster"),
            List.of("--algorithm", "cpu-equivalence"),
            List.of("--algorithm", "cpu-parallel"),
            List.of("--algorithm", "cpu-parallel", "--backend", "cpu-serial"),
            List.of("--backend", "cpu", "--threads", "3"),
            List.of("--algorithm", "java"),
            List.of("--backend", "java"));

    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        return run(List.of(args));
    }

    private static Result run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static long field(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(json);
        assertTrue(m.find(), key + " missing from " + json);
        return Long.parseLong(m.group(1));
    }

    private static String text(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":\"([^\"]*)\"").matcher(json);
        assertTrue(m.find(), key + " missing from " + json);
        return m.group(1);
    }

    private static int[] readInts(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int[] v = new int[b.remaining() / Integer.BYTES];
        b.asIntBuffer().get(v);
        return v;
    }

    /** The backend that the command reports for a run of {@link #RUNS}. */
    private static String expectedBackend(List<String> run, String reported) {
        String joined = String.join(" ", run);
        if (joined.contains("java")) {
            return "java";
        }
        if (joined.contains("cpu-serial") || joined.contains("cpu-raster") || joined.contains("cpu-equivalence")) {
            return "cpu-serial";
        }
        if (joined.contains("cpu")) {
            return "cpu";
        }
        return reported.equals("cuda") ? "cuda" : "cpu";  // auto: CUDA where a device is present
    }

    /**
     * Runs {@code mesh} on {@code source} with {@code options} for every run of {@link #RUNS}, and checks
     * the JSON object and the raw labels against the Java union-find on {@code grid}.
     */
    private void checkAgainstOracle(List<String> source, List<String> options, Grid grid, MeshOptions oracleOptions)
            throws IOException {
        MeshLabels expected = MeshUnionFind.label(grid, oracleOptions);
        int[] expectedLabels = expected.toArray();
        for (List<String> runOptions : RUNS) {
            Path out = dir.resolve("labels.bin");
            List<String> args = concat(concat(concat(List.of("mesh"), source), options), runOptions);
            args = concat(args, List.of("--json", "--out", out.toString()));
            Result r = run(args);
            String what = String.join(" ", args);
            assertEquals(0, r.code(), what + ": " + r.err());
            String json = r.out().strip();
            assertTrue(JSON.matcher(json).matches(), what + ": " + json);
            assertEquals(grid.width(), field(json, "width"), what);
            assertEquals(grid.height(), field(json, "height"), what);
            assertEquals(grid.depth(), field(json, "depth"), what);
            assertEquals(grid.cellCount(), field(json, "cells"), what);
            assertEquals(expected.count(), field(json, "clusters"), what);
            assertEquals(expected.largestComponentSize(), field(json, "largestCluster"), what);
            String backend = text(json, "backend");
            assertEquals(expectedBackend(runOptions, backend), backend, what);
            String algorithm = text(json, "algorithm");
            if (runOptions.contains("--algorithm")) {
                assertEquals(runOptions.get(runOptions.indexOf("--algorithm") + 1), algorithm, what);
            }
            assertArrayEquals(expectedLabels, readInts(out), what);
        }
    }

    @Test
    void generatedFieldsMatchTheJavaUnionFind() throws IOException {
        record Case(String spec, List<String> options, MeshOptions oracle) {
        }
        MeshOptions d = MeshOptions.defaults();
        List<Case> cases = List.of(
                new Case("percolation:61x47:0.55:3", List.of(), d),
                new Case("percolation:61x47:0.55:3", List.of("--connectivity", "8"), d.withConnectivity(8)),
                new Case("percolation:61x47:0.45:4", List.of("--connectivity", "4", "--periodic"),
                        d.withConnectivity(4).withPeriodic(true)),
                new Case("percolation:61x47:0.45:4", List.of("--connectivity", "8", "--periodic-axes", "y"),
                        d.withConnectivity(8).withPeriodic(false, true, false)),
                new Case("percolation:13x11x9:0.3:5", List.of(), d),
                new Case("percolation:13x11x9:0.3:5", List.of("--connectivity", "6", "--periodic-axes", "zx"),
                        d.withConnectivity(6).withPeriodic(true, false, true)),
                new Case("percolation:13x11x9:0.12:6", List.of("--connectivity", "26", "--periodic"),
                        d.withConnectivity(26).withPeriodic(true)),
                new Case("alloy:40:3:9", List.of("--mode", "same-value"), d.withMode(MeshMode.SAME_VALUE)),
                new Case("alloy:40:3:9", List.of("--mode", "same-value", "--connectivity", "8", "--periodic"),
                        d.withMode(MeshMode.SAME_VALUE).withConnectivity(8).withPeriodic(true)),
                new Case("alloy:12x10x8:2:1", List.of("--mode", "same-value", "--connectivity", "26"),
                        d.withMode(MeshMode.SAME_VALUE).withConnectivity(26)),
                new Case("alloy:40:3:9", List.of("--mode", "foreground"), d),
                new Case("percolation:9x7:0:1", List.of(), d),
                new Case("percolation:9x7x3:1:1", List.of("--connectivity", "26"), d.withConnectivity(26)));
        try (Arena arena = Arena.ofConfined()) {
            for (Case c : cases) {
                Grid grid = GridGenerators.fromSpec(c.spec(), arena);
                checkAgainstOracle(List.of("--generate", c.spec()), c.options(), grid, c.oracle());
            }
        }
    }

    @Test
    void filesMatchTheJavaUnionFind() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            // a P5 greymap and a greyscale PNG of a percolation field
            Grid field = GridGenerators.fromSpec("percolation:57x43:0.6:11", arena);
            Path pgm = dir.resolve("field.pgm");
            Path png = dir.resolve("field.png");
            GridWriter.write(field, pgm);
            GridWriter.write(field, png);
            checkAgainstOracle(List.of(pgm.toString()), List.of("--connectivity", "8"), field,
                    MeshOptions.defaults().withConnectivity(8));
            checkAgainstOracle(List.of(png.toString(), "--format", "png"), List.of(), field, MeshOptions.defaults());

            // a raw int32 volume, negative values included, in same-value mode
            int w = 9;
            int h = 8;
            int depth = 7;
            int[] cells = new int[w * h * depth];
            java.util.Random random = new java.util.Random(5);
            for (int i = 0; i < cells.length; i++) {
                cells[i] = random.nextInt(3) * -100_000;
            }
            Grid volume = Grid.ofInts(arena, cells, w, h, depth);
            Path raw = dir.resolve("volume.raw");
            GridWriter.writeRaw(volume, raw);
            checkAgainstOracle(List.of(raw.toString(), "--dims", "9x8x7", "--type", "i32"),
                    List.of("--mode", "same-value", "--periodic-axes", "xz"), volume,
                    MeshOptions.defaults().withMode(MeshMode.SAME_VALUE).withPeriodic(true, false, true));
        }
    }

    @Test
    void aThresholdTurnsGreyValuesIntoAForeground() throws IOException {
        // P2, 4x3: values >= 128 form two clusters under 4-connectivity and one under 8
        Path pgm = dir.resolve("grey.pgm");
        Files.writeString(pgm, "P2\n# grey\n4 3\n255\n200 10 10 10\n10 130 10 10\n10 10 10 255\n");
        Result r = run("mesh", pgm.toString(), "--threshold", "128", "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(3, field(r.out(), "clusters"));
        r = run("mesh", pgm.toString(), "--threshold", "128", "--connectivity", "8", "--json");
        assertEquals(2, field(r.out(), "clusters"));
        assertEquals(2, field(r.out(), "largestCluster"));
        r = run("mesh", pgm.toString(), "--json");  // every cell non-zero: one cluster
        assertEquals(1, field(r.out(), "clusters"));
    }

    @Test
    void colourPngsAreLabelledByColourOrByLuminance() throws IOException {
        // red | green | red, side by side: three colours regions in rgb mode; red and green differ in
        // luminance too, so luminance also gives three same-value clusters
        BufferedImage image = new BufferedImage(6, 2, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 2; y++) {
            for (int x = 0; x < 6; x++) {
                image.setRGB(x, y, x / 2 == 1 ? 0x00FF00 : 0xFF0000);
            }
        }
        Path png = dir.resolve("colour.png");
        ImageIO.write(image, "png", png.toFile());
        Result r = run("mesh", png.toString(), "--color", "rgb", "--mode", "same-value", "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(3, field(r.out(), "clusters"));
        assertEquals(4, field(r.out(), "largestCluster"));
        r = run("mesh", png.toString(), "--mode", "same-value", "--json");
        assertEquals(3, field(r.out(), "clusters"));
    }

    @Test
    void theSpiralHasTwoClustersInSameValueMode() {
        for (String n : List.of("2", "9", "64", "101")) {
            for (String connectivity : List.of("4", "8")) {
                for (List<String> runOptions : RUNS) {
                    List<String> args = concat(List.of("mesh", "--generate", "spiral:" + n, "--mode", "same-value",
                            "--connectivity", connectivity, "--json"), runOptions);
                    Result r = run(args);
                    assertEquals(0, r.code(), args + ": " + r.err());
                    assertEquals(2, field(r.out(), "clusters"), args + ": " + r.out());
                }
            }
            Result r = run("mesh", "--generate", "spiral:" + n, "--json");
            assertEquals(1, field(r.out(), "clusters"), "foreground: every spiral cell is non-zero");
        }
    }

    @Test
    void theSummaryIsReadable() {
        Path picture = dir.resolve("spiral.png");
        Result r = run("mesh", "--generate", "spiral:33", "--mode", "same-value", "--png", picture.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("spiral:33: 33x33 u8 grid, 1089 cells\n"), r.out());
        assertTrue(r.out().contains("clusters: 2, largest: "), r.out());
        assertTrue(r.out().contains("(same-value, connectivity 4, open)"), r.out());
        assertTrue(r.out().contains("backend: "), r.out());
        assertTrue(r.out().contains("picture: " + picture), r.out());

        r = run("mesh", "--generate", "percolation:8x8x12:0.3:1", "--periodic-axes", "xz", "--png",
                dir.resolve("v.png").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("connectivity 6, periodic xz)"), r.out());
        assertTrue(r.out().contains("pictures: " + dir.resolve("v-z00.png") + " ... " + dir.resolve("v-z11.png")
                + " (12 slices)"), r.out());
    }

    @Test
    void labelPicturesColourEveryClusterAndSliceVolumes() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            for (String spec : List.of("percolation:37x29:0.55:2", "percolation:11x9x5:0.35:3")) {
                Grid grid = GridGenerators.fromSpec(spec, arena);
                int[] labels = MeshUnionFind.label(grid, MeshOptions.defaults()).toArray();
                Path png = dir.resolve((grid.is3d() ? "volume" : "image") + ".png");
                Path out = dir.resolve("labels.bin");
                Result r = run("mesh", "--generate", spec, "--png", png.toString(), "--out", out.toString(), "--json");
                assertEquals(0, r.code(), r.err());
                assertArrayEquals(labels, readInts(out), spec);
                int w = grid.width();
                int h = grid.height();
                for (int z = 0; z < grid.depth(); z++) {
                    Path slice = grid.is3d() ? LabelImageWriter.slicePath(png, z, grid.depth()) : png;
                    BufferedImage image = ImageIO.read(slice.toFile());
                    assertEquals(w, image.getWidth(), slice.toString());
                    assertEquals(h, image.getHeight(), slice.toString());
                    for (int y = 0; y < h; y++) {
                        for (int x = 0; x < w; x++) {
                            int label = labels[x + w * (y + h * z)];
                            assertEquals(LabelImageWriter.color(label), image.getRGB(x, y) & 0xFFFFFF,
                                    slice + " (" + x + "," + y + ")");
                        }
                    }
                }
                if (grid.is3d()) {
                    assertFalse(Files.exists(png), "a volume gives slices only");
                }
            }
        }
    }

    @Test
    void generatedFieldsAreSaved() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            for (String[] c : new String[][] {{"alloy:24:2:4", "alloy.pgm"}, {"spiral:17", "spiral.png"},
                    {"percolation:7x6x5:0.5:8", "volume.raw"}}) {
                Grid expected = GridGenerators.fromSpec(c[0], arena);
                Path saved = dir.resolve(c[1]);
                Result r = run("mesh", "--generate", c[0], "--save", saved.toString(), "--json");
                assertEquals(0, r.code(), r.err());
                Grid back = c[1].endsWith(".raw")
                        ? GridReader.read(saved, org.ccl4j.io.grid.GridReadOptions.defaults()
                                .withDims(org.ccl4j.GridDims.of(expected)), arena)
                        : GridReader.read(saved, arena);
                assertEquals(expected.cellCount(), back.cellCount(), c[0]);
                for (int i = 0; i < expected.cellCount(); i++) {
                    assertEquals(expected.get(i), back.get(i), c[0] + " cell " + i);
                }
                // the saved file labels as the generated field did
                List<String> read = new ArrayList<>(List.of("mesh", saved.toString(), "--json"));
                if (c[1].endsWith(".raw")) {
                    read.addAll(List.of("--dims", "7x6x5"));
                }
                Result again = run(read);
                assertEquals(0, again.code(), again.err());
                assertEquals(field(r.out(), "clusters"), field(again.out(), "clusters"), c[0]);
            }
        }
    }

    /** A dense copy of a region of {@code grid}, cell by cell. */
    private static Grid copyOfRegion(Arena arena, Grid grid, int x0, int y0, int z0, int w, int h, int d) {
        Grid copy = Grid.allocate(arena, grid.type(), w, h, d);
        for (int z = 0; z < d; z++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    copy.set(x, y, z, grid.get(x0 + x, y0 + y, z0 + z));
                }
            }
        }
        return copy;
    }

    @Test
    void aRegionIsLabelledAsADenseCopyOfItsCells() throws IOException {
        record Case(List<String> source, String region, List<String> options, MeshOptions oracle, int[] box) {
        }
        MeshOptions d = MeshOptions.defaults();
        try (Arena arena = Arena.ofConfined()) {
            Grid image = GridGenerators.fromSpec("percolation:61x47:0.55:3", arena);
            Grid volume = GridGenerators.fromSpec("percolation:13x11x9:0.3:5", arena);
            Path raw = dir.resolve("volume.raw");
            GridWriter.writeRaw(volume, raw);
            List<String> generated = List.of("--generate", "percolation:61x47:0.55:3");
            List<String> file = List.of(raw.toString(), "--dims", "13x11x9");
            List<Case> cases = List.of(
                    new Case(generated, "5,7:30x20", List.of(), d, new int[] {5, 7, 0, 30, 20, 1}),
                    new Case(generated, "5,7:30x20", List.of("--connectivity", "8", "--periodic"),
                            d.withConnectivity(8).withPeriodic(true), new int[] {5, 7, 0, 30, 20, 1}),
                    new Case(generated, "0,0:61x47", List.of(), d, new int[] {0, 0, 0, 61, 47, 1}),
                    new Case(generated, "60,46:1x1", List.of(), d, new int[] {60, 46, 0, 1, 1, 1}),
                    new Case(file, "2,1,3:8x9x4", List.of("--connectivity", "26", "--periodic"),
                            d.withConnectivity(26).withPeriodic(true), new int[] {2, 1, 3, 8, 9, 4}),
                    new Case(file, "0,2,4:13x7", List.of("--periodic-axes", "x"), d.withPeriodic(true, false, false),
                            new int[] {0, 2, 4, 13, 7, 1}));
            for (Case c : cases) {
                Grid whole = c.source() == generated ? image : volume;
                int[] b = c.box();
                Grid copy = copyOfRegion(arena, whole, b[0], b[1], b[2], b[3], b[4], b[5]);
                int[] expected = MeshUnionFind.label(copy, c.oracle()).toArray();
                for (List<String> runOptions : RUNS) {
                    Path out = dir.resolve("labels.bin");
                    List<String> args = concat(concat(concat(List.of("mesh"), c.source()), c.options()), runOptions);
                    args = concat(args, List.of("--region", c.region(), "--json", "--out", out.toString()));
                    Result r = run(args);
                    String what = String.join(" ", args);
                    assertEquals(0, r.code(), what + ": " + r.err());
                    String json = r.out().strip();
                    assertEquals(b[3], field(json, "width"), what);
                    assertEquals(b[4], field(json, "height"), what);
                    assertEquals(b[5], field(json, "depth"), what);
                    assertEquals(c.region(), text(json, "region"), what);
                    assertArrayEquals(expected, readInts(out), what);
                }
            }
            Result r = run("mesh", "--generate", "percolation:61x47:0.55:3", "--region", "5,7:30x20");
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().startsWith("percolation:61x47:0.55:3 region 5,7:30x20: 30x20 u8 grid, 600 cells"),
                    r.out());
            // --save writes the region
            Path saved = dir.resolve("region.raw");
            r = run("mesh", "--generate", "percolation:61x47:0.55:3", "--region", "5,7:30x20", "--save", saved.toString());
            assertEquals(0, r.code(), r.err());
            Path copied = dir.resolve("copy.raw");
            GridWriter.writeRaw(copyOfRegion(arena, image, 5, 7, 0, 30, 20, 1), copied);
            assertArrayEquals(Files.readAllBytes(copied), Files.readAllBytes(saved));
        }
    }

    @Test
    void badRegionsAreUsageErrors() {
        String image = "percolation:20x10:0.5:1";
        String volume = "percolation:6x5x4:0.5:1";
        String[][] cases = {
                {image, "3,4", "expected X,Y:WxH or X,Y,Z:WxHxD"},
                {image, "3:5x5", "the corner needs 2 or 3 coordinates"},
                {image, "1,2,3,4:5x5", "the corner needs 2 or 3 coordinates"},
                {image, "a,2:5x5", "'a' is not an integer"},
                {image, "1,2:5", "bad --region '1,2:5'"},
                {image, "1,2:0x5", "bad --region '1,2:0x5'"},
                {image, "16,0:5x5", "x 16..20 is outside 0..19"},
                {image, "0,-1:5x5", "y -1..3 is outside 0..9"},
                {image, "0,0,1:5x5", "z 1..1 is outside 0..0"},
                {volume, "0,0:3x3", "is 2D, the grid 6x5x4 is 3D: give X,Y,Z:WxHxD"},
                {volume, "0,0,2:3x3x3", "z 2..4 is outside 0..3"},
        };
        for (String[] c : cases) {
            Result r = run("mesh", "--generate", c[0], "--region", c[1]);
            String what = c[0] + " --region " + c[1];
            assertEquals(2, r.code(), what + ": " + r.err());
            assertTrue(r.err().startsWith("ccl4j: ") && r.err().contains(c[2]), what + ": " + r.err());
        }
    }

    @Test
    void usageErrorsExitWithTwo() throws IOException {
        Path pgm = dir.resolve("small.pgm");
        Files.writeString(pgm, "P2\n2 2\n1\n1 0\n0 1\n");
        Path raw = dir.resolve("cells.raw");
        Files.write(raw, new byte[8]);
        String f = pgm.toString();
        String[][] cases = {
                {"mesh"},
                {"mesh", f, f},
                {"mesh", f, "--generate", "spiral:5"},
                {"mesh", "--generate", "spiral:5", "--format", "pgm"},
                {"mesh", "--generate", "spiral:5", "--dims", "5x5"},
                {"mesh", "--generate", "spiral:5", "--type", "i32"},
                {"mesh", "--generate", "spiral:5", "--threshold", "1"},
                {"mesh", "--generate", "spiral:5", "--color", "rgb"},
                {"mesh", "--generate", "bogus:3"},
                {"mesh", "--generate", "spiral:x"},
                {"mesh", "--generate", "spiral:0"},
                {"mesh", "--generate", "percolation:10x10:2:1"},
                {"mesh", "--generate", "percolation:10x10:0.5"},
                {"mesh", "--generate", "alloy:10:-1:1"},
                {"mesh", "--generate"},
                {"mesh", f, "--format", "jpeg"},
                {"mesh", f, "--dims", "10"},
                {"mesh", f, "--dims", "0x5"},
                {"mesh", f, "--type", "u4"},
                {"mesh", f, "--color", "cmyk"},
                {"mesh", f, "--threshold", "high"},
                {"mesh", f, "--threshold", "5", "--color", "rgb"},
                {"mesh", f, "--mode", "sideways"},
                {"mesh", f, "--connectivity", "5"},
                {"mesh", f, "--connectivity", "four"},
                {"mesh", "--generate", "percolation:4x4x4:0.5:1", "--connectivity", "8"},
                {"mesh", "--generate", "percolation:4x4x4:0.5:1", "--connectivity", "4"},
                {"mesh", f, "--periodic", "--periodic-axes", "x"},
                {"mesh", f, "--periodic-axes", "xw"},
                {"mesh", f, "--periodic-axes", "xx"},
                {"mesh", f, "--periodic-axes", ""},
                {"mesh", f, "--periodic=yes"},
                {"mesh", f, "--backend", "quantum"},
                {"mesh", f, "--algorithm", "magic"},
                {"mesh", f, "--algorithm", "neighbor", "--backend", "cpu"},
                {"mesh", f, "--algorithm", "cpu-raster", "--backend", "java"},
                {"mesh", f, "--device", "-1"},
                {"mesh", f, "--threads", "-2"},
                {"mesh", f, "--threads", "many"},
                {"mesh", f, "--device"},
                {"mesh", f, "--bogus"},
                {"mesh", raw.toString()},
        };
        for (String[] c : cases) {
            Result r = run(c);
            assertEquals(2, r.code(), String.join(" ", c) + ": " + r.err());
            assertTrue(r.err().startsWith("ccl4j: "), String.join(" ", c) + ": " + r.err());
        }
        Result r = run("mesh", "--generate", "percolation:4x4x4:0.5:1", "--connectivity", "8");
        assertTrue(r.err().contains("usage: ccl4j"), r.err());
        assertTrue(r.err().contains("--connectivity 8 does not fit the 3D grid 4x4x4: use 6, 18 or 26"), r.err());
        assertEquals(0, run("mesh", f, "--connectivity", "26").code(), "a single layer takes 26, as 8");
        r = run("mesh", raw.toString());
        assertTrue(r.err().contains("cells.raw") && r.err().contains("--dims"), r.err());
        r = run("mesh", "--generate", "spiral:5", "--dims", "5x5");
        assertTrue(r.err().contains("--dims applies to files"), r.err());
        r = run("mesh", f, "--algorithm", "neighbor", "--backend", "cpu-serial");
        assertTrue(r.err().contains("--algorithm neighbor does not run on the cpu-serial backend"), r.err());
        r = run("mesh", f, "--periodic-axes", "xw");
        assertTrue(r.err().contains("'xw'"), r.err());
    }

    @Test
    void badFilesExitWithThreeAndNameTheFileAndPlace() throws IOException {
        Path truncated = dir.resolve("short.pgm");
        Files.write(truncated, "P5\n4 4\n255\n\1\1\1".getBytes(StandardCharsets.US_ASCII));
        Result r = run("mesh", truncated.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("short.pgm") && r.err().contains("at byte"), r.err());

        Path badHeader = dir.resolve("header.pgm");
        Files.writeString(badHeader, "P2\n3 x\n255\n");
        r = run("mesh", badHeader.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("header.pgm:2:"), r.err());

        Path raw = dir.resolve("cells.raw");
        Files.write(raw, new byte[10]);
        r = run("mesh", raw.toString(), "--dims", "3x3");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("cells.raw") && r.err().contains("at byte 9"), r.err());
        r = run("mesh", raw.toString(), "--dims", "2x5", "--type", "i32");
        assertEquals(3, r.code(), r.err());

        Path notPng = dir.resolve("fake.png");
        Files.writeString(notPng, "hello");
        r = run("mesh", notPng.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("fake.png"), r.err());

        r = run("mesh", dir.resolve("missing.pgm").toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("missing.pgm"), r.err());
    }

    private static long[] readLongs(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        long[] v = new long[b.remaining() / Long.BYTES];
        b.asLongBuffer().get(v);
        return v;
    }

    /**
     * --int64-labels gives the labels a grid past 2^31 cells gets: the same clusters, --out as
     * little-endian int64, the same pictures, on every backend.
     */
    @Test
    void int64LabelsAreTheInt32LabelsWidened() throws IOException {
        String spec = "percolation:37x23x6:0.3:5";
        for (List<String> runOptions : RUNS) {
            if (runOptions.contains("cpu-raster") || runOptions.contains("cpu-equivalence")) {
                continue;  // they write int32 labels only: refused below
            }
            List<String> common = concat(List.of("mesh", "--generate", spec, "--connectivity", "26", "--json"), runOptions);
            Result narrow = run(concat(common, List.of("--out", dir.resolve("n.bin").toString(), "--png",
                    dir.resolve("n.png").toString())));
            Result wide = run(concat(common, List.of("--int64-labels", "--out", dir.resolve("w.bin").toString(), "--png",
                    dir.resolve("w.png").toString())));
            String what = String.join(" ", runOptions);
            assertEquals(0, narrow.code(), what + ": " + narrow.err());
            assertEquals(0, wide.code(), what + ": " + wide.err());
            assertTrue(JSON.matcher(wide.out().strip()).matches(), what + ": " + wide.out());
            assertEquals(4, field(narrow.out(), "labelBytes"), what);
            assertEquals(8, field(wide.out(), "labelBytes"), what);
            assertEquals(37L * 23 * 6 * 8, field(wide.out(), "labels"), what + ": memory of the labels");
            assertEquals(field(narrow.out(), "clusters"), field(wide.out(), "clusters"), what);
            assertEquals(field(narrow.out(), "largestCluster"), field(wide.out(), "largestCluster"), what);
            int[] ints = readInts(dir.resolve("n.bin"));
            long[] longs = readLongs(dir.resolve("w.bin"));
            assertEquals(ints.length, longs.length, what);
            for (int i = 0; i < ints.length; i++) {
                assertEquals(ints[i], longs[i], what + ": label of cell " + i);
            }
            for (int z = 0; z < 6; z++) {
                BufferedImage a = ImageIO.read(LabelImageWriter.slicePath(dir.resolve("n.png"), z, 6).toFile());
                BufferedImage b = ImageIO.read(LabelImageWriter.slicePath(dir.resolve("w.png"), z, 6).toFile());
                for (int y = 0; y < 23; y++) {
                    for (int x = 0; x < 37; x++) {
                        assertEquals(a.getRGB(x, y), b.getRGB(x, y), what + ": pixel " + x + "," + y + " of slice " + z);
                    }
                }
            }
        }
    }

    @Test
    void int64LabelsHaveTheBookkeepingOfInt32Ones() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        for (String spec : List.of("percolation:61x47:0.55:1", "percolation:13x11x9:0.3:2")) {
            for (String backend : List.of("cpu", "cpu-serial", "java")) {
                Path narrowFile = dir.resolve("narrow.out");
                Path wideFile = dir.resolve("wide.out");
                List<String> common = List.of("mesh", "--generate", spec, "--backend", backend, "--stats", "--top", "4",
                        "--json", "--compact");
                Result narrow = run(concat(common, List.of("--out", narrowFile.toString())));
                Result wide = run(concat(common, List.of("--out", wideFile.toString(), "--int64-labels")));
                String what = spec + " on " + backend;
                assertEquals(0, narrow.code(), what + ": " + narrow.err());
                assertEquals(0, wide.code(), what + ": " + wide.err());
                JsonNode a = mapper.readTree(narrow.out());
                JsonNode b = mapper.readTree(wide.out());
                assertEquals(8, b.get("labelBytes").asInt(), what);
                for (String field : List.of("clusters", "largestCluster", "sizes", "histogram", "top")) {
                    assertEquals(a.get(field), b.get(field), what + ": " + field);
                }
                // --compact: the int32 file's labels, as int64
                ByteBuffer ints = ByteBuffer.wrap(Files.readAllBytes(narrowFile)).order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer longs = ByteBuffer.wrap(Files.readAllBytes(wideFile)).order(ByteOrder.LITTLE_ENDIAN);
                assertEquals(2L * ints.capacity(), longs.capacity(), what);
                for (int i = 0; i < ints.capacity() / Integer.BYTES; i++) {
                    assertEquals(ints.getInt(i * Integer.BYTES), longs.getLong(i * Long.BYTES), what + ": cell " + i);
                }
            }
        }
        Result r = run("mesh", "--generate", "percolation:20x20:0.5:1", "--int64-labels", "--algorithm", "cpu-raster");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("int64 labels") && r.err().contains("not by CPU_RASTER"), r.err());
    }

    @Test
    void theTextReportNamesTheMemory() {
        Result r = run("mesh", "--generate", "percolation:64x64x64:0.3:1", "--int64-labels", "--backend", "cpu");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("memory: labels 2.1 MB (int64), host working memory 0 bytes; available: host "),
                r.out());
    }

    @Test
    void aGridTooLargeForTheHostIsRefusedBeforeItIsAllocated() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/meminfo")),
                "no MemAvailable here: nothing is checked");
        Result r = run("mesh", "--generate", "percolation:8192x8192x8192:0.3:1", "--json");
        assertEquals(6, r.code(), r.err());
        assertTrue(r.out().contains("--generate 'percolation:8192x8192x8192:0.3:1': the 8192x8192x8192 field needs"
                + " 512.0 GiB for its cells and 4096.0 GiB for int64 labels of 549755813888 cells, more than the "),
                r.out());
    }

    /**
     * A field whose cells fit but whose labels do not is refused before it is generated (a field of
     * billions of cells takes minutes), naming the sizes and what the host has: the labelling's own
     * check would come only after the generation.
     */
    @Test
    void aFieldWhoseLabelsCannotFitIsRefusedBeforeItIsGenerated() throws IOException {
        long available = memAvailable();
        org.junit.jupiter.api.Assumptions.assumeTrue(available > 0, "no MemAvailable here: nothing is checked");
        // a quarter of the memory in cells and twice as much in int64 labels
        int width = 1 << 16;
        long height = Math.max(1, available / 4 / width);
        String spec = "percolation:" + width + "x" + height + ":0.5:1";
        long cells = width * height;
        long started = System.nanoTime();
        Result r = run("mesh", "--generate", spec, "--int64-labels", "--backend", "cpu");
        assertEquals(Main.OUT_OF_MEMORY, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: out of memory (native): --generate '" + spec + "': the " + width + "x"
                + height + " field needs " + HeapLimit.size(cells) + " for its cells and " + HeapLimit.size(8 * cells)
                + " for int64 labels of " + cells + " cells, more than the "), r.err());
        assertTrue(r.err().contains(" the host has available\n"), r.err());
        assertTrue(System.nanoTime() - started < 20_000_000_000L, "refused at once, not after generating");
    }

    /**
     * A field of more than 2^31-1 cells needs int64 labels: an algorithm that does not write them is
     * refused before the field is generated, naming the option.
     */
    @Test
    void aFieldPastInt32LabelsWithAnAlgorithmWithoutInt64LabelsIsRefusedBeforeItIsGenerated() {
        Result r = run("mesh", "--generate", "percolation:46341x46341:0.5:1", "--algorithm", "cpu-raster");
        assertEquals(Main.USAGE, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: --generate 'percolation:46341x46341:0.5:1': 2147488281 cells to label"
                + " need int64 labels (int32 labels number 2147483647), which --algorithm cpu-raster does not write;"
                + " --algorithm auto picks one that does\n"), r.err());
    }

    /** Linux's MemAvailable in bytes, or -1. */
    private static long memAvailable() throws IOException {
        Path meminfo = Path.of("/proc/meminfo");
        if (!Files.isReadable(meminfo)) {
            return -1;
        }
        return Files.readAllLines(meminfo).stream().filter(line -> line.startsWith("MemAvailable:"))
                .mapToLong(line -> Long.parseLong(line.split("\\s+")[1]) * 1024).findFirst().orElse(-1);
    }

    @Test
    void cudaWithoutADeviceExitsWithFour() {
        Result info = run("info", "--json");
        assertEquals(0, info.code());
        if (info.out().contains("\"devices\":[{")) {
            System.out.println("NOTICE: a CUDA device is present - exit code 4 of mesh is not exercised");
            return;
        }
        Result r = run("mesh", "--generate", "spiral:8", "--backend", "cuda");
        assertEquals(4, r.code(), r.err());
        assertTrue(r.err().contains("unavailable"), r.err());
    }

    /**
     * A memory budget of a few planes labels a raw volume in slabs (the file mapped, not read): the
     * labels, the regions and the summary's counts are those of the whole volume, periodic axes included.
     */
    @Test
    void aMemoryBudgetLabelsInSlabsWhatTheWholeGridGets() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GridWriter.writeRaw(GridGenerators.fromSpec("percolation:40x30x24:0.35:3", arena), dir.resolve("v.raw"));
        }
        for (List<String> boundaries : List.of(List.<String>of(), List.of("--periodic"))) {
            List<String> common = new ArrayList<>(List.of("mesh", dir.resolve("v.raw").toString(), "--dims", "40x30x24",
                    "--connectivity", "26", "--json"));
            common.addAll(boundaries);
            List<String> whole = new ArrayList<>(common);
            whole.addAll(List.of("--out", dir.resolve("whole.raw").toString(), "--regions",
                    dir.resolve("whole.csv").toString()));
            List<String> slabbed = new ArrayList<>(common);
            // a slab's host memory: 12 bytes a cell, 1200 cells a plane: 2 planes (28800 bytes) in 29 KiB
            slabbed.addAll(List.of("--out", dir.resolve("slabs.raw").toString(), "--regions",
                    dir.resolve("slabs.csv").toString(), "--memory-budget", "29K"));
            Result a = run(whole);
            Result b = run(slabbed);
            assertEquals(Main.OK, a.code(), a.err());
            assertEquals(Main.OK, b.code(), b.err());
            JsonNode wholeJson = new ObjectMapper().readTree(a.out());
            JsonNode slabJson = new ObjectMapper().readTree(b.out());
            assertEquals(1, wholeJson.get("slabs").asInt());
            assertEquals(12, slabJson.get("slabs").asInt(), b.out());
            // the slabs' progress: both passes over the 12 slabs, and none for the whole grid
            assertTrue(b.err().contains("mesh: 24/24 (100%) in "), b.err());
            assertFalse(a.err().contains("mesh: "), a.err());
            assertEquals(wholeJson.get("clusters"), slabJson.get("clusters"));
            assertEquals(wholeJson.get("largestCluster"), slabJson.get("largestCluster"));
            assertArrayEquals(Files.readAllBytes(dir.resolve("whole.raw")), Files.readAllBytes(dir.resolve("slabs.raw")),
                    "labels " + boundaries);
            assertEquals(Files.readString(dir.resolve("whole.csv")), Files.readString(dir.resolve("slabs.csv")),
                    "regions " + boundaries);
        }
    }

    /** --numbering raster writes 1..k in raster order and 0 for background: the canonical labels renumbered. */
    @Test
    void rasterNumberingWritesOneToKInRasterOrder() throws IOException {
        Path canonical = dir.resolve("canonical.raw");
        Path raster = dir.resolve("raster.raw");
        String field = "percolation:37x29:0.55:8";
        assertEquals(Main.OK, run("mesh", "--generate", field, "--out", canonical.toString()).code());
        Result r = run("mesh", "--generate", field, "--out", raster.toString(), "--numbering", "raster",
                "--memory-budget", "1K");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().contains(" slabs, "), r.out());
        IntBuffer c = ByteBuffer.wrap(Files.readAllBytes(canonical)).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        IntBuffer n = ByteBuffer.wrap(Files.readAllBytes(raster)).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        assertEquals(37 * 29, n.remaining());
        java.util.Map<Integer, Integer> numbers = new java.util.HashMap<>();
        for (int i = 0; i < c.remaining(); i++) {
            int expected = c.get(i) < 0 ? 0 : numbers.computeIfAbsent(c.get(i), k -> numbers.size() + 1);
            assertEquals(expected, n.get(i), "cell " + i);
        }
        assertTrue(numbers.size() > 10, numbers.size() + " clusters");
    }

    @Test
    void slabAndNumberingOptionsAreCheckedBeforeAnyWork() {
        String field = "percolation:20x20:0.5:1";
        Result noOut = run("mesh", "--generate", field, "--numbering", "raster");
        assertEquals(Main.USAGE, noOut.code());
        assertTrue(noOut.err().startsWith("ccl4j: --numbering numbers the labels that --out writes; give --out FILE\n"),
                noOut.err());
        Result both = run("mesh", "--generate", field, "--numbering", "raster", "--compact", "--out",
                dir.resolve("x.raw").toString());
        assertEquals(Main.USAGE, both.code());
        assertTrue(both.err().contains("--compact and --numbering raster both renumber"), both.err());
        Result size = run("mesh", "--generate", field, "--memory-budget", "12Q");
        assertEquals(Main.USAGE, size.code());
        assertTrue(size.err().contains("'12Q' is not a size: expected bytes, or a number with K, M, G or T"), size.err());
        Result tiny = run("mesh", "--generate", "percolation:300x200:0.5:1", "--memory-budget", "100");
        assertEquals(6, tiny.code(), tiny.err());
        // device memory on CUDA, host memory elsewhere
        assertTrue(tiny.err().contains("in slabs of one plane (300 cells) needs ")
                        && tiny.err().contains("the memory budget is 100 bytes"),
                tiny.err());
        assertEquals(List.of(), List.of(dir.toFile().list()), "nothing written");
    }
}
