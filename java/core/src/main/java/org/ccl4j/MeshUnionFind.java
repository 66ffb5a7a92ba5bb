package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;


/**
 * Mesh labelling by union-find, in Java: the {@link Backend#JAVA} mesh backend and the test
 * oracle of the native algorithms.
 *
 * <p>The labels segment serves as the parent array. Every labelled cell is joined with each
 * connected neighbour of the backward half of its neighbourhood (every neighbour pair is reached
 * once from one of its ends), always hooking the larger root under the smaller; so a cell's
 * parent is never larger than the cell, every root is the smallest index of its tree, and one
 * pass in increasing order turns the parents into canonical labels.
 */
public final class MeshUnionFind {
    private MeshUnionFind() {
    }

    /** Labels {@code grid}, into a Java array: the labels are on the Java heap. */
    public static MeshLabels label(Grid grid, MeshOptions options) {
        Objects.requireNonNull(grid, "grid");
        return label(grid, options, MemorySegment.ofArray(new int[grid.cellCount()]));
    }

    /** Labels {@code grid} into {@code labels} (at least {@code grid.cellCount()} ints). */
    public static MeshLabels label(Grid grid, MeshOptions options, MemorySegment labels) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(labels, "labels");
        if (labels.isReadOnly() || labels.byteSize() < (long) grid.cellCount() * Integer.BYTES) {
            throw new IllegalArgumentException("labels must be a writable segment of at least " + grid.cellCount()
                    + " ints, got " + labels.byteSize() + " bytes" + (labels.isReadOnly() ? " (read-only)" : ""));
        }
        int connectivity = options.connectivityFor(grid);
        long start = System.nanoTime();
        new Run(grid, options, connectivity, labels).label();
        double ms = (System.nanoTime() - start) / 1e6;
        return new MeshLabels(grid.width(), grid.height(), grid.depth(), labels,
                new Timings(ms, Map.of("label", ms), 0, Backend.JAVA, MeshAlgorithm.JAVA));
    }

    private static final class Run {
        private final Grid grid;
        private final int width;
        private final int height;
        private final int depth;
        private final boolean[] periodic;
        private final boolean sameValue;
        private final List<int[]> backward = new ArrayList<>();
        private final MemorySegment parent;

        Run(Grid grid, MeshOptions options, int connectivity, MemorySegment labels) {
            this.grid = grid;
            this.width = grid.width();
            this.height = grid.height();
            this.depth = grid.depth();
            this.periodic = new boolean[] {options.periodicX(), options.periodicY(), options.periodicZ()};
            this.sameValue = options.mode() == MeshMode.SAME_VALUE;
            this.parent = labels;
            boolean faces = connectivity == 4 || connectivity == 6;
            boolean threeD = connectivity == 6 || connectivity == 26;
            // Offsets before the cell in x-fastest order: dz < 0, or dz == 0 and dy < 0, or dz == dy == 0 and dx < 0.
            for (int dz = threeD ? -1 : 0; dz <= 0; dz++) {
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        int distance = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
                        boolean before = dz < 0 || (dy < 0 || (dy == 0 && dx < 0));
                        if (distance > 0 && before && !(faces && distance > 1)) {
                            backward.add(new int[] {dx, dy, dz});
                        }
                    }
                }
            }
        }

        void label() {
            int n = grid.cellCount();
            for (int i = 0; i < n; i++) {
                set(i, labelled(grid.get(i)) ? i : -1);
            }
            for (int z = 0; z < depth; z++) {
                for (int y = 0; y < height; y++) {
                    for (int x = 0; x < width; x++) {
                        int i = x + width * (y + height * z);
                        int value = grid.get(x, y, z);
                        if (!labelled(value)) {
                            continue;
                        }
                        for (int[] o : backward) {
                            int nx = wrap(x + o[0], width, periodic[0]);
                            int ny = wrap(y + o[1], height, periodic[1]);
                            int nz = wrap(z + o[2], depth, periodic[2]);
                            if (nx < 0 || ny < 0 || nz < 0) {
                                continue;
                            }
                            int j = nx + width * (ny + height * nz);
                            if (connected(value, grid.get(nx, ny, nz))) {
                                union(i, j);
                            }
                        }
                    }
                }
            }
            // parent(i) <= i and smaller cells are done already, so get(parent(i)) is the root.
            for (int i = 0; i < n; i++) {
                int p = get(i);
                if (p >= 0) {
                    set(i, get(p));
                }
            }
        }

        private boolean labelled(int value) {
            return sameValue || value != 0;
        }

        private boolean connected(int a, int b) {
            return sameValue ? a == b : b != 0;
        }

        private static int wrap(int v, int extent, boolean periodic) {
            if (v >= 0 && v < extent) {
                return v;
            }
            return periodic ? Math.floorMod(v, extent) : -1;
        }

        private int find(int i) {
            while (get(i) != i) {
                set(i, get(get(i)));  // path halving
                i = get(i);
            }
            return i;
        }

        private void union(int a, int b) {
            int ra = find(a);
            int rb = find(b);
            if (ra < rb) {
                set(rb, ra);
            } else if (rb < ra) {
                set(ra, rb);
            }
        }

        private int get(int i) {
            return parent.getAtIndex(ValueLayout.JAVA_INT, i);
        }

        private void set(int i, int value) {
            parent.setAtIndex(ValueLayout.JAVA_INT, i, value);
        }
    }
}
