package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.IntBinaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readers on files from another tool (the fixtures that {@code make-fixtures.py} writes with
 * numpy and zlib) and on hand-written PGM files.
 */
class GridReaderTest {
    @TempDir
    Path dir;

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(GridReaderTest.class.getResource(name).toURI());
    }

    private static void assertCells(Grid g, int width, int height, Grid.CellType type, IntBinaryOperator expected) {
        assertEquals(new GridDims(width, height, 1), GridDims.of(g));
        assertEquals(type, g.type());
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                assertEquals(expected.applyAsInt(x, y), g.get(x, y, 0), "cell " + x + "," + y);
            }
        }
    }

    private static int grey8(int x, int y) {
        return (x * 37 + y * 11) % 256;
    }

    private static int grey16(int x, int y) {
        return (x * 9001 + y * 4099) % 65536;
    }

    private static int rgb(int x, int y) {
        return (x * 50 % 256) << 16 | (y * 60 % 256) << 8 | (x * y * 13 % 256);
    }

    @Test
    void greyscalePngsGiveTheirSamples() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            assertCells(GridReader.read(fixture("grey8.png"), arena), 7, 5, Grid.CellType.U8, GridReaderTest::grey8);
            assertCells(GridReader.read(fixture("grey16.png"), arena), 7, 5, Grid.CellType.U16, GridReaderTest::grey16);
            assertCells(GridReader.read(fixture("grey1.png"), arena), 9, 3, Grid.CellType.U8,
                    (x, y) -> (x * x + y) % 3 == 0 ? 1 : 0);
            assertCells(GridReader.read(fixture("grey-alpha.png"), arena), 7, 5, Grid.CellType.U8, GridReaderTest::grey8);
        }
    }

    @Test
    void colourPngsGiveLuminanceOrPackedRgb() throws Exception {
        int[] palette = {0xFF0000, 0x0080FF, 0x0AC81E, 0xFAFAFA};
        GridReadOptions rgbMode = GridReadOptions.defaults().withColor(GridReadOptions.ColorMode.RGB);
        try (Arena arena = Arena.ofConfined()) {
            assertCells(GridReader.read(fixture("rgb.png"), arena), 7, 5, Grid.CellType.U8,
                    (x, y) -> luma(rgb(x, y)));
            assertCells(GridReader.read(fixture("rgb.png"), rgbMode, arena), 7, 5, Grid.CellType.I32,
                    GridReaderTest::rgb);
            assertCells(GridReader.read(fixture("palette.png"), arena), 7, 5, Grid.CellType.U8,
                    (x, y) -> luma(palette[(x + 2 * y) % 4]));
            assertCells(GridReader.read(fixture("palette.png"), rgbMode, arena), 7, 5, Grid.CellType.I32,
                    (x, y) -> palette[(x + 2 * y) % 4]);
            // pure red: 0.299 * 255 = 76.2; white-ish 250: 250
            assertEquals(76, luma(0xFF0000));
            assertEquals(250, luma(0xFAFAFA));
        }
    }

    private static int luma(int rgb) {
        return (int) Math.round(0.299 * (rgb >> 16 & 0xFF) + 0.587 * (rgb >> 8 & 0xFF) + 0.114 * (rgb & 0xFF));
    }

    @Test
    void pgmFixturesWithCommentsAnd16BitSamples() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            assertCells(GridReader.read(fixture("grey16.pgm"), arena), 7, 5, Grid.CellType.U16, GridReaderTest::grey16);
            assertCells(GridReader.read(fixture("grey8-ascii.pgm"), arena), 7, 5, Grid.CellType.U8, GridReaderTest::grey8);
        }
    }

    @Test
    void thresholdGivesAForegroundField() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            GridReadOptions t = GridReadOptions.defaults().withThreshold(128);
            assertCells(GridReader.read(fixture("grey8.png"), t, arena), 7, 5, Grid.CellType.U8,
                    (x, y) -> grey8(x, y) >= 128 ? 1 : 0);
            assertCells(GridReader.read(fixture("grey16.pgm"), t.withThreshold(30000), arena), 7, 5, Grid.CellType.U8,
                    (x, y) -> grey16(x, y) >= 30000 ? 1 : 0);
            assertCells(GridReader.read(fixture("rgb.png"), t.withThreshold(100), arena), 7, 5, Grid.CellType.U8,
                    (x, y) -> luma(rgb(x, y)) >= 100 ? 1 : 0);
            assertThrows(IllegalArgumentException.class, () -> t.withColor(GridReadOptions.ColorMode.RGB));
        }
    }

    @Test
    void handWrittenPlainPgm() throws Exception {
        String text = "P2\n# made by hand\n  4 3   # width height\n# maxval next\n9\n"
                + "0 1 2 3\n\t4 5 6 7 # end of row\n8 9\n0\n 1\n\n";
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridReader.read(write("hand.pgm", text), arena);
            assertCells(g, 4, 3, Grid.CellType.U8, (x, y) -> (x + 4 * y) % 10);
        }
    }

    @Test
    void handWrittenBinaryPgmWithCrlfHeader() throws Exception {
        byte[] header = "P5\r\n#c\r\n3 2\r\n200\n".getBytes(StandardCharsets.US_ASCII);
        byte[] file = Arrays.copyOf(header, header.length + 6);
        byte[] samples = {0, 10, (byte) 200, 7, 8, 9};
        System.arraycopy(samples, 0, file, header.length, 6);
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridReader.read(write("crlf.pgm", file), arena);
            assertCells(g, 3, 2, Grid.CellType.U8, (x, y) -> samples[x + 3 * y] & 0xFF);
        }
    }

    @Test
    void binaryPgmWhoseHeaderEndsInCrLf() throws Exception {
        byte[] header = "P5\r\n2 2\r\n255\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] file = Arrays.copyOf(header, header.length + 4);
        byte[] samples = {'\n', 13, 10, 1};
        System.arraycopy(samples, 0, file, header.length, 4);
        try (Arena arena = Arena.ofConfined()) {
            assertCells(GridReader.read(write("crlf2.pgm", file), arena), 2, 2, Grid.CellType.U8,
                    (x, y) -> samples[x + 2 * y]);
            // without the extra byte, the LF is the first sample
            assertCells(GridReader.read(write("crlf3.pgm", Arrays.copyOf(file, file.length - 1)), arena), 2, 2,
                    Grid.CellType.U8, (x, y) -> new int[] {10, 10, 13, 10}[x + 2 * y]);
        }
    }

    @Test
    void rawFilesOfBothTypes() throws Exception {
        byte[] bytes = new byte[4 * 3 * 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 11);
        }
        try (Arena arena = Arena.ofConfined()) {
            GridReadOptions raw = GridReadOptions.defaults().withDims(new GridDims(4, 3, 2));
            Grid u8 = GridReader.read(write("cells.raw", bytes), raw, arena);
            assertEquals(Grid.CellType.U8, u8.type());
            assertEquals(new GridDims(4, 3, 2), GridDims.of(u8));
            for (int i = 0; i < bytes.length; i++) {
                assertEquals(bytes[i] & 0xFF, u8.get(i));
            }
            GridReadOptions ints = raw.withDims(new GridDims(3, 2, 1)).withRawType(Grid.CellType.I32);
            Grid i32 = GridReader.read(write("cells.bin", bytes), ints, arena);
            for (int i = 0; i < 6; i++) {
                int expected = (bytes[4 * i] & 0xFF) | (bytes[4 * i + 1] & 0xFF) << 8 | (bytes[4 * i + 2] & 0xFF) << 16
                        | bytes[4 * i + 3] << 24;
                assertEquals(expected, i32.get(i), "little-endian int " + i);
            }
            Grid thresholded = GridReader.read(write("t.raw", bytes), raw.withThreshold(100), arena);
            for (int i = 0; i < bytes.length; i++) {
                assertEquals((bytes[i] & 0xFF) >= 100 ? 1 : 0, thresholded.get(i));
            }
            Grid negative = GridReader.read(write("n.raw", new byte[] {-2, -1, -1, -1}),
                    raw.withDims(new GridDims(1, 1, 1)).withRawType(Grid.CellType.I32).withThreshold(-5), arena);
            assertEquals(1, negative.get(0), "-2 >= -5");
        }
    }

    @Test
    void formatsAreDetectedByContent() throws Exception {
        assertEquals(GridFormat.PNG, GridFormat.detect(fixture("grey8.png")));
        assertEquals(GridFormat.PGM, GridFormat.detect(fixture("grey16.pgm")));
        assertEquals(GridFormat.PNG, GridFormat.detect(copy(fixture("grey8.png"), "image.data")));
        assertEquals(GridFormat.PGM, GridFormat.detect(copy(fixture("grey16.pgm"), "image")));
        assertEquals(GridFormat.RAW, GridFormat.detect(copy(fixture("grey16.pgm"), "image.raw")));
        assertEquals(GridFormat.RAW, GridFormat.detect(write("x.dat", new byte[] {1, 2, 3})));
        assertEquals(GridFormat.PNG, GridFormat.fromName("PNG"));
        assertEquals(GridFormat.TIFF, GridFormat.fromName("tiff"));
        assertThrows(IllegalArgumentException.class, () -> GridFormat.fromName("jpeg"));
    }

    @Test
    void dimsParse() {
        assertEquals(new GridDims(640, 480, 1), GridDims.parse("640x480"));
        assertEquals(new GridDims(64, 32, 16), GridDims.parse("64X32x16"));
        assertEquals("64x32x16", new GridDims(64, 32, 16).toString());
        // past 2^31 cells: int64 labels
        assertEquals(8_589_934_592L, GridDims.parse("2048x2048x2048").cellCount());
        for (String bad : new String[] {"", "640", "640x", "x480", "640x-480", "0x5", "1x2x3x4", "axb", "2147483648x2"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GridDims.parse(bad), bad);
            assertTrue(e.getMessage().contains("dimensions") || e.getMessage().contains("cells"), e.getMessage());
        }
    }

    private Path copy(Path from, String name) throws IOException {
        return Files.copy(from, dir.resolve(name));
    }

    private Path write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.US_ASCII));
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }

    static void assertNamesFile(ImageFormatException e, Path file) {
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }

    @Test
    void aMappedRawFileIsTheGridThatReadingGivesWithoutACopy() throws IOException {
        byte[] u8 = new byte[5 * 4 * 3];
        for (int i = 0; i < u8.length; i++) {
            u8[i] = (byte) (i * 7 + 200);
        }
        Path bytes = Files.write(dir.resolve("cells.raw"), u8);
        java.nio.ByteBuffer ints = java.nio.ByteBuffer.allocate(6 * 2 * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 12; i++) {
            ints.putInt(i * -123_457);
        }
        Path i32 = Files.write(dir.resolve("cells.i32"), ints.array());
        try (Arena arena = Arena.ofConfined()) {
            GridReadOptions o = GridReadOptions.defaults().withDims(GridDims.parse("5x4x3"));
            Grid read = GridReader.read(bytes, o, arena);
            Grid mapped = GridReader.map(bytes, o, arena);
            assertEquals(GridDims.of(read), GridDims.of(mapped));
            for (long i = 0; i < read.cellCount(); i++) {
                assertEquals(read.get(i), mapped.get(i), "cell " + i);
            }
            assertTrue(mapped.cells().isMapped() && mapped.cells().isReadOnly(), "a read-only mapping");
            assertTrue(GridReader.canMap(bytes, o));
            GridReadOptions wide = GridReadOptions.defaults().withFormat(GridFormat.RAW).withDims(GridDims.parse("6x2"))
                    .withRawType(Grid.CellType.I32);
            Grid readInts = GridReader.read(i32, wide, arena);
            Grid mappedInts = GridReader.map(i32, wide, arena);
            for (long i = 0; i < 12; i++) {
                assertEquals(i * -123_457, mappedInts.get(i));
                assertEquals(readInts.get(i), mappedInts.get(i));
            }
        }
    }

    @Test
    void onlyWholeUncompressedRawFilesAreMapped() throws Exception {
        Path bytes = Files.write(dir.resolve("short.raw"), new byte[11]);
        Path gzip = dir.resolve("cells.raw.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gzip))) {
            out.write(new byte[12]);
        }
        GridReadOptions o = GridReadOptions.defaults().withDims(GridDims.parse("4x3"));
        try (Arena arena = Arena.ofConfined()) {
            ImageFormatException shortFile = assertThrows(ImageFormatException.class, () -> GridReader.map(bytes, o, arena));
            assertTrue(shortFile.getMessage().contains("the file is 11 bytes but a 4x3 grid of u8 cells is 12 bytes: it is"
                    + " truncated"), shortFile.getMessage());
            assertEquals(false, GridReader.canMap(gzip, o) || GridReader.canMap(fixture("grey8.png"), o));
            IllegalArgumentException compressed = assertThrows(IllegalArgumentException.class,
                    () -> GridReader.map(gzip, o, arena));
            assertTrue(compressed.getMessage().contains("a compressed file cannot be mapped"), compressed.getMessage());
            IllegalArgumentException png = assertThrows(IllegalArgumentException.class,
                    () -> GridReader.map(fixture("grey8.png"), GridReadOptions.defaults(), arena));
            assertTrue(png.getMessage().endsWith("only raw cells and NumPy, NRRD and NIfTI files can be mapped, not png"),
                    png.getMessage());
            Path whole = Files.write(dir.resolve("whole.raw"), new byte[12]);
            IllegalArgumentException threshold = assertThrows(IllegalArgumentException.class,
                    () -> GridReader.map(whole, o.withThreshold(3), arena));
            assertTrue(threshold.getMessage().contains("a threshold needs the file read"), threshold.getMessage());
            assertEquals(false, GridReader.canMap(whole, o.withThreshold(3)));
            assertTrue(GridReader.canMap(whole, o));
        }
    }
}
