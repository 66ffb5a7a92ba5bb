package org.ccl4j.io;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;
import org.ccl4j.CsrGraph;

/**
 * A graph read from a file or a stream.
 *
 * @param graph     the graph, in the arena passed to {@link GraphReader}
 * @param source    the file it was read from, or the name of the stream ({@value Input#STANDARD_INPUT_NAME}
 *                  for standard input)
 * @param format    the format it was read as (never {@link GraphFormat#AUTO})
 * @param vertexIds when the reader numbered the file's ids {@code 0..n-1} in order of first
 *                  appearance (SNAP by default; edge lists whose ids are not all vertex numbers), the
 *                  file's id of each vertex, in the same arena; {@code null} when the ids were kept:
 *                  vertex {@code v} is then id {@code v} of the file (EGR, EDGES, SNAP with
 *                  {@link ReadOptions#keepIds()}), or id {@code v + 1} for Matrix Market and DIMACS,
 *                  which count from 1
 */
public record GraphFile(CsrGraph graph, Path source, GraphFormat format, VertexIds vertexIds) {
    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException for format AUTO, or vertex ids that are not one per vertex
     */
    public GraphFile {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(format, "format");
        if (format == GraphFormat.AUTO) {
            throw new IllegalArgumentException("a graph file has a definite format, not AUTO");
        }
        if (vertexIds != null && vertexIds.count() != graph.vertexCount()) {
            throw new IllegalArgumentException("vertexIds holds " + vertexIds.count() + " ids but the graph has "
                    + graph.vertexCount() + " vertices");
        }
    }

    /**
     * A graph whose file ids were numbers, as {@code originalIds} holds them.
     *
     * @param graph       the graph
     * @param source      the file
     * @param format      the format it was read as
     * @param originalIds the file's id of each vertex, {@code graph.vertexCount()} native-order
     *                    {@code int64}s, or null when the ids were kept
     * @throws IllegalArgumentException for format AUTO, or original ids that are not one per vertex
     */
    public GraphFile(CsrGraph graph, Path source, GraphFormat format, MemorySegment originalIds) {
        this(graph, source, format, originalIds == null ? null : numbers(originalIds, graph));
    }

    private static VertexIds numbers(MemorySegment originalIds, CsrGraph graph) {
        Objects.requireNonNull(graph, "graph");
        if (originalIds.byteSize() != (long) graph.vertexCount() * Long.BYTES) {
            throw new IllegalArgumentException("originalIds holds " + originalIds.byteSize() + " bytes but "
                    + graph.vertexCount() + " vertices need " + (long) graph.vertexCount() * Long.BYTES);
        }
        return VertexIds.ofNumbers(originalIds);
    }

    /**
     * The file's ids as numbers, when the reader renumbered ids that were all numbers: the same
     * as {@code vertexIds().numericIds()}.
     *
     * @return {@code graph.vertexCount()} native-order {@code int64}s in the graph's arena, or null
     *         when the ids were kept or are text ({@link #vertexIds()} then says which)
     */
    public MemorySegment originalIds() {
        return vertexIds == null ? null : vertexIds.numericIds();
    }

    /**
     * Whether the reader renumbered ids that were all numbers, which {@link #originalIds()} holds.
     *
     * @return true when {@link #originalIds()} is not null
     */
    public boolean hasOriginalIds() {
        return originalIds() != null;
    }

    /**
     * Whether the reader numbered the file's ids in order of first appearance, numbers or text.
     *
     * @return true when {@link #vertexIds()} is not null
     */
    public boolean isRenumbered() {
        return vertexIds != null;
    }
}
