package org.ccl4j.io;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes component labels: one native-order {@code int32} per vertex in a {@link MemorySegment}
 * (as {@code Labels.segment()} holds them).
 * <ul>
 * <li>Binary: the labels as raw little-endian {@code int32}s, {@code 4 n} bytes, nothing else.</li>
 * <li>Text: one line per vertex, {@code vertex label}; when the reader renumbered the file's ids
 *     ({@link GraphFile#originalIds()}), {@code originalId label}. Labels are written as they are:
 *     they name vertices (or compacted component numbers) of the graph, not ids of the file.</li>
 * </ul>
 * The stream variants flush the stream but leave it open (it may be {@code System.out}).
 */
public final class LabelWriter {
    private LabelWriter() {
    }

    /** Writes the first {@code vertexCount} labels to {@code file} as little-endian {@code int32}s. */
    public static void writeBinary(MemorySegment labels, int vertexCount, Path file) throws IOException {
        checkLabels(labels, vertexCount);
        try (OutputStream out = Files.newOutputStream(file)) {
            writeBinary(labels, vertexCount, out);
        }
    }

    /** Writes the first {@code vertexCount} labels to {@code out} as little-endian {@code int32}s. */
    public static void writeBinary(MemorySegment labels, int vertexCount, OutputStream out) throws IOException {
        checkLabels(labels, vertexCount);
        OutputBuffer buffer = new OutputBuffer(out);
        buffer.writeIntsLittleEndian(labels, 0, vertexCount);
        buffer.flush();
    }

    /**
     * Writes one line {@code vertex label} per vertex to {@code file}, or {@code originalId label} when
     * {@code originalIds} ({@code vertexCount} native-order {@code int64}s) is not null.
     */
    public static void writeText(MemorySegment labels, int vertexCount, MemorySegment originalIds, Path file)
            throws IOException {
        checkLabels(labels, vertexCount);
        checkIds(originalIds, vertexCount);
        try (OutputStream out = Files.newOutputStream(file)) {
            writeText(labels, vertexCount, originalIds, out);
        }
    }

    /** As {@link #writeText(MemorySegment, int, MemorySegment, Path)}, to a stream. */
    public static void writeText(MemorySegment labels, int vertexCount, MemorySegment originalIds, OutputStream out)
            throws IOException {
        checkLabels(labels, vertexCount);
        checkIds(originalIds, vertexCount);
        OutputBuffer buffer = new OutputBuffer(out);
        for (int v = 0; v < vertexCount; v++) {
            buffer.writeDecimal(originalIds == null ? v : originalIds.getAtIndex(ValueLayout.JAVA_LONG, v));
            buffer.writeByte(' ');
            buffer.writeDecimal(labels.getAtIndex(ValueLayout.JAVA_INT, v));
            buffer.writeByte('\n');
        }
        buffer.flush();
    }

    private static void checkLabels(MemorySegment labels, int vertexCount) {
        Objects.requireNonNull(labels, "labels");
        if (vertexCount < 0 || labels.byteSize() < (long) vertexCount * Integer.BYTES) {
            throw new IllegalArgumentException("labels segment of " + labels.byteSize() + " bytes does not hold "
                    + vertexCount + " int32 labels");
        }
    }

    private static void checkIds(MemorySegment originalIds, int vertexCount) {
        if (originalIds != null && originalIds.byteSize() < (long) vertexCount * Long.BYTES) {
            throw new IllegalArgumentException("original ids segment of " + originalIds.byteSize()
                    + " bytes does not hold " + vertexCount + " int64 ids");
        }
    }
}
