package org.ccl4j.io.grid;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * A streaming PNG encoder: rows are produced one at a time and deflated straight into IDAT chunks,
 * so an image of any size needs memory for one row only (unlike a {@code BufferedImage}).
 * Filter type 0 on every row, fast compression.
 */
final class PngEncoder {
    static final int GREY = 0;
    static final int RGB = 2;
    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    private static final int IDAT_BYTES = 1 << 16;

    /** Produces the bytes of one row, without the filter byte. */
    interface Rows {
        void fill(int y, byte[] row);
    }

    private PngEncoder() {
    }

    /**
     * Writes a {@code width × height} PNG of colour type {@link #GREY} or {@link #RGB} with 8 or 16
     * bits a sample (16-bit samples big-endian, as PNG stores them).
     */
    static void write(Path file, int width, int height, int colorType, int bitDepth, Rows rows) throws IOException {
        long rowBytes = (long) width * (colorType == RGB ? 3 : 1) * (bitDepth / 8);
        if (rowBytes > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("an image " + width + " pixels wide is too wide to write");
        }
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
            out.write(SIGNATURE);
            byte[] header = new byte[13];
            putInt(header, 0, width);
            putInt(header, 4, height);
            header[8] = (byte) bitDepth;
            header[9] = (byte) colorType;
            // compression 0, filter method 0, no interlace
            chunk(out, "IHDR", header, header.length);
            Deflater deflater = new Deflater(Deflater.BEST_SPEED);
            try {
                IdatStream idat = new IdatStream(out);
                try (DeflaterOutputStream z = new DeflaterOutputStream(idat, deflater, IDAT_BYTES)) {
                    byte[] row = new byte[(int) rowBytes];
                    for (int y = 0; y < height; y++) {
                        rows.fill(y, row);
                        z.write(0);
                        z.write(row);
                    }
                }
            } finally {
                deflater.end();
            }
            chunk(out, "IEND", new byte[0], 0);
        }
    }

    private static void putInt(byte[] b, int at, int value) {
        b[at] = (byte) (value >>> 24);
        b[at + 1] = (byte) (value >>> 16);
        b[at + 2] = (byte) (value >>> 8);
        b[at + 3] = (byte) value;
    }

    private static void chunk(DataOutputStream out, String type, byte[] data, int length) throws IOException {
        byte[] name = type.getBytes(StandardCharsets.US_ASCII);
        CRC32 crc = new CRC32();
        crc.update(name);
        crc.update(data, 0, length);
        out.writeInt(length);
        out.write(name);
        out.write(data, 0, length);
        out.writeInt((int) crc.getValue());
    }

    /** Collects the zlib stream into IDAT chunks; closing it writes the last one but not the file. */
    private static final class IdatStream extends OutputStream {
        private final DataOutputStream out;
        private final byte[] data = new byte[IDAT_BYTES];
        private int length;

        IdatStream(DataOutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            if (length == data.length) {
                flushChunk();
            }
            data[length++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (length == data.length) {
                    flushChunk();
                }
                int n = Math.min(len, data.length - length);
                System.arraycopy(b, off, data, length, n);
                length += n;
                off += n;
                len -= n;
            }
        }

        void flushChunk() throws IOException {
            if (length > 0) {
                chunk(out, "IDAT", data, length);
                length = 0;
            }
        }

        @Override
        public void close() throws IOException {
            flushChunk();
        }
    }
}
