package org.ccl4j;

import java.util.Set;

/**
 * One row of a {@link MeshStatistics} table: a component of a mesh with its label in the table's
 * numbering, its first (smallest) cell index, its size in cells, its bounding box (inclusive,
 * zero-based), its centroid (mean cell coordinates), the {@link Face} bits it touches, and the
 * sum, minimum, maximum and mean of the intensity over its cells, and the periodic axes it wraps
 * around ({@code wraps}: bits 1 = x, 2 = y, 4 = z; see {@link StatisticsColumn#WRAPS}).
 */
public record Region(long label, long first, long size, int minX, int minY, int minZ, int maxX, int maxY, int maxZ,
                     double centroidX, double centroidY, double centroidZ, int touches, double sum, double min,
                     double max, double mean, int wraps) {

    /** The faces of the grid it touches. */
    public Set<Face> faces() {
        return Face.of(touches);
    }

    /** Whether it touches {@code face}. */
    public boolean touches(Face face) {
        return (touches & face.bit()) != 0;
    }

    /** Whether it wraps around the periodic x axis (percolates along x). */
    public boolean wrapsX() {
        return (wraps & 1) != 0;
    }

    /** Whether it wraps around the periodic y axis. */
    public boolean wrapsY() {
        return (wraps & 2) != 0;
    }

    /** Whether it wraps around the periodic z axis. */
    public boolean wrapsZ() {
        return (wraps & 4) != 0;
    }

    /** The bounding box's extent along x. */
    public int width() {
        return maxX - minX + 1;
    }

    /** The bounding box's extent along y. */
    public int height() {
        return maxY - minY + 1;
    }

    /** The bounding box's extent along z (1 in 2D). */
    public int depth() {
        return maxZ - minZ + 1;
    }
}
