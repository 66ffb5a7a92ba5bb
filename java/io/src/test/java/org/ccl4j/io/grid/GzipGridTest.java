package org.ccl4j.io.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every grid format reads gzip-compressed, recognised by gzip's magic number whatever the name says. */
class GzipGridTest {
    @TempDir
    Path dir;

    /** How a grid is written: the writer, the extension, and whether the reader needs the dimensions. */
    private interface Writer {
        void write(Grid grid, Path file) throws IOException;
    }

    private record Case(String extension, Grid.CellType type, int bound, Writer writer, boolean raw) {
    }

    private static final Case[] CASES = {
        new Case(".pgm", Grid.CellType.U8, 256, GridWriter::writePgm, false),
        new Case(".pgm", Grid.CellType.I32, 65536, GridWriter::writePgm, false),
        new Case(".pgm", Grid.CellType.U8, 256, GridWriter::writePgmAscii, false),
        new Case(".png", Grid.CellType.U8, 256, GridWriter::writePng, false),
        new Case(".png", Grid.CellType.I32, 65536, GridWriter::writePng, false),
        new Case(".raw", Grid.CellType.U8, 256, GridWriter::writeRaw, true),
        new Case(".raw", Grid.CellType.I32, Integer.MAX_VALUE, GridWriter::writeRaw, true),
    };

    private static Grid randomGrid(Arena arena, Grid.CellType type, int w, int h, int d, int bound, long seed) {
        Random random = new Random(seed);
        Grid g = Grid.allocate(arena, type, w, h, d);
        for (long i = 0; i < g.cellCount(); i++) {
            g.set(i, random.nextInt(bound));
        }
        return g;
    }

    @Test
    void everyFormatRoundTripsGzipped() throws IOException {
        int seed = 0;
        for (Case c : CASES) {
            try (Arena arena = Arena.ofConfined()) {
                int depth = c.raw() ? 3 : 1;
                Grid written = randomGrid(arena, c.type(), 29, 17, depth, c.bound(), seed++);
                Path plain = dir.resolve("plain" + c.extension());
                c.writer().write(written, plain);
                byte[] compressed = gzip(Files.readAllBytes(plain));
                GridReadOptions options = c.raw() ? GridReadOptions.defaults().withDims(new GridDims(29, 17, depth))
                        .withRawType(c.type()) : GridReadOptions.defaults();
                // .gz named, gzip under the format's own extension, and (but raw, which needs its name or
                // its format) no extension at all
                for (String name : new String[] {"g" + c.extension() + ".gz", "h" + c.extension(), "data.gz", "data"}) {
                    GridReadOptions read = c.raw() && name.startsWith("data") ? options.withFormat(GridFormat.RAW) : options;
                    Path file = dir.resolve(name);
                    Files.write(file, compressed);
                    Grid back = GridReader.read(file, read, arena);
                    assertSameCells(written, back, c + " as " + name);
                    if (!c.raw()) {
                        assertEquals(c.extension().equals(".png") ? GridFormat.PNG : GridFormat.PGM, GridFormat.detect(file));
                    }
                }
            }
        }
    }

    @Test
    void thresholdsApplyToDecompressedCells() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid written = randomGrid(arena, Grid.CellType.U8, 8, 8, 1, 256, 7);
            Path plain = dir.resolve("t.pgm");
            GridWriter.writePgm(written, plain);
            Path file = dir.resolve("t.pgm.gz");
            Files.write(file, gzip(Files.readAllBytes(plain)));
            Grid back = GridReader.read(file, GridReadOptions.defaults().withThreshold(128), arena);
            for (long i = 0; i < written.cellCount(); i++) {
                assertEquals(written.get(i) >= 128 ? 1 : 0, back.get(i));
            }
        }
    }

    @Test
    void damagedCompressedDataIsAnImageFormatException() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Path plain = dir.resolve("d.pgm");
            GridWriter.writePgm(randomGrid(arena, Grid.CellType.U8, 40, 40, 1, 256, 3), plain);
            byte[] compressed = gzip(Files.readAllBytes(plain));
            Path truncated = dir.resolve("t.pgm.gz");
            Files.write(truncated, Arrays.copyOf(compressed, compressed.length - 20));
            ImageFormatException t = assertThrows(ImageFormatException.class,
                    () -> GridReader.read(truncated, arena));
            assertTrue(t.getMessage().startsWith(truncated + ": the gzip-compressed data is truncated"), t::getMessage);
            assertEquals(truncated, t.file());
            // decompressed, the content must still follow its format
            Path wrongSize = dir.resolve("w.raw.gz");
            Files.write(wrongSize, gzip(new byte[10]));
            ImageFormatException w = assertThrows(ImageFormatException.class, () -> GridReader.read(wrongSize,
                    GridReadOptions.defaults().withDims(new GridDims(3, 3, 1)), arena));
            assertTrue(w.getMessage().startsWith(wrongSize + ": at byte 9: the file is 10 bytes but a 3x3 grid"),
                    w::getMessage);
        }
    }

    private static void assertSameCells(Grid expected, Grid actual, String what) {
        assertEquals(expected.width(), actual.width(), what);
        assertEquals(expected.height(), actual.height(), what);
        assertEquals(expected.depth(), actual.depth(), what);
        for (long i = 0; i < expected.cellCount(); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": cell " + i);
        }
    }

    static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }
}
