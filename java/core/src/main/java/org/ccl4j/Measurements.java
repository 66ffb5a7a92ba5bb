package org.ccl4j;

import static org.ccl4j.engine.spi.StatisticsTable.Column.*;

import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.engine.spi.StatisticsTable.Column;
import org.ccl4j.internal.SymmetricEigenvalues;

/**
 * scikit-image's shape properties of the rows of a {@link MeshStatistics} table made
 * {@link StatisticsOptions#withMeasurements() with measurements}, under a {@link Spacing}: derived
 * on the host from the table's exact sums, as {@code skimage.measure.regionprops(labels,
 * spacing=...)} defines them (the property each method names). Axes are x, y, z here, where
 * scikit-image's arrays are (y, x) or (z, y, x); a table of depth 1 is 2D.
 *
 * <p>The moments are those of the cells' centres scaled by the spacing: the central moment
 * {@code mu_xy} of a row is the table's {@link StatisticsColumn#MOMENT_XY} times {@code dx * dy},
 * and the inertia tensor divides by the number of cells (scikit-image's {@code mu[0, 0]}, which
 * spacing does not scale).
 */
public final class Measurements {
    private static final Column[] MOMENTS = {MOMENT_XX, MOMENT_YY, MOMENT_ZZ};

    private final StatisticsTable table;
    private final Spacing spacing;
    private final boolean threeD;

    Measurements(StatisticsTable table, Spacing spacing, boolean threeD) {
        if (!table.measured()) {
            throw new IllegalStateException(
                    "this table was made without measurements: make it with StatisticsOptions.withMeasurements()");
        }
        this.table = table;
        this.spacing = spacing;
        this.threeD = threeD;
    }

    /**
     * The spacing the measures are in.
     *
     * @return the spacing
     */
    public Spacing spacing() {
        return spacing;
    }

    private double[] scale() {
        return new double[] {spacing.x(), spacing.y(), spacing.z()};
    }

    private int dims() {
        return threeD ? 3 : 2;
    }

    /**
     * The component's area (2D) or volume (3D): its cells times a cell's (regionprops' {@code area}).
     *
     * @param row the row index, below the table's count
     * @return the area or volume
     */
    public double area(int row) {
        double cell = spacing.x() * spacing.y() * (threeD ? spacing.z() : 1);
        return table.getLong(SIZE, row) * cell;
    }

    /**
     * The central second moment of axes {@code a} and {@code b} (0 = x, 1 = y, 2 = z) of the scaled
     * coordinates: regionprops' {@code moments_central} of order 2.
     *
     * @param row the row index, below the table's count
     * @param a an axis, 0 to 2
     * @param b an axis, 0 to 2
     * @return the sum over the cells of the product of their scaled offsets from the centroid
     */
    public double centralMoment(int row, int a, int b) {
        int lo = Math.min(a, b);
        int hi = Math.max(a, b);
        if (lo < 0 || hi > 2) {
            throw new IllegalArgumentException("axes are 0 (x), 1 (y) and 2 (z), got " + a + " and " + b);
        }
        Column c = lo == hi ? MOMENTS[lo] : lo == 0 ? (hi == 1 ? MOMENT_XY : MOMENT_XZ) : MOMENT_YZ;
        double[] s = scale();
        return table.getDouble(c, row) * s[lo] * s[hi];
    }

    /**
     * The inertia tensor (regionprops' {@code inertia_tensor}), axes x, y (, z): diagonal entries
     * the other axes' central moments over the cells, off-diagonal ones minus the moment over the
     * cells. 2 x 2 in 2D, 3 x 3 in 3D.
     *
     * @param row the row index, below the table's count
     * @return the symmetric tensor
     */
    public double[][] inertiaTensor(int row) {
        int n = dims();
        double cells = table.getLong(SIZE, row);
        double[][] t = new double[n][n];
        double trace = 0;
        for (int a = 0; a < n; a++) {
            trace += centralMoment(row, a, a);
        }
        for (int a = 0; a < n; a++) {
            t[a][a] = (trace - centralMoment(row, a, a)) / cells;
            for (int b = a + 1; b < n; b++) {
                t[a][b] = -centralMoment(row, a, b) / cells;
                t[b][a] = t[a][b];
            }
        }
        return t;
    }

    /**
     * The inertia tensor's eigenvalues, largest first, negatives (rounding) clipped to 0
     * (regionprops' {@code inertia_tensor_eigvals}).
     *
     * @param row the row index, below the table's count
     * @return 2 (2D) or 3 (3D) eigenvalues
     */
    public double[] inertiaTensorEigenvalues(int row) {
        double[] e = SymmetricEigenvalues.of(inertiaTensor(row));
        for (int i = 0; i < e.length; i++) {
            e[i] = Math.max(0, e[i]);
        }
        return e;
    }

    /**
     * The angle between the y axis (scikit-image's axis 0, the rows) and the major axis of the
     * ellipse of the same second moments, in radians from -pi/2 to pi/2, counter-clockwise
     * (regionprops' {@code orientation}); pi/4 or -pi/4 when the two axes' moments are equal, by the
     * sign of the mixed one as scikit-image 0.20 and later; NaN in 3D.
     *
     * @param row the row index, below the table's count
     * @return the orientation, or NaN in 3D
     */
    public double orientation(int row) {
        if (threeD) {
            return Double.NaN;
        }
        double[][] t = inertiaTensor(row);
        // scikit-image's tensor in (y, x) order: a = T[y][y], b = T[y][x], c = T[x][x]
        double a = t[1][1];
        double b = t[0][1];
        double c = t[0][0];
        if (a - c == 0) {
            return b < 0 ? Math.PI / 4 : -Math.PI / 4;
        }
        return 0.5 * Math.atan2(-2 * b, c - a);
    }

    /**
     * The length of the major axis of the ellipse (2D, {@code 4 sqrt(l1)}) or ellipsoid (3D,
     * {@code sqrt(10 (l1 + l2 - l3))}) of the same second moments (regionprops' {@code axis_major_length}).
     *
     * @param row the row index, below the table's count
     * @return the major axis length
     */
    public double axisMajorLength(int row) {
        double[] e = inertiaTensorEigenvalues(row);
        return threeD ? Math.sqrt(10 * (e[0] + e[1] - e[2])) : 4 * Math.sqrt(e[0]);
    }

    /**
     * The length of the minor axis: {@code 4 sqrt(l2)} in 2D, {@code sqrt(10 (-l1 + l2 + l3))} in 3D
     * (regionprops' {@code axis_minor_length}; NaN where rounding leaves the 3D root's argument negative).
     *
     * @param row the row index, below the table's count
     * @return the minor axis length
     */
    public double axisMinorLength(int row) {
        double[] e = inertiaTensorEigenvalues(row);
        return threeD ? Math.sqrt(10 * (-e[0] + e[1] + e[2])) : 4 * Math.sqrt(e[1]);
    }

    /**
     * The eccentricity of the ellipse of the same second moments, {@code sqrt(1 - l2 / l1)}, 0 for
     * a single cell (regionprops' {@code eccentricity}); NaN in 3D.
     *
     * @param row the row index, below the table's count
     * @return the eccentricity, 0 to 1, or NaN in 3D
     */
    public double eccentricity(int row) {
        if (threeD) {
            return Double.NaN;
        }
        double[] e = inertiaTensorEigenvalues(row);
        return e[0] == 0 ? 0 : Math.sqrt(1 - e[1] / e[0]);
    }

    /**
     * The diameter of the disc (2D) or ball (3D) of the same area or volume (regionprops'
     * {@code equivalent_diameter_area}): {@code (2 d area / pi)^(1/d)} in d dimensions.
     *
     * @param row the row index, below the table's count
     * @return the equivalent diameter
     */
    public double equivalentDiameterArea(int row) {
        int d = dims();
        double v = 2 * d * area(row) / Math.PI;
        return d == 2 ? Math.sqrt(v) : Math.cbrt(v);
    }

    /**
     * scikit-image's perimeter of the component's mask with neighbourhood 4 (regionprops'
     * {@code perimeter}) times the spacing; NaN in 3D and where x and y spacings differ (scikit-image
     * raises there: its weights know no direction).
     *
     * @param row the row index, below the table's count
     * @return the perimeter, or NaN
     */
    public double perimeter(int row) {
        return perimeter(row, PERIMETER);
    }

    /**
     * As {@link #perimeter}, with neighbourhood 8 ({@code skimage.measure.perimeter(mask, 8)}).
     *
     * @param row the row index, below the table's count
     * @return the perimeter, or NaN
     */
    public double perimeter8(int row) {
        return perimeter(row, PERIMETER_8);
    }

    private double perimeter(int row, Column c) {
        if (threeD || spacing.x() != spacing.y()) {
            return Double.NaN;
        }
        return table.getDouble(c, row) * spacing.x();
    }

    /**
     * The area of the faces between the component's cells and the cells (or grid edges) outside it,
     * each face weighted by its area under the spacing: {@code FACES_X dy dz + FACES_Y dx dz + FACES_Z dx dy}
     * (the voxelised surface; scikit-image has no regionprops equivalent). In 2D the length of the
     * pixels' outline, {@code FACES_X dy + FACES_Y dx}.
     *
     * @param row the row index, below the table's count
     * @return the surface area (3D) or outline length (2D)
     */
    public double surfaceArea(int row) {
        double x = spacing.x();
        double y = spacing.y();
        double z = threeD ? spacing.z() : 1;
        return table.getLong(FACES_X, row) * y * z + table.getLong(FACES_Y, row) * x * z
                + table.getLong(FACES_Z, row) * x * y;
    }
}
