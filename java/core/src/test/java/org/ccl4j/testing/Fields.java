package org.ccl4j.testing;

import org.ccl4j.MeshOptions;
import org.ccl4j.Grid;
import org.ccl4j.MeshMode;
import java.lang.foreign.Arena;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Random mesh fields and settings for the mesh tests, and a breadth-first search to check the oracle. */
public final class Fields {
    private Fields() {
    }

    /** A field description: dimensions, cell type, values and a labelling setting. */
    public record Case(int width, int height, int depth, Grid.CellType type, MeshMode mode, int connectivity,
                boolean periodicX, boolean periodicY, boolean periodicZ, double density, int values, long seed) {

        public Grid grid(Arena arena) {
            Random r = new Random(seed);
            Grid g = Grid.allocate(arena, type, width, height, depth);
            int largest = switch (type) {
                case U8 -> 255;
                case U16 -> 65535;
                default -> 1_000_000;
            };
            for (int i = 0; i < g.cellCount(); i++) {
                double v;
                if (mode == MeshMode.FOREGROUND) {
                    v = r.nextDouble() < density ? 1 + r.nextInt(largest) : 0;
                    v = type == Grid.CellType.F32 && v == 1 ? Float.NaN : v;  // a NaN is foreground
                } else {
                    v = r.nextInt(values);
                    v = switch (type) {
                        case I32 -> v * -77_777;  // negative i32 values too
                        case U16 -> v * 21_000;
                        case F32 -> v == 3 ? Float.NaN : v * 0.375;  // steps of 0.375: delta() joins 1 step, not 2
                        default -> v;
                    };
                }
                g.setValue(i, v);
            }
            return g;
        }

        /** Float fields in same-value mode are labelled with a tolerance for half of the seeds. */
        public double delta() {
            return type == Grid.CellType.F32 && mode == MeshMode.SAME_VALUE && (seed & 1) == 0 ? 0.5 : 0;
        }

        public MeshOptions options() {
            MeshOptions o = MeshOptions.defaults().withMode(mode).withConnectivity(connectivity)
                    .withPeriodic(periodicX, periodicY, periodicZ);
            return delta() == 0 ? o : o.withDelta(delta());
        }

        @Override
        public String toString() {
            return width + "x" + height + "x" + depth + " " + type + " " + mode + " c" + connectivity + " periodic="
                    + (periodicX ? "x" : "") + (periodicY ? "y" : "") + (periodicZ ? "z" : "") + " density=" + density
                    + " values=" + values + " seed=" + seed + (delta() == 0 ? "" : " delta=" + delta());
        }
    }

    public static Arbitrary<Case> cases() {
        Arbitrary<int[]> dims = Arbitraries.oneOf(
                Combinators.combine(Arbitraries.integers().between(1, 48), Arbitraries.integers().between(1, 48))
                        .as((w, h) -> new int[] {w, h, 1}),
                Combinators.combine(Arbitraries.integers().between(1, 12), Arbitraries.integers().between(1, 12),
                        Arbitraries.integers().between(2, 10)).as((w, h, d) -> new int[] {w, h, d}),
                Arbitraries.of(new int[] {1, 1, 1}, new int[] {1, 37, 1}, new int[] {53, 1, 1}, new int[] {2, 2, 1},
                        new int[] {2, 9, 1}, new int[] {1, 1, 7}, new int[] {2, 2, 2}, new int[] {1, 6, 5}));
        Arbitrary<Grid.CellType> types = Arbitraries.of(Grid.CellType.class);
        Arbitrary<MeshMode> modes = Arbitraries.of(MeshMode.class);
        // bit 0: the full neighbourhood (8, 26) or the faces (4, 6); 4 and 5: a single layer with 6 or 26;
        // 6 and 7: faces and edges (18), of a volume or a single layer
        Arbitrary<Integer> stencils = Arbitraries.integers().between(0, 7);
        Arbitrary<Integer> periodic = Arbitraries.integers().between(0, 7);
        Arbitrary<Double> densities = Arbitraries.of(0.0, 0.2, 0.45, 0.6, 0.8, 1.0);
        Arbitrary<Integer> values = Arbitraries.integers().between(1, 4);
        Arbitrary<Long> seeds = Arbitraries.longs();
        return Combinators.combine(dims, types, modes, stencils, periodic, densities, values, seeds)
                .as((d, t, m, s, p, density, v, seed) -> new Case(d[0], d[1], d[2], t, m,
                        s >= 6 && (d[2] > 1 || s == 7) ? 18
                                : d[2] > 1 || s >= 4 ? ((s & 1) != 0 ? 26 : 6) : ((s & 1) != 0 ? 8 : 4),
                        (p & 1) != 0, (p & 2) != 0, (p & 4) != 0, density, v, seed));
    }

    /**
     * Canonical labels by breadth-first search from each unlabelled cell in increasing order over
     * the full neighbourhood, independent of {@link MeshUnionFind}'s backward half-neighbourhood.
     */
    public static int[] bfsLabels(Grid g, MeshOptions o) {
        int w = g.width();
        int h = g.height();
        int d = g.depth();
        o.connectivityFor(g);  // the options must fit
        // The stencil as asked for, from its definition: on a single layer 6 and 26 reach across z,
        // where there is nothing or (periodic) the layer itself.
        int c = o.connectivity() == 0 ? o.connectivityFor(g) : o.connectivity();
        boolean same = o.mode() == MeshMode.SAME_VALUE;
        boolean faces = c == 4 || c == 6;
        boolean edges = c == 18;  // no corners
        boolean planar = c == 4 || c == 8;
        int[] labels = new int[(int) g.cellCount()];
        Arrays.fill(labels, -2);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int start = 0; start < labels.length; start++) {
            if (labels[start] != -2) {
                continue;
            }
            if (!same && g.value(start) == 0) {
                labels[start] = -1;
                continue;
            }
            labels[start] = start;
            queue.add(start);
            while (!queue.isEmpty()) {
                int cell = queue.poll();
                int x = cell % w;
                int y = cell / w % h;
                int z = cell / w / h;
                for (int dz = -1; dz <= 1; dz++) {
                    for (int dy = -1; dy <= 1; dy++) {
                        for (int dx = -1; dx <= 1; dx++) {
                            int manhattan = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
                            if (manhattan == 0 || (faces && manhattan > 1) || (edges && manhattan > 2)
                                    || (planar && dz != 0)) {
                                continue;
                            }
                            int nx = coordinate(x + dx, w, o.periodicX());
                            int ny = coordinate(y + dy, h, o.periodicY());
                            int nz = coordinate(z + dz, d, o.periodicZ());
                            if (nx < 0 || ny < 0 || nz < 0) {
                                continue;
                            }
                            int j = nx + w * (ny + h * nz);
                            double a = g.value(cell);
                            double b = g.value(j);
                            boolean connected = same ? a == b || Math.abs(a - b) <= o.delta() && o.delta() > 0 : b != 0;
                            if (connected && labels[j] == -2) {
                                labels[j] = start;
                                queue.add(j);
                            }
                        }
                    }
                }
            }
        }
        return labels;
    }

    private static int coordinate(int v, int extent, boolean periodic) {
        if (v >= 0 && v < extent) {
            return v;
        }
        return periodic ? (v + extent) % extent : -1;
    }

    /** The cells of {@code dense} as a region of a larger grid of random non-zero cells. */
    public static Grid inNoise(Grid dense, Arena arena, long seed) {
        Random random = new Random(seed);
        int w = dense.width();
        int h = dense.height();
        int d = dense.depth();
        Grid whole = Grid.allocate(arena, dense.type(), w + 3, h + 2, d + (d > 1 ? 1 : 0));
        for (long i = 0; i < whole.cellCount(); i++) {
            whole.set(i, 1 + random.nextInt(200));
        }
        for (int z = 0; z < d; z++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    whole.setValue(whole.index(x + 2, y + 1, z), dense.value(x, y, z));
                }
            }
        }
        return whole.region(2, 1, 0, w, h, d);
    }
}
