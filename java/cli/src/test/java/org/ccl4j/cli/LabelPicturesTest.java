package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import javax.imageio.ImageIO;

import org.ccl4j.Grid;
import org.ccl4j.MeshOptions;
import org.ccl4j.MeshUnionFind;
import org.ccl4j.cli.CliTestSupport.Result;
import org.ccl4j.io.grid.GridGenerators;
import org.ccl4j.io.grid.LabelImageWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mesh --png --montage} and {@code mesh --projection}: every pixel against the labels of the
 * oracle ({@link MeshUnionFind}) laid out, projected and coloured here, and the errors.
 */
class LabelPicturesTest {
    private static final int GAP_RGB = 0x404040;

    @TempDir
    Path dir;

    /** Checks the montage of {@code slices} of the labels of a {@code w x h} volume, tiles row by row. */
    private static void checkMontage(BufferedImage image, int[] labels, int w, int h, int[] slices, String what) {
        int columns = (int) Math.ceil(Math.sqrt(slices.length));
        int rows = (slices.length + columns - 1) / columns;
        int gap = LabelPictures.GAP;
        assertEquals(columns * w + (columns - 1) * gap, image.getWidth(), what + ": width");
        assertEquals(rows * h + (rows - 1) * gap, image.getHeight(), what + ": height");
        for (int py = 0; py < image.getHeight(); py++) {
            for (int px = 0; px < image.getWidth(); px++) {
                int column = px / (w + gap);
                int row = py / (h + gap);
                int x = px % (w + gap);
                int y = py % (h + gap);
                int tile = row * columns + column;
                int expected = x >= w || y >= h || tile >= slices.length ? GAP_RGB
                        : LabelImageWriter.color(labels[x + w * (y + h * slices[tile])]);
                assertEquals(expected, image.getRGB(px, py) & 0xFFFFFF, what + " (" + px + "," + py + ")");
            }
        }
    }

    @Test
    void aMontageLaysOutTheChosenSlices() throws IOException {
        String spec = "percolation:11x9x5:0.35:3";
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = GridGenerators.fromSpec(spec, arena);
            int[] labels = MeshUnionFind.label(grid, MeshOptions.defaults()).toArray();
            Object[][] cases = {{null, new int[] {0, 1, 2, 3, 4}}, {"1:5:2", new int[] {1, 3}},
                {"4,0,2", new int[] {4, 0, 2}}, {"2:3", new int[] {2}}};
            for (Object[] c : cases) {
                Path png = dir.resolve("montage.png");
                Result r = c[0] == null ? run("mesh", "--generate", spec, "--png", png.toString(), "--montage")
                        : run("mesh", "--generate", spec, "--png", png.toString(), "--montage", (String) c[0]);
                assertEquals(0, r.code(), r.err());
                assertTrue(r.out().contains("picture: " + png), r.out());
                assertFalse(Files.exists(LabelImageWriter.slicePath(png, 0, 5)), "one picture, no slices");
                checkMontage(ImageIO.read(png.toFile()), labels, 11, 9, (int[]) c[1], spec + " " + c[0]);
            }
        }
    }

    @Test
    void theDefaultMontageSpreadsSixteenSlicesFromFirstToLast() {
        assertEquals(List.of(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30),
                java.util.Arrays.stream(LabelPictures.slices("", 31)).boxed().toList());
        assertEquals(List.of(0, 1, 2), java.util.Arrays.stream(LabelPictures.slices(" ", 3)).boxed().toList());
    }

    @Test
    void theProjectionTintsTheMaximumsCellWithItsCluster() throws IOException {
        int w = 13;
        int h = 8;
        int d = 6;
        Random random = new Random(4);
        byte[] cells = new byte[w * h * d];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = (byte) (random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(250));
        }
        Path raw = Files.write(dir.resolve("grey.raw"), cells);
        Path png = dir.resolve("mip.png");
        Result r = run("mesh", raw.toString(), "--dims", w + "x" + h + "x" + d, "--connectivity", "26", "--projection",
                png.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("projection: " + png), r.out());
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.ofBytes(arena, cells, w, h, d);
            int[] labels = MeshUnionFind.label(grid, MeshOptions.defaults().withConnectivity(26)).toArray();
            int[] maximum = new int[w * h];
            int[] label = new int[w * h];
            for (int i = 0; i < w * h; i++) {
                maximum[i] = -1;
                for (int z = 0; z < d; z++) {
                    int v = Byte.toUnsignedInt(cells[i + w * h * z]);
                    if (v > maximum[i]) {
                        maximum[i] = v;
                        label[i] = labels[i + w * h * z];
                    }
                }
            }
            int low = java.util.Arrays.stream(maximum).min().orElseThrow();
            int high = java.util.Arrays.stream(maximum).max().orElseThrow();
            BufferedImage image = ImageIO.read(png.toFile());
            assertEquals(w, image.getWidth());
            assertEquals(h, image.getHeight());
            boolean tinted = false;
            for (int i = 0; i < w * h; i++) {
                int grey = (maximum[i] - low) * 255 / (high - low);
                int expected = grey << 16 | grey << 8 | grey;
                if (label[i] >= 0) {
                    int colour = LabelImageWriter.color(label[i]);
                    expected = 0;
                    for (int shift = 0; shift <= 16; shift += 8) {
                        expected |= (((grey + (colour >>> shift & 0xFF)) / 2) << shift);
                    }
                    tinted = true;
                }
                assertEquals(expected, image.getRGB(i % w, i / w) & 0xFFFFFF, "pixel " + i);
            }
            assertTrue(tinted, "clusters show in the projection");
        }
    }

    @Test
    void errorsAreNamed() throws IOException {
        Path raw = Files.write(dir.resolve("v.raw"), new byte[2 * 2 * 3]);
        Path png = dir.resolve("p.png");
        String[][] cases = {
            {"--montage"},
            {"--png", png.toString(), "--montage", "0:9"},
            {"--png", png.toString(), "--montage", "2:1"},
            {"--png", png.toString(), "--montage", "a,b"},
            {"--projection", png.toString(), "--out", dir.resolve("l.npy").toString(), "--numbering", "raster"},
        };
        String[] messages = {"--montage lays out the slices of --png", "slice 3 is outside 0..2",
            "END must exceed FIRST", "of whole numbers", "--projection colours the canonical labels"};
        for (int c = 0; c < cases.length; c++) {
            List<String> args = new java.util.ArrayList<>(List.of("mesh", raw.toString(), "--dims", "2x2x3"));
            args.addAll(List.of(cases[c]));
            Result r = run(args.toArray(String[]::new));
            assertEquals(2, r.code(), args + ": " + r.out());
            assertTrue(r.err().contains(messages[c]), args + ": " + r.err());
            assertFalse(Files.exists(png), args + ": nothing written");
        }
    }
}
