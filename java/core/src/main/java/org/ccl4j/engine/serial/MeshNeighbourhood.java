package org.ccl4j.engine.serial;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.MeshSettings;

/**
 * Which cells of a grid are labelled and which neighbours join, under some {@link MeshSettings}:
 * the mesh logic of the Java union-finds, {@link SerialUnionFind} (the oracle) and the JVM
 * engine's parallel one, which differ only in how they join two cells.
 *
 * <p>Work is given by rows: row {@code r} is the {@code width} cells of {@code y = r % height},
 * {@code z = r / height}, linear indices {@code r * width ..}, so that rows can be shared among
 * threads. Each labelled cell is joined with the connected neighbours of the backward half of its
 * neighbourhood (those before it in x-fastest order, wrapped across periodic boundaries): every
 * neighbour pair is reached once from one of its ends.
 */
public final class MeshNeighbourhood {
    /** Joins two labelled, connected cells, given by linear index. */
    @FunctionalInterface
    public interface Join {
        void join(long cell, long neighbour);
    }

    private final GridData grid;
    private final int width;
    private final int height;
    private final int depth;
    private final boolean periodicX;
    private final boolean periodicY;
    private final boolean periodicZ;
    private final MeshSettings rule;  // which cells are labelled and connect
    /** The backward offsets {dx, dy, dz} of the connectivity. */
    private final List<int[]> backward;

    public MeshNeighbourhood(GridData grid, MeshSettings settings) {
        this.grid = grid;
        this.width = grid.width();
        this.height = grid.height();
        this.depth = grid.depth();
        this.periodicX = settings.periodicX();
        this.periodicY = settings.periodicY();
        this.periodicZ = settings.periodicZ();
        this.rule = settings;
        this.backward = backwardOffsets(settings.connectivity());
    }

    /**
     * The offsets {dx, dy, dz} of the backward half of a connectivity's neighbourhood: the
     * neighbours before a cell in x-fastest order ({@code dz < 0}, or {@code dz == 0} and
     * {@code dy < 0}, or {@code dz == dy == 0} and {@code dx < 0}); {@code {-1, 0, 0}} first.
     */
    public static List<int[]> backwardOffsets(int connectivity) {
        List<int[]> offsets = new ArrayList<>();
        for (int dz = -1; dz <= 0; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    boolean before = dz < 0 || (dy < 0 || (dy == 0 && dx < 0));
                    if (before && inStencil(connectivity, dx, dy, dz)) {
                        offsets.add(new int[] {dx, dy, dz});
                    }
                }
            }
        }
        offsets.sort((a, b) -> Integer.compare(Math.abs(a[1]) + Math.abs(a[2]), Math.abs(b[1]) + Math.abs(b[2])));
        return offsets;
    }

    /**
     * Whether (dx, dy, dz), each -1..1, is a neighbour under the connectivity (as the native
     * library's stencil): 4 and 8 the plane's faces and square, 6 the cube's faces, 18 its faces
     * and edges, 26 the whole cube.
     */
    public static boolean inStencil(int connectivity, int dx, int dy, int dz) {
        int distance = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
        return distance > 0 && switch (connectivity) {
            case 4 -> dz == 0 && distance == 1;
            case 8 -> dz == 0;
            case 6 -> distance == 1;
            case 18 -> distance <= 2;
            default -> true;
        };
    }

    /** Rows of the grid: {@code height * depth}. */
    public long rows() {
        return (long) height * depth;
    }

    /** Cells of a row: the width. */
    public int width() {
        return width;
    }

    /**
     * Writes each cell's own index into {@code parent} (ints, or longs when {@code wide}) for
     * labelled cells, -1 for the others, for rows {@code from .. to-1}.
     */
    public void initRows(MemorySegment parent, boolean wide, long from, long to) {
        for (long r = from; r < to; r++) {
            MemorySegment row = grid.row((int) (r % height), (int) (r / height));
            for (int x = 0; x < width; x++) {
                long i = x + width * r;
                long label = rule.labelled(cell(row, x)) ? i : -1;
                if (wide) {
                    parent.setAtIndex(ValueLayout.JAVA_LONG, i, label);
                } else {
                    parent.setAtIndex(ValueLayout.JAVA_INT, i, (int) label);
                }
            }
        }
    }

    /**
     * Calls {@code join} for every labelled cell of the rows {@code from .. to-1} and each
     * connected neighbour in the backward half of its neighbourhood.
     */
    public void joinRows(long from, long to, Join join) {
        for (long r = from; r < to; r++) {
            int y = (int) (r % height);
            int z = (int) (r / height);
            MemorySegment row = grid.row(y, z);
            for (int[] o : backward) {
                // one neighbour row per offset, absent across an open boundary
                int ny = wrap(y + o[1], height, periodicY);
                int nz = wrap(z + o[2], depth, periodicZ);
                if (ny < 0 || nz < 0) {
                    continue;
                }
                MemorySegment neighbours = grid.row(ny, nz);
                long neighbourRow = width * (ny + (long) height * nz);
                for (int x = 0; x < width; x++) {
                    double value = cell(row, x);
                    int nx = wrap(x + o[0], width, periodicX);
                    if (rule.labelled(value) && nx >= 0 && rule.connected(value, cell(neighbours, nx))) {
                        join.join(x + width * r, nx + neighbourRow);
                    }
                }
            }
        }
    }

    /** Cell {@code x} of a row of {@link GridData#row}. */
    private double cell(MemorySegment row, int x) {
        return grid.type().read(row, x);
    }

    /** {@code v} on an axis of {@code extent}: wrapped around when periodic, else -1 outside. */
    public static int wrap(int v, int extent, boolean periodic) {
        if (v >= 0 && v < extent) {
            return v;
        }
        return periodic ? Math.floorMod(v, extent) : -1;
    }
}
