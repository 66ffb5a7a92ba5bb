package org.ccl4j.engine.slab;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

import org.ccl4j.engine.spi.RowNumbering;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.engine.spi.StatisticsTable.Column;
import org.ccl4j.internal.UninitializedMemory;

/**
 * The table of a grid labelled in slabs, from the slabs' tables: the rows of clusters that the
 * boundary union-find joins are merged into the row of their component's first cluster, which
 * comes before them in raster order. Sizes, boxes and sums add up exactly as in one pass over the
 * grid: a centroid's coordinate sum is recovered exactly from the slab's centroid (an exact
 * quotient of two integers below 2^53), and integer intensities' sums are exact doubles.
 */
final class SlabStatistics {
    private final StatisticsTable table;
    private final int[] sizeRank;  // SIZE numbering: the row of each component in raster order; else null

    private SlabStatistics(StatisticsTable table, int[] sizeRank) {
        this.table = table;
        this.sizeRank = sizeRank;
    }

    StatisticsTable table() {
        return table;
    }

    /** The row, in the SIZE numbering, of the component that is row {@code rasterRow} in raster order. */
    long sizeRank(long rasterRow) {
        return sizeRank[(int) rasterRow];
    }

    static SlabStatistics merge(SlabPlan plan, BoundaryUnionFind clusters, StatisticsTable[] slabs, long components,
                                RowNumbering numbering, boolean measured, Arena arena, Arena run) {
        if (components > Integer.MAX_VALUE) {
            throw new UnsupportedOperationException("a table holds at most " + Integer.MAX_VALUE + " rows; "
                    + plan.grid().describe() + " has " + components + " components");
        }
        int k = (int) components;
        StatisticsTable acc = new StatisticsTable(run, k, true);
        MemorySegment sums = UninitializedMemory.allocate(run, 3L * Math.max(1, k) * Long.BYTES, Long.BYTES);
        int[] rowOf = new int[clusters.size()];
        int axis = plan.alongZ() ? 2 : 1;
        int rows = 0;
        for (int s = 0; s < slabs.length; s++) {
            StatisticsTable t = slabs[s];
            long base = plan.base(s);
            int shift = plan.start(s);
            for (long r = 0; r < t.rows(); r++) {
                long size = t.getLong(Column.SIZE, r);
                long[] sum = {Math.round(t.getDouble(Column.CENTROID_X, r) * size),
                        Math.round(t.getDouble(Column.CENTROID_Y, r) * size),
                        Math.round(t.getDouble(Column.CENTROID_Z, r) * size)};
                sum[axis] += (long) shift * size;
                int[] min = {t.getInt(Column.MIN_X, r), t.getInt(Column.MIN_Y, r), t.getInt(Column.MIN_Z, r)};
                int[] max = {t.getInt(Column.MAX_X, r), t.getInt(Column.MAX_Y, r), t.getInt(Column.MAX_Z, r)};
                min[axis] += shift;
                max[axis] += shift;
                long first = base + t.getLong(Column.FIRST, r);
                int node = clusters.nodeOf(first);
                if (node >= 0 && !clusters.isRoot(node)) {
                    int row = rowOf[clusters.rootOf(node)];
                    acc.setLong(Column.SIZE, row, acc.getLong(Column.SIZE, row) + size);
                    for (int a = 0; a < 3; a++) {
                        acc.setInt(MIN[a], row, Math.min(acc.getInt(MIN[a], row), min[a]));
                        acc.setInt(MAX[a], row, Math.max(acc.getInt(MAX[a], row), max[a]));
                        long at = 3L * row + a;
                        sums.setAtIndex(ValueLayout.JAVA_LONG, at, sums.getAtIndex(ValueLayout.JAVA_LONG, at) + sum[a]);
                    }
                    acc.setDouble(Column.SUM, row, acc.getDouble(Column.SUM, row) + t.getDouble(Column.SUM, r));
                    acc.setDouble(Column.MIN, row, nanMin(acc.getDouble(Column.MIN, row), t.getDouble(Column.MIN, r)));
                    acc.setDouble(Column.MAX, row, nanMax(acc.getDouble(Column.MAX, row), t.getDouble(Column.MAX, r)));
                    continue;
                }
                int row = rows++;
                if (node >= 0) {
                    rowOf[node] = row;
                }
                acc.setLong(Column.FIRST, row, first);
                acc.setLong(Column.SIZE, row, size);
                for (int a = 0; a < 3; a++) {
                    acc.setInt(MIN[a], row, min[a]);
                    acc.setInt(MAX[a], row, max[a]);
                    sums.setAtIndex(ValueLayout.JAVA_LONG, 3L * row + a, sum[a]);
                }
                acc.setDouble(Column.SUM, row, t.getDouble(Column.SUM, r));
                acc.setDouble(Column.MIN, row, t.getDouble(Column.MIN, r));
                acc.setDouble(Column.MAX, row, t.getDouble(Column.MAX, r));
                acc.setInt(Column.WRAPS, row, node >= 0 ? clusters.wraps(node) : 0);
            }
        }
        if (rows != k) {
            throw new IllegalStateException("the slabs' tables hold " + rows + " components, their labels " + k);
        }
        int[] order = numbering == RowNumbering.SIZE ? bySize(acc, k) : null;
        int[] rank = null;
        if (order != null) {
            rank = new int[k];
            for (int p = 0; p < k; p++) {
                rank[order[p]] = p;
            }
        }
        StatisticsTable out = new StatisticsTable(arena, k, true, measured);  // the caller fills the measurements
        for (int p = 0; p < k; p++) {
            int row = order == null ? p : order[p];
            long first = acc.getLong(Column.FIRST, row);
            long size = acc.getLong(Column.SIZE, row);
            out.setLong(Column.LABEL, p, switch (numbering) {
                case CANONICAL -> first;
                case RASTER -> p + 1;
                case SIZE -> p;
            });
            out.setLong(Column.FIRST, p, first);
            out.setLong(Column.SIZE, p, size);
            int touches = 0;
            int[] extents = {plan.grid().width(), plan.grid().height(), plan.grid().depth()};
            for (int a = 0; a < 3; a++) {
                int lo = acc.getInt(MIN[a], row);
                int hi = acc.getInt(MAX[a], row);
                out.setInt(MIN[a], p, lo);
                out.setInt(MAX[a], p, hi);
                out.setDouble(CENTROID[a], p, (double) sums.getAtIndex(ValueLayout.JAVA_LONG, 3L * row + a) / (double) size);
                if (a < 2 || extents[2] > 1) {  // a 2D grid has no z faces
                    touches |= (lo == 0 ? FACE_MIN[a] : 0) | (hi == extents[a] - 1 ? FACE_MAX[a] : 0);
                }
            }
            out.setInt(Column.TOUCHES, p, touches);
            double sum = acc.getDouble(Column.SUM, row);
            out.setDouble(Column.SUM, p, sum);
            out.setDouble(Column.MIN, p, acc.getDouble(Column.MIN, row));
            out.setDouble(Column.MAX, p, acc.getDouble(Column.MAX, row));
            out.setDouble(Column.MEAN, p, sum / (double) size);
            out.setInt(Column.WRAPS, p, acc.getInt(Column.WRAPS, row));
        }
        return new SlabStatistics(out, rank);
    }

    // A slab's part of a component whose intensities there are all NaN has NaN extremes: the
    // others' decide (NaN only when every part's are).
    private static double nanMin(double a, double b) {
        return a != a ? b : b != b ? a : Math.min(a, b);
    }

    private static double nanMax(double a, double b) {
        return a != a ? b : b != b ? a : Math.max(a, b);
    }

    private static final Column[] MIN = {Column.MIN_X, Column.MIN_Y, Column.MIN_Z};
    private static final Column[] MAX = {Column.MAX_X, Column.MAX_Y, Column.MAX_Z};
    private static final Column[] CENTROID = {Column.CENTROID_X, Column.CENTROID_Y, Column.CENTROID_Z};
    private static final int[] FACE_MIN = {StatisticsTable.X_MIN, StatisticsTable.Y_MIN, StatisticsTable.Z_MIN};
    private static final int[] FACE_MAX = {StatisticsTable.X_MAX, StatisticsTable.Y_MAX, StatisticsTable.Z_MAX};

    /** The rows in the SIZE numbering's order: largest first, equal sizes in raster order. */
    private static int[] bySize(StatisticsTable acc, int k) {
        long largest = 0;
        for (int r = 0; r < k; r++) {
            largest = Math.max(largest, acc.getLong(Column.SIZE, r));
        }
        if (largest < (1L << 32)) {
            long[] keys = new long[k];  // (largest - size) above the row: ascending keys are the order
            for (int r = 0; r < k; r++) {
                keys[r] = ((largest - acc.getLong(Column.SIZE, r)) << 31) | r;
            }
            Arrays.parallelSort(keys);
            int[] order = new int[k];
            for (int p = 0; p < k; p++) {
                order[p] = (int) (keys[p] & Integer.MAX_VALUE);
            }
            return order;
        }
        // components of 2^32 cells or more: too large for the packed keys
        Comparator<Integer> order = Comparator.comparingLong((Integer r) -> acc.getLong(Column.SIZE, r)).reversed()
                .thenComparingInt(r -> r);
        return IntStream.range(0, k).boxed().sorted(order)
                .mapToInt(Integer::intValue).toArray();
    }
}
