package org.ccl4j.io.grid;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Builds PNG files byte by byte for the reader's tests, following the specification: chunks with
 * their CRCs, and image data of any colour type, bit depth and interlace, every row filtered with a
 * filter type chosen at random, so that damaged variants can be made at known offsets. Public for
 * the fuzzing of every reader in {@code org.ccl4j.io.ReaderFuzzTest}.
 */
public final class PngBytes {
    static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    /** The Adam7 passes: first column, first row, column step, row step. */
    private static final int[][] ADAM7 = {
        {0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};

    private PngBytes() {
    }

    /** A chunk: length, type, data, CRC of type and data. */
    public static byte[] chunk(String type, byte[] data) {
        ByteBuffer b = ByteBuffer.allocate(12 + data.length);
        b.putInt(data.length).put(type.getBytes(StandardCharsets.ISO_8859_1)).put(data);
        CRC32 crc = new CRC32();
        crc.update(b.array(), 4, 4 + data.length);
        return b.putInt((int) crc.getValue()).array();
    }

    public static byte[] ihdr(int width, int height, int bitDepth, int colorType, int interlace) {
        return chunk("IHDR", ByteBuffer.allocate(13).putInt(width).putInt(height).put((byte) bitDepth)
                .put((byte) colorType).put((byte) 0).put((byte) 0).put((byte) interlace).array());
    }

    /** The palette chunk of {@code 0xRRGGBB} colours. */
    public static byte[] plte(int... colours) {
        ByteBuffer b = ByteBuffer.allocate(3 * colours.length);
        for (int c : colours) {
            b.put((byte) (c >> 16)).put((byte) (c >> 8)).put((byte) c);
        }
        return chunk("PLTE", b.array());
    }

    public static byte[] iend() {
        return chunk("IEND", new byte[0]);
    }

    /** The signature followed by the chunks. */
    public static byte[] png(byte[]... chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(SIGNATURE);
        for (byte[] c : chunks) {
            out.writeBytes(c);
        }
        return out.toByteArray();
    }

    public static byte[] zlib(byte[] raw) {
        Deflater deflater = new Deflater();
        deflater.setInput(raw);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }

    public static int channels(int colorType) {
        return switch (colorType) {
            case 0, 3 -> 1;
            case 4 -> 2;
            case 2 -> 3;
            default -> 4;
        };
    }

    /**
     * The inflated image data: each row of each pass (one pass unless interlaced) with its filter
     * byte. {@code samples} holds the channels of every pixel, row-major; {@code filters} picks
     * each row's filter type.
     */
    public static byte[] imageData(int width, int height, int bitDepth, int colorType, boolean interlaced, int[] samples,
                            SplittableRandom filters) {
        int channels = channels(colorType);
        int bitsPerPixel = channels * bitDepth;
        int bpp = Math.max(1, bitsPerPixel / 8);
        int[][] passes = interlaced ? ADAM7 : new int[][] {{0, 0, 1, 1}};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int[] p : passes) {
            int pixels = p[0] < width ? (width - p[0] + p[2] - 1) / p[2] : 0;
            int rows = p[1] < height ? (height - p[1] + p[3] - 1) / p[3] : 0;
            if (pixels == 0 || rows == 0) {
                continue;
            }
            int rowBytes = (pixels * bitsPerPixel + 7) / 8;
            byte[] prior = new byte[rowBytes];
            for (int r = 0; r < rows; r++) {
                byte[] raw = new byte[rowBytes];
                int y = p[1] + r * p[3];
                int bit = 0;
                for (int i = 0; i < pixels; i++) {
                    int x = p[0] + i * p[2];
                    for (int c = 0; c < channels; c++) {
                        int v = samples[(y * width + x) * channels + c];
                        if (bitDepth == 16) {
                            raw[bit >> 3] = (byte) (v >> 8);
                            raw[(bit >> 3) + 1] = (byte) v;
                        } else {
                            raw[bit >> 3] |= (byte) (v << (8 - bitDepth - (bit & 7)));
                        }
                        bit += bitDepth;
                    }
                }
                int filter = filters.nextInt(5);
                out.write(filter);
                for (int i = 0; i < rowBytes; i++) {
                    int a = i >= bpp ? raw[i - bpp] & 0xFF : 0;
                    int b = prior[i] & 0xFF;
                    int c = i >= bpp ? prior[i - bpp] & 0xFF : 0;
                    int predictor = switch (filter) {
                        case 0 -> 0;
                        case 1 -> a;
                        case 2 -> b;
                        case 3 -> (a + b) / 2;
                        default -> paeth(a, b, c);
                    };
                    out.write(raw[i] - predictor);
                }
                prior = raw;
            }
        }
        return out.toByteArray();
    }

    private static int paeth(int a, int b, int c) {
        int p = a + b - c;
        int pa = Math.abs(p - a);
        int pb = Math.abs(p - b);
        int pc = Math.abs(p - c);
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
}
