package org.ccl4j.io;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The ids of a file's vertices, when the reader numbered them {@code 0..n-1} in order of first
 * appearance instead of taking them as vertex numbers ({@link GraphFile#vertexIds()}): vertex
 * {@code v} of the graph is id {@link #id(int) id(v)} of the file.
 *
 * <p>The ids are numbers (SNAP ids, and edge-list ids beyond {@code int} range: {@link #isNumeric()},
 * {@link #numericIds()}), or text (edge lists with ids such as {@code alice} or {@code P12345}):
 * the bytes of the file, unquoted, which {@link #id(int)} decodes as UTF-8 and
 * {@link #writeCsv(Path)} writes as they are. Once an edge list holds an id that is not a
 * number, every id is text, and numeric ids are written in their shortest decimal form
 * ({@code 007} is the vertex {@code 7}).
 *
 * <p>The ids live off-heap in the arena the graph was read into: 8 bytes a vertex for numbers; for
 * text, the text plus 8 bytes a vertex.
 */
public final class VertexIds {
    private final int count;
    /** Numeric ids: {@code count} native-order int64s; null for text. */
    private final MemorySegment numbers;
    /** Text ids: their bytes, one after the other; null for numbers. */
    private final MemorySegment text;
    /** Text ids: {@code count + 1} offsets into {@link #text}; null for numbers. */
    private final MemorySegment offsets;

    private VertexIds(int count, MemorySegment numbers, MemorySegment text, MemorySegment offsets) {
        this.count = count;
        this.numbers = numbers;
        this.text = text;
        this.offsets = offsets;
    }

    /** Numeric ids: {@code ids} holds one native-order int64 per vertex. */
    static VertexIds ofNumbers(MemorySegment ids) {
        Objects.requireNonNull(ids, "ids");
        if (ids.byteSize() % Long.BYTES != 0 || ids.byteSize() / Long.BYTES > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("ids of " + ids.byteSize() + " bytes are not int64s, one per vertex");
        }
        return new VertexIds((int) (ids.byteSize() / Long.BYTES), ids, null, null);
    }

    /** Text ids: vertex {@code v}'s bytes are {@code text[offsets[v] .. offsets[v+1]-1]}. */
    static VertexIds ofText(MemorySegment text, MemorySegment offsets) {
        long count = offsets.byteSize() / Long.BYTES - 1;
        return new VertexIds((int) count, null, text, offsets);
    }

    /**
     * The number of vertices.
     *
     * @return the count
     */
    public int count() {
        return count;
    }

    /**
     * Whether the ids are numbers, which {@link #numericId(int)} and {@link #numericIds()} give.
     *
     * @return true for numeric ids, false for text
     */
    public boolean isNumeric() {
        return numbers != null;
    }

    /**
     * The numeric ids: {@link #count()} native-order int64s, vertex {@code v}'s at index {@code v}.
     *
     * @return the segment, or null when the ids are text
     */
    public MemorySegment numericIds() {
        return numbers;
    }

    /**
     * The numeric id of {@code vertex}.
     *
     * @param vertex a vertex, {@code 0 <= vertex < count()}
     * @return its id in the file
     * @throws IllegalStateException     when the ids are text
     * @throws IndexOutOfBoundsException when there is no such vertex
     */
    public long numericId(int vertex) {
        if (numbers == null) {
            throw new IllegalStateException("the ids are text, not numbers: use id(vertex)");
        }
        Objects.checkIndex(vertex, count);
        return numbers.getAtIndex(ValueLayout.JAVA_LONG, vertex);
    }

    /**
     * The id of {@code vertex} in the file, as text: a number in decimal, or the text decoded as
     * UTF-8.
     *
     * @param vertex a vertex, {@code 0 <= vertex < count()}
     * @return its id
     * @throws IndexOutOfBoundsException when there is no such vertex
     */
    public String id(int vertex) {
        Objects.checkIndex(vertex, count);
        if (numbers != null) {
            return Long.toString(numbers.getAtIndex(ValueLayout.JAVA_LONG, vertex));
        }
        long start = offsets.getAtIndex(ValueLayout.JAVA_LONG, vertex);
        long end = offsets.getAtIndex(ValueLayout.JAVA_LONG, vertex + 1L);
        return new String(text.asSlice(start, end - start).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /**
     * Writes the ids to {@code file} as CSV, to keep beside labels written by vertex: a header
     * line {@code vertex,id}, then one line {@code v,id} per vertex in order. Ids holding a comma,
     * a double quote or whitespace are quoted as RFC 4180 says.
     *
     * @param file the file, created or replaced
     * @throws IOException when the file cannot be written
     */
    public void writeCsv(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            writeCsv(out);
        }
    }

    /**
     * As {@link #writeCsv(Path)}, to a stream, which is flushed and left open.
     *
     * @param out the stream
     * @throws IOException when the stream cannot be written
     */
    public void writeCsv(OutputStream out) throws IOException {
        OutputBuffer buffer = new OutputBuffer(out);
        buffer.writeAscii("vertex,id\n");
        for (int v = 0; v < count; v++) {
            buffer.writeDecimal(v);
            buffer.writeByte(',');
            writeId(buffer, v);
            buffer.writeByte('\n');
        }
        buffer.flush();
    }

    /** Writes the id of {@code vertex}: a number in decimal, text as it is or quoted when it must be. */
    void writeId(OutputBuffer buffer, int vertex) throws IOException {
        if (numbers != null) {
            buffer.writeDecimal(numbers.getAtIndex(ValueLayout.JAVA_LONG, vertex));
            return;
        }
        long start = offsets.getAtIndex(ValueLayout.JAVA_LONG, vertex);
        long end = offsets.getAtIndex(ValueLayout.JAVA_LONG, vertex + 1L);
        boolean quote = start == end;
        for (long i = start; i < end && !quote; i++) {
            byte b = text.get(ValueLayout.JAVA_BYTE, i);
            quote = b == ',' || b == '"' || b == ' ' || b == '\t' || b == '\r' || b == '\n';
        }
        if (quote) {
            buffer.writeByte('"');
        }
        for (long i = start; i < end; i++) {
            byte b = text.get(ValueLayout.JAVA_BYTE, i);
            if (b == '"') {
                buffer.writeByte('"');
            }
            buffer.writeByte(b);
        }
        if (quote) {
            buffer.writeByte('"');
        }
    }
}
