package org.ccl4j.engine.jvm;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.ccl4j.engine.serial.LabelArray;
import org.ccl4j.engine.serial.MeshNeighbourhood;
import org.ccl4j.engine.serial.SerialUnionFind;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.MeshSettings;

/**
 * Which components of a grid with periodic axes wrap around them (percolate on the torus), in
 * Java, as the native library finds them: the grid is labelled again with open boundaries, and its
 * clusters are joined across the periodic boundaries by a union-find that keeps each node's offset
 * from its parent in the unrolled lattice; a join inside one set closes a loop, which winds round
 * the torus along the axes where its displacement is not zero.
 */
final class MeshWraps {
    /** The bits of the table's WRAPS column. */
    static final int X = 1;
    static final int Y = 2;
    static final int Z = 4;

    private final Map<Long, Integer> nodes = new HashMap<>();
    private final List<int[]> parent = new ArrayList<>();      // {parent}
    private final List<long[]> offset = new ArrayList<>();     // from the parent
    private final List<int[]> wraps = new ArrayList<>();       // {bits} of a root's set
    private final List<Long> clusters = new ArrayList<>();

    private MeshWraps() {
    }

    /** A row's cells: the table row of the component of a cell. */
    interface RowOfCell {
        int row(long cell);
    }

    /**
     * The wrap bits of each of {@code rows} table rows of the components of {@code grid} labelled
     * with {@code options}; all 0 when no axis is periodic.
     */
    static int[] of(GridData grid, MeshSettings options, RowOfCell rowOf, int rows) {
        int[] result = new int[rows];
        boolean[] periodic = {options.periodicX(), options.periodicY(), options.periodicZ() && grid.depth() > 1};
        if (!periodic[0] && !periodic[1] && !periodic[2]) {
            return result;
        }
        int w = grid.width();
        int h = grid.height();
        int d = grid.depth();
        int[] extent = {w, h, d};
        int connectivity = options.connectivity();
        MeshWraps clusters = new MeshWraps();
        boolean wide = grid.cellCount() > Integer.MAX_VALUE;
        try (Arena arena = Arena.ofConfined()) {
            LabelArray open = new LabelArray(
                    arena.allocate(wide ? ValueLayout.JAVA_LONG : ValueLayout.JAVA_INT, grid.cellCount()), wide);
            SerialUnionFind.labelMesh(grid, options.open(), open.segment(), wide ? Long.BYTES : Integer.BYTES);
            for (int axis = 0; axis < 3; axis++) {
                if (!periodic[axis]) {
                    continue;
                }
                // every bond across this axis's boundary leaves a cell of its last plane forwards
                List<int[]> forward = forwardOffsets(connectivity, axis);
                int[] lo = {0, 0, 0};
                lo[axis] = extent[axis] - 1;
                for (int z = lo[2]; z < d; z++) {
                    for (int y = lo[1]; y < h; y++) {
                        for (int x = lo[0]; x < w; x++) {
                            long from = open.get(x + (long) w * (y + (long) h * z));
                            if (from < 0) {
                                continue;
                            }
                            double value = grid.value(x, y, z);
                            int[] at = {x, y, z};
                            for (int[] step : forward) {
                                long[] crossing = new long[3];
                                int[] n = new int[3];
                                boolean present = true;
                                for (int k = 0; k < 3 && present; k++) {
                                    n[k] = at[k] + step[k];
                                    if (n[k] >= 0 && n[k] < extent[k]) {
                                        continue;
                                    }
                                    present = periodic[k];
                                    crossing[k] = n[k] < 0 ? -1 : 1;
                                    n[k] -= (int) crossing[k] * extent[k];
                                }
                                if (!present) {
                                    continue;
                                }
                                long to = open.get(n[0] + (long) w * (n[1] + (long) h * n[2]));
                                if (to < 0) {
                                    continue;
                                }
                                if (options.connected(value, grid.value(n[0], n[1], n[2]))) {
                                    clusters.join(clusters.node(from), clusters.node(to), crossing);
                                }
                            }
                        }
                    }
                }
            }
        }
        long[] ignored = new long[3];
        for (int v = 0; v < clusters.parent.size(); v++) {
            int bits = clusters.wraps.get(clusters.find(v, ignored))[0];
            if (bits != 0) {
                result[rowOf.row(clusters.clusters.get(v))] |= bits;
            }
        }
        return result;
    }

    /**
     * The offsets of the connectivity's neighbourhood that step forwards along {@code axis}: of each
     * pair of opposite offsets (one of them in the backward half), the one whose step is +1.
     */
    private static List<int[]> forwardOffsets(int connectivity, int axis) {
        List<int[]> forward = new ArrayList<>();
        for (int[] o : MeshNeighbourhood.backwardOffsets(connectivity)) {
            if (o[axis] == 1) {
                forward.add(o);
            } else if (o[axis] == -1) {
                forward.add(new int[] {-o[0], -o[1], -o[2]});
            }
        }
        return forward;
    }

    private int node(long cluster) {
        return nodes.computeIfAbsent(cluster, c -> {
            parent.add(new int[] {parent.size()});
            offset.add(new long[3]);
            wraps.add(new int[1]);
            clusters.add(c);
            return parent.size() - 1;
        });
    }

    /** The root of v; {@code fromRoot} receives v's offset from it. Halves the path on the way. */
    private int find(int v, long[] fromRoot) {
        java.util.Arrays.fill(fromRoot, 0);
        while (parent.get(v)[0] != v) {
            int p = parent.get(v)[0];
            if (parent.get(p)[0] != p) {
                for (int k = 0; k < 3; k++) {
                    offset.get(v)[k] += offset.get(p)[k];
                }
                parent.get(v)[0] = parent.get(p)[0];
                continue;
            }
            for (int k = 0; k < 3; k++) {
                fromRoot[k] += offset.get(v)[k];
            }
            v = p;
        }
        return v;
    }

    /** Joins a and b, where b lies at {@code step} from a. */
    private void join(int a, int b, long[] step) {
        long[] oa = new long[3];
        long[] ob = new long[3];
        int ra = find(a, oa);
        int rb = find(b, ob);
        long[] loop = new long[3];
        for (int k = 0; k < 3; k++) {
            loop[k] = oa[k] + step[k] - ob[k];
        }
        if (ra == rb) {
            for (int k = 0; k < 3; k++) {
                if (loop[k] != 0) {
                    wraps.get(ra)[0] |= 1 << k;
                }
            }
            return;
        }
        parent.get(rb)[0] = ra;
        offset.set(rb, loop);
        wraps.get(ra)[0] |= wraps.get(rb)[0];
    }
}
