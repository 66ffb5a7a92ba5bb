package org.ccl4j.io.grid;

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
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.ccl4j.Grid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every kind of damage the PNG reader refuses, each with the byte offset of the problem: chunk CRCs,
 * chunk order, chunk lengths, IHDR and PLTE fields, palette indices, filter types, the zlib stream
 * and the amount of image data.
 */
class PngStrictTest {
    private static final int WIDTH = 4;
    private static final int HEIGHT = 3;
    /** A 4x3 8-bit greyscale image: IHDR at 8, IDAT at 33, IEND last. */
    private static final int[] GREY = {0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220};
    private static final byte[] RAW = PngBytes.imageData(WIDTH, HEIGHT, 8, 0, false, GREY, new SplittableRandom(1));
    private static final int IDAT_AT = 33;
    private static final int IDAT_DATA = IDAT_AT + 8;

    @TempDir
    Path dir;

    private static byte[] greyIhdr() {
        return PngBytes.ihdr(WIDTH, HEIGHT, 8, 0, 0);
    }

    private static byte[] idat(byte[] data) {
        return PngBytes.chunk("IDAT", data);
    }

    private static byte[] grey(byte[] zlib) {
        return PngBytes.png(greyIhdr(), idat(zlib), PngBytes.iend());
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }

    /** Reads {@code bytes} and expects an ImageFormatException at {@code offset} whose message holds {@code phrase}. */
    private ImageFormatException assertDamaged(byte[] bytes, long offset, String phrase) throws IOException {
        Path file = write("damaged.png", bytes);
        ImageFormatException e = assertThrows(ImageFormatException.class, () -> {
            try (Arena arena = Arena.ofConfined()) {
                GridReader.read(file, arena);
            }
        });
        assertTrue(e.getMessage().contains(phrase), () -> "'" + phrase + "' not in: " + e.getMessage());
        if (offset >= 0) {
            assertEquals(offset, e.byteOffset(), e.getMessage());
            assertTrue(e.getMessage().startsWith(file + ": at byte " + offset + ": "), e.getMessage());
        }
        return e;
    }

    /** As {@link #assertDamaged}, where the offset lies in {@code from..to} (inside compressed data). */
    private void assertDamagedWithin(byte[] bytes, long from, long to, String phrase) throws IOException {
        ImageFormatException e = assertDamaged(bytes, -1, phrase);
        assertTrue(e.byteOffset() >= from && e.byteOffset() <= to, e.byteOffset() + " outside " + from + ".." + to);
    }

    private static int crcOf(byte[] png, int chunkAt) {
        int length = ByteBuffer.wrap(png).getInt(chunkAt);
        CRC32 crc = new CRC32();
        crc.update(png, chunkAt + 4, 4 + length);
        return (int) crc.getValue();
    }

    @Test
    void theBaseImageReads() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridReader.read(write("good.png", grey(PngBytes.zlib(RAW))), arena);
            for (int i = 0; i < GREY.length; i++) {
                assertEquals(GREY[i], g.get(i));
            }
        }
    }

    @Test
    void aBadCrcOfEveryCriticalChunkIsNamed() throws IOException {
        byte[] good = PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 2, 3, 0), PngBytes.plte(0xFF0000, 0x00FF00),
                idat(PngBytes.zlib(new byte[HEIGHT * 2])), PngBytes.iend());
        int plteAt = 33;
        int idatAt = plteAt + 12 + 6;
        int iendAt = good.length - 12;
        String[] types = {"IHDR", "PLTE", "IDAT", "IEND"};
        int[] starts = {8, plteAt, idatAt, iendAt};
        for (int k = 0; k < types.length; k++) {
            int crcAt = starts[k] + 8 + ByteBuffer.wrap(good).getInt(starts[k]);
            byte[] bad = good.clone();
            bad[crcAt + 3] ^= 0x01;
            int computed = crcOf(good, starts[k]);
            assertDamaged(bad, crcAt, String.format(Locale.ROOT, "chunk %s at byte %d: CRC 0x%08x, computed 0x%08x: "
                    + "the chunk is damaged", types[k], starts[k], computed ^ 1, computed));
        }
        // damage in the data shows as the CRC too
        byte[] flipped = good.clone();
        flipped[idatAt + 9] ^= 0x40;
        assertDamaged(flipped, good.length - 16, "chunk IDAT at byte " + idatAt + ": CRC 0x");
    }

    @Test
    void chunkOrderViolations() throws IOException {
        byte[] data = idat(PngBytes.zlib(RAW));
        byte[] rgbIhdr = PngBytes.ihdr(WIDTH, HEIGHT, 8, 2, 0);
        byte[] rgbData = idat(PngBytes.zlib(new byte[HEIGHT * (1 + 3 * WIDTH)]));
        byte[] text = PngBytes.chunk("tEXt", "Comment\0x".getBytes(StandardCharsets.ISO_8859_1));
        byte[] palette = PngBytes.plte(0x102030);

        assertDamaged(PngBytes.png(data, greyIhdr(), PngBytes.iend()), 8, "the first chunk is IDAT, not IHDR");
        assertDamaged(PngBytes.png(greyIhdr(), greyIhdr(), data, PngBytes.iend()), 33,
                "chunk IHDR at byte 33: a second IHDR (the first is at byte 8)");
        assertDamaged(PngBytes.png(rgbIhdr, rgbData, palette, PngBytes.iend()), 33 + rgbData.length,
                "chunk PLTE at byte " + (33 + rgbData.length) + ": after the image data (IDAT at byte 33): PLTE must "
                        + "come first");
        assertDamaged(PngBytes.png(rgbIhdr, palette, palette, rgbData, PngBytes.iend()), 48,
                "chunk PLTE at byte 48: a second PLTE (the first is at byte 33)");
        assertDamaged(PngBytes.png(greyIhdr(), palette, data, PngBytes.iend()), 33,
                "chunk PLTE at byte 33: a palette in a greyscale image (colour type 0)");
        assertDamaged(PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 8, 3, 0), data, PngBytes.iend()), 33,
                "chunk IDAT at byte 33: before any PLTE chunk: a palette image (colour type 3) needs its palette");
        // the image data split around another chunk
        byte[] zlib = PngBytes.zlib(RAW);
        byte[] first = idat(Arrays.copyOf(zlib, 5));
        byte[] split = PngBytes.png(greyIhdr(), first, text, idat(Arrays.copyOfRange(zlib, 5, zlib.length)),
                PngBytes.iend());
        int textAt = 33 + first.length;
        assertDamaged(split, textAt + text.length, "chunk IDAT at byte " + (textAt + text.length) + ": after chunk "
                + "tEXt at byte " + textAt + ": the IDAT chunks must be consecutive (the first is at byte 33)");
        assertDamaged(PngBytes.png(greyIhdr(), PngBytes.iend(), data), 33,
                "chunk IEND at byte 33: before any IDAT chunk: the image has no data");
        assertDamaged(PngBytes.png(greyIhdr(), data, PngBytes.chunk("IEND", new byte[4])), 33 + data.length,
                "chunk IEND at byte " + (33 + data.length) + ": 4 data bytes, IEND has none");
        assertDamaged(PngBytes.png(greyIhdr(), PngBytes.chunk("ABCD", new byte[2]), data, PngBytes.iend()), 33,
                "chunk ABCD at byte 33: an unknown critical chunk: the image cannot be decoded without it");
        // a missing IEND
        byte[] noEnd = PngBytes.png(greyIhdr(), data);
        assertDamaged(noEnd, noEnd.length, "truncated PNG file: it ends after chunk IDAT at byte 33, before the IEND");
    }

    @Test
    void paletteChunkSizes() throws IOException {
        byte[] data = idat(PngBytes.zlib(new byte[HEIGHT * 2]));
        byte[] fourBytes = PngBytes.chunk("PLTE", new byte[4]);
        assertDamaged(PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 2, 3, 0), fourBytes, data, PngBytes.iend()), 33,
                "chunk PLTE at byte 33: 4 data bytes, not 1 to 256 RGB entries of 3 bytes");
        assertDamaged(PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 2, 3, 0), PngBytes.plte(1, 2, 3, 4, 5), data,
                PngBytes.iend()), 33, "chunk PLTE at byte 33: 5 entries, more than the 4 that 2-bit indices reach");
    }

    @Test
    void chunkLengths() throws IOException {
        byte[] good = grey(PngBytes.zlib(RAW));
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).putInt(IDAT_AT, 0x80000000);
        assertDamaged(huge, IDAT_AT, "chunk IDAT at byte 33: length 2147483648 is more than PNG allows (2^31-1)");
        byte[] past = good.clone();
        ByteBuffer.wrap(past).putInt(IDAT_AT, 1000);
        assertDamaged(past, IDAT_AT, "truncated PNG file: chunk IDAT at byte 33 declares 1000 data bytes, the file "
                + "ends " + (good.length - IDAT_DATA) + " bytes after its header");
        byte[] shortHeader = PngBytes.png(PngBytes.chunk("IHDR", new byte[12]), idat(PngBytes.zlib(RAW)), PngBytes.iend());
        assertDamaged(shortHeader, 8, "chunk IHDR at byte 8: 12 data bytes, IHDR has 13");
        byte[] letters = good.clone();
        letters[IDAT_AT + 6] = '1';
        assertDamaged(letters, IDAT_AT + 4, "damaged PNG file: the chunk type at byte 37 is 49443154 (hex), not four letters");
        assertDamaged(Arrays.copyOf(good, IDAT_AT + 5), IDAT_AT,
                "truncated PNG file: it ends inside the header of the chunk at byte 33");
    }

    /** An IHDR field set to a value the specification does not allow, with the offset of the field. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "16 | 0          | width 0 is out of range 1..2^31-1",
        "20 | 2147483648 | height 2147483648 is out of range 1..2^31-1",
        "25 | 5          | colour type 5 is not one of 0, 2, 3, 4, 6",
        "24 | 3          | bit depth 3 is not allowed for colour type 0 (allowed: 1, 2, 4, 8, 16)",
        "26 | 1          | compression method 1 is not defined (0)",
        "27 | 1          | filter method 1 is not defined (0)",
        "28 | 2          | interlace method 2 is not defined (0 or 1)",
    })
    void badHeaderFields(int at, long value, String phrase) throws IOException {
        byte[] png = grey(PngBytes.zlib(RAW));
        if (at < 24) {
            ByteBuffer.wrap(png).putInt(at, (int) value);
        } else {
            png[at] = (byte) value;
        }
        ByteBuffer.wrap(png).putInt(29, crcOf(png, 8));
        assertDamaged(png, at, "chunk IHDR at byte 8: " + phrase);
    }

    @Test
    void bitDepthsThatTheColourTypeForbids() throws IOException {
        byte[] data = idat(PngBytes.zlib(RAW));
        assertDamaged(PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 16, 3, 0), data, PngBytes.iend()), 24,
                "bit depth 16 is not allowed for colour type 3 (allowed: 1, 2, 4, 8)");
        assertDamaged(PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 4, 2, 0), data, PngBytes.iend()), 24,
                "bit depth 4 is not allowed for colour type 2 (allowed: 8, 16)");
        assertDamaged(PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 1, 6, 0), data, PngBytes.iend()), 24,
                "bit depth 1 is not allowed for colour type 6 (allowed: 8, 16)");
    }

    @Test
    void aPaletteIndexPastThePalette() throws IOException {
        // 2-bit indices, a palette of 3: index 3 at pixel (2, 1) has no colour
        int[] indices = {0, 1, 2, 0, 1, 2, 3, 0, 0, 0, 0, 0};
        byte[] zlib = PngBytes.zlib(PngBytes.imageData(WIDTH, HEIGHT, 2, 3, false, indices, new SplittableRandom(2)));
        byte[] png = PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 2, 3, 0), PngBytes.plte(1, 2, 3), idat(zlib), PngBytes.iend());
        int idatData = 33 + 12 + 9 + 8;
        assertDamagedWithin(png, idatData, idatData + zlib.length,
                "IDAT data: pixel (2, 1) has palette index 3, past the 3 entries of the palette");
    }

    @Test
    void anUndefinedFilterType() throws IOException {
        byte[] raw = RAW.clone();
        raw[1 + WIDTH] = 5; // the filter byte of row 1
        byte[] zlib = PngBytes.zlib(raw);
        assertDamagedWithin(grey(zlib), IDAT_DATA, IDAT_DATA + zlib.length,
                "IDAT data: row 1 has filter type 5 (0 to 4 are defined)");
        // interlaced, 4x3: passes 2 (from x 4) and 3 (from y 4) are empty, so the filter byte after
        // pass 1's one-pixel row (bytes 0 and 1) is that of pass 4's first row
        int[] samples = new int[WIDTH * HEIGHT];
        byte[] interlaced = PngBytes.imageData(WIDTH, HEIGHT, 8, 0, true, samples, new SplittableRandom(3));
        interlaced[2] = (byte) 200;
        byte[] png = PngBytes.png(PngBytes.ihdr(WIDTH, HEIGHT, 8, 0, 1), idat(PngBytes.zlib(interlaced)), PngBytes.iend());
        assertDamaged(png, -1, "IDAT data: pass 4, row 0 has filter type 200 (0 to 4 are defined)");
    }

    @Test
    void corruptZlibData() throws IOException {
        byte[] zlib = PngBytes.zlib(RAW);
        byte[] badHeader = zlib.clone();
        badHeader[0] = 0x79;
        // the inflater reports a problem once it has read the bytes that show it: here the 2-byte header
        assertDamagedWithin(grey(badHeader), IDAT_DATA, IDAT_DATA + 2,
                "corrupt zlib data in the IDAT chunks: incorrect header check");
        byte[] badChecksum = zlib.clone();
        badChecksum[zlib.length - 1] ^= 0x01;
        assertDamagedWithin(grey(badChecksum), IDAT_DATA, IDAT_DATA + zlib.length,
                "corrupt zlib data in the IDAT chunks: incorrect data check");
    }

    @Test
    void truncatedZlibData() throws IOException {
        byte[] zlib = PngBytes.zlib(RAW);
        assertDamaged(grey(Arrays.copyOf(zlib, zlib.length - 4)), IDAT_DATA + zlib.length - 4,
                "IDAT data: truncated zlib data: the IDAT data ends inside the compressed stream, before its end and checksum");
        byte[] incompressible = new byte[HEIGHT * (1 + 200)];
        new SplittableRandom(4).nextBytes(incompressible);
        for (int r = 0; r < HEIGHT; r++) {
            incompressible[r * 201] = 0;
        }
        byte[] big = PngBytes.zlib(incompressible);
        byte[] cut = PngBytes.png(PngBytes.ihdr(200, HEIGHT, 8, 0, 0), idat(Arrays.copyOf(big, 300)), PngBytes.iend());
        assertDamaged(cut, IDAT_DATA + 300, "truncated zlib data: the IDAT data ends inside the compressed stream, after ");
    }

    @Test
    void tooLittleOrTooMuchImageData() throws IOException {
        byte[] short1 = PngBytes.zlib(Arrays.copyOf(RAW, RAW.length - 1));
        assertDamaged(grey(short1), IDAT_DATA + short1.length, "IDAT data: too little image data: the zlib stream ends "
                + "after 14 of the 15 bytes that the image needs");
        byte[] long1 = PngBytes.zlib(Arrays.copyOf(RAW, RAW.length + 1));
        assertDamagedWithin(grey(long1), IDAT_DATA, IDAT_DATA + long1.length,
                "IDAT data: too much image data: the zlib stream holds more than the 15 bytes that the image needs");
        // bytes after the end of the zlib stream, in the same chunk and in a chunk of their own
        byte[] zlib = PngBytes.zlib(RAW);
        byte[] padded = Arrays.copyOf(zlib, zlib.length + 3);
        assertDamaged(grey(padded), IDAT_DATA + zlib.length, "3 bytes of IDAT data follow the end of the zlib stream");
        byte[] extraChunk = PngBytes.png(greyIhdr(), idat(zlib), idat(new byte[2]), PngBytes.iend());
        assertDamaged(extraChunk, IDAT_DATA + zlib.length, "2 bytes of IDAT data follow the end of the zlib stream");
    }

    @Test
    void dimensionsTheDataCannotHoldAllocateNothing() throws IOException {
        byte[] zlib = PngBytes.zlib(RAW);
        assertDamaged(PngBytes.png(PngBytes.ihdr(40000, 40000, 8, 0, 0), idat(zlib), PngBytes.iend()), IDAT_AT,
                "truncated or damaged: a 40000x40000 image needs 1600040000 bytes of image data, more than the "
                        + zlib.length + " bytes of its IDAT chunks can hold");
        assertDamaged(PngBytes.png(PngBytes.ihdr(65536, 65536, 1, 0, 0), idat(zlib), PngBytes.iend()), 16,
                "the image is 65536x65536, more than the 2147483647 cells a PNG is read into");
    }

    @Test
    void imageDataSplitOverManyChunksAndEmptyOnesReads() throws IOException {
        byte[] zlib = PngBytes.zlib(RAW);
        byte[][] chunks = new byte[zlib.length + 3][];
        chunks[0] = greyIhdr();
        chunks[1] = idat(new byte[0]);
        for (int i = 0; i < zlib.length; i++) {
            chunks[2 + i] = idat(new byte[] {zlib[i]});
        }
        chunks[chunks.length - 1] = PngBytes.iend();
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridReader.read(write("split.png", PngBytes.png(chunks)), arena);
            for (int i = 0; i < GREY.length; i++) {
                assertEquals(GREY[i], g.get(i), "cell " + i);
            }
        }
    }

    @Test
    void sixteenBitColourIsRoundedToEightBits() throws IOException {
        // every 16-bit value once, as the red channel of a 256x256 image
        int[] samples = new int[256 * 256 * 3];
        for (int v = 0; v < 65536; v++) {
            samples[3 * v] = v;
        }
        byte[] data = PngBytes.zlib(PngBytes.imageData(256, 256, 16, 2, false, samples, new SplittableRandom(5)));
        Path file = write("rgb16.png", PngBytes.png(PngBytes.ihdr(256, 256, 16, 2, 0), idat(data), PngBytes.iend()));
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridReader.read(file, GridReadOptions.defaults().withColor(GridReadOptions.ColorMode.RGB), arena);
            for (int v = 0; v < 65536; v++) {
                assertEquals(Math.round(v * 255.0 / 65535) << 16, g.get(v), "16-bit red " + v);
            }
        }
    }
}
