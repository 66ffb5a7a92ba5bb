package org.ccl4j.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * The bytes of a {@code .csr} file laid out as docs/FORMATS.md says, written here apart from the
 * library's writer so that the tests compare the two, and with every field settable so that tests
 * make files whose header lies: counts, width, version and flags, a checksum that is recomputed
 * unless set, padding and trailing bytes.
 */
final class CsrBytes {
    static final byte[] MAGIC = {(byte) 0x89, 'C', 'S', 'R', '\r', '\n', 0x1A, '\n'};
    static final int HEADER = 40;

    private int version = 1;
    private int flags;
    private long vertices;
    private long arcs;
    private int width = Integer.BYTES;
    private Integer checksum;
    private long[] offsets;
    private int[] neighbors;
    private int padding;
    private int trailing;

    /** A file of the graph {@code offsets}, {@code neighbors}, whose header states its counts. */
    CsrBytes(long[] offsets, int[] neighbors) {
        this.offsets = offsets;
        this.neighbors = neighbors;
        this.vertices = offsets.length - 1;
        this.arcs = neighbors.length;
    }

    CsrBytes version(int value) {
        version = value;
        return this;
    }

    CsrBytes flags(int value) {
        flags = value;
        return this;
    }

    CsrBytes canonical() {
        return flags(1);
    }

    CsrBytes vertices(long value) {
        vertices = value;
        return this;
    }

    CsrBytes arcs(long value) {
        arcs = value;
        return this;
    }

    CsrBytes width(int value) {
        width = value;
        return this;
    }

    /** A checksum that is not the header's CRC-32. */
    CsrBytes checksum(int value) {
        checksum = value;
        return this;
    }

    /** Padding bytes of this value instead of zeros. */
    CsrBytes padding(int value) {
        padding = value;
        return this;
    }

    /** Bytes of garbage after the neighbours. */
    CsrBytes trailing(int count) {
        trailing = count;
        return this;
    }

    /** Where the neighbours start: after the offsets (4 bytes each unless the width is 8), at the next multiple of 8. */
    long neighborsAt() {
        return (HEADER + (long) storedWidth() * offsets.length + 7) / 8 * 8;
    }

    private int storedWidth() {
        return width == Long.BYTES ? Long.BYTES : Integer.BYTES;
    }

    byte[] bytes() {
        ByteBuffer b = ByteBuffer.allocate((int) (neighborsAt() + 4L * neighbors.length + trailing))
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(version).putInt(flags).putLong(vertices).putLong(arcs).putInt(width);
        CRC32 crc = new CRC32();
        crc.update(b.array(), 0, 36);
        b.putInt(checksum != null ? checksum : (int) crc.getValue());
        for (long o : offsets) {
            if (storedWidth() == Long.BYTES) {
                b.putLong(o);
            } else {
                b.putInt((int) o);
            }
        }
        while (b.position() < neighborsAt()) {
            b.put((byte) padding);
        }
        for (int t : neighbors) {
            b.putInt(t);
        }
        while (b.position() < b.capacity()) {
            b.put((byte) 0x5A);
        }
        return b.array();
    }
}
