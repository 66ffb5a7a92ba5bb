package org.ccl4j.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.ccl4j.CsrGraph;

/**
 * Generates the graphs of ccl4j's benchmark suite as symmetric CSR adjacency structures, in the
 * JVM: {@code ccl4j bench}, the JMH benchmarks and {@code ccl4j generate-graph} make their graphs
 * here.
 *
 * <p>Each kind reproduces, arc for arc, the graph that the suite's reference generator
 * ({@code gengraph.cpp}, which the suite's table of vertex, arc and component counts was made with)
 * writes for the same parameters (fixed seed 42), so those counts hold for graphs made here, and
 * {@link Csr#writeEgr} writes the reference's {@code .egr} file byte for byte. The output is
 * deterministic: it depends neither on the machine nor on how many threads the fork-join pool that
 * runs the generator has (the common pool, or the pool of the task that calls {@link #generate}).
 *
 * <p>Kinds and their parameters (all integers except the probabilities {@code P}):
 * <ul>
 *   <li>{@code grid2d SIDE}: the SIDE&times;SIDE lattice with 4-neighbour bonds; vertex
 *       {@code y*SIDE+x}.</li>
 *   <li>{@code bond2d SIDE P}: the same lattice keeping each bond with probability P (bond
 *       percolation; the right bond of a cell is decided before its lower bond, cells in row-major
 *       order).</li>
 *   <li>{@code grid3d SIDE}: the SIDE&sup3; lattice with 6-neighbour bonds; vertex
 *       {@code (z*SIDE+y)*SIDE+x}.</li>
 *   <li>{@code uniform SCALE DEGREE}: 2<sup>SCALE</sup> vertices, each joined to DEGREE partners drawn
 *       uniformly at random.</li>
 *   <li>{@code rmat SCALE EDGEFACTOR}: R-MAT with (a, b, c, d) = (0.57, 0.19, 0.19, 0.05),
 *       2<sup>SCALE</sup>&middot;EDGEFACTOR edges, vertex ids relabelled by a random permutation.</li>
 *   <li>{@code ws SCALE K P}: Watts&ndash;Strogatz ring of 2<sup>SCALE</sup> vertices, each joined to
 *       its K/2 successors, each such edge rewired with probability P to a uniformly random vertex.</li>
 *   <li>{@code powerlaw SCALE AVGDEGREE}: 2<sup>SCALE</sup>&middot;AVGDEGREE/2 edges whose two
 *       endpoints are drawn independently with probability proportional to
 *       (i+1)<sup>-1/(&gamma;-1)</sup>, &gamma; = 2.5, then relabelled by a random permutation.</li>
 *   <li>{@code line SCALE}: the path 0&ndash;1&ndash;&hellip;&ndash;(2<sup>SCALE</sup>-1).</li>
 *   <li>{@code shuffledline SCALE}: a path visiting the vertices in random (Fisher&ndash;Yates)
 *       order.</li>
 *   <li>{@code disjoint N M COMPONENTS}: N vertices, each put into one of COMPONENTS random groups;
 *       M times a random group is picked and, if it has two or more members, an edge is added
 *       between two of its members drawn at random (self loops are then dropped).</li>
 * </ul>
 * Graphs have at most 2<sup>30</sup> vertices and fewer than 2<sup>31</sup> arcs (the int32
 * limit of the {@code .egr} format); before duplicate removal every edge takes two array slots,
 * so the number of generated edges must stay below 2<sup>30</sup>. The heap needed at the peak is
 * about 16 bytes per generated edge plus a few {@code int}s per vertex (about 1.5 GB for the
 * suite's largest graph, {@code rmat 21 44}).
 *
 * <p>Reproducing the reference needs care in three places, each explained where it is done: the
 * random stream (an iterated splitmix64 mixer, {@code Rng}), the R-MAT and power-law kinds (which
 * the reference draws from 16 per-thread streams), and the power-law weights (which must round
 * exactly as the reference's).
 */
public final class GraphGenerator {

    /** The seed of every kind; the reference tool ignores its seed argument and uses 42. */
    private static final long SEED = 42;

    /**
     * Number of random streams of the rmat and powerlaw kinds. The reference gives every OpenMP
     * thread its own stream and splits the edge loop with a static schedule, so its output
     * depends on its thread count; the suite's published counts are those of 16 threads.
     */
    private static final int RANDOM_STREAMS = 16;

    private static final int MAX_SCALE = 30;
    private static final int MAX_VERTICES = 1 << MAX_SCALE;
    private static final int MAX_SIDE_2D = 1 << 15;
    private static final int MAX_SIDE_3D = 1 << 10;
    /** Largest array Java allocates reliably; bounds the arc count before duplicate removal. */
    private static final long MAX_ARCS = Integer.MAX_VALUE - 8;

    /** Work-block sizes of the parallel loops: big enough to amortise a task, small enough to balance skewed degrees. */
    private static final int EDGE_BLOCK = 1 << 16;
    private static final int VERTEX_BLOCK = 1 << 12;

    private static final List<String> KINDS = List.of("grid2d", "bond2d", "grid3d", "uniform", "rmat",
            "ws", "powerlaw", "line", "shuffledline", "disjoint");

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    private GraphGenerator() {
    }

    /**
     * A graph in compressed sparse row form: the neighbours of vertex {@code v} are
     * {@code neighbours[offsets[v]]} to {@code neighbours[offsets[v + 1] - 1]}. Graphs made by
     * {@link GraphGenerator} are symmetric (every arc has its reverse), each vertex's neighbours are
     * strictly increasing, and there are no self loops. The arrays are held as they are, not copied.
     * Equality compares their contents.
     *
     * @param vertexCount number of vertices
     * @param offsets     {@code vertexCount + 1} offsets into {@code neighbours}, starting at 0
     * @param neighbours  the arcs' target vertices, grouped by source vertex
     */
    public record Csr(int vertexCount, int[] offsets, int[] neighbours) {

        /**
         * Checks the shape of the arrays (not their contents).
         *
         * @throws IllegalArgumentException if the offsets do not span the neighbour array
         */
        public Csr {
            Objects.requireNonNull(offsets, "offsets");
            Objects.requireNonNull(neighbours, "neighbours");
            if (vertexCount < 0 || offsets.length != vertexCount + 1 || offsets[0] != 0
                    || offsets[vertexCount] != neighbours.length) {
                throw new IllegalArgumentException("offsets must have vertexCount + 1 entries running from 0 to "
                        + "neighbours.length (vertexCount " + vertexCount + ", " + offsets.length + " offsets, "
                        + neighbours.length + " neighbours)");
            }
        }

        /**
         * Returns the number of arcs, twice the number of undirected edges.
         *
         * @return the length of {@code neighbours}
         */
        public int arcCount() {
            return neighbours.length;
        }

        /**
         * Copies the graph off-heap into {@code arena}, as {@link org.ccl4j.ComponentLabeler} takes
         * it: 32-bit offsets, native byte order.
         *
         * @param arena the arena that owns the copy; the graph is usable while it is alive
         * @return the copy
         * @throws IllegalArgumentException if a neighbour id is out of range or the offsets
         *                                  decrease (never for a generated graph)
         */
        public CsrGraph toCsrGraph(Arena arena) {
            return CsrGraph.fromArrays(arena, offsets, neighbours);
        }

        /**
         * Writes the graph in ECL's binary CSR format ({@code .egr}, as {@link GraphFormat#EGR}
         * reads it): little-endian int32 vertex count, int32 arc count, int32
         * offsets[vertexCount + 1], int32 neighbours[arcs]. An existing file is replaced in place,
         * so a reader may see it half written; where that matters, write to a temporary file and
         * move it (as {@code ccl4j bench} does).
         *
         * @param file the file to write
         * @throws IOException if the file cannot be written
         */
        public void writeEgr(Path file) throws IOException {
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
                writeInts(out, buffer, new int[] {vertexCount, neighbours.length});
                writeInts(out, buffer, offsets);
                writeInts(out, buffer, neighbours);
            }
        }

        private static void writeInts(FileChannel out, ByteBuffer buffer, int[] values) throws IOException {
            int perBuffer = buffer.capacity() / Integer.BYTES;
            for (int from = 0; from < values.length; from += perBuffer) {
                int length = Math.min(perBuffer, values.length - from);
                buffer.clear();
                buffer.asIntBuffer().put(values, from, length); // the view shares the buffer's byte order
                buffer.limit(length * Integer.BYTES);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Csr that && vertexCount == that.vertexCount
                    && Arrays.equals(offsets, that.offsets) && Arrays.equals(neighbours, that.neighbours);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * vertexCount + Arrays.hashCode(offsets)) + Arrays.hashCode(neighbours);
        }

        @Override
        public String toString() {
            return "Csr[vertexCount=" + vertexCount + ", arcCount=" + arcCount() + "]";
        }
    }

    /**
     * Returns the names of the kinds that {@link #generate} makes, in the order of the class
     * description.
     *
     * @return grid2d, bond2d, grid3d, uniform, rmat, ws, powerlaw, line, shuffledline, disjoint
     */
    public static List<String> kinds() {
        return KINDS;
    }

    /**
     * Generates a graph of the suite; see the class description for the kinds and parameters.
     *
     * @param kind   one of grid2d, bond2d, grid3d, uniform, rmat, ws, powerlaw, line, shuffledline,
     *               disjoint
     * @param params the kind's parameters as decimal strings, in order (for example
     *               {@code List.of("22", "8")} for {@code rmat})
     * @return the graph, symmetric, with sorted neighbour lists and no self loops or duplicate arcs
     * @throws IllegalArgumentException if the kind is unknown, a parameter is missing, superfluous,
     *                                  malformed or out of range, or the graph would be too large
     */
    public static Csr generate(String kind, List<String> params) {
        return plan(kind, params).generate();
    }

    /**
     * Returns the Java heap that {@link #generate} takes at its peak for these parameters, computed
     * from the parameters alone: 16 bytes per edge that the kind may generate (the edge list, then
     * both directions of each edge) plus 8 bytes per vertex, and the kind's own tables (a
     * permutation, the power-law weights, the groups of disjoint). A caller can so refuse a graph
     * that does not fit before anything is allocated.
     *
     * @param kind   as for {@link #generate}
     * @param params as for {@link #generate}
     * @return the peak heap in bytes, an upper bound within a few percent
     * @throws IllegalArgumentException as {@link #generate} does for bad parameters
     */
    public static long heapBytes(String kind, List<String> params) {
        return plan(kind, params).heapBytes();
    }

    /** Reads a kind's parameters into its plan; nothing is generated yet. */
    private static Plan plan(String kind, List<String> params) {
        Objects.requireNonNull(kind, "kind");
        Params p = new Params(kind, List.copyOf(params));
        return switch (kind) {
            case "grid2d", "bond2d" -> {
                if (kind.equals("grid2d")) {
                    p.expect("SIDE");
                } else {
                    p.expect("SIDE", "P");
                }
                int side = p.integer(0, 1, MAX_SIDE_2D);
                double bond = kind.equals("grid2d") ? 1.0 : p.probability(1);
                yield new Plan(kind, side * side, 2L * side * (side - 1), 0, edges -> lattice2d(side, bond, edges));
            }
            case "grid3d" -> {
                p.expect("SIDE");
                int side = p.integer(0, 1, MAX_SIDE_3D);
                yield new Plan(kind, side * side * side, 3L * side * side * (side - 1), 0,
                        edges -> lattice3d(side, edges));
            }
            case "uniform" -> {
                p.expect("SCALE", "DEGREE");
                int n = 1 << p.integer(0, 0, MAX_SCALE);
                int degree = p.integer(1, 0, Integer.MAX_VALUE);
                yield new Plan(kind, n, (long) n * degree, 0, edges -> uniform(n, degree, edges));
            }
            case "rmat" -> {
                p.expect("SCALE", "EDGEFACTOR");
                int scale = p.integer(0, 0, MAX_SCALE);
                int n = 1 << scale;
                // the relabelling permutation
                yield new Plan(kind, n, (long) n * p.integer(1, 0, Integer.MAX_VALUE), 4L * n,
                        edges -> rmat(scale, edges));
            }
            case "ws" -> {
                p.expect("SCALE", "K", "P");
                int n = 1 << p.integer(0, 0, MAX_SCALE);
                int half = p.integer(1, 0, Integer.MAX_VALUE) / 2;
                double rewire = p.probability(2);
                yield new Plan(kind, n, (long) n * half, 0, edges -> wattsStrogatz(n, half, rewire, edges));
            }
            case "powerlaw" -> {
                p.expect("SCALE", "AVGDEGREE");
                int n = 1 << p.integer(0, 0, MAX_SCALE);
                // the running weight sums (doubles), their guide table and the relabelling permutation
                yield new Plan(kind, n, (long) n * p.integer(1, 0, Integer.MAX_VALUE) / 2, 16L * n + 8,
                        edges -> powerLaw(n, edges));
            }
            case "line", "shuffledline" -> {
                p.expect("SCALE");
                int n = 1 << p.integer(0, 0, MAX_SCALE);
                boolean shuffled = kind.equals("shuffledline");
                yield new Plan(kind, n, n - 1, shuffled ? 4L * n : 0, edges -> line(n, shuffled, edges));
            }
            case "disjoint" -> {
                p.expect("N", "M", "COMPONENTS");
                int n = p.integer(0, 1, MAX_VERTICES);
                long attempts = p.longInteger(1, 0, Long.MAX_VALUE);
                int groups = p.integer(2, 1, MAX_VERTICES);
                // each vertex's group and the members by group; the groups' starts and cursors
                yield new Plan(kind, n, attempts, 8L * n + 8L * groups + 4,
                        edges -> disjoint(n, attempts, groups, edges));
            }
            default -> throw new IllegalArgumentException(
                    "unknown graph kind '" + kind + "'; known kinds: " + String.join(", ", KINDS));
        };
    }

    /**
     * A kind with its parameters read: its size, known before anything is allocated, and how it is
     * built from an edge list of that capacity.
     *
     * @param edges      the most edges the kind generates (the edge list's capacity)
     * @param extraBytes the heap of the kind's own tables
     */
    private record Plan(String kind, int vertices, long edges, long extraBytes, Function<Edges, Csr> build) {
        Plan {
            if (edges > MAX_ARCS / 2) {
                throw new IllegalArgumentException(kind + ": " + edges + " edges need "
                        + Long.toUnsignedString(2 * edges) + " arcs before duplicate removal; at most " + MAX_ARCS
                        + " are supported");
            }
        }

        Csr generate() {
            return build.apply(new Edges((int) edges));
        }

        /**
         * The edge list and the unsorted arcs (8 bytes per edge each) are alive together, and later
         * the arcs and the final neighbours; the arc starts and cursors, then the starts and
         * offsets, take 8 bytes per vertex.
         */
        long heapBytes() {
            return 16 * edges + 8L * vertices + extraBytes;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The kinds. Each collects its edges (in any order: only the set of edges reaches the CSR) and
    // hands them to toCsr. What must match the reference exactly is the sequence of random draws.

    private static Csr lattice2d(int side, double p, Edges edges) {
        boolean percolate = p < 1; // the reference draws no numbers at all for P >= 1
        Rng rng = new Rng(SEED);
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x++) {
                int i = y * side + x;
                if (x + 1 < side && (!percolate || rng.nextDouble() < p)) {
                    edges.add(i, i + 1);
                }
                if (y + 1 < side && (!percolate || rng.nextDouble() < p)) {
                    edges.add(i, i + side);
                }
            }
        }
        return toCsr(side * side, edges);
    }

    private static Csr lattice3d(int side, Edges edges) {
        int plane = side * side;
        for (int z = 0; z < side; z++) {
            for (int y = 0; y < side; y++) {
                for (int x = 0; x < side; x++) {
                    int i = (z * side + y) * side + x;
                    if (x + 1 < side) {
                        edges.add(i, i + 1);
                    }
                    if (y + 1 < side) {
                        edges.add(i, i + side);
                    }
                    if (z + 1 < side) {
                        edges.add(i, i + plane);
                    }
                }
            }
        }
        return toCsr(plane * side, edges);
    }

    private static Csr uniform(int n, int degree, Edges edges) {
        Rng rng = new Rng(SEED);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < degree; j++) {
                edges.add(i, rng.below(n));
            }
        }
        return toCsr(n, edges);
    }

    /*
     * R-MAT draws one uniform r = k * 2^-53 per bit and picks a quadrant: r < 0.57 (a) leaves both
     * bits 0, r < 0.76 (b) sets the column (v) bit, r < 0.95 (c) the row (u) bit, otherwise (d)
     * both. As r is exactly k * 2^-53, "r >= t" is exactly "k >= ceil(t * 2^53)" for these double
     * thresholds t, which lets the quadrant be found without branches (random branches mispredict
     * about half the time): the u bit is [k >= T76] and the v bit is [k >= T57] ^ [k >= T76] ^ [k >= T95].
     */
    private static final long T57 = (long) Math.ceil(0.57 * 0x1p53);
    private static final long T76 = (long) Math.ceil(0.76 * 0x1p53);
    private static final long T95 = (long) Math.ceil(0.95 * 0x1p53);

    /** 1 if k >= threshold, else 0; both are below 2^53, so the difference cannot overflow. */
    private static int atLeast(long k, long threshold) {
        return (int) ((threshold - 1 - k) >>> 63);
    }

    private static Csr rmat(int scale, Edges edges) {
        int n = 1 << scale;
        int m = edges.capacity();
        edges.count = m; // filled by index, one stream per chunk
        int[] relabel = permutation(n, SEED + 1);
        forEachStream(m, (stream, from, to) -> {
            Rng rng = new Rng(SEED * 1000 + stream);
            int[] src = edges.src;
            int[] dst = edges.dst;
            for (int i = from; i < to; i++) {
                int u = 0;
                int v = 0;
                for (int bit = 0; bit < scale; bit++) { // least significant bit first
                    long k = rng.nextLong() >>> 11; // the numerator of rng.nextDouble()
                    int c = atLeast(k, T76);
                    u |= c << bit;
                    v |= (atLeast(k, T57) ^ c ^ atLeast(k, T95)) << bit;
                }
                src[i] = relabel[u];
                dst[i] = relabel[v];
            }
        });
        return toCsr(n, edges);
    }

    private static Csr wattsStrogatz(int n, int half, double p, Edges edges) {
        Rng rng = new Rng(SEED);
        for (int i = 0; i < n; i++) {
            for (int j = 1; j <= half; j++) {
                int v = (int) ((i + (long) j) % n);
                if (rng.nextDouble() < p) { // drawn for every edge, even when P is 0
                    v = rng.below(n);
                }
                edges.add(i, v);
            }
        }
        return toCsr(n, edges);
    }

    private static Csr powerLaw(int n, Edges edges) {
        int m = edges.capacity();
        edges.count = m;
        double[] cumulative = cumulativePowerLawWeights(n);
        double total = cumulative[n - 1];
        GuideTable guide = new GuideTable(cumulative);
        int[] relabel = permutation(n, SEED + 2);
        forEachStream(m, (stream, from, to) -> {
            Rng rng = new Rng(SEED * 7 + stream);
            int[] src = edges.src;
            int[] dst = edges.dst;
            for (int i = from; i < to; i++) {
                int u = guide.firstAtLeast(rng.nextDouble() * total);
                int v = guide.firstAtLeast(rng.nextDouble() * total);
                src[i] = relabel[u];
                dst[i] = relabel[v];
            }
        });
        return toCsr(n, edges);
    }

    private static Csr line(int n, boolean shuffled, Edges edges) {
        int[] order = shuffled ? permutation(n, SEED + 3) : null;
        for (int i = 0; i + 1 < n; i++) {
            if (shuffled) {
                edges.add(order[i], order[i + 1]);
            } else {
                edges.add(i, i + 1);
            }
        }
        return toCsr(n, edges);
    }

    private static Csr disjoint(int n, long attempts, int groups, Edges edges) {
        Rng rng = new Rng(SEED);
        int[] group = new int[n];
        for (int v = 0; v < n; v++) {
            group[v] = rng.below(groups);
        }
        // Members of each group in increasing vertex order (a stable counting sort): member
        // number k of group g is members[start[g] + k], as in the reference.
        int[] start = new int[groups + 1];
        for (int g : group) {
            start[g + 1]++;
        }
        for (int g = 0; g < groups; g++) {
            start[g + 1] += start[g];
        }
        int[] members = new int[n];
        int[] next = Arrays.copyOf(start, groups);
        for (int v = 0; v < n; v++) {
            members[next[group[v]]++] = v;
        }
        group = null;
        next = null;
        for (long a = 0; a < attempts; a++) {
            int g = rng.below(groups);
            int size = start[g + 1] - start[g];
            if (size < 2) {
                continue; // only the group was drawn
            }
            int u = members[start[g] + rng.below(size)];
            int v = members[start[g] + rng.below(size)];
            edges.add(u, v);
        }
        return toCsr(n, edges);
    }

    // ---------------------------------------------------------------------------------------------
    // Randomness.

    /**
     * The reference's random stream: splitmix64's mixing function (Steele, Lea &amp; Flood 2014, with
     * Vigna's constants) applied to its own previous output, the seed being mixed once for the
     * starting state. This is not textbook SplitMix64, which mixes a counter stepped by the golden
     * gamma; it is a hash chain, so a stream cannot be jumped ahead and each stream is generated
     * sequentially.
     */
    private static final class Rng {
        private long state;

        Rng(long seed) {
            state = mix(seed);
        }

        private static long mix(long z) {
            z += 0x9e3779b97f4a7c15L;
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }

        long nextLong() {
            state = mix(state);
            return state;
        }

        /** A uniform double in [0, 1) made of the top 53 bits. */
        double nextDouble() {
            return (nextLong() >>> 11) * 0x1.0p-53;
        }

        /** A number in [0, bound) by multiply-high reduction (no rejection, as in the reference). */
        int below(long bound) {
            return (int) Math.unsignedMultiplyHigh(nextLong(), bound);
        }
    }

    /** A random permutation of 0..n-1: Fisher-Yates from the top, one draw per position. */
    private static int[] permutation(int n, long seed) {
        int[] p = new int[n];
        Arrays.setAll(p, i -> i);
        Rng rng = new Rng(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = rng.below(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    @FunctionalInterface
    private interface StreamBody {
        void run(int stream, int from, int to);
    }

    /**
     * Runs {@code body} for each of the {@link #RANDOM_STREAMS} streams, stream {@code t} owning
     * the t-th contiguous chunk of the edge indices [0, count). The chunks are those of OpenMP's
     * {@code schedule(static)} without a chunk size as libgomp (GCC) implements it: every chunk gets
     * count / streams indices and the first count % streams chunks one more. Chunks run in
     * parallel; each writes only its own index range, so the result is the same for any number of
     * Java threads.
     */
    private static void forEachStream(long count, StreamBody body) {
        long base = count / RANDOM_STREAMS;
        long extra = count % RANDOM_STREAMS;
        IntStream.range(0, RANDOM_STREAMS).parallel().forEach(t -> {
            long from = t * base + Math.min(t, extra);
            long to = from + base + (t < extra ? 1 : 0);
            body.run(t, (int) from, (int) to);
        });
    }

    // ---------------------------------------------------------------------------------------------
    // Power-law weights.

    /** The exponent -1/(gamma-1) for gamma = 2.5, evaluated in double as the reference does: just above -2/3. */
    private static final double POWER_LAW_EXPONENT = -1.0 / (2.5 - 1);
    /** POWER_LAW_EXPONENT + 2/3, which is exactly 2^-53/3 (the exponent is 2/3 rounded down, negated). */
    private static final double EXPONENT_EXCESS = 0x1p-53 / 3;

    /**
     * The running sums of the weights (i+1)^exponent, i = 0..n-1. The sum is taken left to right
     * in double, as the reference does; that order fixes its rounding, so it stays sequential.
     */
    private static double[] cumulativePowerLawWeights(int n) {
        double[] cumulative = new double[n];
        parallelBlocks(n, EDGE_BLOCK, (from, to) -> {
            for (int i = from; i < to; i++) {
                cumulative[i] = powerLawWeight(i + 1);
            }
        });
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += cumulative[i];
            cumulative[i] = sum;
        }
        return cumulative;
    }

    /**
     * Returns x^POWER_LAW_EXPONENT correctly rounded.
     *
     * <p>Why not {@code Math.pow}: the reference calls C's {@code pow}, and endpoints are found by
     * binary search in the running sums of these weights, so a weight rounded differently can
     * (rarely) move the sums and hence whole edges. {@code Math.pow} may differ by an ulp between
     * platforms (an intrinsic on x86-64, fdlibm elsewhere); {@code StrictMath.pow} (fdlibm) is off
     * in about 11% of the weights and its running sums part from glibc's at index 360,892. Correct
     * rounding is platform-independent, and glibc's {@code pow} agrees with it closely enough that
     * the running sums are identical for every prefix up to 2^27 (checked against glibc 2.36).
     *
     * <p>Method: y = Math.pow(x, e) is within an ulp. With e = -2/3 + d, the exact value is
     * x^(-2/3) (1 + d ln x) up to a relative 2^-100, and x^(-2/3) = y (1 - eps/3) where
     * eps = y^3 x^2 - 1 is computed in double-double arithmetic. The small correction is added to y
     * with one rounding, which is correct unless the exact value lies within about 2^-30 ulp of a
     * rounding boundary; then (never for x up to 2^27 in practice) a 60-digit computation decides.
     */
    static double powerLawWeight(long x) {
        double y = Math.pow(x, POWER_LAW_EXPONENT);
        double x2 = (double) x * x;
        double x2Low = Math.fma(x, x, -x2);
        double y2 = y * y;
        double y2Low = Math.fma(y, y, -y2);
        double y3 = y2 * y;
        double y3Low = Math.fma(y2, y, -y3) + y2Low * y;
        double r = y3 * x2;
        double rLow = Math.fma(y3, x2, -r) + (y3 * x2Low + y3Low * x2);
        double eps = (r - 1) + rLow; // r - 1 is exact: r is within a few ulps of 1
        double correction = y * (EXPONENT_EXCESS * Math.log(x) - eps / 3);
        double result = y + correction;
        double roundingError = (y - result) + correction; // exact (Fast2Sum: |correction| << |y|)
        double halfUlp = Math.ulp(result) / 2;
        if (roundingError < 0 && result == Math.scalb(1.0, Math.getExponent(result))) {
            halfUlp /= 2; // below a power of two the doubles are twice as dense
        }
        if (Math.abs(Math.abs(roundingError) - halfUlp) < 0x1p-30 * halfUlp) {
            return powerLawWeightSlow(x);
        }
        return result;
    }

    private static final MathContext SLOW_CONTEXT = new MathContext(60);

    /** powerLawWeight in 60-digit decimal arithmetic, for results too close to a rounding boundary. */
    static double powerLawWeightSlow(long x) {
        BigDecimal x2 = BigDecimal.valueOf(x).pow(2);
        BigDecimal three = BigDecimal.valueOf(3);
        BigDecimal four = BigDecimal.valueOf(4);
        // Newton's method for y^3 x^2 = 1 from a 16-digit start: three steps give over 60 digits.
        BigDecimal y = new BigDecimal(Math.pow(x, -2.0 / 3));
        for (int step = 0; step < 3; step++) {
            BigDecimal residual = y.pow(3, SLOW_CONTEXT).multiply(x2, SLOW_CONTEXT);
            y = y.multiply(four.subtract(residual, SLOW_CONTEXT), SLOW_CONTEXT).divide(three, SLOW_CONTEXT);
        }
        // x^d = exp(d ln x) = 1 + t + t^2/2 + O(1e-46) with t = d ln x < 1e-15; a double ln x
        // (relative error 2^-52) leaves t accurate to about 1e-31 of the result.
        BigDecimal excess = new BigDecimal(POWER_LAW_EXPONENT).add(
                BigDecimal.valueOf(2).divide(three, SLOW_CONTEXT), SLOW_CONTEXT);
        BigDecimal t = excess.multiply(new BigDecimal(Math.log(x)), SLOW_CONTEXT);
        BigDecimal factor = BigDecimal.ONE.add(t).add(t.multiply(t, SLOW_CONTEXT).divide(BigDecimal.TWO));
        return y.multiply(factor, SLOW_CONTEXT).doubleValue();
    }

    /**
     * Inverse-CDF lookup in the running weight sums: the first index whose sum is at least a key
     * (C++'s lower_bound, as the reference uses), clamped to the last vertex. A plain binary search
     * over a table of millions of doubles misses the cache at most of its ~20 steps; a guide table
     * (Chen and Asau's indexed search) narrows each search to a few neighbouring entries. The
     * result is exactly lower_bound's: a narrowed range is used only after checking that it
     * brackets the key, whatever the rounding of the bucket arithmetic.
     */
    private static final class GuideTable {
        private final double[] cumulative;
        private final double bucketsPerUnit;
        /** start[b] is the first index whose sum is at least b / bucketsPerUnit. */
        private final int[] start;

        GuideTable(double[] cumulative) {
            this.cumulative = cumulative;
            int n = cumulative.length;
            int buckets = n; // a few indices per bucket where the weights are smallest
            bucketsPerUnit = buckets / cumulative[n - 1];
            start = new int[buckets + 2];
            int i = 0;
            for (int b = 0; b < start.length; b++) {
                double edge = b / bucketsPerUnit;
                while (i < n && cumulative[i] < edge) {
                    i++;
                }
                start[b] = i;
            }
        }

        int firstAtLeast(double key) {
            int n = cumulative.length;
            int b = (int) Math.min(key * bucketsPerUnit, start.length - 2);
            int low = start[b];
            int high = start[b + 1];
            if ((low > 0 && cumulative[low - 1] >= key) || (high < n && cumulative[high] < key)) {
                low = 0; // the bucket does not bracket the key (rounding at its edge): search it all
                high = n;
            }
            // Now the answer lies in [low, high]; binary search for it.
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (cumulative[mid] < key) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            return Math.min(low, n - 1);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Edge list to CSR.

    /**
     * Edges as two primitive arrays sized for the kind's largest possible edge count. The CSR
     * builder drops them as soon as the arcs are placed, so they and the final arrays are never
     * all alive at once.
     */
    private static final class Edges {
        int[] src;
        int[] dst;
        int count;

        Edges(int capacity) {
            src = new int[capacity];
            dst = new int[capacity];
        }

        int capacity() {
            return src.length;
        }

        void add(int u, int v) {
            src[count] = u;
            dst[count] = v;
            count++;
        }

        void release() {
            src = null;
            dst = null;
        }
    }

    /**
     * Builds the symmetric CSR of an undirected edge list: counts each vertex's arcs (self loops
     * dropped), scatters both directions of every edge, then sorts each vertex's list and removes
     * duplicates, all in parallel. Arcs are scattered through atomic per-vertex cursors, so their
     * order within a list varies between runs; sorting makes the result deterministic.
     */
    private static Csr toCsr(int n, Edges edges) {
        int[] rawStart = countArcs(n, edges);
        int[] adjacency = scatterArcs(n, edges, rawStart);
        edges.release();

        int[] offsets = new int[n + 1];
        parallelBlocks(n, VERTEX_BLOCK, (from, to) -> {
            for (int v = from; v < to; v++) {
                offsets[v + 1] = sortUnique(adjacency, rawStart[v], rawStart[v + 1]);
            }
        });
        Arrays.parallelPrefix(offsets, Integer::sum);
        int arcs = offsets[n];
        if (arcs == adjacency.length) {
            return new Csr(n, offsets, adjacency); // no duplicates: already compact
        }
        int[] neighbours = new int[arcs];
        parallelBlocks(n, VERTEX_BLOCK, (from, to) -> {
            for (int v = from; v < to; v++) {
                System.arraycopy(adjacency, rawStart[v], neighbours, offsets[v], offsets[v + 1] - offsets[v]);
            }
        });
        return new Csr(n, offsets, neighbours);
    }

    /** Returns where each vertex's arcs start in the unsorted adjacency array (n + 1 entries). */
    private static int[] countArcs(int n, Edges edges) {
        int[] start = new int[n + 1];
        parallelBlocks(edges.count, EDGE_BLOCK, (from, to) -> {
            int[] src = edges.src;
            int[] dst = edges.dst;
            for (int i = from; i < to; i++) {
                int u = src[i];
                int v = dst[i];
                if (u != v) {
                    INTS.getAndAdd(start, u + 1, 1);
                    INTS.getAndAdd(start, v + 1, 1);
                }
            }
        });
        Arrays.parallelPrefix(start, Integer::sum); // cannot overflow: at most MAX_ARCS arcs
        return start;
    }

    private static int[] scatterArcs(int n, Edges edges, int[] start) {
        int[] adjacency = new int[start[n]];
        int[] cursor = Arrays.copyOf(start, n);
        parallelBlocks(edges.count, EDGE_BLOCK, (from, to) -> {
            int[] src = edges.src;
            int[] dst = edges.dst;
            for (int i = from; i < to; i++) {
                int u = src[i];
                int v = dst[i];
                if (u != v) {
                    adjacency[(int) INTS.getAndAdd(cursor, u, 1)] = v;
                    adjacency[(int) INTS.getAndAdd(cursor, v, 1)] = u;
                }
            }
        });
        return adjacency;
    }

    /** Sorts a[from, to) and moves its distinct values to the front; returns how many there are. */
    private static int sortUnique(int[] a, int from, int to) {
        if (to - from < 2) {
            return to - from;
        }
        Arrays.sort(a, from, to);
        int write = from + 1;
        for (int read = from + 1; read < to; read++) {
            if (a[read] != a[write - 1]) {
                a[write++] = a[read];
            }
        }
        return write - from;
    }

    @FunctionalInterface
    private interface RangeBody {
        void run(int from, int to);
    }

    /** Runs {@code body} over [0, count) in blocks of {@code block} indices, the blocks in parallel. */
    private static void parallelBlocks(int count, int block, RangeBody body) {
        int blocks = (int) ((count + (long) block - 1) / block);
        IntStream.range(0, blocks).parallel().forEach(b -> {
            int from = b * block;
            body.run(from, (int) Math.min(count, (long) from + block));
        });
    }

    // ---------------------------------------------------------------------------------------------
    // Parameters.

    /** A kind's parameter list, checked against the names it expects. */
    private static final class Params {
        private final String kind;
        private final List<String> values;
        private String[] names = new String[0];

        Params(String kind, List<String> values) {
            this.kind = kind;
            this.values = values;
        }

        void expect(String... expected) {
            names = expected;
            if (values.size() != expected.length) {
                throw new IllegalArgumentException(kind + " takes " + expected.length + " parameter"
                        + (expected.length == 1 ? "" : "s") + " (" + kind + " " + String.join(" ", expected)
                        + "), got " + values.size() + ": " + values);
            }
        }

        int integer(int index, int min, int max) {
            return (int) longInteger(index, min, max);
        }

        long longInteger(int index, long min, long max) {
            String text = values.get(index).strip();
            long value;
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw invalid(index, "an integer");
            }
            if (value < min || value > max) {
                throw invalid(index, "an integer from " + min + " to " + max);
            }
            return value;
        }

        double probability(int index) {
            double value;
            try {
                value = Double.parseDouble(values.get(index).strip());
            } catch (NumberFormatException e) {
                value = Double.NaN;
            }
            if (!(value >= 0 && value <= 1)) {
                throw invalid(index, "a probability from 0 to 1");
            }
            return value;
        }

        private IllegalArgumentException invalid(int index, String what) {
            return new IllegalArgumentException(kind + ": " + names[index] + " must be " + what + ", got '"
                    + values.get(index) + "'");
        }
    }
}
