package org.ccl4j.engine.spi;

import java.lang.foreign.Arena;

/**
 * A graph assembled from edges added one at a time (the API's {@code GraphBuilder}), built once
 * into the canonical CSR: symmetrised, self loops and repeats dropped, neighbour lists sorted.
 */
public interface GraphAssembly extends AutoCloseable {
    /** Asks for at least {@code atLeast} vertices. */
    void vertexCount(int atLeast);

    /** Adds the edge {@code u–v}; the ids are in {@code 0 .. Integer.MAX_VALUE - 1}, checked by the caller. */
    void add(int u, int v);

    /** The edges added, self loops and repeats included. */
    long edgeCount();

    /** Builds the graph into {@code arena}, {@code max(atLeast, largest id + 1)} vertices, and frees the edges. */
    GraphData build(Arena arena);

    /** Frees the edges without building. */
    @Override
    void close();
}
