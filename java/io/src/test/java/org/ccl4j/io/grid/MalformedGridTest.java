package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.ccl4j.io.GraphFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed grid files: each gives a GraphFormatException naming the file, the place and the problem. */
class MalformedGridTest {
    @TempDir
    Path dir;

    private GraphFormatException assertMalformed(Path file, GridReadOptions options, String phrase) {
        GraphFormatException e = assertThrows(GraphFormatException.class, () -> {
            try (Arena arena = Arena.ofConfined()) {
                GridReader.read(file, options, arena);
            }
        });
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(phrase), "'" + phrase + "' not in: " + e.getMessage());
        return e;
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }

    private static byte[] ascii(String text) {
        return text.replace("\\n", "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** PGM header and ASCII raster problems, reported with their line. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "P6\\n2 2\\n255\\n123456789012                 | 1 | a pixmap (PPM), not a greymap",
        "P1\\n2 2\\n0 1 1 0                             | 1 | a bitmap (PBM)",
        "P2\\n-3 4\\n255\\n                             | 2 | the width is negative",
        "P2\\n3 -4\\n255\\n                             | 2 | the height is negative",
        "P2\\n0 4\\n255\\n                              | 2 | width 0 is out of range 1..",
        "P2\\n3 4\\n0\\n0 0 0 0 0 0 0 0 0 0 0 0         | 3 | maxval 0 is out of range 1..65535",
        "P5\\n3 4\\n70000\\n                            | 3 | maxval 70000 is out of range 1..65535",
        "P2\\n3 4\\n# no maxval\\nabc                   | 4 | expected the maxval (a decimal number), found 'a'",
        "P5\\n3                                         | 2 | the file ends before the height",
        "P5\\n3 4 255                                   | 2 | the file ends right after maxval",
        "P2\\n2 2\\n255\\n1 2\\n3 256\\n                | 5 | sample 256 at x=1, y=1 exceeds maxval 255",
        "P2\\n2 2\\n255\\n1 2\\n3 x4\\n                 | 5 | expected sample 3 (x=1, y=1) as a decimal number, found 'x'",
        "P2\\n2 2\\n255\\n1 2 3 4 5\\n                  | 4 | unexpected '5' after the 4 samples",
        "P2\\n2 3\\n255\\n1   2     3     4          \\n | 5 | the file ends after 4 of 6 samples",
    })
    void pgmProblemsNameTheLine(String text, long line, String phrase) throws IOException {
        GraphFormatException e = assertMalformed(write("bad.pgm", ascii(text.strip())), GridReadOptions.defaults(), phrase);
        assertEquals(line, e.line(), e.getMessage());
    }

    @Test
    void notAPgm() throws IOException {
        Path file = write("x.pgm", ascii("GIF89a"));
        GraphFormatException e = assertMalformed(file, GridReadOptions.defaults(), "not a PGM file");
        assertEquals(0, e.byteOffset());
        assertMalformed(write("empty.pgm", new byte[0]), GridReadOptions.defaults(), "the file is empty");
    }

    @Test
    void truncatedAsciiRasterFailsBeforeAllocating() throws IOException {
        // 40000 x 40000 samples cannot fit in a few bytes: no 1.6 GB grid is allocated
        assertMalformed(write("big.pgm", ascii("P2\n40000 40000\n255\n1 2 3\n")), GridReadOptions.defaults(),
                "truncated: 1600000000 samples need at least 3199999999 bytes after the header");
        GraphFormatException huge = assertMalformed(write("huge.pgm", ascii("P5\n100000 100000\n255\n")),
                GridReadOptions.defaults(), "the image is 100000x100000, more than the 2147483647 cells a grid holds");
        assertEquals(2, huge.line());
    }

    @Test
    void binaryPgmProblemsNameTheOffset() throws IOException {
        byte[] header = ascii("P5\n4 4\n255\n");
        GraphFormatException truncated = assertMalformed(write("short.pgm", Arrays.copyOf(header, header.length + 10)),
                GridReadOptions.defaults(), "is 16 bytes after the header (which ends at byte 11), the file has 10: "
                        + "it is truncated");
        assertEquals(header.length + 10, truncated.byteOffset());

        assertMalformed(write("long.pgm", Arrays.copyOf(header, header.length + 17)), GridReadOptions.defaults(),
                "the file has 17: a file holds one image");

        byte[] wide = ascii("P5\n2 2\n1000\n");
        byte[] file = Arrays.copyOf(wide, wide.length + 7);
        assertMalformed(write("odd.pgm", file), GridReadOptions.defaults(), "is 8 bytes after the header");

        file = Arrays.copyOf(wide, wide.length + 8);
        file[wide.length + 4] = 0x03;
        file[wide.length + 5] = (byte) 0xE9; // 1001
        GraphFormatException big = assertMalformed(write("big16.pgm", file), GridReadOptions.defaults(),
                "sample 1001 exceeds maxval 1000");
        assertEquals(wide.length + 4, big.byteOffset());

        byte[] small = ascii("P5\n2 1\n100\n");
        file = Arrays.copyOf(small, small.length + 2);
        file[small.length + 1] = (byte) 200;
        GraphFormatException over = assertMalformed(write("big8.pgm", file), GridReadOptions.defaults(),
                "sample 200 exceeds maxval 100");
        assertEquals(small.length + 1, over.byteOffset());
    }

    @Test
    void rawSizeMustMatch() throws IOException {
        GridReadOptions options = GridReadOptions.defaults().withDims(new GridDims(10, 10, 2))
                .withRawType(Grid.CellType.I32);
        GraphFormatException shortFile = assertMalformed(write("v.raw", new byte[799]), options,
                "the file is 799 bytes but a 10x10x2 grid of i32 cells is 800 bytes: it is truncated");
        assertEquals(799, shortFile.byteOffset());
        assertMalformed(write("w.raw", new byte[801]), options, "the file is 801 bytes but a 10x10x2 grid");
        assertMalformed(write("u.raw", new byte[800]), options.withRawType(Grid.CellType.U8),
                "the dimensions or the cell type are wrong");
        IllegalArgumentException noDims = assertThrows(IllegalArgumentException.class, () -> {
            try (Arena arena = Arena.ofConfined()) {
                GridReader.read(write("x.raw", new byte[8]), GridReadOptions.defaults(), arena);
            }
        });
        assertTrue(noDims.getMessage().contains("needs its dimensions"), noDims.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new GridDims(-1, 4, 4));
    }

    @Test
    void givenDimsMustMatchTheImage() throws IOException {
        Path file = write("a.pgm", ascii("P2 2 1 9 1 2"));
        assertMalformed(file, GridReadOptions.defaults().withDims(new GridDims(1, 2, 1)),
                "the image is 2x1 but the dimensions 1x2 were given");
    }

    @Test
    void damagedPngs() throws Exception {
        byte[] good = Files.readAllBytes(Path.of(MalformedGridTest.class.getResource("rgb.png").toURI()));
        for (int cut : new int[] {4, 20, 40, good.length - 30, good.length - 12}) {
            assertMalformed(write("cut" + cut + ".png", Arrays.copyOf(good, cut)), GridReadOptions.defaults(), "PNG");
        }
        assertMalformed(write("text.png", ascii("not an image at all")), GridReadOptions.defaults(),
                "not a readable PNG file");

        // a 40000 x 40000 header in front of a tiny IDAT: rejected before any pixel memory is taken
        byte[] bogus = good.clone();
        ByteBuffer header = ByteBuffer.wrap(bogus);
        header.putInt(16, 40000).putInt(20, 40000);
        CRC32 crc = new CRC32();
        crc.update(bogus, 12, 17);
        header.putInt(29, (int) crc.getValue());
        assertMalformed(write("bogus.png", bogus), GridReadOptions.defaults(),
                "truncated or damaged: a 40000x40000 image cannot be compressed into");
    }
}
