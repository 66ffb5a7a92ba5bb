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
 *     ({@link GraphFile#vertexIds()}), {@code id label}, the id as the file has it (numbers, or text,
 *     quoted as CSV does when it holds a comma, a quote or whitespace). Labels are written as they
 *     are: they name vertices (or compacted component numbers) of the graph, not ids of the file.</li>
 * </ul>
 * To keep binary labels together with a file's ids, write the ids beside them with
 * {@link VertexIds#writeCsv(Path)}.
 * The stream variants flush the stream but leave it open (it may be {@code System.out}).
 */
public final class LabelWriter {
    private LabelWriter() {
    }

    /**
     * Writes the first {@code vertexCount} labels to {@code file} as little-endian {@code int32}s.
     *
     * @param labels      native-order {@code int32} labels
     * @param vertexCount how many to write
     * @param file        the file, created or replaced
     * @throws IOException when the file cannot be written
     */
    public static void writeBinary(MemorySegment labels, int vertexCount, Path file) throws IOException {
        checkLabels(labels, vertexCount);
        try (OutputStream out = Files.newOutputStream(file)) {
            writeBinary(labels, vertexCount, out);
        }
    }

    /**
     * Writes the first {@code vertexCount} labels to {@code out} as little-endian {@code int32}s.
     *
     * @param labels      native-order {@code int32} labels
     * @param vertexCount how many to write
     * @param out         the stream, flushed and left open
     * @throws IOException when the stream cannot be written
     */
    public static void writeBinary(MemorySegment labels, int vertexCount, OutputStream out) throws IOException {
        checkLabels(labels, vertexCount);
        OutputBuffer buffer = new OutputBuffer(out);
        buffer.writeIntsLittleEndian(labels, 0, vertexCount);
        buffer.flush();
    }

    /**
     * Writes one line {@code vertex label} per vertex to {@code file}, or {@code originalId label} when
     * {@code originalIds} ({@code vertexCount} native-order {@code int64}s) is not null.
     *
     * @param labels      native-order {@code int32} labels
     * @param vertexCount how many to write
     * @param originalIds the file's numeric id of each vertex, or null
     * @param file        the file, created or replaced
     * @throws IOException when the file cannot be written
     */
    public static void writeText(MemorySegment labels, int vertexCount, MemorySegment originalIds, Path file)
            throws IOException {
        checkLabels(labels, vertexCount);
        checkIds(originalIds, vertexCount);
        try (OutputStream out = Files.newOutputStream(file)) {
            writeText(labels, vertexCount, originalIds, out);
        }
    }

    /**
     * As {@link #writeText(MemorySegment, int, MemorySegment, Path)}, to a stream.
     *
     * @param labels      native-order {@code int32} labels
     * @param vertexCount how many to write
     * @param originalIds the file's numeric id of each vertex, or null
     * @param out         the stream, flushed and left open
     * @throws IOException when the stream cannot be written
     */
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

    /**
     * Writes one line {@code vertex label} per vertex to {@code file}, or {@code id label} with the
     * file's id of each vertex when {@code ids} is not null (as {@link GraphFile#vertexIds()} gives
     * them, numbers or text).
     *
     * @param labels      native-order {@code int32} labels
     * @param vertexCount how many to write
     * @param ids         the file's ids, at least {@code vertexCount} of them, or null
     * @param file        the file, created or replaced
     * @throws IOException when the file cannot be written
     */
    public static void writeText(MemorySegment labels, int vertexCount, VertexIds ids, Path file) throws IOException {
        checkLabels(labels, vertexCount);
        checkIds(ids, vertexCount);
        try (OutputStream out = Files.newOutputStream(file)) {
            writeText(labels, vertexCount, ids, out);
        }
    }

    /**
     * As {@link #writeText(MemorySegment, int, VertexIds, Path)}, to a stream.
     *
     * @param labels      native-order {@code int32} labels
     * @param vertexCount how many to write
     * @param ids         the file's ids, at least {@code vertexCount} of them, or null
     * @param out         the stream, flushed and left open
     * @throws IOException when the stream cannot be written
     */
    public static void writeText(MemorySegment labels, int vertexCount, VertexIds ids, OutputStream out)
            throws IOException {
        checkLabels(labels, vertexCount);
        checkIds(ids, vertexCount);
        OutputBuffer buffer = new OutputBuffer(out);
        for (int v = 0; v < vertexCount; v++) {
            if (ids == null) {
                buffer.writeDecimal(v);
            } else {
                ids.writeId(buffer, v);
            }
            buffer.writeByte(' ');
            buffer.writeDecimal(labels.getAtIndex(ValueLayout.JAVA_INT, v));
            buffer.writeByte('\n');
        }
        buffer.flush();
    }

    private static void checkIds(VertexIds ids, int vertexCount) {
        if (ids != null && ids.count() < vertexCount) {
            throw new IllegalArgumentException("vertex ids holds " + ids.count() + " ids, fewer than the "
                    + vertexCount + " labels");
        }
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
