package org.ccl4j.io.grid;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A decoder written from the PNG specification (chunks with their CRCs, zlib, the five row
 * filters), for non-interlaced greyscale and RGB images of 8 or 16 bits: a second tool, independent
 * of {@code javax.imageio}, that the files the library writes must satisfy.
 */
final class PngSpec {
    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    /** The header fields and the samples, row by row, channel by channel (16-bit samples unsigned). */
    record Image(int width, int height, int bitDepth, int colorType, int interlace, int[] samples) {
        int channels() {
            return colorType == 2 ? 3 : 1;
        }

        int sample(int x, int y, int channel) {
            return samples[(y * width + x) * channels() + channel];
        }
    }

    private PngSpec() {
    }

    static Image decode(Path file) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file));
        byte[] signature = new byte[8];
        in.get(signature);
        check(Arrays.equals(signature, SIGNATURE), "signature");
        ByteArrayOutputStream idat = new ByteArrayOutputStream();
        int width = 0;
        int height = 0;
        int bitDepth = 0;
        int colorType = 0;
        int interlace = 0;
        boolean first = true;
        while (true) {
            int length = in.getInt();
            byte[] type = new byte[4];
            in.get(type);
            byte[] data = new byte[length];
            in.get(data);
            CRC32 crc = new CRC32();
            crc.update(type);
            crc.update(data);
            String name = new String(type, StandardCharsets.US_ASCII);
            check(in.getInt() == (int) crc.getValue(), "CRC of " + name);
            check(!first || name.equals("IHDR"), "IHDR first");
            first = false;
            if (name.equals("IHDR")) {
                ByteBuffer h = ByteBuffer.wrap(data);
                width = h.getInt();
                height = h.getInt();
                bitDepth = h.get();
                colorType = h.get();
                check(h.get() == 0 && h.get() == 0, "compression and filter method 0");
                interlace = h.get();
            } else if (name.equals("IDAT")) {
                idat.write(data);
            } else if (name.equals("IEND")) {
                check(!in.hasRemaining(), "nothing after IEND");
                break;
            }
        }
        check(interlace == 0, "not interlaced");
        check(colorType == 0 || colorType == 2, "grey or RGB, got colour type " + colorType);
        check(bitDepth == 8 || bitDepth == 16, "8 or 16 bits, got " + bitDepth);
        int channels = colorType == 2 ? 3 : 1;
        int bytesPerPixel = channels * bitDepth / 8;
        int rowBytes = width * bytesPerPixel;
        byte[] raw = inflate(idat.toByteArray(), height * (rowBytes + 1));
        int[] samples = new int[width * height * channels];
        byte[] previous = new byte[rowBytes];
        byte[] row = new byte[rowBytes];
        for (int y = 0; y < height; y++) {
            int filter = raw[y * (rowBytes + 1)];
            System.arraycopy(raw, y * (rowBytes + 1) + 1, row, 0, rowBytes);
            for (int i = 0; i < rowBytes; i++) {
                int a = i >= bytesPerPixel ? row[i - bytesPerPixel] & 0xFF : 0;
                int b = previous[i] & 0xFF;
                int c = i >= bytesPerPixel ? previous[i - bytesPerPixel] & 0xFF : 0;
                int predictor = switch (filter) {
                    case 0 -> 0;
                    case 1 -> a;
                    case 2 -> b;
                    case 3 -> (a + b) / 2;
                    case 4 -> paeth(a, b, c);
                    default -> throw new AssertionError("row " + y + " has filter type " + filter);
                };
                row[i] = (byte) (row[i] + predictor);
            }
            for (int s = 0; s < width * channels; s++) {
                samples[y * width * channels + s] = bitDepth == 8 ? row[s] & 0xFF
                        : (row[2 * s] & 0xFF) << 8 | row[2 * s + 1] & 0xFF;
            }
            byte[] swap = previous;
            previous = row;
            row = swap;
        }
        return new Image(width, height, bitDepth, colorType, interlace, samples);
    }

    private static int paeth(int a, int b, int c) {
        int p = a + b - c;
        int pa = Math.abs(p - a);
        int pb = Math.abs(p - b);
        int pc = Math.abs(p - c);
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }

    private static byte[] inflate(byte[] zlib, int expected) throws IOException {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(zlib);
            byte[] out = new byte[expected];
            int n = 0;
            while (n < expected && !inflater.finished()) {
                int got = inflater.inflate(out, n, expected - n);
                check(got > 0 || !inflater.needsInput(), "the zlib stream ends early");
                n += got;
            }
            check(n == expected, "inflated " + n + " bytes, expected " + expected);
            byte[] more = new byte[1];
            check(inflater.inflate(more) == 0 && inflater.finished(), "the zlib stream ends with the image data");
            return out;
        } catch (DataFormatException e) {
            throw new IOException("bad zlib data", e);
        } finally {
            inflater.end();
        }
    }

    private static void check(boolean condition, String what) throws IOException {
        if (!condition) {
            throw new IOException("not a valid PNG: " + what);
        }
    }
}
