package org.ccl4j.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.zip.CRC32;
import org.ccl4j.CsrGraph;
import org.ccl4j.io.internal.Magic;

/**
 * The 40-byte header of a {@code .csr} file, ccl4j's binary CSR ({@link GraphFormat#CSR}), and where
 * it puts the arrays. docs/FORMATS.md is the specification; this is its one implementation, for the
 * reader ({@link #read}: every field checked against the others and the file's size, each refusal
 * naming the byte offset and the value) and the writer ({@link #bytes}).
 *
 * @param flags       the flags: {@link #CANONICAL} or none
 * @param vertexCount {@code n}
 * @param arcCount    {@code m}
 * @param offsetBytes the width of an offset, 4 or 8
 */
record CsrHeader(int flags, int vertexCount, long arcCount, int offsetBytes) {
    /** The header's size, a multiple of 8 so that the offsets that follow it are aligned. */
    static final int BYTES = 40;
    /** The version this code reads and writes. */
    static final int VERSION = 1;
    /** Flag bit 0: every list strictly increasing without self loops, every arc's reverse present. */
    static final int CANONICAL = 1;

    private static final int VERSION_AT = 8;
    private static final int FLAGS_AT = 12;
    private static final int VERTICES_AT = 16;
    private static final int ARCS_AT = 24;
    private static final int WIDTH_AT = 32;
    private static final int CHECKSUM_AT = 36;
    private static final byte[] MAGIC = Magic.csrSignature();

    /** The header of {@code graph} as written: its offsets as wide as the graph's, flagged when {@code canonical}. */
    static CsrHeader of(CsrGraph graph, boolean canonical) {
        return new CsrHeader(canonical ? CANONICAL : 0, graph.vertexCount(), graph.arcCount(), graph.offsetBytes());
    }

    /** Whether the file says that its graph is canonical. */
    boolean canonical() {
        return (flags & CANONICAL) != 0;
    }

    /** Where the arrays lie: the offsets right after the header, the neighbours at the next multiple of 8. */
    MappedCsr.Layout layout() {
        long offsetsEnd = BYTES + (long) offsetBytes * (vertexCount + 1L);
        return new MappedCsr.Layout(vertexCount, arcCount, offsetBytes, BYTES, alignedTo8(offsetsEnd));
    }

    /** The zero bytes between the offsets and the neighbours: 0 or 4. */
    int padding() {
        MappedCsr.Layout layout = layout();
        return (int) (layout.neighborsAt() - layout.offsetAt(vertexCount + 1L));
    }

    /** The header's 40 bytes, the checksum included. */
    byte[] bytes() {
        ByteBuffer header = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC).putInt(VERSION).putInt(flags).putLong(vertexCount).putLong(arcCount).putInt(offsetBytes);
        header.putInt(checksum(header.array()));
        return header.array();
    }

    /**
     * Reads the header of {@code channel}, the content of {@code file}, and checks it: the magic
     * bytes, the version, the checksum, each field, then the file's size against the one the fields
     * give and the padding. The arrays are checked once mapped ({@link MappedCsr}).
     *
     * @throws GraphFormatException naming the byte offset and the value of the first field at fault
     */
    static CsrHeader read(Path file, FileChannel channel) throws IOException {
        long size = channel.size();
        byte[] head = readAt(channel, 0, (int) Math.min(BYTES, size));
        ByteBuffer bytes = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        if (size == 0) {
            throw new GraphFormatException(file, -1, -1, "the file is empty");
        }
        int magic = (int) Math.min(MAGIC.length, size);
        if (!Arrays.equals(head, 0, magic, MAGIC, 0, magic)) {
            throw new GraphFormatException(file, -1, 0, "the file starts with " + hex(head, magic)
                    + ", not with the " + MAGIC.length + " bytes " + hex(MAGIC, MAGIC.length) + " of a .csr file");
        }
        if (size < BYTES) {
            throw new GraphFormatException(file, -1, size, "the file ends after " + size + " bytes, inside the "
                    + BYTES + "-byte .csr header: it is truncated");
        }
        int version = bytes.getInt(VERSION_AT);
        if (version != VERSION) {
            throw new GraphFormatException(file, -1, VERSION_AT, "format version " + Integer.toUnsignedString(version)
                    + " is not supported: this reader reads version " + VERSION);
        }
        int stored = bytes.getInt(CHECKSUM_AT);
        int computed = checksum(head);
        if (stored != computed) {
            throw new GraphFormatException(file, -1, CHECKSUM_AT, String.format(Locale.ROOT, "header checksum 0x%08x is not"
                    + " 0x%08x, the CRC-32 of bytes 0..%d: the header is damaged", stored, computed, CHECKSUM_AT - 1));
        }
        int flags = bytes.getInt(FLAGS_AT);
        if ((flags & ~CANONICAL) != 0) {
            throw new GraphFormatException(file, -1, FLAGS_AT, String.format(Locale.ROOT, "flags 0x%08x set bits that version %d"
                    + " does not define (0x%08x); bit 0 (canonical) is the only one", flags, VERSION, flags & ~CANONICAL));
        }
        long n = bytes.getLong(VERTICES_AT);
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new GraphFormatException(file, -1, VERTICES_AT, "vertex count " + n + " is outside 0.."
                    + Integer.MAX_VALUE + " (vertex ids are 32-bit)");
        }
        long m = bytes.getLong(ARCS_AT);
        if (m < 0) {
            throw new GraphFormatException(file, -1, ARCS_AT, "arc count " + m + " is negative");
        }
        int width = bytes.getInt(WIDTH_AT);
        if (width != Integer.BYTES && width != Long.BYTES) {
            throw new GraphFormatException(file, -1, WIDTH_AT, "offset width " + Integer.toUnsignedString(width)
                    + " is not 4 or 8 bytes");
        }
        if (width == Integer.BYTES && m > Integer.MAX_VALUE) {
            throw new GraphFormatException(file, -1, ARCS_AT, "arc count " + m + " does not fit the 4-byte offsets"
                    + " that byte " + WIDTH_AT + " declares (at most " + Integer.MAX_VALUE + ")");
        }
        CsrHeader header = new CsrHeader(flags, (int) n, m, width);
        MappedCsr.Layout layout = header.layout();
        // an arc count past any file's size would overflow the size in bytes
        long needed = m > (Long.MAX_VALUE - layout.neighborsAt()) / Integer.BYTES ? Long.MAX_VALUE : layout.end();
        if (size != needed) {
            throw new GraphFormatException(file, -1, Math.min(size, needed), "the file is " + size + " bytes but its"
                    + " header (" + n + " vertices, " + m + " arcs, " + width + "-byte offsets) needs "
                    + (needed == Long.MAX_VALUE ? "more than " + Long.MAX_VALUE : needed) + " bytes"
                    + (size < needed ? ": it is truncated" : ": " + (size - needed) + " bytes follow the neighbours"));
        }
        long paddingAt = layout.offsetAt(n + 1);
        byte[] padding = readAt(channel, paddingAt, header.padding());
        if (!Arrays.equals(padding, new byte[padding.length])) {
            throw new GraphFormatException(file, -1, paddingAt, "the padding after the offsets is "
                    + hex(padding, padding.length) + ", must be zero bytes");
        }
        return header;
    }

    /** CRC-32 (as zlib and gzip compute it) of the header's first 36 bytes. */
    private static int checksum(byte[] header) {
        CRC32 crc = new CRC32();
        crc.update(header, 0, CHECKSUM_AT);
        return (int) crc.getValue();
    }

    private static byte[] readAt(FileChannel channel, long position, int count) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(count);
        while (buffer.hasRemaining() && channel.read(buffer, position + buffer.position()) > 0) {
            // read them all, however the channel splits them
        }
        return buffer.array();
    }

    private static String hex(byte[] bytes, int count) {
        return HexFormat.ofDelimiter(" ").formatHex(bytes, 0, count);
    }

    private static long alignedTo8(long bytes) {
        return (bytes + 7) & ~7L;
    }
}
