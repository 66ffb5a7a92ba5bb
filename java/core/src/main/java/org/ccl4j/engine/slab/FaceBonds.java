package org.ccl4j.engine.slab;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.ccl4j.engine.serial.MeshNeighbourhood;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.MeshSettings;

/**
 * The bonds that labelling a slab with open boundaries leaves out, joined in a
 * {@link BoundaryUnionFind}: those from a slab's last plane into the next slab's first (and from
 * the grid's last plane into its first along a periodic slab axis), and those across the periodic
 * boundaries of the other axes within a slab. Every bond of the stencil is visited once, from the
 * cell it leaves forwards: its offset's slab-axis step is positive, or zero and the next axis's
 * positive, and so on.
 */
final class FaceBonds {
    private final GridData grid;
    private final MeshSettings settings;
    private final boolean sameValue;
    private final boolean alongZ;
    private final boolean periodicX;
    private final boolean periodicY;  // the other axis across the planes: y in 3D, none in 2D
    private final int width;
    private final int height;
    private final List<int[]> forward = new ArrayList<>();  // {dx, dy, dz} leaving a cell forwards
    private final List<int[]> upward = new ArrayList<>();   // those of them that step along the slab axis

    FaceBonds(GridData grid, MeshSettings settings) {
        this.grid = grid;
        this.settings = settings;
        this.sameValue = settings.sameValue();
        this.alongZ = grid.depth() > 1;
        this.periodicX = settings.periodicX();
        this.periodicY = alongZ && settings.periodicY();
        this.width = grid.width();
        this.height = grid.height();
        for (int dz = alongZ ? -1 : 0; dz <= (alongZ ? 1 : 0); dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    if (!MeshNeighbourhood.inStencil(settings.connectivity(), dx, dy, dz)) {
                        continue;
                    }
                    int[] d = {dx, dy, dz};
                    // the slab axis first (z in 3D, y in 2D), then y, then x
                    int first = alongZ ? (dz != 0 ? dz : dy != 0 ? dy : dx) : (dy != 0 ? dy : dx);
                    if (first > 0) {
                        forward.add(d);
                        if ((alongZ ? dz : dy) == 1) {
                            upward.add(d);
                        }
                    }
                }
            }
        }
    }

    /** Whether some bond crosses a periodic boundary within a slab. */
    boolean periodicWithinSlabs() {
        return periodicX || periodicY;
    }

    /**
     * Joins the bonds from plane {@code lowerPlane} (its clusters' labels in {@code lower}, one per
     * cell of the plane, -1 for none) to plane {@code upperPlane} (in {@code upper}); {@code wrap}:
     * the upper plane is the first, reached across the periodic slab axis.
     */
    void joinPlanes(MemorySegment lower, int lowerPlane, MemorySegment upper, int upperPlane, boolean wrap,
                    BoundaryUnionFind clusters) {
        int rows = alongZ ? height : 1;
        int axisStep = wrap ? 1 : 0;
        for (int y = 0; y < rows; y++) {
            for (int x = 0; x < width; x++) {
                long from = lower.getAtIndex(ValueLayout.JAVA_LONG, x + (long) width * y);
                if (from < 0) {
                    continue;
                }
                for (int[] d : upward) {
                    int nx = x + d[0];
                    int sx = 0;
                    if (nx < 0 || nx >= width) {
                        if (!periodicX) {
                            continue;
                        }
                        sx = nx < 0 ? -1 : 1;
                        nx -= sx * width;
                    }
                    int ny = y;
                    int sy = 0;
                    if (alongZ) {
                        ny = y + d[1];
                        if (ny < 0 || ny >= height) {
                            if (!periodicY) {
                                continue;
                            }
                            sy = ny < 0 ? -1 : 1;
                            ny -= sy * height;
                        }
                    }
                    long to = upper.getAtIndex(ValueLayout.JAVA_LONG, nx + (long) width * ny);
                    if (to < 0 || (sameValue && !settings.connected(planeValue(x, y, lowerPlane), planeValue(nx, ny, upperPlane)))) {
                        continue;
                    }
                    if (alongZ) {
                        clusters.join(from, to, sx, sy, axisStep);
                    } else {
                        clusters.join(from, to, sx, axisStep, 0);
                    }
                }
            }
        }
    }

    /**
     * Joins the bonds across the periodic boundaries of the other axes between the cells of planes
     * {@code start} to {@code end} (a slab), whose labels are {@code labels} (int32, the slab's,
     * from the grid's label index {@code base} on; -1 for none).
     */
    void joinWithin(MemorySegment labels, long base, int start, int end, BoundaryUnionFind clusters) {
        for (int a = start; a < end; a++) {
            int rows = alongZ ? height : 1;
            for (int r = 0; r < rows; r++) {
                int y = alongZ ? r : a;
                int z = alongZ ? a : 0;
                if (periodicY && (y == 0 || y == height - 1)) {
                    for (int x = 0; x < width; x++) {
                        joinCell(labels, base, x, y, z, end, clusters);
                    }
                } else if (periodicX) {
                    joinCell(labels, base, 0, y, z, end, clusters);
                    if (width > 1) {
                        joinCell(labels, base, width - 1, y, z, end, clusters);
                    }
                }
            }
        }
    }

    /** The bonds of cell (x, y, z) that wrap around an axis other than the slab axis. */
    private void joinCell(MemorySegment labels, long base, int x, int y, int z, int end,
                          BoundaryUnionFind clusters) {
        long from = label(labels, base, x, y, z);
        if (from < 0) {
            return;
        }
        for (int[] d : forward) {
            int[] n = {x + d[0], y + d[1], z + d[2]};
            if ((alongZ ? n[2] : n[1]) >= end) {
                continue;  // into the next slab: joined with it
            }
            int[] s = new int[3];
            boolean open = false;
            for (int k = 0; k < (alongZ ? 2 : 1); k++) {
                int extent = k == 0 ? width : height;
                if (n[k] >= 0 && n[k] < extent) {
                    continue;
                }
                if (!(k == 0 ? periodicX : periodicY)) {
                    open = true;
                    break;
                }
                s[k] = n[k] < 0 ? -1 : 1;
                n[k] -= s[k] * extent;
            }
            if (open || (s[0] == 0 && s[1] == 0)) {
                continue;  // leaves the grid, or stays within the slab: the slab's labelling joined it
            }
            long to = label(labels, base, n[0], n[1], n[2]);
            if (to < 0 || (sameValue && !settings.connected(grid.value(x, y, z), grid.value(n[0], n[1], n[2])))) {
                continue;
            }
            clusters.join(from, to, s[0], s[1], s[2]);
        }
    }

    /** The global label of cell (x, y, z) of a slab whose labels start at grid index {@code base}; -1 for none. */
    private long label(MemorySegment labels, long base, int x, int y, int z) {
        long index = x + (long) width * (y + (long) height * z) - base;
        int local = labels.getAtIndex(ValueLayout.JAVA_INT, index);
        return local < 0 ? -1 : base + local;
    }

    /** The value of cell (x, y) of plane {@code plane} (y is 0 in 2D, where a plane is a row). */
    private double planeValue(int x, int y, int plane) {
        return alongZ ? grid.value(x, y, plane) : grid.value(x, plane, 0);
    }
}
