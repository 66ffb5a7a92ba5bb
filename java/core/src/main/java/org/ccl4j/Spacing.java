package org.ccl4j;

/**
 * The size of a cell along x, y and z, in the caller's unit: scikit-image's
 * {@code regionprops(spacing=...)}, whose tuple lists the axes the other way round ({@code (y, x)},
 * {@code (z, y, x)}). {@link Measurements} scales every measure by it.
 *
 * @param x the cell's extent along x
 * @param y the cell's extent along y
 * @param z the cell's extent along z (unused in 2D)
 */
public record Spacing(double x, double y, double z) {
    /** Unit cells: measures in cells. */
    public static final Spacing UNIT = new Spacing(1, 1, 1);

    /**
     * Checks that every extent is positive and finite.
     *
     * @throws IllegalArgumentException when one is not
     */
    public Spacing {
        for (double s : new double[] {x, y, z}) {
            if (!(s > 0) || Double.isInfinite(s)) {
                throw new IllegalArgumentException("a spacing must be positive and finite, got (" + x + ", " + y + ", "
                        + z + ")");
            }
        }
    }

    /**
     * A 2D spacing (z is 1).
     *
     * @param x the cell's extent along x
     * @param y the cell's extent along y
     * @return the spacing
     */
    public static Spacing of(double x, double y) {
        return new Spacing(x, y, 1);
    }
}
