package org.ccl4j.testing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.ccl4j.ComponentDistances;
import org.ccl4j.CsrGraph;

/**
 * The test oracle of distances within components: a plain queue search from every vertex into a
 * full matrix, and the rows from the definitions (components from {@link Oracle#labels}, the
 * union-find oracle), written for clarity, not speed.
 */
public final class DistanceOracle {
    private DistanceOracle() {
    }

    /** d(u, v) row-major, -1 where unreachable. */
    public static int[] matrix(CsrGraph g) {
        int n = g.vertexCount();
        int[] d = new int[n * n];
        Arrays.fill(d, -1);
        for (int s = 0; s < n; s++) {
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            d[s * n + s] = 0;
            queue.add(s);
            while (!queue.isEmpty()) {
                int u = queue.poll();
                for (long a = g.offset(u); a < g.offset(u + 1); a++) {
                    int v = g.neighbor(a);
                    if (d[s * n + v] < 0) {
                        d[s * n + v] = d[s * n + u] + 1;
                        queue.add(v);
                    }
                }
            }
        }
        return d;
    }

    /** The rows in canonical order, from the matrix and the union-find labels. */
    public static List<ComponentDistances> rows(CsrGraph g) {
        int n = g.vertexCount();
        int[] d = matrix(g);
        int[] labels = Oracle.labels(g);
        List<ComponentDistances> rows = new ArrayList<>();
        for (int root = 0; root < n; root++) {
            if (labels[root] != root) {
                continue;
            }
            long k = 0;
            long sum = 0;
            int diameter = 0;
            for (int u = 0; u < n; u++) {
                if (labels[u] != root) {
                    continue;
                }
                k++;
                for (int v = 0; v < n; v++) {
                    if (v != u && labels[v] == root) {
                        sum += d[u * n + v];
                        diameter = Math.max(diameter, d[u * n + v]);
                    }
                }
            }
            double mean = k < 2 ? 0.0 : (double) sum / ((double) k * (double) (k - 1));
            rows.add(new ComponentDistances(root, k, sum, diameter, mean));
        }
        return rows;
    }
}
