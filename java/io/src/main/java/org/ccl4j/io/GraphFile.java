package org.ccl4j.io;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;
import org.ccl4j.CsrGraph;

/**
 * A graph read from a file.
 *
 * @param graph       the graph, in the arena passed to {@link GraphReader}
 * @param source      the file it was read from
 * @param format      the format it was read as (never {@link GraphFormat#AUTO})
 * @param originalIds when the reader renumbered the file's ids (SNAP by default), the file's id of
 *                    each vertex: {@code graph.vertexCount()} native-order {@code int64}s in the same
 *                    arena; {@code null} when the ids were kept: vertex {@code v} is then id {@code v}
 *                    of the file (EGR, EDGES, SNAP with {@link ReadOptions#keepIds()}), or id
 *                    {@code v + 1} for Matrix Market and DIMACS, which count from 1
 */
public record GraphFile(CsrGraph graph, Path source, GraphFormat format, MemorySegment originalIds) {
    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException for format AUTO, or original ids that are not one per vertex
     */
    public GraphFile {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(format, "format");
        if (format == GraphFormat.AUTO) {
            throw new IllegalArgumentException("a graph file has a definite format, not AUTO");
        }
        if (originalIds != null && originalIds.byteSize() != (long) graph.vertexCount() * Long.BYTES) {
            throw new IllegalArgumentException("originalIds holds " + originalIds.byteSize() + " bytes but "
                    + graph.vertexCount() + " vertices need " + (long) graph.vertexCount() * Long.BYTES);
        }
    }

    /** True when the reader renumbered the file's ids and {@link #originalIds()} holds them. */
    public boolean hasOriginalIds() {
        return originalIds != null;
    }
}
