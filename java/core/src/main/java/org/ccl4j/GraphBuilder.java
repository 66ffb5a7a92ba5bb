package org.ccl4j;

import java.lang.foreign.Arena;
import java.util.Objects;

import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.GraphAssembly;

/**
 * Builds a {@link CsrGraph} from an edge list.
 *
 * <p>Edges are undirected: the built graph holds each distinct edge {@code u–v} as the two arcs
 * {@code u -> v} and {@code v -> u}. Self loops and repeated edges are dropped and every neighbour
 * list is sorted ascending, so the result is the canonical form that every labelling algorithm
 * expects. Offsets are 32-bit when the arc count fits in an {@code int} and 64-bit otherwise.
 *
 * <p>Edges accumulate off-heap, in segments of the builder's own that grow as edges arrive and
 * are freed by {@link #build} (or {@link #close}), so the Java heap used does not grow with the
 * number of edges: graphs with hundreds of millions of arcs build with a small heap. Building
 * needs, off-heap and besides the result, about 20 bytes per edge added plus 4 per vertex.
 *
 * <p>Building sorts the arcs in two cache-friendly steps rather than one scatter over all memory:
 * the arcs are first partitioned into buckets of consecutive source vertices, then each bucket is
 * sorted by source with a counting sort that stays in cache, each list sorted and its repeats
 * dropped. Both steps run in parallel on the common fork-join pool; the result is written by the
 * calling thread, so the arena passed to {@link #build} may be confined to it.
 *
 * <p>A builder is used once: after {@code build} or {@code close} it rejects further calls. It is
 * not thread-safe, but it may be handed from one thread to another.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined()) {
 *     CsrGraph g = new GraphBuilder().vertexCount(5).addEdge(0, 1).addEdge(1, 2).build(arena);
 *     // 5 vertices (3 and 4 isolated), 4 arcs
 * }
 * }</pre>
 */
public final class GraphBuilder implements AutoCloseable {
    private final GraphAssembly edges = Engines.graphAssembly();
    private boolean closed;

    /** Creates an empty builder: no vertices, no edges. */
    public GraphBuilder() {
    }

    /**
     * Asks for at least {@code atLeast} vertices; the built graph has
     * {@code max(atLeast, largest id + 1)} vertices, so vertices without edges can be included.
     *
     * @param atLeast the least number of vertices
     * @return this builder
     * @throws IllegalArgumentException when {@code atLeast} is negative
     */
    public GraphBuilder vertexCount(int atLeast) {
        ensureOpen();
        if (atLeast < 0) {
            throw new IllegalArgumentException("vertex count must not be negative, got " + atLeast);
        }
        edges.vertexCount(atLeast);
        return this;
    }

    /**
     * Adds the undirected edge {@code u–v}. Self loops are accepted (and dropped when building,
     * though they still count towards the vertex count); repeated edges are merged.
     *
     * @param u one end of the edge
     * @param v the other end of the edge
     * @return this builder
     * @throws IllegalArgumentException when an id is negative or {@link Integer#MAX_VALUE} (the
     *                                  vertex count must fit in an {@code int})
     */
    public GraphBuilder addEdge(int u, int v) {
        checkIds(u, v);
        ensureOpen();
        edges.add(u, v);
        return this;
    }

    /** Refuses the ids of the edge {@code u–v} that no graph's vertex count can include. */
    static void checkIds(int u, int v) {
        if ((u | v) < 0 || u == Integer.MAX_VALUE || v == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("vertex ids must be in 0.." + (Integer.MAX_VALUE - 1)
                    + ", got edge " + u + " - " + v);
        }
    }

    /**
     * The number of {@link #addEdge} calls so far, self loops and repeats included.
     *
     * @return the number of edges added
     */
    public long edgeCount() {
        return edges.edgeCount();
    }

    /**
     * Builds the graph into {@code arena} and frees the builder's own memory.
     *
     * @param arena where the graph is allocated
     * @return the canonical graph, in {@code arena}
     * @throws IllegalStateException when the builder was already built or closed
     */
    public CsrGraph build(Arena arena) {
        Objects.requireNonNull(arena, "arena");
        ensureOpen();
        try {
            return CsrGraph.owned(edges.build(arena), true);  // symmetric and well-formed by construction
        } finally {
            close();
        }
    }

    /** Frees the edges added so far without building; idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            edges.close();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this GraphBuilder has already been built or closed");
        }
    }
}
