package org.ccl4j;

import java.util.Set;

/**
 * One row of a {@link MeshStatistics} table: a component of a mesh with its label in the table's
 * numbering, its first (smallest) cell index, its size in cells, its bounding box (inclusive,
 * zero-based), its centroid (mean cell coordinates), the {@link Face} bits it touches, and the
 * sum, minimum, maximum and mean of the intensity over its cells, and the periodic axes it wraps
 * around ({@code wraps}: bits 1 = x, 2 = y, 4 = z; see {@link StatisticsColumn#WRAPS}).
 *
 * @param label its label in the table's numbering
 * @param first its smallest linear cell index: its canonical label
 * @param size its number of cells
 * @param minX the smallest x of its cells
 * @param minY the smallest y of its cells
 * @param minZ the smallest z of its cells (0 in 2D)
 * @param maxX the largest x of its cells
 * @param maxY the largest y of its cells
 * @param maxZ the largest z of its cells (0 in 2D)
 * @param centroidX the mean x of its cells
 * @param centroidY the mean y of its cells
 * @param centroidZ the mean z of its cells (0 in 2D)
 * @param touches the {@link Face} bits of the grid's faces it touches
 * @param sum the sum of the intensity over its cells
 * @param min the smallest intensity of its cells
 * @param max the largest intensity of its cells
 * @param mean the mean intensity of its cells: {@code sum / size}
 * @param wraps the periodic axes it wraps around: bits 1 = x, 2 = y, 4 = z
 */
public record Region(long label, long first, long size, int minX, int minY, int minZ, int maxX, int maxY, int maxZ,
                     double centroidX, double centroidY, double centroidZ, int touches, double sum, double min,
                     double max, double mean, int wraps) {

    /**
     * The faces of the grid it touches.
     *
     * @return the faces in {@link #touches()}
     */
    public Set<Face> faces() {
        return Face.of(touches);
    }

    /**
     * Whether it touches {@code face}.
     *
     * @param face a face of the grid
     * @return whether a cell of the component lies on {@code face}
     */
    public boolean touches(Face face) {
        return (touches & face.bit()) != 0;
    }

    /**
     * Whether it wraps around the periodic x axis (percolates along x).
     *
     * @return whether bit 1 of {@link #wraps()} is set
     */
    public boolean wrapsX() {
        return (wraps & 1) != 0;
    }

    /**
     * Whether it wraps around the periodic y axis.
     *
     * @return whether bit 2 of {@link #wraps()} is set
     */
    public boolean wrapsY() {
        return (wraps & 2) != 0;
    }

    /**
     * Whether it wraps around the periodic z axis.
     *
     * @return whether bit 4 of {@link #wraps()} is set
     */
    public boolean wrapsZ() {
        return (wraps & 4) != 0;
    }

    /**
     * The bounding box's extent along x.
     *
     * @return {@code maxX - minX + 1}
     */
    public int width() {
        return maxX - minX + 1;
    }

    /**
     * The bounding box's extent along y.
     *
     * @return {@code maxY - minY + 1}
     */
    public int height() {
        return maxY - minY + 1;
    }

    /**
     * The bounding box's extent along z (1 in 2D).
     *
     * @return {@code maxZ - minZ + 1}
     */
    public int depth() {
        return maxZ - minZ + 1;
    }
}
