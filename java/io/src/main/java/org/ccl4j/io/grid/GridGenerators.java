package org.ccl4j.io.grid;

import org.ccl4j.Backend;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.physics.CahnHilliard;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.function.IntConsumer;
import java.util.stream.LongStream;

/**
 * The test fields of Hawick, Leist &amp; Playne 2010 (§6.3), generated deterministically: the same
 * arguments give the same grid on every machine, whatever the number of threads.
 * <ul>
 * <li>{@link #spiral}: two interleaved one-pixel-wide spirals of values 1 and 2 filling an
 *     {@code N × N} grid — exactly 2 clusters in same-value mode, the worst case for label
 *     propagation.</li>
 * <li>{@link #percolation}: random site percolation, each cell 1 with probability {@code p}.</li>
 * <li>{@link #alloy}: a quenched binary alloy, Kawasaki spin-exchange dynamics from a random 50/50
 *     mixture.</li>
 * <li>{@link #cahnHilliard}: the domains (c &gt; 0) of a quenched alloy after {@code steps} steps of the
 *     Cahn-Hilliard equation.</li>
 * </ul>
 * {@link #fromSpec} builds them from the command-line specs {@code spiral:N},
 * {@code percolation:WxH[xD]:p:seed}, {@code alloy:N|WxH[xD]:steps:seed} and
 * {@code cahn-hilliard:WxH[xD]:steps:seed[:concentration]}; {@link Spec#parse}
 * reads such a spec without generating it, so that its cost can be weighed first.
 */
public final class GridGenerators {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final int CHUNK_CELLS = 1 << 20;
    /** The quench temperature as a fraction of the Ising critical temperature. */
    private static final double QUENCH = 0.5;
    private static final double CRITICAL_2D = 2.269185314;
    private static final double CRITICAL_3D = 4.5115232;
    private static final String SPECS = "spiral:N, percolation:WxH[xD]:p:seed, alloy:N|WxH[xD]:steps:seed or"
            + " cahn-hilliard:WxH[xD]:steps:seed[:concentration]";
    /** The Cahn-Hilliard generator's mean concentration when the spec gives none: 30 % of the cells c &gt; 0. */
    public static final double CAHN_HILLIARD_CONCENTRATION = -0.4;
    /** The amplitude of the Cahn-Hilliard quench's noise. */
    public static final double CAHN_HILLIARD_NOISE = 0.05;
    /** Cahn-Hilliard steps per native call, between two progress reports. */
    private static final int CAHN_HILLIARD_CHUNK = 100;
    /** The most cells of an alloy, whose dynamics run on a Java array of spins. */
    private static final long MAX_ALLOY_CELLS = Integer.MAX_VALUE - 8;

    private GridGenerators() {
    }

    /**
     * Hawick's spiral: an {@code n × n} uint8 grid of two interleaved spirals, values 1 and 2, each one
     * cell wide (no 2×2 block of one value anywhere) and each a simple path of 4-connected cells, so
     * that in same-value mode there are exactly 2 clusters for {@code n ≥ 2} under 4- and
     * 8-connectivity. For odd {@code n}, cell (x, y) in the square ring {@code r = min(x, y, n-1-x,
     * n-1-y)} holds 1 when {@code r} is even and 2 when odd, except the cell {@code (r, r+1)} of each
     * ring, which takes the other value and links the ring to the next ring of its spiral. For even
     * {@code n}, the odd spiral of size {@code n - 1} fills {@code x ≥ 1, y ≤ n-2}; the left column
     * and bottom row hold 2, continuing spiral 2, except cell (0, 0), which holds 1.
     */
    public static Grid spiral(Arena arena, int n) {
        GridDims dims = new GridDims(n, n, 1);
        Grid grid = Grid.allocate(arena, Grid.CellType.U8, n, n, 1);
        fillParallel(grid.cells(), dims.cellCount(), (chunk, first, count) -> {
            for (int k = 0; k < count; k++) {
                long i = first + k;
                chunk[k] = (byte) spiralCell(n, (int) (i % n), (int) (i / n));
            }
        });
        return grid;
    }

    private static int spiralCell(int n, int x, int y) {
        if (n % 2 == 0) {
            if (x == 0 && y == 0) {
                return 1;
            }
            return x == 0 || y == n - 1 ? 2 : oddSpiralCell(n - 1, x - 1, y);
        }
        return oddSpiralCell(n, x, y);
    }

    private static int oddSpiralCell(int n, int x, int y) {
        int ring = Math.min(Math.min(x, y), Math.min(n - 1 - x, n - 1 - y));
        int flip = x == ring && y == ring + 1 ? 1 : 0;
        return (ring + flip) % 2 == 0 ? 1 : 2;
    }

    /** A 2D percolation field: see {@link #percolation(Arena, int, int, int, double, long)}. */
    public static Grid percolation(Arena arena, int width, int height, double p, long seed) {
        return percolation(arena, width, height, 1, p, seed);
    }

    /**
     * Random site percolation: a uint8 grid in which each cell is 1 with probability {@code p},
     * independently, else 0. Cell {@code i} (linear index) is 1 when the {@code i}-th value (counting
     * from 0) of {@code new SplittableRandom(seed).nextDouble()} is below {@code p}: SplitMix64 is a
     * counter-based generator, so every cell's value is computed directly and the grid is filled in
     * parallel, yet identical to the sequential stream.
     */
    public static Grid percolation(Arena arena, int width, int height, int depth, double p, long seed) {
        checkProbability(p);
        GridDims dims = new GridDims(width, height, depth);
        Grid grid = Grid.allocate(arena, Grid.CellType.U8, width, height, depth);
        fillParallel(grid.cells(), dims.cellCount(), (chunk, first, count) -> {
            long state = seed + (first + 1) * GOLDEN_GAMMA;
            for (int k = 0; k < count; k++, state += GOLDEN_GAMMA) {
                chunk[k] = unit(mix64(state)) < p ? (byte) 1 : 0;
            }
        });
        return grid;
    }

    /**
     * A quenched binary alloy: a {@code width × height × depth} grid (periodic) of values 0 and 1,
     * uint8 or int32, after {@code steps} sweeps of Kawasaki spin-exchange dynamics (nearest-neighbour
     * Ising coupling, spins ±1 for values 1/0) at half the critical temperature (T = 1.1346 in 2D,
     * 2.2558 in 3D), starting from a random mixture of exactly {@code cells / 2} ones (a shuffle
     * seeded by {@code seed}). Exchanges conserve the composition exactly; the domains coarsen with
     * the steps.
     *
     * <p>A sweep attempts every bond along x, then y, then z: unlike neighbours swap with the
     * Metropolis probability {@code min(1, exp(-ΔE/T))}. Bonds are attempted in order along each line
     * of cells; lines whose cells do not touch run in parallel (a fixed parity colouring of the lines),
     * and each attempt draws its own counter-based random number, so the result does not depend on
     * the thread count. {@code steps = 0} gives the random start.
     */
    public static Grid alloy(Arena arena, Grid.CellType type, int width, int height, int depth, int steps, long seed) {
        return alloy(arena, type, width, height, depth, steps, seed, done -> { });
    }

    /**
     * As {@link #alloy(Arena, Grid.CellType, int, int, int, int, long)}, telling {@code sweepsDone}
     * the number of sweeps done after each sweep (1, 2, ... {@code steps}), on the calling thread:
     * a long run can show its progress.
     */
    public static Grid alloy(Arena arena, Grid.CellType type, int width, int height, int depth, int steps, long seed,
            IntConsumer sweepsDone) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(sweepsDone, "sweepsDone");
        checkSteps(steps);
        GridDims dims = new GridDims(width, height, depth);
        checkAlloyCells(dims);
        int cells = (int) dims.cellCount();
        byte[] spins = new byte[cells];
        Arrays.fill(spins, 0, cells / 2, (byte) 1);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = cells - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            byte t = spins[i];
            spins[i] = spins[j];
            spins[j] = t;
        }
        new Kawasaki(spins, width, height, depth, mix64(seed ^ 0x5DEECE66DL)).run(steps, sweepsDone);
        Grid grid = Grid.allocate(arena, type, width, height, depth);
        if (type == Grid.CellType.U8) {
            MemorySegment.copy(spins, 0, grid.cells(), ValueLayout.JAVA_BYTE, 0, cells);
        } else {
            for (int i = 0; i < cells; i++) {
                grid.cells().setAtIndex(ValueLayout.JAVA_INT, i, spins[i]);
            }
        }
        return grid;
    }

    /**
     * The domains of a quenched alloy under the Cahn-Hilliard equation ({@link CahnHilliard}, periodic,
     * its default parameters): {@code concentration} plus noise of amplitude {@link #CAHN_HILLIARD_NOISE}
     * from {@code seed}, {@code steps} steps on {@code backend}, then uint8 1 where {@code c > 0}, else
     * 0. Every backend computes the same bits, so the grid does not depend on it; {@code stepsDone} is
     * told the steps done after each step (1, 2, ... {@code steps}), on the calling thread.
     */
    public static Grid cahnHilliard(Arena arena, int width, int height, int depth, int steps, long seed,
            double concentration, Backend backend, IntConsumer stepsDone) {
        Objects.requireNonNull(stepsDone, "stepsDone");
        checkSteps(steps);
        checkConcentration(concentration);
        try (CahnHilliard field = CahnHilliard.create(width, height, depth, CahnHilliard.Parameters.defaults(),
                backend)) {
            field.init(concentration, CAHN_HILLIARD_NOISE, seed);
            for (int done = 0; done < steps;) {
                int count = Math.min(CAHN_HILLIARD_CHUNK, steps - done);
                field.step(count);
                for (int k = 0; k < count; k++) {
                    stepsDone.accept(++done);
                }
            }
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, width, height, depth);
            field.threshold(0.0, grid.cells());
            return grid;
        }
    }

    /**
     * The grid that a command-line generator spec describes:
     * <ul>
     * <li>{@code spiral:N}: {@link #spiral}, {@code N × N};</li>
     * <li>{@code percolation:WxH[xD]:p:seed}: {@link #percolation};</li>
     * <li>{@code alloy:N:steps:seed} ({@code N × N}) or {@code alloy:WxH[xD]:steps:seed}:
     *     {@link #alloy}, uint8.</li>
     * <li>{@code cahn-hilliard:WxH[xD]:steps:seed[:concentration]}: {@link #cahnHilliard} on the
     *     automatic backend (concentration {@link #CAHN_HILLIARD_CONCENTRATION} when not given).</li>
     * </ul>
     * The same as {@code Spec.parse(spec).generate(arena)}.
     *
     * @throws IllegalArgumentException naming the spec, the faulty part and the expected forms
     */
    public static Grid fromSpec(String spec, Arena arena) {
        return Spec.parse(spec).generate(arena);
    }

    /**
     * A generator spec, read but not yet generated: its dimensions and step count are known
     * before any memory is taken or time spent.
     *
     * @param generator     spiral, percolation, alloy or cahn-hilliard
     * @param dims          the grid's dimensions
     * @param p             percolation's occupation probability; 0 for the others
     * @param steps         alloy's sweeps or the Cahn-Hilliard steps; 0 for the others
     * @param seed          the seed; 0 for spiral
     * @param concentration the Cahn-Hilliard mean concentration, in [-1, 1]; 0 for the others
     */
    public record Spec(String generator, GridDims dims, double p, int steps, long seed, double concentration) {
        /**
         * Checks the spec.
         *
         * @throws IllegalArgumentException for an unknown generator, a probability outside 0..1 or negative steps
         */
        public Spec {
            Objects.requireNonNull(generator, "generator");
            Objects.requireNonNull(dims, "dims");
            if (!List.of("spiral", "percolation", "alloy", "cahn-hilliard").contains(generator)) {
                throw new IllegalArgumentException("unknown generator '" + generator + "'");
            }
            if (generator.equals("spiral") && (dims.width() != dims.height() || dims.depth() != 1)) {
                throw new IllegalArgumentException("a spiral is N x N, got " + dims);
            }
            checkProbability(p);
            checkSteps(steps);
            if (generator.equals("alloy")) {
                checkAlloyCells(dims);
            }
            checkConcentration(concentration);
        }

        /** A spec of a generator other than cahn-hilliard (concentration 0). */
        public Spec(String generator, GridDims dims, double p, int steps, long seed) {
            this(generator, dims, p, steps, seed, 0);
        }

        /**
         * Reads a command-line spec: {@code spiral:N}, {@code percolation:WxH[xD]:p:seed},
         * {@code alloy:N:steps:seed}, {@code alloy:WxH[xD]:steps:seed} or
         * {@code cahn-hilliard:WxH[xD]:steps:seed[:concentration]}.
         *
         * @throws IllegalArgumentException naming the spec, the faulty part and the expected forms
         */
        public static Spec parse(String spec) {
            Objects.requireNonNull(spec, "spec");
            String[] parts = spec.strip().split(":", -1);
            try {
                return switch (parts[0]) {
                    case "spiral" -> {
                        expectParts(parts, 2, "spiral:N");
                        int n = positive(parts[1], "N");
                        yield new Spec("spiral", new GridDims(n, n, 1), 0, 0, 0);
                    }
                    case "percolation" -> {
                        expectParts(parts, 4, "percolation:WxH[xD]:p:seed");
                        GridDims dims = GridDims.parse(parts[1]);
                        double p;
                        try {
                            p = Double.parseDouble(parts[2]);
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("p '" + parts[2] + "' is not a number");
                        }
                        yield new Spec("percolation", dims, p, 0, parseSeed(parts[3]));
                    }
                    case "alloy" -> {
                        expectParts(parts, 4, "alloy:N:steps:seed or alloy:WxH[xD]:steps:seed");
                        GridDims dims = parts[1].matches("\\d+") ? new GridDims(positive(parts[1], "N"),
                                positive(parts[1], "N"), 1) : GridDims.parse(parts[1]);
                        yield new Spec("alloy", dims, 0, nonNegative(parts[2], "steps"), parseSeed(parts[3]));
                    }
                    case "cahn-hilliard" -> {
                        if (parts.length != 5) {
                            expectParts(parts, 4, "cahn-hilliard:WxH[xD]:steps:seed[:concentration]");
                        }
                        double concentration = CAHN_HILLIARD_CONCENTRATION;
                        if (parts.length == 5) {
                            try {
                                concentration = Double.parseDouble(parts[4]);
                            } catch (NumberFormatException e) {
                                throw new IllegalArgumentException("concentration '" + parts[4] + "' is not a number");
                            }
                        }
                        yield new Spec("cahn-hilliard", GridDims.parse(parts[1]), 0, nonNegative(parts[2], "steps"),
                                parseSeed(parts[3]), concentration);
                    }
                    default -> throw new IllegalArgumentException("unknown generator '" + parts[0] + "'");
                };
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad generator spec '" + spec + "': " + e.getMessage()
                        + "; expected " + SPECS, e);
            }
        }

        /**
         * The cell updates of the alloy's or the Cahn-Hilliard dynamics, cells × steps (0 for the
         * other generators): the generation time grows with it.
         */
        public long cellSteps() {
            return dims.cellCount() * steps;  // an alloy has at most 2^31 cells
        }

        /**
         * The Java heap that {@link #generate} takes at its peak besides the grid (which is in the
         * arena): the alloy's spins, a byte per cell; the chunks that spiral and percolation fill
         * in parallel, a batch of at most a mebibyte each.
         */
        public long heapBytes() {
            long batch = (2L * ForkJoinPool.getCommonPoolParallelism() + 2) * CHUNK_CELLS;
            return generator.equals("alloy") ? dims.cellCount() : Math.min(dims.cellCount(), batch);
        }

        /** Generates the grid (uint8) in {@code arena}. */
        public Grid generate(Arena arena) {
            return generate(arena, done -> { });
        }

        /**
         * Generates the grid (uint8) in {@code arena}; an alloy tells {@code sweepsDone} the sweeps
         * done after each (see {@link GridGenerators#alloy(Arena, Grid.CellType, int, int, int, int,
         * long, IntConsumer)}) and cahn-hilliard its steps, the other generators never call it.
         */
        public Grid generate(Arena arena, IntConsumer sweepsDone) {
            return switch (generator) {
                case "spiral" -> spiral(arena, dims.width());
                case "percolation" -> percolation(arena, dims.width(), dims.height(), dims.depth(), p, seed);
                case "cahn-hilliard" -> cahnHilliard(arena, dims.width(), dims.height(), dims.depth(), steps, seed,
                        concentration, Backend.AUTO, sweepsDone);
                default -> alloy(arena, Grid.CellType.U8, dims.width(), dims.height(), dims.depth(), steps, seed,
                        sweepsDone);
            };
        }
    }

    private static void checkProbability(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("the occupation probability must lie in 0..1, got " + p);
        }
    }

    private static void checkConcentration(double concentration) {
        if (!(concentration >= -1 && concentration <= 1)) {
            throw new IllegalArgumentException("the concentration must lie in -1..1, got " + concentration);
        }
    }

    private static void checkAlloyCells(GridDims dims) {
        if (dims.cellCount() > MAX_ALLOY_CELLS) {
            throw new IllegalArgumentException("an alloy's dynamics run on a Java array of its spins: at most "
                    + MAX_ALLOY_CELLS + " cells, got " + dims + " = " + dims.cellCount());
        }
    }

    private static void checkSteps(int steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("the number of steps must not be negative, got " + steps);
        }
    }

    private static void expectParts(String[] parts, int count, String form) {
        if (parts.length != count) {
            throw new IllegalArgumentException(parts[0] + " takes " + (count - 1) + " field" + (count > 2 ? "s" : "")
                    + " (" + form + "), got " + (parts.length - 1));
        }
    }

    private static int positive(String text, String what) {
        int value = nonNegative(text, what);
        if (value == 0) {
            throw new IllegalArgumentException(what + " must be positive, got 0");
        }
        return value;
    }

    private static int nonNegative(String text, String what) {
        try {
            int value = Integer.parseInt(text);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(what + " '" + text + "' is not a non-negative integer");
    }

    private static long parseSeed(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("seed '" + text + "' is not an integer");
        }
    }

    /** SplitMix64's output function (as in {@link SplittableRandom}). */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A uniform double in [0, 1) from the top 53 bits, as {@link SplittableRandom#nextDouble()}. */
    private static double unit(long bits) {
        return (bits >>> 11) * 0x1.0p-53;
    }

    /** Fills {@code count} uint8 cells chunk by chunk. */
    private interface ChunkFiller {
        void fill(byte[] chunk, long first, int count);
    }

    /**
     * Computes chunks of cells in parallel on the heap and copies them into {@code cells} on the
     * calling thread, so that the grid's arena may be confined to it.
     */
    private static void fillParallel(MemorySegment cells, long count, ChunkFiller filler) {
        long chunks = Math.ceilDiv(count, CHUNK_CELLS);
        int batch = 2 * ForkJoinPool.getCommonPoolParallelism() + 2;
        for (long firstChunk = 0; firstChunk < chunks; firstChunk += batch) {
            long base = firstChunk;
            byte[][] parts = LongStream.range(base, Math.min(chunks, base + batch)).parallel().mapToObj(c -> {
                long first = c * CHUNK_CELLS;
                byte[] chunk = new byte[(int) Math.min(CHUNK_CELLS, count - first)];
                filler.fill(chunk, first, chunk.length);
                return chunk;
            }).toArray(byte[][]::new);
            for (int k = 0; k < parts.length; k++) {
                MemorySegment.copy(parts[k], 0, cells, ValueLayout.JAVA_BYTE, (base + k) * CHUNK_CELLS,
                        parts[k].length);
            }
        }
    }

    /** Kawasaki spin-exchange sweeps over a periodic grid of 0/1 cells. */
    private static final class Kawasaki {
        private final byte[] s;
        private final int[] extent;
        private final int[] stride;
        private final int axes;
        private final long seed;
        /** Acceptance probability by ΔE / 2 + offset. */
        private final double[] accept;
        private final int offset;

        Kawasaki(byte[] spins, int width, int height, int depth, long seed) {
            this.s = spins;
            this.extent = new int[] {width, height, depth};
            this.stride = new int[] {1, width, width * height};
            this.axes = depth > 1 ? 3 : 2;
            this.seed = seed;
            double temperature = QUENCH * (axes == 3 ? CRITICAL_3D : CRITICAL_2D);
            this.offset = 2 * (2 * axes - 1);
            this.accept = new double[2 * offset + 1];
            for (int k = -offset; k <= offset; k++) {
                accept[k + offset] = Math.min(1, Math.exp(-2.0 * k / temperature));
            }
        }

        void run(int steps, IntConsumer sweepsDone) {
            for (int step = 0; step < steps; step++) {
                for (int axis = 0; axis < axes; axis++) {
                    sweep(step, axis);
                }
                sweepsDone.accept(step + 1);
            }
        }

        /** Attempts every bond along {@code axis}, one parity class of lines at a time. */
        private void sweep(int step, int axis) {
            if (extent[axis] < 2) {
                return;
            }
            int b = (axis + 1) % 3;
            int c = (axis + 2) % 3;
            for (int classB = 0; classB < 3; classB++) {
                for (int classC = 0; classC < 3; classC++) {
                    List<Integer> lines = new ArrayList<>();
                    for (int vc = 0; vc < extent[c]; vc++) {
                        for (int vb = 0; vb < extent[b]; vb++) {
                            if (lineClass(vb, extent[b]) == classB && lineClass(vc, extent[c]) == classC) {
                                lines.add(vb * stride[b] + vc * stride[c]);
                            }
                        }
                    }
                    long key = ((long) step * 3 + axis) << 31;
                    lines.parallelStream().forEach(base -> line(base, axis, key));
                }
            }
        }

        /**
         * Lines of the same class never touch: even and odd coordinates alternate, and with an odd
         * extent the last line (a neighbour of line 0 through the boundary) has a class of its own.
         */
        private static int lineClass(int v, int extent) {
            return extent % 2 == 1 && extent > 1 && v == extent - 1 ? 2 : v % 2;
        }

        private void line(int base, int axis, long key) {
            int length = extent[axis];
            int step = stride[axis];
            for (int t = 0; t < length; t++) {
                int i = base + t * step;
                int j = base + (t + 1 == length ? 0 : t + 1) * step;
                if (s[i] == s[j]) {
                    continue;
                }
                int si = 2 * s[i] - 1;
                int sj = -si;
                // ΔE / 2 of the exchange: the i–j bond itself is unchanged
                int k = si * (neighbourSum(i) - sj) + sj * (neighbourSum(j) - si);
                if (k <= 0 || unit(mix64(seed + (key + i + 1) * GOLDEN_GAMMA)) < accept[k + offset]) {
                    s[i] = (byte) (1 - s[i]);
                    s[j] = (byte) (1 - s[j]);
                }
            }
        }

        private int neighbourSum(int i) {
            int sum = 0;
            int rest = i;
            for (int e = 0; e < axes; e++) {
                int n = extent[e];
                int v = e == axes - 1 ? rest : rest % n;
                rest /= n;
                int previous = i + ((v == 0 ? n - 1 : v - 1) - v) * stride[e];
                int next = i + ((v == n - 1 ? 0 : v + 1) - v) * stride[e];
                sum += 2 * s[previous] - 1 + 2 * s[next] - 1;
            }
            return sum;
        }
    }
}
