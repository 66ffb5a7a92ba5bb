package org.ccl4j.testing;

import org.ccl4j.Grid;
import java.lang.foreign.Arena;
import java.util.ArrayDeque;

/** Helpers of the mesh I/O and generator tests: a plain flood fill and grid comparisons. */
public final class MeshTestSupport {
    private MeshTestSupport() {
    }

    /**
     * Same-value clusters of a 2D or 3D grid under face connectivity with open boundaries, by
     * breadth-first flood fill: the cluster number of each cell, 0-based in order of first cell.
     */
    public static int[] sameValueClusters(Grid g) {
        int w = g.width();
        int h = g.height();
        int d = g.depth();
        int[] cluster = new int[(int) g.cellCount()];
        java.util.Arrays.fill(cluster, -1);
        int next = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int start = 0; start < cluster.length; start++) {
            if (cluster[start] >= 0) {
                continue;
            }
            int value = g.get(start);
            cluster[start] = next;
            queue.add(start);
            while (!queue.isEmpty()) {
                int i = queue.poll();
                int x = i % w;
                int y = i / w % h;
                int z = i / (w * h);
                int[][] steps = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
                for (int[] s : steps) {
                    int nx = x + s[0];
                    int ny = y + s[1];
                    int nz = z + s[2];
                    if (nx < 0 || ny < 0 || nz < 0 || nx >= w || ny >= h || nz >= d) {
                        continue;
                    }
                    int j = nx + w * (ny + h * nz);
                    if (cluster[j] < 0 && g.get(j) == value) {
                        cluster[j] = next;
                        queue.add(j);
                    }
                }
            }
            next++;
        }
        return cluster;
    }

    public static int clusterCount(Grid g) {
        int max = -1;
        for (int c : sameValueClusters(g)) {
            max = Math.max(max, c);
        }
        return max + 1;
    }

    public static int[] values(Grid g) {
        int[] v = new int[(int) g.cellCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = g.get(i);
        }
        return v;
    }

    /** Unlike nearest-neighbour pairs with periodic boundaries (each bond once). */
    public static long interfaces(Grid g) {
        int w = g.width();
        int h = g.height();
        int d = g.depth();
        long count = 0;
        for (int z = 0; z < d; z++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int v = g.get(x, y, z);
                    count += v != g.get((x + 1) % w, y, z) ? 1 : 0;
                    count += v != g.get(x, (y + 1) % h, z) ? 1 : 0;
                    if (d > 1) {
                        count += v != g.get(x, y, (z + 1) % d) ? 1 : 0;
                    }
                }
            }
        }
        return count;
    }

    /** A grid whose cell (x, y, z) holds 100 z + 10 y + x. */
    public static Grid numbered(Arena arena, int w, int h, int d) {
        Grid g = Grid.allocate(arena, Grid.CellType.I32, w, h, d);
        for (int z = 0; z < d; z++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    g.set(x, y, z, 100 * z + 10 * y + x);
                }
            }
        }
        return g;
    }
}
