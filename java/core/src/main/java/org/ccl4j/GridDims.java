package org.ccl4j;

/**
 * The dimensions of a grid: {@code width × height × depth} cells, depth 1 for a 2D grid. Written
 * {@code WxH} or {@code WxHxD} on command lines ({@link #parse}, {@link #toString}).
 *
 * @param width cells along x, at least 1
 * @param height cells along y, at least 1
 * @param depth cells along z, 1 for a 2D grid
 */
public record GridDims(int width, int height, int depth) {
    /**
     * Checks the dimensions.
     *
     * @throws IllegalArgumentException when a dimension is not positive, or the cells do not fit a long
     */
    public GridDims {
        if (width < 1 || height < 1 || depth < 1) {
            throw new IllegalArgumentException("grid dimensions must be positive, got " + width + "x" + height + "x" + depth);
        }
        if (Math.multiplyHigh((long) width * height, depth) != 0 || (long) width * height * depth < 0) {
            throw new IllegalArgumentException("a " + width + "x" + height + "x" + depth + " grid has more than 2^63-1 cells");
        }
    }

    /**
     * The dimensions of {@code grid}.
     *
     * @param grid any grid
     * @return its width, height and depth
     */
    public static GridDims of(Grid grid) {
        return new GridDims(grid.width(), grid.height(), grid.depth());
    }

    /**
     * Parses {@code WxH} (depth 1) or {@code WxHxD}, positive decimal integers ({@code X} is accepted for
     * {@code x}).
     *
     * @param text the dimensions, such as {@code 512x512} or {@code 96x96x8}
     * @return the dimensions it gives
     * @throws IllegalArgumentException naming the text and the expected form
     */
    public static GridDims parse(String text) {
        String[] parts = text.strip().split("[xX]", -1);
        if (parts.length != 2 && parts.length != 3) {
            throw new IllegalArgumentException("bad dimensions '" + text + "': expected WxH or WxHxD");
        }
        int[] values = new int[3];
        values[2] = 1;
        for (int i = 0; i < parts.length; i++) {
            try {
                values[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad dimensions '" + text + "': '" + parts[i]
                        + "' is not a positive integer; expected WxH or WxHxD");
            }
            if (values[i] < 1) {
                throw new IllegalArgumentException("bad dimensions '" + text + "': " + values[i]
                        + " is not positive; expected WxH or WxHxD");
            }
        }
        return new GridDims(values[0], values[1], values[2]);
    }

    /**
     * The number of cells: past 2^31-1 too, where labels are int64.
     *
     * @return {@code width * height * depth}, as a long
     */
    public long cellCount() {
        return (long) width * height * depth;
    }

    /**
     * True when depth is greater than 1.
     *
     * @return whether the grid is a volume
     */
    public boolean is3d() {
        return depth > 1;
    }

    /** {@code WxH} for 2D, {@code WxHxD} for 3D. */
    @Override
    public String toString() {
        return width + "x" + height + (depth > 1 ? "x" + depth : "");
    }
}
