package org.ccl4j.testing;

import org.ccl4j.CsrGraph;
import org.ccl4j.UnionFind;
import java.util.ArrayDeque;

/**
 * Expected labels for tests: {@link UnionFind}, itself checked against a breadth-first search
 * written independently here.
 */
public final class Oracle {
    private Oracle() {
    }

    public static int[] labels(CsrGraph g) {
        return UnionFind.labels(g);
    }

    /** Canonical labels by breadth-first search from each unlabelled vertex in increasing order. */
    public static int[] bfsLabels(CsrGraph g) {
        int n = g.vertexCount();
        int[] label = new int[n];
        java.util.Arrays.fill(label, -1);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int s = 0; s < n; s++) {
            if (label[s] >= 0) {
                continue;
            }
            label[s] = s;
            queue.add(s);
            while (!queue.isEmpty()) {
                int u = queue.poll();
                for (long a = g.offset(u); a < g.offset(u + 1); a++) {
                    int v = g.neighbor(a);
                    if (label[v] < 0) {
                        label[v] = s;
                        queue.add(v);
                    }
                }
            }
        }
        return label;
    }
}
