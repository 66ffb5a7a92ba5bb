package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.testing.MeshTestSupport;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Write then read: every writer against the readers, and against javax.imageio as a second tool. */
class GridWriterTest {
    @TempDir
    Path dir;

    private static Grid randomGrid(Arena arena, Grid.CellType type, int w, int h, int d, int bound, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Grid g = Grid.allocate(arena, type, w, h, d);
        for (int i = 0; i < g.cellCount(); i++) {
            g.set(i, random.nextInt(bound));
        }
        return g;
    }

    private static void assertSameCells(Grid expected, Grid actual) {
        assertEquals(expected.cellCount(), actual.cellCount(), "cell count");
        assertArrayEquals(MeshTestSupport.values(expected), MeshTestSupport.values(actual));
    }

    @Test
    void eightBitGridsRoundTripThroughEveryFormat() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = randomGrid(arena, Grid.CellType.U8, 37, 23, 1, 256, 1);
            Path p5 = dir.resolve("g.pgm");
            GridWriter.writePgm(g, p5);
            assertTrue(Files.readString(p5, StandardCharsets.ISO_8859_1).startsWith("P5\n37 23\n255\n"));
            Path p2 = dir.resolve("g2.pgm");
            GridWriter.writePgmAscii(g, p2);
            assertTrue(Files.readAllLines(p2).stream().allMatch(line -> line.length() <= 70));
            Path png = dir.resolve("g.png");
            GridWriter.writePng(g, png);
            Path raw = dir.resolve("g.raw");
            GridWriter.writeRaw(g, raw);
            for (Path file : new Path[] {p5, p2, png}) {
                Grid back = GridReader.read(file, arena);
                assertEquals(Grid.CellType.U8, back.type(), file.toString());
                assertEquals(GridDims.of(g), GridDims.of(back));
                assertSameCells(g, back);
            }
            assertSameCells(g, GridReader.read(raw, GridReadOptions.defaults().withDims(GridDims.of(g)), arena));
        }
    }

    @Test
    void sixteenBitGridsRoundTrip() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = randomGrid(arena, Grid.CellType.I32, 19, 31, 1, 65536, 2);
            g.set(0, 65535);
            for (String name : new String[] {"w.pgm", "w.png"}) {
                Path file = dir.resolve(name);
                GridWriter.write(g, file);
                Grid back = GridReader.read(file, arena);
                assertEquals(Grid.CellType.U16, back.type(), name);
                assertSameCells(g, back);
            }
            Path p2 = dir.resolve("w2.pgm");
            GridWriter.writePgmAscii(g, p2);
            assertSameCells(g, GridReader.read(p2, arena));
            // a P5 of maxval 65535 stores each sample as two big-endian bytes
            byte[] bytes = Files.readAllBytes(dir.resolve("w.pgm"));
            int header = "P5\n19 31\n65535\n".length();
            assertEquals(2 * 19 * 31 + header, bytes.length);
            assertEquals(g.get(1), (bytes[header + 2] & 0xFF) << 8 | bytes[header + 3] & 0xFF);
        }
    }

    @Test
    void rawInt32KeepsAnyValueLittleEndian() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            int[] values = {-1, 0, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x12345678, 65536, -77};
            Grid g = Grid.ofInts(arena, values, 2, 2, 2);
            Path raw = dir.resolve("v.vol");
            GridWriter.write(g, raw);
            ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(raw)).order(ByteOrder.LITTLE_ENDIAN);
            for (int v : values) {
                assertEquals(v, bytes.getInt());
            }
            Grid back = GridReader.read(raw, GridReadOptions.defaults().withFormat(GridFormat.RAW)
                    .withDims(new GridDims(2, 2, 2)).withRawType(Grid.CellType.I32), arena);
            assertSameCells(g, back);
            assertThrows(IllegalArgumentException.class, () -> GridWriter.writePgm(g, dir.resolve("neg.pgm")));
            assertThrows(IllegalArgumentException.class, () -> GridWriter.writePng(g, dir.resolve("neg.png")));
        }
    }

    @Test
    void volumesAreStackedIntoOneImage() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = randomGrid(arena, Grid.CellType.U8, 6, 4, 5, 2, 3);
            Path file = dir.resolve("stack.pgm");
            GridWriter.writePgm(g, file);
            Grid back = GridReader.read(file, arena);
            assertEquals(new GridDims(6, 20, 1), GridDims.of(back));
            assertSameCells(g, back);
            assertTrue(Files.readString(file, StandardCharsets.ISO_8859_1).startsWith("P5\n6 20\n1\n"), "maxval 1");
        }
    }

    @Test
    void generatedFieldsSurviveAPgmFile() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid[] fields = {
                GridGenerators.spiral(arena, 101),
                GridGenerators.percolation(arena, 120, 90, 0.59, 4),
                GridGenerators.alloy(arena, Grid.CellType.I32, 64, 48, 1, 3, 8)};
            for (Grid g : fields) {
                Path file = dir.resolve("field.pgm");
                GridWriter.writePgm(g, file);
                Grid back = GridReader.read(file, arena);
                assertEquals(GridDims.of(g), GridDims.of(back));
                for (int i = 0; i < g.cellCount(); i++) {
                    assertEquals(g.get(i), back.get(i), g + " cell " + i);
                }
            }
        }
    }

    @Test
    void imageIoPngsAreReadAndOurPngsAreReadByImageIo() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            BufferedImage colour = new BufferedImage(13, 7, BufferedImage.TYPE_INT_RGB);
            BufferedImage grey = new BufferedImage(13, 7, BufferedImage.TYPE_BYTE_GRAY);
            SplittableRandom random = new SplittableRandom(5);
            for (int y = 0; y < 7; y++) {
                for (int x = 0; x < 13; x++) {
                    colour.setRGB(x, y, random.nextInt(1 << 24));
                    grey.getRaster().setSample(x, y, 0, random.nextInt(256));
                }
            }
            Path colourFile = dir.resolve("colour.png");
            Path greyFile = dir.resolve("grey.png");
            assertTrue(ImageIO.write(colour, "png", colourFile.toFile()));
            assertTrue(ImageIO.write(grey, "png", greyFile.toFile()));
            Grid packed = GridReader.read(colourFile, GridReadOptions.defaults().withColor(GridReadOptions.ColorMode.RGB),
                    arena);
            Grid luminance = GridReader.read(colourFile, arena);
            Grid greyGrid = GridReader.read(greyFile, arena);
            for (int y = 0; y < 7; y++) {
                for (int x = 0; x < 13; x++) {
                    int rgb = colour.getRGB(x, y) & 0xFFFFFF;
                    assertEquals(rgb, packed.get(x, y, 0));
                    double luma = 0.299 * (rgb >> 16) + 0.587 * (rgb >> 8 & 0xFF) + 0.114 * (rgb & 0xFF);
                    assertEquals(luma, luminance.get(x, y, 0), 0.51);
                    assertEquals(grey.getRaster().getSample(x, y, 0), greyGrid.get(x, y, 0));
                }
            }

            Grid g = randomGrid(arena, Grid.CellType.I32, 11, 9, 1, 65536, 6);
            Path ours = dir.resolve("ours.png");
            GridWriter.writePng(g, ours);
            BufferedImage read = ImageIO.read(ours.toFile());
            assertEquals(BufferedImage.TYPE_USHORT_GRAY, read.getType());
            for (int i = 0; i < g.cellCount(); i++) {
                assertEquals(g.get(i), read.getRaster().getSample(i % 11, i / 11, 0));
            }
        }
    }

    /**
     * The PNGs that ImageIO writes for us, decoded by a decoder written from the specification: 8-bit
     * grey up to 255, 16-bit grey above, not interlaced, every sample as stored, for odd shapes
     * (one pixel, one row, one column) and stacked volumes.
     */
    @Test
    void pngsFollowTheSpecification() throws IOException {
        int[][] shapes = {{1, 1, 1}, {1, 9, 1}, {9, 1, 1}, {37, 23, 1}, {6, 4, 5}};
        try (Arena arena = Arena.ofConfined()) {
            for (int[] s : shapes) {
                for (int bound : new int[] {2, 256, 65536}) {
                    Grid g = randomGrid(arena, Grid.CellType.I32, s[0], s[1], s[2], bound, s[0] * 31L + bound);
                    g.set(0, bound - 1);
                    Path file = dir.resolve("spec.png");
                    GridWriter.writePng(g, file);
                    PngSpec.Image png = PngSpec.decode(file);
                    String what = GridDims.of(g) + " below " + bound;
                    assertEquals(s[0], png.width(), what);
                    assertEquals(s[1] * s[2], png.height(), what);
                    assertEquals(0, png.colorType(), what);
                    assertEquals(bound > 256 ? 16 : 8, png.bitDepth(), what);
                    for (int i = 0; i < g.cellCount(); i++) {
                        assertEquals(g.get(i), png.sample(i % s[0], i / s[0], 0), what + ", cell " + i);
                    }
                    Grid back = GridReader.read(file, arena);
                    assertEquals(bound > 256 ? Grid.CellType.U16 : Grid.CellType.U8, back.type(), what);
                    assertSameCells(g, back);
                }
            }
        }
    }

    @Test
    void aPngReplacesALongerFile() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Path file = dir.resolve("again.png");
            Files.write(file, new byte[100_000]);
            Grid g = randomGrid(arena, Grid.CellType.U8, 5, 3, 1, 256, 9);
            GridWriter.writePng(g, file);
            assertTrue(Files.size(file) < 1000, Files.size(file) + " bytes: the old content is left at the end");
            assertSameCells(g, GridReader.read(file, arena));
        }
    }

    /** ImageIO asks for each row once, in order: no whole-image buffer is built behind the writer's back. */
    @Test
    void pngRowsAreProducedOnceEachInOrder() throws IOException {
        java.util.List<Integer> asked = new java.util.ArrayList<>();
        Path file = dir.resolve("rows.png");
        PngOutput.rgb8(file, 4, 50, (y, row) -> {
            asked.add(y);
            assertEquals(12, row.length, "one row of 4 RGB pixels");
            java.util.Arrays.fill(row, (byte) y);
        });
        assertEquals(java.util.stream.IntStream.range(0, 50).boxed().toList(), asked);
        PngSpec.Image png = PngSpec.decode(file);
        assertEquals(49, png.sample(3, 49, 2));
        assertThrows(IllegalArgumentException.class, () -> PngOutput.grey8(file, 0, 3, (y, row) -> { }));
    }
}
