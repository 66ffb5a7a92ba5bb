package org.ccl4j.io;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A buffer in front of an {@link OutputStream} that formats numbers by hand, in decimal or as
 * little-endian {@code int32}s and {@code int64}s, with no per-value allocation. {@link #flush()} empties it; the stream
 * is never closed here.
 */
final class OutputBuffer {
    private static final int BUFFER_BYTES = 1 << 16;
    private static final ValueLayout.OfInt LITTLE_ENDIAN_INT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LITTLE_ENDIAN_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final OutputStream out;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private final MemorySegment bufferSegment = MemorySegment.ofArray(buffer);
    private int size;

    OutputBuffer(OutputStream out) {
        this.out = out;
    }

    void writeByte(int b) throws IOException {
        if (size == BUFFER_BYTES) {
            drain();
        }
        buffer[size++] = (byte) b;
    }

    void writeAscii(String s) throws IOException {
        for (byte b : s.getBytes(StandardCharsets.US_ASCII)) {
            writeByte(b);
        }
    }

    void writeDecimal(long value) throws IOException {
        if (BUFFER_BYTES - size < 20) {
            drain();
        }
        if (value < 0) {
            buffer[size++] = '-';
            if (value == Long.MIN_VALUE) {
                writeAscii("9223372036854775808");
                return;
            }
            value = -value;
        }
        int digits = 1;
        for (long rest = value / 10; rest != 0; rest /= 10) {
            digits++;
        }
        for (int i = size + digits - 1; i >= size; i--) {
            buffer[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
    }

    void writeBytes(byte[] bytes) throws IOException {
        for (byte b : bytes) {
            writeByte(b);
        }
    }

    void writeIntLittleEndian(int value) throws IOException {
        if (BUFFER_BYTES - size < Integer.BYTES) {
            drain();
        }
        bufferSegment.set(LITTLE_ENDIAN_INT, size, value);
        size += Integer.BYTES;
    }

    /** Writes {@code count} native-order {@code int}s of {@code ints}, from index {@code from}, little-endian. */
    void writeIntsLittleEndian(MemorySegment ints, long from, long count) throws IOException {
        writeLittleEndian(ints, ValueLayout.JAVA_INT, LITTLE_ENDIAN_INT, from, count);
    }

    /** Writes {@code count} native-order {@code long}s of {@code longs}, from index {@code from}, little-endian. */
    void writeLongsLittleEndian(MemorySegment longs, long from, long count) throws IOException {
        writeLittleEndian(longs, ValueLayout.JAVA_LONG, LITTLE_ENDIAN_LONG, from, count);
    }

    private void writeLittleEndian(MemorySegment values, ValueLayout element, ValueLayout littleEndian, long from,
                                   long count) throws IOException {
        int bytes = (int) element.byteSize();
        while (count > 0) {
            if (BUFFER_BYTES - size < bytes) {
                drain();
            }
            int chunk = (int) Math.min(count, (BUFFER_BYTES - size) / bytes);
            MemorySegment.copy(values, element, from * bytes, bufferSegment, littleEndian, size, chunk);
            size += chunk * bytes;
            from += chunk;
            count -= chunk;
        }
    }

    void flush() throws IOException {
        drain();
        out.flush();
    }

    private void drain() throws IOException {
        out.write(buffer, 0, size);
        size = 0;
    }
}
