package org.ccl4j.jgrapht;

import java.util.HashMap;
import java.util.Map;

/**
 * The number of each vertex of a graph: its position in {@code vertexSet()} order. Vertices are
 * found by {@code equals} and {@code hashCode}, as JGraphT's graphs find them. When every vertex is
 * an {@link Integer} in {@code 0..n-1} (graphs of JGraphT's integer suppliers, and of ids read from
 * files), the numbers are an array indexed by the vertex, which answers without a hash lookup or a
 * boxed number per vertex; otherwise a {@link HashMap}.
 */
final class VertexNumbers {
    private final int[] positions;            // vertex value -> number, when the vertices are 0..n-1; else null
    private final Map<Object, Integer> map;   // vertex -> number, when positions is null

    /** The numbers of {@code vertices}, distinct as those of a set, each numbered by its index. */
    VertexNumbers(Object[] vertices) {
        int n = vertices.length;
        if (integersBelow(vertices, n)) {
            positions = new int[n];
            for (int i = 0; i < n; i++) {
                positions[(Integer) vertices[i]] = i;
            }
            map = null;
        } else {
            positions = null;
            map = HashMap.newHashMap(n);
            for (int i = 0; i < n; i++) {
                map.put(vertices[i], i);
            }
        }
    }

    /** Whether every vertex is an Integer in 0..n-1: n distinct ones are then all of them. */
    private static boolean integersBelow(Object[] vertices, int n) {
        for (Object v : vertices) {
            if (!(v instanceof Integer i && i >= 0 && i < n)) {
                return false;
            }
        }
        return true;
    }

    /** The number of {@code vertex}, or -1 when it is not a vertex (null included). */
    int of(Object vertex) {
        if (positions != null) {
            return vertex instanceof Integer i && i >= 0 && i < positions.length ? positions[i] : -1;
        }
        Integer number = map.get(vertex);
        return number == null ? -1 : number;
    }
}
