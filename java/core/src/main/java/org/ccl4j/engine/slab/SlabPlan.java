package org.ccl4j.engine.slab;

import java.lang.foreign.MemorySegment;

import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.MeshSettings;

/**
 * A grid cut into slabs along its slowest axis (z in 3D, y in 2D): {@code slabs} runs of
 * {@code planes} planes (rows in 2D), the last one shorter. A slab is a grid of its own, its cells a
 * slice of the grid's and its labels a contiguous run of the grid's label indices.
 *
 * @param grid   the whole grid
 * @param planes planes per slab
 * @param slabs  the number of slabs
 */
record SlabPlan(GridData grid, int planes, int slabs) {
    /** A plan of slabs of at most {@code planes} planes, evened out. */
    static SlabPlan of(GridData grid, int planes) {
        int extent = extent(grid);
        int slabs = (int) ((extent + (long) planes - 1) / planes);
        return new SlabPlan(grid, (int) ((extent + (long) slabs - 1) / slabs), slabs);
    }

    /** The planes of a grid along its slab axis: its depth in 3D, its height in 2D. */
    static int extent(GridData grid) {
        return grid.depth() > 1 ? grid.depth() : grid.height();
    }

    /** Cells of one plane: width × height in 3D, a row's width in 2D. */
    static long planeCells(GridData grid) {
        return grid.depth() > 1 ? (long) grid.width() * grid.height() : grid.width();
    }

    /** Whether the slab axis is z (a 3D grid) rather than y. */
    boolean alongZ() {
        return grid.depth() > 1;
    }

    int extent() {
        return extent(grid);
    }

    long planeCells() {
        return planeCells(grid);
    }

    /** The first plane of slab {@code s}. */
    int start(int s) {
        return s * planes;
    }

    /** One past the last plane of slab {@code s}. */
    int end(int s) {
        return Math.min(extent(), (s + 1) * planes);
    }

    /** The cells of slab {@code s}. */
    long cells(int s) {
        return (end(s) - start(s)) * planeCells();
    }

    /** The most cells of one slab. */
    long largestSlabCells() {
        return planes * planeCells();
    }

    /** The label index of the first cell of slab {@code s}: its labels are the grid's from there on. */
    long base(int s) {
        return start(s) * planeCells();
    }

    /** Slab {@code s} as a grid of its own. */
    GridData slab(int s) {
        return slab(grid, start(s), end(s));
    }

    /** The grid of planes {@code from} to {@code to} (exclusive) of {@code grid}. */
    static GridData slab(GridData grid, int from, int to) {
        boolean alongZ = grid.depth() > 1;
        long step = alongZ ? grid.layerStride() : grid.rowStride();
        int width = grid.width();
        int height = alongZ ? grid.height() : to - from;
        int depth = alongZ ? to - from : 1;
        long rowStride = grid.rowStride();
        long layerStride = alongZ ? grid.layerStride() : rowStride * height;
        long lastCell = (depth - 1) * layerStride + (height - 1) * rowStride + width;
        MemorySegment cells = grid.cells().asSlice(from * step * grid.cellBytes(), lastCell * grid.cellBytes());
        return new GridData(width, height, depth, grid.type(), rowStride, layerStride, cells);
    }

    /** The intensity of slab {@code s}, or null for null (the cells). */
    IntensityData intensity(IntensityData intensity, int s) {
        if (intensity == null) {
            return null;
        }
        long step = alongZ() ? intensity.layerStride() : intensity.rowStride();
        int height = alongZ() ? grid.height() : end(s) - start(s);
        int depth = alongZ() ? end(s) - start(s) : 1;
        long layerStride = alongZ() ? intensity.layerStride() : intensity.rowStride() * height;
        long lastValue = (depth - 1) * layerStride + (height - 1) * intensity.rowStride() + grid.width();
        int bytes = intensity.type().bytes();
        return new IntensityData(intensity.type(), intensity.rowStride(), layerStride,
                intensity.values().asSlice(start(s) * step * bytes, lastValue * bytes));
    }

    /** The settings of slab {@code s}: see {@link #settings(GridData, MeshSettings, int)}. */
    MeshSettings settings(MeshSettings settings, int s) {
        return settings(grid, settings, end(s) - start(s));
    }

    /**
     * The settings of a slab of {@code planes} planes of {@code grid}: open boundaries (the joins
     * across the periodic ones are the slab run's, so that it sees which loops wrap), and on a
     * single layer of a 3D grid the planar stencil that 6, 18 and 26 are there.
     */
    static MeshSettings settings(GridData grid, MeshSettings settings, int planes) {
        MeshSettings open = settings.open();
        int c = open.connectivity();
        if (grid.depth() > 1 && planes == 1 && (c == 6 || c == 18 || c == 26)) {
            return open.withConnectivity(c == 6 ? 4 : 8);
        }
        return open;
    }
}
