package org.ccl4j.engine.jvm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

import org.ccl4j.engine.serial.LabelArray;
import org.ccl4j.engine.serial.MeshMeasurements;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.RowNumbering;
import org.ccl4j.engine.spi.StatisticsTable.Column;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.internal.Segments;

/**
 * Per-component statistics in Java, for the JAVA backend and wherever the native library is
 * missing: the same values as the native backends. The roots (entries labelled with their own
 * index) are numbered in raster order in one pass, which also checks that the labels are
 * canonical; a parallel pass over rows (or vertices) gathers each run of equal labels and adds it
 * to its row with atomic updates, so that a large component costs one update per run.
 */
final class JavaStatistics {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle DOUBLES = MethodHandles.arrayElementVarHandle(double[].class);

    private JavaStatistics() {
    }

    /**
     * The roots (entries labelled with their own index) in raster order, and the row of a root as
     * its rank among them: a bit per entry and the roots before each word of 64, n / 5 bytes in
     * all, so that int64 labels of more than 2^31 cells need no array of a row per cell.
     */
    private record Roots(long[] mask, int[] below, long[] first) {
        int row(long root) {
            int w = (int) (root >>> 6);
            return below[w] + Long.bitCount(mask[w] & ((1L << (root & 63)) - 1));
        }
    }

    /** Numbers the roots; throws IllegalArgumentException at the first entry that is not canonical. */
    private static Roots roots(LabelArray labels, long n) {
        long[] mask = new long[Math.toIntExact((n + 63) >>> 6)];
        long k = 0;
        for (long i = 0; i < n; i++) {
            long l = labels.get(i);
            if (l == -1) {
                continue;
            }
            if (l < -1 || l > i || labels.get(l) != l) {
                throw notCanonical(labels, i, l);
            }
            if (l == i) {
                mask[(int) (i >>> 6)] |= 1L << (i & 63);
                k++;
            }
        }
        if (k > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the labels have " + k + " components; a statistics table holds at most "
                    + Integer.MAX_VALUE + " rows");
        }
        int[] below = new int[mask.length];
        long[] first = new long[(int) k];
        int r = 0;
        for (int w = 0; w < mask.length; w++) {
            below[w] = r;
            for (long bits = mask[w]; bits != 0; bits &= bits - 1) {
                first[r++] = ((long) w << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
        return new Roots(mask, below, first);
    }

    private static IllegalArgumentException notCanonical(LabelArray labels, long i, long l) {
        String why = l < -1 ? "below -1"
                : l > i ? "above its own index (a canonical label is the smallest index of its component)"
                : "the index of an entry labelled " + labels.get(l)
                        + " (a canonical label's own entry holds it)";
        return new IllegalArgumentException("labels are not canonical: entry " + i + " has label " + l + ", " + why);
    }

    // ---- meshes ---------------------------------------------------------------------------------

    /** The rows of a mesh table, as exact sums, in raster order. */
    private static final class MeshRows {
        final int k;
        final long[] size;
        final int[][] min = new int[3][];
        final int[][] max = new int[3][];
        final long[][] coordinateSum = new long[3][];
        final int[] touches;
        final long[] integerSum;
        final double[] realSum;
        final double[] low;
        final double[] high;

        MeshRows(int k, boolean real) {
            this.k = k;
            size = new long[k];
            for (int a = 0; a < 3; a++) {
                min[a] = new int[k];
                Arrays.fill(min[a], Integer.MAX_VALUE);
                max[a] = new int[k];
                Arrays.fill(max[a], Integer.MIN_VALUE);
                coordinateSum[a] = new long[k];
            }
            touches = new int[k];
            integerSum = real ? null : new long[k];
            realSum = real ? new double[k] : null;
            low = new double[k];
            Arrays.fill(low, Double.POSITIVE_INFINITY);
            high = new double[k];
            Arrays.fill(high, Double.NEGATIVE_INFINITY);
        }
    }

    /**
     * The table of canonical mesh labels ({@code width * height * depth} entries, int64 when
     * {@code wide}), summing {@code intensity} (null: the grid's cells), with the measurement
     * columns when {@code measures}; {@code out} (may be the
     * labels, or null) receives the labels in {@code numbering}, of the same width.
     */
    static StatisticsTable mesh(GridData grid, MeshSettings options, MemorySegment labels, boolean wide,
                                IntensityData intensity, boolean measures, RowNumbering numbering, MemorySegment out,
                                java.lang.foreign.Arena arena) {
        if (intensity == null) {
            intensity = new IntensityData(grid.type(), grid.rowStride(), grid.layerStride(), grid.cells());
        }
        int width = grid.width();
        int height = grid.height();
        int depth = grid.depth();
        int cpuThreads = options.cpuThreads();
        long n = grid.cellCount();
        LabelArray entries = new LabelArray(labels, wide);
        Roots roots = roots(entries, n);
        boolean real = intensity.type() == IntensityData.ValueType.F32;
        MeshRows rows = new MeshRows(roots.first.length, real);
        try (RawMemory memory = RawMemory.available() ? new RawMemory() : null) {
            // the loop's threads read the labels and values: by address when they are the caller's
            // (RawMemory's rules), on the calling thread alone when native access is denied
            MemorySegment cells = labels;
            MemorySegment values = intensity.values();
            int threads = cpuThreads;
            if (memory != null) {
                cells = MemorySegment.ofAddress(memory.input(labels)).reinterpret(labels.byteSize());
                values = MemorySegment.ofAddress(memory.input(values)).reinterpret(values.byteSize());
            } else if (!Segments.isShared(labels) || !Segments.isShared(values)) {
                threads = 1;
            }
            LabelArray shared = new LabelArray(cells, wide);
            MemorySegment sharedValues = values;
            IntensityData summed = intensity;
            try (ForkJoinLoop loop = new ForkJoinLoop(threads, 0, width)) {
                loop.run((long) height * depth, (from, to) -> {
                    for (long line = from; line < to; line++) {
                        accumulateRow(shared, width, height, depth, (int) (line % height),
                                (int) (line / height), summed, sharedValues, roots, rows);
                    }
                });
            }
        }
        int[] order = order(rows.size, numbering);
        StatisticsTable columns = new StatisticsTable(arena, rows.k, true, measures);
        Column[] mins = {Column.MIN_X, Column.MIN_Y, Column.MIN_Z};
        Column[] maxs = {Column.MAX_X, Column.MAX_Y, Column.MAX_Z};
        Column[] centroids = {Column.CENTROID_X, Column.CENTROID_Y, Column.CENTROID_Z};
        for (int r = 0; r < rows.k; r++) {
            int o = order[r];
            columns.setLong(Column.LABEL, r, numbering.label(r, roots.first[o]));
            columns.setLong(Column.FIRST, r, roots.first[o]);
            columns.setLong(Column.SIZE, r, rows.size[o]);
            for (int a = 0; a < 3; a++) {
                columns.setInt(mins[a], r, rows.min[a][o]);
                columns.setInt(maxs[a], r, rows.max[a][o]);
                columns.setDouble(centroids[a], r, (double) rows.coordinateSum[a][o] / (double) rows.size[o]);
            }
            columns.setInt(Column.TOUCHES, r, rows.touches[o]);
            double sum = real ? rows.realSum[o] : (double) rows.integerSum[o];
            columns.setDouble(Column.SUM, r, sum);
            // every intensity NaN: the extremes are NaN, not the neutral +inf and -inf
            boolean none = rows.low[o] > rows.high[o];
            columns.setDouble(Column.MIN, r, none ? Double.NaN : rows.low[o]);
            columns.setDouble(Column.MAX, r, none ? Double.NaN : rows.high[o]);
            columns.setDouble(Column.MEAN, r, sum / (double) rows.size[o]);
        }
        int[] position = positions(order);
        int[] wraps = MeshWraps.of(grid, options, cell -> position[roots.row(entries.get(cell))], rows.k);
        for (int r = 0; r < rows.k; r++) {
            columns.setInt(Column.WRAPS, r, wraps[r]);
        }
        if (measures) {  // from the canonical labels, before relabel may overwrite them
            MeshMeasurements.fill(columns, width, height, depth, entries, -1, l -> position[roots.row(l)]);
        }
        relabel(entries, n, roots, order, numbering, out);
        return columns;
    }

    private static void accumulateRow(LabelArray labels, int width, int height, int depth, int y, int z,
                                      IntensityData intensity, MemorySegment values, Roots roots, MeshRows rows) {
        long base = (long) width * (y + (long) height * z);
        int faces = (y == 0 ? StatisticsTable.Y_MIN : 0) | (y == height - 1 ? StatisticsTable.Y_MAX : 0);
        if (depth > 1) {
            faces |= (z == 0 ? StatisticsTable.Z_MIN : 0) | (z == depth - 1 ? StatisticsTable.Z_MAX : 0);
        }
        long valueBase = intensity.rowStride() * y + intensity.layerStride() * z;
        IntensityData.ValueType type = intensity.type();
        for (int x = 0; x < width; ) {
            long root = labels.get(base + x);
            if (root < 0) {
                x++;
                continue;
            }
            int start = x;
            long integerSum = 0;
            double realSum = 0;
            double low = Double.POSITIVE_INFINITY;
            double high = Double.NEGATIVE_INFINITY;
            for (; x < width && labels.get(base + x) == root; x++) {
                long at = valueBase + x;
                double v;
                switch (type) {
                    case U8 -> {
                        int b = Byte.toUnsignedInt(values.get(ValueLayout.JAVA_BYTE, at));
                        integerSum += b;
                        v = b;
                    }
                    case U16 -> {
                        int u = Short.toUnsignedInt(values.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, at));
                        integerSum += u;
                        v = u;
                    }
                    case I32 -> {
                        int i = values.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, at);
                        integerSum += i;
                        v = i;
                    }
                    default -> {
                        float f = values.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at);
                        realSum += f;
                        v = f;
                    }
                }
                if (v == v) { // NaN takes no part in the extremes (NumPy's nanmin, nanmax), as natively
                    low = Math.min(low, v);
                    high = Math.max(high, v);
                }
            }
            long n = x - start;
            int r = roots.row(root);
            LONGS.getAndAdd(rows.size, r, n);
            lower(rows.min[0], r, start);
            raise(rows.max[0], r, x - 1);
            lower(rows.min[1], r, y);
            raise(rows.max[1], r, y);
            lower(rows.min[2], r, z);
            raise(rows.max[2], r, z);
            LONGS.getAndAdd(rows.coordinateSum[0], r, ((long) start + x - 1) * n / 2);
            LONGS.getAndAdd(rows.coordinateSum[1], r, (long) y * n);
            LONGS.getAndAdd(rows.coordinateSum[2], r, (long) z * n);
            int touched = faces | (start == 0 ? StatisticsTable.X_MIN : 0) | (x == width ? StatisticsTable.X_MAX : 0);
            if (touched != 0) {
                INTS.getAndBitwiseOr(rows.touches, r, touched);
            }
            if (rows.realSum != null) {
                DOUBLES.getAndAdd(rows.realSum, r, realSum);
            } else {
                LONGS.getAndAdd(rows.integerSum, r, integerSum);
            }
            lower(rows.low, r, low);
            raise(rows.high, r, high);
        }
    }

    private static void lower(int[] a, int i, int v) {
        for (int seen = (int) INTS.getVolatile(a, i); v < seen && !INTS.compareAndSet(a, i, seen, v);) {
            seen = (int) INTS.getVolatile(a, i);
        }
    }

    private static void raise(int[] a, int i, int v) {
        for (int seen = (int) INTS.getVolatile(a, i); v > seen && !INTS.compareAndSet(a, i, seen, v);) {
            seen = (int) INTS.getVolatile(a, i);
        }
    }

    private static void lower(double[] a, int i, double v) {
        for (double seen = (double) DOUBLES.getVolatile(a, i); v < seen && !DOUBLES.compareAndSet(a, i, seen, v);) {
            seen = (double) DOUBLES.getVolatile(a, i);
        }
    }

    private static void raise(double[] a, int i, double v) {
        for (double seen = (double) DOUBLES.getVolatile(a, i); v > seen && !DOUBLES.compareAndSet(a, i, seen, v);) {
            seen = (double) DOUBLES.getVolatile(a, i);
        }
    }

    private static void raise(long[] a, int i, long v) {
        for (long seen = (long) LONGS.getVolatile(a, i); v > seen && !LONGS.compareAndSet(a, i, seen, v);) {
            seen = (long) LONGS.getVolatile(a, i);
        }
    }

    // ---- graphs ---------------------------------------------------------------------------------

    /** The table of a graph's canonical labels; {@code out} as for meshes. */
    static StatisticsTable graph(GraphData graph, MemorySegment labels, RowNumbering numbering, MemorySegment out,
                                 java.lang.foreign.Arena arena, int cpuThreads) {
        int n = graph.vertexCount();
        LabelArray entries = new LabelArray(labels, false);
        Roots roots = roots(entries, n);
        int k = roots.first.length;
        long[] size = new long[k];
        long[] edges = new long[k];
        long[] maxDegree = new long[k];
        int[] maxVertex = new int[k];
        Arrays.fill(maxVertex, -1);
        MemorySegment neighbors = graph.neighbors();
        // the loop's threads read the graph and the labels: on the calling thread alone when
        // another thread could not
        boolean shared = Segments.isShared(labels) && Segments.isShared(neighbors)
                && Segments.isShared(graph.offsets());
        try (ForkJoinLoop loop = new ForkJoinLoop(shared ? cpuThreads : 1, 0, 1)) {
            loop.run(n, (from, to) -> {
                for (int v = (int) from; v < to; ) {
                    int root = labels.getAtIndex(ValueLayout.JAVA_INT, v);
                    if (root < 0) {
                        v++;
                        continue;
                    }
                    long vertices = 0;
                    long inside = 0;
                    long degree = 0;
                    int top = v;
                    for (; v < to && labels.getAtIndex(ValueLayout.JAVA_INT, v) == root; v++) {
                        vertices++;
                        top = v;
                        long begin = graph.offset(v);
                        long end = graph.offset(v + 1);
                        degree = Math.max(degree, end - begin);
                        for (long a = begin; a < end; a++) {
                            if (neighbors.getAtIndex(ValueLayout.JAVA_INT, a) >= v) {
                                inside++;
                            }
                        }
                    }
                    int r = roots.row(root);
                    LONGS.getAndAdd(size, r, vertices);
                    LONGS.getAndAdd(edges, r, inside);
                    raise(maxVertex, r, top);
                    raise(maxDegree, r, degree);
                }
            });
        }
        int[] order = order(size, numbering);
        StatisticsTable columns = new StatisticsTable(arena, k, false);
        for (int r = 0; r < k; r++) {
            int o = order[r];
            columns.setLong(Column.LABEL, r, numbering.label(r, roots.first[o]));
            columns.setLong(Column.FIRST, r, roots.first[o]);
            columns.setLong(Column.SIZE, r, size[o]);
            columns.setLong(Column.EDGES, r, edges[o]);
            columns.setInt(Column.MAX_VERTEX, r, maxVertex[o]);
            columns.setLong(Column.MAX_DEGREE, r, maxDegree[o]);
        }
        relabel(entries, n, roots, order, numbering, out);
        return columns;
    }

    // ---- numberings -----------------------------------------------------------------------------

    /** order[r] = the raster row that becomes row r: the identity, or by size descending (stable). */
    private static int[] order(long[] size, RowNumbering numbering) {
        IntStream rows = IntStream.range(0, size.length);
        if (numbering != RowNumbering.SIZE) {
            return rows.toArray();
        }
        return rows.boxed().sorted(Comparator.comparingLong((Integer r) -> -size[r])).mapToInt(Integer::intValue)
                .toArray();
    }

    /** position[raster row] = its row in the table. */
    private static int[] positions(int[] order) {
        int[] position = new int[order.length];
        for (int r = 0; r < order.length; r++) {
            position[order[r]] = r;
        }
        return position;
    }

    private static void relabel(LabelArray labels, long n, Roots roots, int[] order, RowNumbering numbering,
                                MemorySegment out) {
        if (out == null || (numbering == RowNumbering.CANONICAL && out.equals(labels.segment()))) {
            return;
        }
        LabelArray into = new LabelArray(out, labels.wide());
        int[] position = positions(order);
        for (long i = 0; i < n; i++) {
            long l = labels.get(i);
            into.set(i, l < 0 ? numbering.background() : numbering.label(position[roots.row(l)], l));
        }
    }
}
