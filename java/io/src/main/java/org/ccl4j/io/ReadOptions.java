package org.ccl4j.io;

/**
 * How {@link GraphReader} interprets a file.
 *
 * <p><b>Vertex counts are bounded by the file's size.</b> A vertex count that a header declares
 * (Matrix Market, DIMACS) or that the largest id implies (edge lists, SNAP with {@link #keepIds()})
 * costs about 12 bytes of memory per vertex whether or not the vertex has edges, so a 13-byte file
 * {@code 2147483646 0} would ask for 25 GB. The reader therefore refuses, with a
 * {@link GraphFormatException} naming the line and the value, a vertex count above
 * {@link #vertexLimit(long) vertexLimit(fileBytes)}:
 * <pre>{@code  max(maxVertices, 2^20 + 16 * fileBytes)}</pre>
 * Any file may hold a million vertices, isolated or not, and 16 per byte beyond that is far more
 * than real files need: an edge line takes at least 4 bytes and brings at most 2 vertices, and files
 * with many isolated vertices declare them in a header of a few bytes next to their edges. A caller
 * that knows a sparse declaration is genuine (a million-vertex graph with ten edges, a file read
 * from a pipe, whose size the file system reports as 0) raises the bound with
 * {@link #withMaxVertices(long)}. {@code .egr} files need no bound: their header is checked against
 * the exact file size. Renumbered SNAP ids cannot exceed the number of ids in the file.
 *
 * @param keepIds     for {@link GraphFormat#SNAP}: keep the ids of the file as vertex ids (they must
 *                    then be below {@link Integer#MAX_VALUE}, and the vertex count is the largest id
 *                    plus one) instead of numbering the ids {@code 0..n-1} in order of first
 *                    appearance. The other formats always keep their ids: {@link GraphFormat#EDGES}
 *                    ids are vertex numbers by definition, and Matrix Market and DIMACS declare their
 *                    vertex count.
 * @param maxVertices vertex counts up to this are accepted whatever the file's size; 0 (the
 *                    default) leaves only the bound by the file's size
 */
public record ReadOptions(boolean keepIds, long maxVertices) {
    /** Vertices that any file may declare, however small. */
    public static final long BASE_VERTICES = 1L << 20;
    /** Vertices that each byte of a file may declare beyond {@link #BASE_VERTICES}. */
    public static final long VERTICES_PER_BYTE = 16;

    private static final ReadOptions DEFAULTS = new ReadOptions(false, 0);

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException when {@code maxVertices} is negative
     */
    public ReadOptions {
        if (maxVertices < 0) {
            throw new IllegalArgumentException("maxVertices must not be negative, got " + maxVertices);
        }
    }

    /** Keeps or renumbers SNAP ids as {@code keepIds} says, with vertex counts bounded by the file's size. */
    public ReadOptions(boolean keepIds) {
        this(keepIds, 0);
    }

    /** The defaults: SNAP ids are renumbered; vertex counts are bounded by the file's size. */
    public static ReadOptions defaults() {
        return DEFAULTS;
    }

    /** These options with SNAP ids kept ({@code true}) or renumbered. */
    public ReadOptions withKeepIds(boolean newKeepIds) {
        return new ReadOptions(newKeepIds, maxVertices);
    }

    /**
     * These options accepting vertex counts up to {@code newMaxVertices} whatever the file's size,
     * for files that genuinely declare many isolated vertices. Counts above both this and the bound
     * by the file's size are still refused; a graph never has more than {@link Integer#MAX_VALUE}
     * vertices.
     *
     * @throws IllegalArgumentException when {@code newMaxVertices} is negative
     */
    public ReadOptions withMaxVertices(long newMaxVertices) {
        return new ReadOptions(keepIds, newMaxVertices);
    }

    /**
     * The largest vertex count accepted from a file of {@code fileBytes} bytes:
     * {@code max(maxVertices, BASE_VERTICES + VERTICES_PER_BYTE * fileBytes)}.
     */
    public long vertexLimit(long fileBytes) {
        long bySize = fileBytes >= (Long.MAX_VALUE - BASE_VERTICES) / VERTICES_PER_BYTE ? Long.MAX_VALUE
                : BASE_VERTICES + VERTICES_PER_BYTE * Math.max(0, fileBytes);
        return Math.max(maxVertices, bySize);
    }
}
