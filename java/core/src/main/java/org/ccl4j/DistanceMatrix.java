package org.ccl4j;

import java.util.Arrays;

/**
 * All shortest-path distances of a small graph ({@link ComponentLabeler#distanceMatrix}):
 * d(u, v) in edges, -1 where v is unreachable from u, 0 on the diagonal; on the Java heap,
 * row-major.
 */
public final class DistanceMatrix {
    /** The most vertices a matrix takes ({@code CCL4J_DISTANCE_MATRIX_MAX_VERTICES}): 1 GiB of ints. */
    public static final int MAX_VERTICES = 16384;

    private final int n;
    private final int[] distances;

    DistanceMatrix(int n, int[] distances) {
        this.n = n;
        this.distances = distances;
    }

    /** Refuses a graph too large for a matrix before anything is allocated. */
    static void checkSize(int vertices, String what) {
        if (vertices > MAX_VERTICES) {
            throw new IllegalArgumentException(what + " takes at most " + MAX_VERTICES + " vertices; this graph has "
                    + vertices);
        }
    }

    /**
     * The number of vertices n: the matrix has n rows of n distances.
     *
     * @return the vertex count
     */
    public int vertexCount() {
        return n;
    }

    /**
     * d(u, v), or -1 when v cannot be reached from u.
     *
     * @param u the source vertex
     * @param v the target vertex
     * @return the number of edges of a shortest path from u to v, or -1
     */
    public int distance(int u, int v) {
        if (u < 0 || u >= n || v < 0 || v >= n) {
            throw new IndexOutOfBoundsException("vertex pair (" + u + ", " + v + ") outside 0.." + (n - 1));
        }
        return distances[u * n + v];
    }

    /**
     * A copy of row {@code u}: the distances from u.
     *
     * @param u the source vertex
     * @return the distances from u to every vertex
     */
    public int[] row(int u) {
        return Arrays.copyOfRange(distances, u * n, u * n + n);
    }

    /**
     * A copy of the whole matrix, row-major.
     *
     * @return the n × n distances, row-major
     */
    public int[] toArray() {
        return distances.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DistanceMatrix m && m.n == n && Arrays.equals(m.distances, distances);
    }

    @Override
    public int hashCode() {
        return 31 * n + Arrays.hashCode(distances);
    }

    @Override
    public String toString() {
        return "DistanceMatrix[" + n + " x " + n + "]";
    }
}
