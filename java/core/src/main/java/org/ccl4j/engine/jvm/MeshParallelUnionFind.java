package org.ccl4j.engine.jvm;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

import org.ccl4j.engine.serial.MeshNeighbourhood;
import org.ccl4j.engine.serial.SerialUnionFind;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.RunTimings;

/**
 * Mesh labelling by lock-free union-find on several threads, in Java: the mesh algorithm
 * {@code JAVA}, the JAVA backend's. {@link SerialUnionFind}, single-threaded, stays the test
 * oracle; both join the backward half of the neighbourhood that {@link MeshNeighbourhood} defines.
 *
 * <p>The labels are the parent array ({@link ConcurrentUnionFind}), int32 or int64, the labels and
 * cells reached by address ({@link RawMemory});
 * cell indices are longs, so that one implementation labels grids of any size. Three phases, each
 * a {@link ForkJoinLoop} over rows:
 * <ul>
 * <li>{@code init} points every labelled cell at the first cell of its run (the cells of its row
 * connected to it through their left neighbours), as ECL-CC starts a vertex at a neighbour, and
 * marks the others -1;
 * <li>{@code compute} joins every labelled cell with its other connected backward neighbours,
 * across the threads' rows as within them, skipping a join that two others already imply: cell
 * {@code i} and its neighbour {@code j} are joined already when {@code i-1} is joined to {@code i}
 * and to {@code j-1}, and {@code j-1} to {@code j}, which is the rule in the interior of a
 * cluster (where connecting is an equivalence of values: not with a delta);
 * <li>{@code finalize} points every labelled cell at its root, the smallest index of its cluster.
 * </ul>
 * Where native access is denied to this module, the oracle labels on one thread instead.
 */
final class MeshParallelUnionFind {
    private final int width;
    private final int height;
    private final int depth;
    private final long rowStride;
    private final long layerStride;
    private final IntensityData.ValueType type;
    private final boolean periodicX;
    private final boolean periodicY;
    private final boolean periodicZ;
    private final MeshSettings rule;
    private final boolean implies;
    /** Address of cell (0, 0, 0). */
    private final long cells;
    /** Address of the labels, the parent array: longs when {@code wide}, else ints. */
    private final long parent;
    private final boolean wide;
    /** The backward offsets but the left neighbour, {dx, dy, dz}. */
    private final List<int[]> others;

    private MeshParallelUnionFind(GridData grid, MeshSettings options, long cells, long parent, boolean wide) {
        this.width = grid.width();
        this.height = grid.height();
        this.depth = grid.depth();
        this.rowStride = grid.rowStride();
        this.layerStride = grid.layerStride();
        this.type = grid.type();
        this.periodicX = options.periodicX();
        this.periodicY = options.periodicY();
        this.periodicZ = options.periodicZ();
        this.rule = options;
        this.implies = options.equivalence();
        this.cells = cells;
        this.parent = parent;
        this.wide = wide;
        List<int[]> backward = MeshNeighbourhood.backwardOffsets(options.connectivity());
        this.others = backward.subList(1, backward.size());  // the first is the left neighbour
    }

    /**
     * Labels {@code grid} into {@code labels} (at least {@code grid.cellCount()} labels of
     * {@code labelBytes} bytes, native or on the Java heap) on {@code options.cpuThreads()} threads
     * (0 = all cores).
     */
    static RunTimings label(GridData grid, MeshSettings options, int labelBytes, MemorySegment labels) {
        return label(grid, options, labelBytes, labels, 0);
    }

    /**
     * As {@link #label(GridData, MeshSettings, int, MemorySegment)}, in leaves of {@code grain} rows
     * (0: the default, {@link ForkJoinLoop#CHUNK_WORK} cells).
     */
    static RunTimings label(GridData grid, MeshSettings options, int labelBytes, MemorySegment labels, long grain) {
        long start = System.nanoTime();
        if (!RawMemory.available()) {
            SerialUnionFind.labelMesh(grid, options, labels, labelBytes);
            double ms = (System.nanoTime() - start) / 1e6;
            return new RunTimings(ms, Map.of("label", ms), 0, "JAVA", "JAVA");
        }
        int width = grid.width();
        try (RawMemory memory = new RawMemory(); ForkJoinLoop loop = new ForkJoinLoop(options.cpuThreads(), grain, width)) {
            long parent = memory.output(labels);
            boolean wide = labelBytes == Long.BYTES;
            MeshParallelUnionFind mesh = new MeshParallelUnionFind(grid, options, memory.input(grid.cells()), parent,
                    wide);
            long rows = (long) grid.height() * grid.depth();
            loop.phase("init", rows, mesh::initRows);
            loop.phase("compute", rows, mesh::joinRows);
            loop.phase("finalize", rows,
                    (from, to) -> ConcurrentUnionFind.flatten(parent, wide, from * width, to * width));
            memory.commit();
            double total = (System.nanoTime() - start) / 1e6;
            return new RunTimings(total, loop.phases(), 0, "JAVA", "JAVA");
        }
    }

    /** Address of cell 0 of row y of layer z. */
    private long row(int y, int z) {
        return cells + (rowStride * y + layerStride * z) * type.bytes();
    }

    private double cell(long row, int x) {
        return RawMemory.getValue(type, row, x);
    }

    private boolean labelled(double value) {
        return rule.labelled(value);
    }

    /** Whether a labelled cell of value {@code a} connects to a neighbour of value {@code b}. */
    private boolean connected(double a, double b) {
        return rule.connected(a, b);
    }

    /** Points the labelled cells of rows {@code from .. to-1} at the first cell of their run, the others at -1. */
    private void initRows(long from, long to) {
        // row r is y = r % height of layer z = r / height: divided once, then counted (long division is slow)
        int y = (int) (from % height);
        int z = (int) (from / height);
        for (long r = from; r < to; r++, y = y + 1 == height ? 0 : y + 1, z += y == 0 ? 1 : 0) {
            long row = row(y, z);
            long first = r * width;
            long runStart = -1;
            double previous = 0;
            for (int x = 0; x < width; x++) {
                double value = cell(row, x);
                long i = first + x;
                if (!labelled(value)) {
                    runStart = -1;
                } else if (runStart < 0 || !connected(value, previous)) {
                    runStart = i;
                }
                ConcurrentUnionFind.set(parent, wide, i, runStart);
                previous = value;
            }
        }
    }

    /** Joins the labelled cells of rows {@code from .. to-1} with their connected backward neighbours but the left one. */
    private void joinRows(long from, long to) {
        for (long r = from; r < to; r++) {
            int y = (int) (r % height);
            int z = (int) (r / height);
            long row = row(y, z);
            if (periodicX && width > 1) {
                double last = cell(row, width - 1);
                if (labelled(cell(row, 0)) && connected(cell(row, 0), last)) {
                    ConcurrentUnionFind.union(parent, wide, r * width, r * width + width - 1);
                }
            }
            for (int[] o : others) {
                int ny = MeshNeighbourhood.wrap(y + o[1], height, periodicY);
                int nz = MeshNeighbourhood.wrap(z + o[2], depth, periodicZ);
                if (ny >= 0 && nz >= 0) {
                    joinRowPair(r, row, ny + (long) height * nz, row(ny, nz), o[0]);
                }
            }
        }
    }

    /** Joins each labelled cell x of row {@code r} with cell x+dx of row {@code n}, where connected. */
    private void joinRowPair(long r, long row, long n, long neighbours, int dx) {
        long first = r * width;
        long neighbourFirst = n * width;
        // what x-1 had: its value, its neighbour's value, whether the two were connected
        double previous = 0;
        double previousNeighbour = 0;
        boolean previousJoined = false;
        for (int x = 0; x < width; x++) {
            double value = cell(row, x);
            int nx = x + dx;
            boolean inside = nx >= 0 && nx < width;
            if (!inside) {
                nx = MeshNeighbourhood.wrap(nx, width, periodicX);
            }
            boolean joined = false;
            double neighbour = 0;
            if (nx >= 0 && labelled(value)) {
                neighbour = cell(neighbours, nx);
                joined = connected(value, neighbour);
                // x ~ x-1 ~ (x-1)+dx ~ x+dx, all joined elsewhere: nothing to do
                boolean implied = implies && previousJoined && inside && nx > 0 && connected(value, previous)
                        && labelled(neighbour) && connected(neighbour, previousNeighbour);
                if (joined && !implied) {
                    ConcurrentUnionFind.union(parent, wide, first + x, neighbourFirst + nx);
                }
            }
            previous = value;
            previousNeighbour = neighbour;
            previousJoined = joined && inside;
        }
    }
}
