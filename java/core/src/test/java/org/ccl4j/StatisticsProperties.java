package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Fields;

/**
 * Statistics tables agree with a reference computed here cell by cell from breadth-first-search
 * labels ({@link Fields#bfsLabels}): every mesh algorithm on every backend through
 * {@link ComponentLabeler#labelWithStatistics}, in every numbering; the statistics of labels made
 * earlier ({@link MeshLabels#statistics}) on every backend, with u8, i32 and f32 intensity grids
 * that are regions of larger buffers; and graph tables on every backend. Which components wrap
 * around periodic axes is checked against the labels of grids of 2 and 3 copies of the cells. Integer columns and
 * centroids are compared exactly, sums and means of float intensities to 1e-9 relative. The GPU
 * takes part when a CUDA device is present; otherwise it is skipped with a printed notice.
 */
class StatisticsProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the GPU statistics are skipped in StatisticsProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Fields.Case> cases() {
        return Fields.cases();
    }

    @Provide
    Arbitrary<Numbering> numberings() {
        return Arbitraries.of(Numbering.class);
    }

    /** One expected row, accumulated cell by cell. */
    private static final class Row {
        int first;
        long size;
        final int[] min = {Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE};
        final int[] max = {Integer.MIN_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE};
        final long[] sum = new long[3];
        int touches;
        double intensitySum;
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        int wraps;
    }

    /**
     * Sets each row's wrap bits, found independently of the library's method: a component wraps
     * around a periodic axis when its copies are connected in a grid of 2 or of 3 copies of the
     * cells along that axis (a loop of winding w along the axis joins the copies of a k-fold cover
     * unless k divides w), labelled by the oracle.
     */
    private static void setWraps(List<Row> rows, Grid grid, MeshOptions options, Arena arena) {
        int[] extent = {grid.width(), grid.height(), grid.depth()};
        boolean[] periodic = {options.periodicX(), options.periodicY(), options.periodicZ() && grid.depth() > 1};
        for (int axis = 0; axis < 3; axis++) {
            if (!periodic[axis]) {
                continue;
            }
            for (int copies : new int[] {2, 3}) {
                int[] e = extent.clone();
                e[axis] *= copies;
                Grid cover = Grid.allocate(arena, grid.type(), e[0], e[1], e[2]);
                for (int z = 0; z < e[2]; z++) {
                    for (int y = 0; y < e[1]; y++) {
                        for (int x = 0; x < e[0]; x++) {
                            cover.setValue(cover.index(x, y, z), grid.value(x % extent[0], y % extent[1], z % extent[2]));
                        }
                    }
                }
                int[] labels = MeshUnionFind.label(cover, options).toArray();
                for (Row r : rows) {
                    int[] at = {r.first % extent[0], r.first / extent[0] % extent[1], r.first / extent[0] / extent[1]};
                    int original = at[0] + e[0] * (at[1] + e[1] * at[2]);
                    at[axis] += extent[axis];
                    if (labels[at[0] + e[0] * (at[1] + e[1] * at[2])] == labels[original]) {
                        r.wraps |= 1 << axis;
                    }
                }
            }
        }
    }

    /** The reference rows of canonical labels, in raster order, summing {@code values}. */
    private static List<Row> reference(int[] labels, int w, int h, int d, Intensity values) {
        Map<Integer, Row> rows = new TreeMap<>();
        for (int z = 0; z < d; z++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int l = labels[x + w * (y + h * z)];
                    if (l < 0) {
                        continue;
                    }
                    Row r = rows.computeIfAbsent(l, k -> new Row());
                    r.first = l;
                    r.size++;
                    int[] c = {x, y, z};
                    for (int a = 0; a < 3; a++) {
                        r.min[a] = Math.min(r.min[a], c[a]);
                        r.max[a] = Math.max(r.max[a], c[a]);
                        r.sum[a] += c[a];
                    }
                    r.touches |= (x == 0 ? Face.X_MIN.bit() : 0) | (x == w - 1 ? Face.X_MAX.bit() : 0)
                            | (y == 0 ? Face.Y_MIN.bit() : 0) | (y == h - 1 ? Face.Y_MAX.bit() : 0);
                    if (d > 1) {
                        r.touches |= (z == 0 ? Face.Z_MIN.bit() : 0) | (z == d - 1 ? Face.Z_MAX.bit() : 0);
                    }
                    double v = values.get(x, y, z);
                    r.intensitySum += v;
                    r.low = Math.min(r.low, v);
                    r.high = Math.max(r.high, v);
                }
            }
        }
        return new ArrayList<>(rows.values());
    }

    private static List<Row> inNumbering(List<Row> raster, Numbering numbering) {
        List<Row> rows = new ArrayList<>(raster);
        if (numbering == Numbering.SIZE) {
            rows.sort(Comparator.comparingLong((Row r) -> -r.size));  // stable: equal sizes stay in raster order
        }
        return rows;
    }

    private static int labelOf(Numbering numbering, int row, Row r) {
        return switch (numbering) {
            case CANONICAL -> r.first;
            case RASTER -> row + 1;
            case SIZE -> row;
        };
    }

    private static void assertTable(List<Row> raster, int[] canonical, MeshStatistics table, boolean floatSums,
                                    String what) {
        Numbering numbering = table.numbering();
        List<Row> rows = inNumbering(raster, numbering);
        assertEquals(rows.size(), table.count(), what + ": rows");
        Map<Integer, Integer> labelOfFirst = new TreeMap<>();
        for (int r = 0; r < rows.size(); r++) {
            Row e = rows.get(r);
            labelOfFirst.put(e.first, labelOf(numbering, r, e));
            String at = what + ", row " + r + " (first cell " + e.first + ")";
            assertEquals(labelOf(numbering, r, e), table.label(r), at + ": label");
            assertEquals(e.first, table.first(r), at + ": first");
            assertEquals(e.size, table.size(r), at + ": size");
            Region region = table.region(r);
            assertArrayEquals(new int[] {e.min[0], e.min[1], e.min[2], e.max[0], e.max[1], e.max[2]},
                    new int[] {region.minX(), region.minY(), region.minZ(), region.maxX(), region.maxY(), region.maxZ()},
                    at + ": bounding box");
            assertArrayEquals(new double[] {(double) e.sum[0] / e.size, (double) e.sum[1] / e.size,
                    (double) e.sum[2] / e.size}, new double[] {region.centroidX(), region.centroidY(), region.centroidZ()},
                    at + ": centroid");
            assertEquals(e.touches, region.touches(), at + ": faces " + Face.symbols(region.touches()));
            assertEquals(e.wraps, region.wraps(), at + ": wraps");
            assertEquals(e.low, region.min(), at + ": min");
            assertEquals(e.high, region.max(), at + ": max");
            double tolerance = floatSums ? 1e-9 * Math.max(1, Math.abs(e.intensitySum)) : 0;
            assertEquals(e.intensitySum, region.sum(), tolerance, at + ": sum");
            assertEquals(e.intensitySum / e.size, region.mean(), tolerance / e.size, at + ": mean");
        }
        int[] labels = table.labels().toArray(ValueLayout.JAVA_INT);
        int[] expected = new int[canonical.length];
        for (int i = 0; i < canonical.length; i++) {
            expected[i] = canonical[i] < 0 ? numbering.background() : labelOfFirst.get(canonical[i]);
        }
        assertArrayEquals(expected, labels, what + ": labels");
    }

    @Property(tries = 120, edgeCases = EdgeCasesMode.NONE)
    void labellingWithStatisticsMatchesTheReference(@ForAll("cases") Fields.Case c,
                                                    @ForAll("numberings") Numbering numbering) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            int[] canonical = Fields.bfsLabels(grid, c.options());
            List<Row> raster = reference(canonical, grid.width(), grid.height(), grid.depth(), Intensity.of(grid));
            setWraps(raster, grid, c.options(), arena);
            for (Run run : runs()) {
                try (MeshStatistics table = labelers.get(run.backend()).labelWithStatistics(grid,
                        c.options().withAlgorithm(run.algorithm()), StatisticsOptions.defaults().withNumbering(numbering))) {
                    assertTable(raster, canonical, table, false, run + " on " + c);
                    assertEquals(true, table.timings().phasesMs().keySet().stream().anyMatch(p -> p.startsWith("stat")),
                            run + ": no statistics phase in " + table.timings());
                }
            }
        }
    }

    @Property(tries = 80, edgeCases = EdgeCasesMode.NONE)
    void statisticsOfLabelsMatchTheReferenceForEveryIntensity(@ForAll("cases") Fields.Case c,
                                                              @ForAll("numberings") Numbering numbering) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            int w = grid.width();
            int h = grid.height();
            int d = grid.depth();
            int[] canonical = Fields.bfsLabels(grid, c.options());
            Random random = new Random(c.seed());
            for (Intensity.Type type : Intensity.Type.values()) {
                // the intensity is a region of a buffer with 3 more values per row and one more row per layer
                long rowStride = w + 3;
                long layerStride = rowStride * (h + 1);
                MemorySegment buffer = arena.allocate(layerStride * d * type.bytes() + 4 * type.bytes(), 4);
                for (long i = 0; i < layerStride * d; i++) {
                    switch (type) {
                        case U8 -> buffer.set(ValueLayout.JAVA_BYTE, i + 1, (byte) random.nextInt(256));
                        case U16 -> buffer.setAtIndex(ValueLayout.JAVA_SHORT, i + 1, (short) random.nextInt(65536));
                        case I32 -> buffer.setAtIndex(ValueLayout.JAVA_INT, i + 1, random.nextInt() >> 4);
                        case F32 -> buffer.setAtIndex(ValueLayout.JAVA_FLOAT, i + 1, (float) random.nextGaussian() * 1e3f);
                    }
                }
                Intensity values = Intensity.wrap(buffer.asSlice(type.bytes()), type, w, h, d, rowStride, layerStride);
                List<Row> raster = reference(canonical, w, h, d, values);
                setWraps(raster, grid, c.options(), arena);
                MeshLabels labels = MeshUnionFind.label(grid, c.options());
                for (Backend backend : labelers.keySet()) {
                    try (MeshStatistics table = statisticsOn(backend, labels, grid, c.options(), numbering, values,
                            arena)) {
                        assertTable(raster, canonical, table, type == Intensity.Type.F32,
                                backend + " " + type + " on " + c);
                    }
                }
            }
        }
    }

    /** The statistics of {@code labels} (on the Java heap) computed on {@code backend}. */
    private static MeshStatistics statisticsOn(Backend backend, MeshLabels labels, Grid grid, MeshOptions options,
                                               Numbering numbering, Intensity values, Arena arena) {
        MemorySegment copy = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, labels.cellCount()));
        MemorySegment.copy(labels.segment(), 0, copy, 0, labels.cellCount() * Integer.BYTES);
        MeshLabels own = new MeshLabels(labels.width(), labels.height(), labels.depth(), Integer.BYTES, copy, null,
                labelers.get(backend).engine());
        return own.statistics(grid, options, new StatisticsOptions(numbering, values));
    }

    @Provide
    Arbitrary<long[]> graphs() {
        // vertex count, edge count, seed
        return Arbitraries.longs().between(1, 400).flatMap(n -> Arbitraries.longs().between(0, 3 * n)
                .flatMap(m -> Arbitraries.longs().map(seed -> new long[] {n, m, seed})));
    }

    @Property(tries = 100, edgeCases = EdgeCasesMode.NONE)
    void graphStatisticsMatchTheReference(@ForAll("graphs") long[] shape, @ForAll("numberings") Numbering numbering) {
        int n = (int) shape[0];
        Random random = new Random(shape[2]);
        int m = (int) shape[1];
        int[] sources = new int[m];
        int[] targets = new int[m];
        for (int e = 0; e < m; e++) {
            sources[e] = random.nextInt(n);
            // a few edges go to a nearby vertex, so that runs of one component occur
            targets[e] = random.nextInt(4) == 0 ? Math.min(n - 1, sources[e] + 1) : random.nextInt(n);
        }
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph graph = CsrGraph.fromEdges(arena, n, sources, targets);
            MemorySegment oracle = arena.allocate(ValueLayout.JAVA_INT, n);
            UnionFind.label(graph, oracle);
            int[] canonical = oracle.toArray(ValueLayout.JAVA_INT);
            Map<Integer, long[]> rows = new TreeMap<>();  // first -> vertices, edges, max vertex, max degree
            for (int v = 0; v < n; v++) {
                long[] r = rows.computeIfAbsent(canonical[v], k -> new long[4]);
                r[0]++;
                r[2] = v;
                r[3] = Math.max(r[3], graph.degree(v));
                for (long a = graph.offset(v); a < graph.offset(v + 1); a++) {
                    r[1] += graph.neighbor(a) >= v ? 1 : 0;
                }
            }
            List<Map.Entry<Integer, long[]>> order = new ArrayList<>(rows.entrySet());
            if (numbering == Numbering.SIZE) {
                order.sort(Comparator.comparingLong(e -> -e.getValue()[0]));
            }
            for (Backend backend : labelers.keySet()) {
                Labels labels = labelers.get(backend).label(graph, LabelOptions.defaults(), arena);
                try (GraphStatistics table = labels.statistics(graph, numbering)) {
                    assertEquals(order.size(), table.count(), backend + ": rows");
                    for (int r = 0; r < order.size(); r++) {
                        long[] e = order.get(r).getValue();
                        int first = order.get(r).getKey();
                        ComponentStatistics got = table.component(r);
                        int label = numbering == Numbering.CANONICAL ? first : numbering == Numbering.RASTER ? r + 1 : r;
                        assertEquals(new ComponentStatistics(label, first, (int) e[2], e[0], e[1], e[3]), got,
                                backend + " " + numbering + ", row " + r);
                    }
                }
            }
        }
    }

    private record Run(Backend backend, MeshAlgorithm algorithm) {
    }

    private static List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        runs.add(new Run(Backend.JAVA, MeshAlgorithm.AUTO));
        for (Backend b : labelers.keySet()) {
            if (b == Backend.JAVA) {
                continue;
            }
            for (MeshAlgorithm a : MeshAlgorithm.values()) {
                if (a != MeshAlgorithm.AUTO && a != MeshAlgorithm.JAVA && a.runsOn(b)) {
                    runs.add(new Run(b, a));
                }
            }
        }
        return runs;
    }
}
