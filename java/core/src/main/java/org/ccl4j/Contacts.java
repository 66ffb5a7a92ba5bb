package org.ccl4j;

import java.util.Objects;

import org.ccl4j.engine.spi.ContactRows;

/**
 * The contacts between the components of a labelled grid: the region adjacency graph with its
 * contact counts, as cc3d's {@code contacts(labels, connectivity, surface_area, anisotropy)}
 * reports it (and, its pairs alone, {@code region_graph(labels, connectivity)}). Made by
 * {@link MeshLabels#contacts(int)}.
 *
 * <p>One row per pair of labels {@code first < second} whose cells touch: two cells touch when
 * they are neighbours under the table's {@link #connectivity()} and neither is background (-1).
 * Rows ascend by {@code first}, then {@code second}. For each pair:
 * <ul>
 * <li>{@link #contacts(int)}: the pairs of neighbouring cells, one of each label, each counted once
 *     (cc3d's {@code contacts} with {@code surface_area=False});</li>
 * <li>{@link #xFaces(int)}, {@link #yFaces(int)}, {@link #zFaces(int)}: those that share a face
 *     across x, y and z; the others meet at an edge or a corner;</li>
 * <li>{@link #area(int, double, double, double)}: the contact area with voxel sizes
 *     {@code (wx, wy, wz)} (cc3d's {@code surface_area=True} with {@code anisotropy}): a face across x
 *     has the area {@code wy * wz}, across y {@code wx * wz}, across z {@code wx * wy}; in 2D the
 *     length of the shared edge, {@code wy} across x and {@code wx} across y. Edges and corners have
 *     no area, so a pair that meets only at corners is listed with area 0.</li>
 * </ul>
 * The counts are exact and the same on every backend. Unlike cc3d, which skips label 0 as
 * background, every label here is a component (canonical labels start at 0); background is -1.
 */
public final class Contacts {
    private final ContactRows rows;
    private final int connectivity;
    private final boolean threeD;

    Contacts(ContactRows rows, int connectivity, boolean threeD) {
        this.rows = rows;
        this.connectivity = connectivity;
        this.threeD = threeD;
    }

    /**
     * The number of pairs of labels that touch.
     *
     * @return the number of rows
     */
    public int size() {
        return rows.size();
    }

    /**
     * The connectivity the contacts were counted with: 4 or 8 in 2D, 6, 18 or 26 in 3D.
     *
     * @return the connectivity
     */
    public int connectivity() {
        return connectivity;
    }

    /**
     * The smaller label of a row's pair.
     *
     * @param row a row, below {@link #size()}
     * @return the smaller label
     */
    public long first(int row) {
        return rows.first()[Objects.checkIndex(row, size())];
    }

    /**
     * The larger label of a row's pair.
     *
     * @param row a row, below {@link #size()}
     * @return the larger label
     */
    public long second(int row) {
        return rows.second()[Objects.checkIndex(row, size())];
    }

    /**
     * The pairs of neighbouring cells, one labelled {@link #first}, one {@link #second}.
     *
     * @param row a row, below {@link #size()}
     * @return the number of touching cell pairs
     */
    public long contacts(int row) {
        return rows.contacts()[Objects.checkIndex(row, size())];
    }

    /**
     * The touching cell pairs that share a face across x (the cells differ in x only).
     *
     * @param row a row, below {@link #size()}
     * @return the number of faces across x
     */
    public long xFaces(int row) {
        return rows.xFaces()[Objects.checkIndex(row, size())];
    }

    /**
     * The touching cell pairs that share a face across y.
     *
     * @param row a row, below {@link #size()}
     * @return the number of faces across y
     */
    public long yFaces(int row) {
        return rows.yFaces()[Objects.checkIndex(row, size())];
    }

    /**
     * The touching cell pairs that share a face across z (0 in 2D).
     *
     * @param row a row, below {@link #size()}
     * @return the number of faces across z
     */
    public long zFaces(int row) {
        return rows.zFaces()[Objects.checkIndex(row, size())];
    }

    /**
     * The contact area with unit voxels: the number of shared faces.
     *
     * @param row a row, below {@link #size()}
     * @return the contact area
     */
    public double area(int row) {
        return area(row, 1, 1, 1);
    }

    /**
     * The contact area with voxels of {@code wx × wy × wz} (cc3d's anisotropy); in 2D the length of
     * the shared boundary, {@code wz} unused.
     *
     * @param row a row, below {@link #size()}
     * @param wx the voxel size along x
     * @param wy the voxel size along y
     * @param wz the voxel size along z
     * @return the contact area
     * @throws IllegalArgumentException when a size is not finite and positive
     */
    public double area(int row, double wx, double wy, double wz) {
        for (double w : new double[] {wx, wy, wz}) {
            if (!(w > 0) || !Double.isFinite(w)) {
                throw new IllegalArgumentException("voxel sizes must be finite and positive, got " + wx + ", " + wy + ", "
                        + wz);
            }
        }
        if (!threeD) {
            return xFaces(row) * wy + yFaces(row) * wx;
        }
        return xFaces(row) * (wy * wz) + yFaces(row) * (wx * wz) + zFaces(row) * (wx * wy);
    }

    /**
     * The row of the pair {@code a}, {@code b} (in either order), or -1 when they do not touch.
     *
     * @param a a label
     * @param b another label
     * @return the row, or -1
     */
    public int row(long a, long b) {
        long lo = Math.min(a, b);
        long hi = Math.max(a, b);
        int low = 0;
        int high = size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long f = rows.first()[mid];
            long s = rows.second()[mid];
            int c = f != lo ? Long.compare(f, lo) : Long.compare(s, hi);
            if (c == 0) {
                return mid;
            }
            if (c < 0) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return "Contacts[pairs=" + size() + ", connectivity=" + connectivity + "]";
    }
}
