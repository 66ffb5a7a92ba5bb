package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads Netpbm greymaps, {@code P2} (ASCII) and {@code P5} (binary), one image per file. The header
 * is magic number, width, height and maxval (1..65535) separated by whitespace, with {@code #}
 * comments to the end of the line between them; P5 samples follow after exactly one whitespace
 * byte (or CR LF, when the file size shows that the LF is not a sample), one byte each when
 * maxval is below 256, else two bytes big-endian. P2 samples are decimal
 * numbers separated by whitespace (comments are accepted there too). Maxval up to 255 gives a uint8
 * grid, larger (up to 65535) a uint16 grid; the values are the samples, never rescaled.
 *
 * <p>Errors name the line (header, P2 samples) or the byte offset (P5 samples). The file size is
 * checked against the header before the grid is allocated, so a truncated file or a bogus header
 * fails at once.
 */
final class PgmReader {
    private PgmReader() {
    }

    /**
     * Reads the greymap in {@code data}.
     *
     * @param content the file to read (a temporary copy for streams and compressed files)
     * @param file    how errors name it
     */
    static Grid read(Path content, Path file, GridReadOptions options, Arena arena) throws IOException {
        long size = Files.size(content);
        if (size == 0) {
            throw new ImageFormatException(file, -1, -1, "the file is empty");
        }
        try (Input in = new Input(content, file)) {
            int p = in.read();
            int kind = in.read();
            if (p != 'P' || kind < '0' || kind > '9') {
                throw new ImageFormatException(file, -1, 0, "not a PGM file: it does not start with P2 or P5");
            }
            if (kind != '2' && kind != '5') {
                throw new ImageFormatException(file, 1, -1, "magic number P" + (char) kind + " is "
                        + switch (kind) {
                            case '1', '4' -> "a bitmap (PBM)";
                            case '3', '6' -> "a pixmap (PPM)";
                            case '7' -> "a PAM file";
                            default -> "not a Netpbm format";
                        } + ", not a greymap: only P2 and P5 are read");
            }
            boolean ascii = kind == '2';
            int width = in.headerNumber("width", Integer.MAX_VALUE);
            int height = in.headerNumber("height", Integer.MAX_VALUE);
            if ((long) width * height > Integer.MAX_VALUE) {
                throw new ImageFormatException(file, in.line(), -1, "the image is " + width + "x" + height
                        + ", more than the " + Integer.MAX_VALUE + " cells a greymap is read into; larger grids are read"
                        + " from raw files");
            }
            int maxval = in.headerNumber("maxval", 65535);
            int separator = in.read();
            if (!isWhitespace(separator)) {
                throw in.error(separator < 0 ? "the file ends right after maxval" : "maxval must be followed by one "
                        + "whitespace byte, found '" + (char) separator + "'");
            }
            GridDims dims = new GridDims(width, height, 1);
            GridReader.checkDims(file, dims, options);
            int cells = (int) dims.cellCount();  // checked above
            long rasterStart = in.offset();
            if (ascii) {
                // The shortest P2 raster is one digit per sample with single separators.
                if (size - rasterStart < 2L * cells - 1) {
                    throw new ImageFormatException(file, -1, size, "truncated: " + cells + " samples need at least "
                            + (2L * cells - 1) + " bytes after the header, the file has " + (size - rasterStart));
                }
            } else {
                long need = (long) cells * (maxval < 256 ? 1 : 2);
                // Some writers end the header with CR LF: the LF is not a sample when the size says so.
                if (separator == '\r' && size - rasterStart == need + 1 && in.peek() == '\n') {
                    in.read();
                    rasterStart++;
                }
                if (size - rasterStart != need) {
                    throw new ImageFormatException(file, -1, Math.min(size, rasterStart + need), "the raster of a "
                            + width + "x" + height + " image with maxval " + maxval + " is " + need + " bytes after the "
                            + "header (which ends at byte " + rasterStart + "), the file has " + (size - rasterStart)
                            + (size - rasterStart < need ? ": it is truncated" : ": a file holds one image"));
                }
            }
            CellSink sink = new CellSink(arena, dims, maxval < 256 ? Grid.CellType.U8 : Grid.CellType.U16,
                    options.threshold());
            if (ascii) {
                readAscii(in, sink, width, cells, maxval);
            } else {
                readBinary(in, file, sink, cells, maxval, rasterStart);
            }
            return sink.grid();
        }
    }

    private static void readAscii(Input in, CellSink sink, int width, int cells, int maxval) throws IOException {
        for (int i = 0; i < cells; i++) {
            int c = in.skipSpace();
            if (c < 0) {
                throw in.error("the file ends after " + i + " of " + cells + " samples");
            }
            if (c < '0' || c > '9') {
                throw in.error("expected sample " + i + " (x=" + i % width + ", y=" + i / width
                        + ") as a decimal number, found '" + (char) c + "'");
            }
            long value = 0;
            while (c >= '0' && c <= '9') {
                value = Math.min(value * 10 + (c - '0'), 1L << 32);
                in.read();
                c = in.peek();
            }
            if (value > maxval) {
                throw in.error("sample " + (value >= 1L << 32 ? "value" : value) + " at x=" + i % width + ", y="
                        + i / width + " exceeds maxval " + maxval);
            }
            sink.put(i, (int) value);
        }
        int c = in.skipSpace();
        if (c >= 0) {
            throw in.error("unexpected '" + (char) c + "' after the " + cells + " samples: a file holds one image");
        }
    }

    private static void readBinary(Input in, Path file, CellSink sink, int cells, int maxval, long rasterStart)
            throws IOException {
        boolean wide = maxval >= 256;
        byte[] chunk = new byte[1 << 16];
        int index = 0;
        long offset = rasterStart;
        while (index < cells) {
            int samples = Math.min(chunk.length / (wide ? 2 : 1), cells - index);
            int bytes = samples * (wide ? 2 : 1);
            if (in.readFully(chunk, bytes) < bytes) {
                throw new ImageFormatException(file, -1, offset, "truncated: the file ends inside the raster");
            }
            for (int k = 0; k < samples; k++) {
                int value = wide ? (chunk[2 * k] & 0xFF) << 8 | (chunk[2 * k + 1] & 0xFF) : chunk[k] & 0xFF;
                if (value > maxval) {
                    throw new ImageFormatException(file, -1, offset + (long) k * (wide ? 2 : 1), "sample " + value
                            + " exceeds maxval " + maxval);
                }
                sink.put(index + k, value);
            }
            index += samples;
            offset += bytes;
        }
    }

    static boolean isWhitespace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }

    /** Buffered bytes of the file with the offset and line of the next byte. */
    private static final class Input implements Closeable {
        private final Path file;
        private final InputStream in;
        private final byte[] buffer = new byte[1 << 16];
        private int position;
        private int limit;
        private long consumed;
        private long line = 1;

        Input(Path content, Path file) throws IOException {
            this.file = file;
            this.in = Files.newInputStream(content);
        }

        long offset() {
            return consumed;
        }

        long line() {
            return line;
        }

        int peek() throws IOException {
            if (position == limit) {
                limit = Math.max(0, in.read(buffer, 0, buffer.length));
                position = 0;
                if (limit == 0) {
                    return -1;
                }
            }
            return buffer[position] & 0xFF;
        }

        int read() throws IOException {
            int c = peek();
            if (c >= 0) {
                position++;
                consumed++;
                if (c == '\n') {
                    line++;
                }
            }
            return c;
        }

        /** Reads up to {@code length} bytes into {@code dst}; returns how many there were. */
        int readFully(byte[] dst, int length) throws IOException {
            int done = Math.min(length, limit - position);
            System.arraycopy(buffer, position, dst, 0, done);
            position += done;
            while (done < length) {
                int n = in.read(dst, done, length - done);
                if (n < 0) {
                    break;
                }
                done += n;
            }
            consumed += done;
            return done;
        }

        /** Skips whitespace and {@code #} comments; returns the next byte (not consumed) or -1. */
        int skipSpace() throws IOException {
            while (true) {
                int c = peek();
                if (c == '#') {
                    while (c >= 0 && c != '\n' && c != '\r') {
                        read();
                        c = peek();
                    }
                } else if (isWhitespace(c)) {
                    read();
                } else {
                    return c;
                }
            }
        }

        int headerNumber(String what, int max) throws IOException {
            int c = skipSpace();
            if (c < 0) {
                throw error("the file ends before the " + what);
            }
            if (c == '-') {
                throw error("the " + what + " is negative");
            }
            if (c < '0' || c > '9') {
                throw error("expected the " + what + " (a decimal number), found '" + (char) c + "'");
            }
            long value = 0;
            while (c >= '0' && c <= '9') {
                value = Math.min(value * 10 + (c - '0'), 1L << 40);
                read();
                c = peek();
            }
            if (value < 1 || value > max) {
                throw error(what + " " + (value >= 1L << 40 ? "value" : value) + " is out of range 1.." + max);
            }
            return (int) value;
        }

        ImageFormatException error(String reason) {
            return new ImageFormatException(file, line, -1, reason);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
