package org.ccl4j;

import java.lang.foreign.ValueLayout;

import org.ccl4j.engine.spi.StatisticsTable;

/**
 * The columns of a statistics table ({@link MeshStatistics}, {@link GraphStatistics}): each an
 * off-heap array of one value per row, of the layout given. Coordinates are zero-based cell
 * coordinates (z is 0 throughout a 2D grid).
 */
public enum StatisticsColumn {
    /** The row's label in the table's {@link Numbering} (a long: int64 labels of large grids exceed an int). */
    LABEL,
    /** The component's smallest cell index or vertex id: its canonical label (a long, as {@link #LABEL}). */
    FIRST,
    /** Cells of a mesh component, vertices of a graph component. */
    SIZE,
    /** The smallest x of the cells (the bounding box is inclusive). */
    MIN_X,
    /** The smallest y of the cells. */
    MIN_Y,
    /** The smallest z of the cells. */
    MIN_Z,
    /** The largest x of the cells. */
    MAX_X,
    /** The largest y of the cells. */
    MAX_Y,
    /** The largest z of the cells. */
    MAX_Z,
    /** The mean x of the cells: the exact coordinate sum over the size, as doubles. */
    CENTROID_X,
    /** The mean y of the cells, as {@link #CENTROID_X}. */
    CENTROID_Y,
    /** The mean z of the cells, as {@link #CENTROID_X}. */
    CENTROID_Z,
    /** The {@link Face} bits of the faces the component touches. */
    TOUCHES,
    /** The sum of the intensity over the component. */
    SUM,
    /** The smallest intensity over the component. */
    MIN,
    /** The largest intensity over the component. */
    MAX,
    /** The mean intensity over the component: {@link #SUM} over {@link #SIZE}. */
    MEAN,
    /** Edges among the component's vertices: arcs {@code u -> v} with {@code u < v}, and self-loop arcs. */
    EDGES,
    /** The largest vertex id (the smallest is {@link #FIRST}). */
    MAX_VERTEX,
    /** The largest number of arcs leaving one of the component's vertices. */
    MAX_DEGREE,
    /**
     * The periodic axes the component wraps around (bits 1 = x, 2 = y, 4 = z): it holds a loop
     * through the boundary of the axis, so that its copies in the periodic continuation of the
     * grid join into one infinite cluster (it percolates along the axis). 0 on open axes.
     */
    WRAPS,
    /**
     * A measurement (tables made {@link StatisticsOptions#withMeasurements() with measurements}):
     * the central second moment along x, the sum over the cells of {@code (x - cx)^2} in cell units,
     * scikit-image's {@code moments_central} of order 2 ({@link Measurements} applies spacing).
     */
    MOMENT_XX,
    /** A measurement: the sum of {@code (y - cy)^2}, as {@link #MOMENT_XX}. */
    MOMENT_YY,
    /** A measurement: the sum of {@code (z - cz)^2} (0 in 2D), as {@link #MOMENT_XX}. */
    MOMENT_ZZ,
    /** A measurement: the sum of {@code (x - cx)(y - cy)}, as {@link #MOMENT_XX}. */
    MOMENT_XY,
    /** A measurement: the sum of {@code (x - cx)(z - cz)}, as {@link #MOMENT_XX}. */
    MOMENT_XZ,
    /** A measurement: the sum of {@code (y - cy)(z - cz)}, as {@link #MOMENT_XX}. */
    MOMENT_YZ,
    /**
     * A measurement: scikit-image's {@code perimeter(mask, neighbourhood=4)} of the component's mask
     * in cell units (regionprops' {@code perimeter}); 0 in 3D. {@link Measurements#perimeter}.
     */
    PERIMETER,
    /** A measurement: scikit-image's {@code perimeter(mask, neighbourhood=8)}, as {@link #PERIMETER}. */
    PERIMETER_8,
    /**
     * A measurement: the faces normal to x between a cell of the component and a cell outside it
     * (or the grid's edge); with {@link #FACES_Y} and {@link #FACES_Z} the voxelised surface area
     * ({@link Measurements#surfaceArea}).
     */
    FACES_X,
    /** A measurement: the exposed faces normal to y, as {@link #FACES_X}. */
    FACES_Y,
    /** A measurement: the exposed faces normal to z (0 in 2D), as {@link #FACES_X}. */
    FACES_Z;

    /**
     * Whether it is a measurement, in tables made {@link StatisticsOptions#withMeasurements() with measurements} only.
     *
     * @return whether it is a measurement column
     */
    public boolean isMeasurement() {
        return column().isMeasurement();
    }

    /**
     * The layout of one value: {@code JAVA_INT}, {@code JAVA_LONG} or {@code JAVA_DOUBLE}.
     *
     * @return the layout
     */
    public ValueLayout layout() {
        return column().layout();
    }

    /**
     * Whether mesh tables have this column (a measurement: those made with measurements).
     *
     * @return whether mesh tables have it
     */
    public boolean inMeshTables() {
        return column().inMeshTables();
    }

    /**
     * Whether graph tables have this column.
     *
     * @return whether graph tables have it
     */
    public boolean inGraphTables() {
        return column().inGraphTables();
    }

    /** The engines' column of the same name, which holds its layout and tables. */
    StatisticsTable.Column column() {
        return StatisticsTable.Column.valueOf(name());
    }
}
