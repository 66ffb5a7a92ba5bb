package org.ccl4j.io;

import java.util.Objects;

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
 * that knows a sparse declaration is genuine (a million-vertex graph with ten edges, a file
 * read from a device whose size the file system reports as 0) raises the bound with
 * {@link #withMaxVertices(long)}. {@code .egr} files need no bound: their header is checked against
 * the exact file size. Renumbered ids cannot exceed the number of ids in the file.
 *
 * <p>Standard input and other streams are read into a temporary file first, so their size is known
 * and bounds them as a file's does. Compressed input is bounded by the size it decompresses to,
 * which is known only once it has been read: its declarations are checked when the input ends,
 * before anything is allocated for them.
 *
 * @param keepIds     for {@link GraphFormat#SNAP}: keep the ids of the file as vertex ids (they must
 *                    then be below {@link Integer#MAX_VALUE}, and the vertex count is the largest id
 *                    plus one) instead of numbering the ids {@code 0..n-1} in order of first
 *                    appearance. The other formats decide by themselves: {@link GraphFormat#EDGES}
 *                    ids are vertex numbers when they all are (integers below
 *                    {@link Integer#MAX_VALUE}) and numbered in order of first appearance otherwise,
 *                    and Matrix Market and DIMACS declare their vertex count.
 * @param maxVertices vertex counts up to this are accepted whatever the file's size; 0 (the
 *                    default) leaves only the bound by the file's size
 * @param header      for {@link GraphFormat#EDGES}: whether the first line that is neither blank
 *                    nor a comment is a header line (column names), which is skipped;
 *                    {@link Header#DETECT} by default
 */
public record ReadOptions(boolean keepIds, long maxVertices, Header header) {
    /** Whether an edge list ({@link GraphFormat#EDGES}) starts with a header line. */
    public enum Header {
        /**
         * The first line that is neither blank nor a comment is a header when one of its first two
         * fields is not a number (digits, with an optional sign, fraction and exponent), as
         * {@code source,target} is. An edge list whose ids are all text and that has no header must
         * say {@link #ABSENT}, or its first edge is taken for a header.
         */
        DETECT,
        /** The first line that is neither blank nor a comment is a header, whatever it holds. */
        PRESENT,
        /** There is no header: every line that is neither blank nor a comment is an edge. */
        ABSENT
    }

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
        Objects.requireNonNull(header, "header");
    }

    /**
     * Keeps or renumbers SNAP ids and bounds vertex counts as the arguments say; headers are detected.
     *
     * @param keepIds     for SNAP: keep the file's ids as vertex numbers
     * @param maxVertices vertex counts up to this are accepted whatever the file's size
     * @throws IllegalArgumentException when {@code maxVertices} is negative
     */
    public ReadOptions(boolean keepIds, long maxVertices) {
        this(keepIds, maxVertices, Header.DETECT);
    }

    /**
     * Keeps or renumbers SNAP ids as {@code keepIds} says, with vertex counts bounded by the file's size.
     *
     * @param keepIds for SNAP: keep the file's ids as vertex numbers
     */
    public ReadOptions(boolean keepIds) {
        this(keepIds, 0);
    }

    /**
     * The defaults: SNAP ids are renumbered; vertex counts are bounded by the file's size; edge-list
     * headers are detected.
     *
     * @return the defaults
     */
    public static ReadOptions defaults() {
        return DEFAULTS;
    }

    /**
     * These options with SNAP ids kept ({@code true}) or renumbered.
     *
     * @param newKeepIds whether to keep SNAP ids
     * @return the options
     */
    public ReadOptions withKeepIds(boolean newKeepIds) {
        return new ReadOptions(newKeepIds, maxVertices, header);
    }

    /**
     * These options with edge-list headers detected, or known to be present or absent.
     *
     * @param newHeader whether edge lists start with a header line
     * @return the options
     */
    public ReadOptions withHeader(Header newHeader) {
        return new ReadOptions(keepIds, maxVertices, newHeader);
    }

    /**
     * These options accepting vertex counts up to {@code newMaxVertices} whatever the file's size,
     * for files that genuinely declare many isolated vertices. Counts above both this and the bound
     * by the file's size are still refused; a graph never has more than {@link Integer#MAX_VALUE}
     * vertices.
     *
     * @param newMaxVertices vertex counts up to this are accepted whatever the file's size
     * @return the options
     * @throws IllegalArgumentException when {@code newMaxVertices} is negative
     */
    public ReadOptions withMaxVertices(long newMaxVertices) {
        return new ReadOptions(keepIds, newMaxVertices, header);
    }

    /**
     * The largest vertex count accepted from a file of {@code fileBytes} bytes:
     * {@code max(maxVertices, BASE_VERTICES + VERTICES_PER_BYTE * fileBytes)}.
     *
     * @param fileBytes the size of the file (decompressed, for compressed input)
     * @return the largest vertex count accepted
     */
    public long vertexLimit(long fileBytes) {
        long bySize = fileBytes >= (Long.MAX_VALUE - BASE_VERTICES) / VERTICES_PER_BYTE ? Long.MAX_VALUE
                : BASE_VERTICES + VERTICES_PER_BYTE * Math.max(0, fileBytes);
        return Math.max(maxVertices, bySize);
    }
}
