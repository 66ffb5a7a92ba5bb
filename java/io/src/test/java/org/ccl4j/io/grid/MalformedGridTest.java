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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed grid files: each gives a ImageFormatException naming the file, the place and the problem. */
class MalformedGridTest {
    @TempDir
    Path dir;

    private ImageFormatException assertMalformed(Path file, GridReadOptions options, String phrase) {
        ImageFormatException e = assertThrows(ImageFormatException.class, () -> {
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
        ImageFormatException e = assertMalformed(write("bad.pgm", ascii(text.strip())), GridReadOptions.defaults(), phrase);
        assertEquals(line, e.line(), e.getMessage());
    }

    @Test
    void notAPgm() throws IOException {
        Path file = write("x.pgm", ascii("GIF89a"));
        ImageFormatException e = assertMalformed(file, GridReadOptions.defaults(), "not a PGM file");
        assertEquals(0, e.byteOffset());
        assertMalformed(write("empty.pgm", new byte[0]), GridReadOptions.defaults(), "the file is empty");
    }

    @Test
    void truncatedAsciiRasterFailsBeforeAllocating() throws IOException {
        // 40000 x 40000 samples cannot fit in a few bytes: no 1.6 GB grid is allocated
        assertMalformed(write("big.pgm", ascii("P2\n40000 40000\n255\n1 2 3\n")), GridReadOptions.defaults(),
                "truncated: 1600000000 samples need at least 3199999999 bytes after the header");
        ImageFormatException huge = assertMalformed(write("huge.pgm", ascii("P5\n100000 100000\n255\n")),
                GridReadOptions.defaults(),
                "the image is 100000x100000, more than the 2147483647 cells a greymap is read into");
        assertEquals(2, huge.line());
    }

    @Test
    void binaryPgmProblemsNameTheOffset() throws IOException {
        byte[] header = ascii("P5\n4 4\n255\n");
        ImageFormatException truncated = assertMalformed(write("short.pgm", Arrays.copyOf(header, header.length + 10)),
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
        ImageFormatException big = assertMalformed(write("big16.pgm", file), GridReadOptions.defaults(),
                "sample 1001 exceeds maxval 1000");
        assertEquals(wide.length + 4, big.byteOffset());

        byte[] small = ascii("P5\n2 1\n100\n");
        file = Arrays.copyOf(small, small.length + 2);
        file[small.length + 1] = (byte) 200;
        ImageFormatException over = assertMalformed(write("big8.pgm", file), GridReadOptions.defaults(),
                "sample 200 exceeds maxval 100");
        assertEquals(small.length + 1, over.byteOffset());
    }

    @Test
    void rawSizeMustMatch() throws IOException {
        GridReadOptions options = GridReadOptions.defaults().withDims(new GridDims(10, 10, 2))
                .withRawType(Grid.CellType.I32);
        ImageFormatException shortFile = assertMalformed(write("v.raw", new byte[799]), options,
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
        ImageFormatException text = assertMalformed(write("text.png", ascii("not an image at all")),
                GridReadOptions.defaults(), "not a PNG file: it does not start with the PNG signature");
        assertEquals(0, text.byteOffset());

        // a 40000 x 40000 header in front of a tiny IDAT: rejected before any pixel memory is taken
        byte[] bogus = good.clone();
        ByteBuffer header = ByteBuffer.wrap(bogus);
        header.putInt(16, 40000).putInt(20, 40000);
        CRC32 crc = new CRC32();
        crc.update(bogus, 12, 17);
        header.putInt(29, (int) crc.getValue());
        ImageFormatException big = assertMalformed(write("bogus.png", bogus), GridReadOptions.defaults(),
                "truncated or damaged: a 40000x40000 image needs 4800040000 bytes of image data, more than the");
        assertEquals(33, big.byteOffset(), "the first IDAT chunk");
    }

    /** The chunks of rgb.png: signature, IHDR at 8, IDAT at 33 (the fixture has no other chunk), IEND last. */
    private static byte[] rgbPng() throws Exception {
        byte[] good = Files.readAllBytes(Path.of(MalformedGridTest.class.getResource("rgb.png").toURI()));
        ByteBuffer b = ByteBuffer.wrap(good);
        assertEquals("IHDR", new String(good, 12, 4, StandardCharsets.US_ASCII));
        assertEquals("IDAT", new String(good, 37, 4, StandardCharsets.US_ASCII));
        assertEquals(good.length - 12, 33 + 12 + b.getInt(33), "IEND follows IDAT");
        return good;
    }

    /** Damage in the rgb.png fixture, named with its byte (PngStrictTest has every kind). */
    @Test
    void damagedChunksAreNamedWithTheirOffset() throws Exception {
        byte[] good = rgbPng();
        int idatLength = ByteBuffer.wrap(good).getInt(33);

        // one flipped bit in the compressed pixels: a CRC error, as libpng reports it
        byte[] flipped = good.clone();
        flipped[41 + idatLength / 2] ^= 0x10;
        ImageFormatException crc = assertMalformed(write("flipped.png", flipped), GridReadOptions.defaults(),
                "chunk IDAT at byte 33: CRC 0x");
        assertEquals(41 + idatLength, crc.byteOffset());

        // cut inside the IDAT data: the chunk's length says more than there is
        ImageFormatException cut = assertMalformed(write("cut.png", Arrays.copyOf(good, 60)), GridReadOptions.defaults(),
                "truncated PNG file: chunk IDAT at byte 33 declares " + idatLength + " data bytes, the file ends 19 bytes "
                        + "after its header");
        assertEquals(33, cut.byteOffset());

        // the IEND chunk missing
        ImageFormatException noEnd = assertMalformed(write("noend.png", Arrays.copyOf(good, good.length - 12)),
                GridReadOptions.defaults(), "truncated PNG file: it ends after chunk IDAT at byte 33, before the IEND chunk");
        assertEquals(good.length - 12, noEnd.byteOffset());

        // a chunk type that is not four letters
        byte[] badType = good.clone();
        badType[38] = '3';
        ImageFormatException type = assertMalformed(write("type.png", badType), GridReadOptions.defaults(),
                "damaged PNG file: the chunk type at byte 37 is 49334154 (hex), not four letters");
        assertEquals(37, type.byteOffset());

        // IHDR must come first
        byte[] noHeader = new byte[good.length - 25];
        System.arraycopy(good, 0, noHeader, 0, 8);
        System.arraycopy(good, 33, noHeader, 8, good.length - 33);
        assertMalformed(write("noheader.png", noHeader), GridReadOptions.defaults(),
                "damaged PNG file: the first chunk is IDAT, not IHDR");

        // a signature cut short
        ImageFormatException shortSignature = assertMalformed(write("sig.png", Arrays.copyOf(good, 5)),
                GridReadOptions.defaults(), "truncated: the file is 5 bytes, shorter than the 8-byte PNG signature");
        assertEquals(5, shortSignature.byteOffset());
    }

    @Test
    void damageInAncillaryChunksAndBytesAfterIendAreIgnored() throws Exception {
        byte[] good = rgbPng();
        // a tEXt chunk with a wrong CRC after IHDR (libpng warns and drops it), and junk after IEND
        byte[] text = ascii("Comment\0made by hand");
        ByteBuffer file = ByteBuffer.allocate(good.length + 12 + text.length + 5);
        file.put(good, 0, 33).putInt(text.length).put(ascii("tEXt")).put(text).putInt(0xDEADBEEF)
                .put(good, 33, good.length - 33).put(ascii("junk\n"));
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridReader.read(write("text.png", file.array()), arena);
            Grid expected = GridReader.read(write("good.png", good), arena);
            assertEquals(GridDims.of(expected), GridDims.of(g));
            for (int i = 0; i < g.cellCount(); i++) {
                assertEquals(expected.get(i), g.get(i), "cell " + i);
            }
        }
    }
}
