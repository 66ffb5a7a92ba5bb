package org.ccl4j;

import java.lang.foreign.ValueLayout;

/**
 * The columns of a statistics table ({@link MeshStatistics}, {@link GraphStatistics}): each an
 * off-heap array of one value per row, of the layout given. Coordinates are zero-based cell
 * coordinates (z is 0 throughout a 2D grid).
 */
public enum StatisticsColumn {
    /** The row's label in the table's {@link Numbering} (a long: int64 labels of large grids exceed an int). */
    LABEL(0, ValueLayout.JAVA_LONG, true, true),
    /** The component's smallest cell index or vertex id: its canonical label (a long, as {@link #LABEL}). */
    FIRST(1, ValueLayout.JAVA_LONG, true, true),
    /** Cells of a mesh component, vertices of a graph component. */
    SIZE(2, ValueLayout.JAVA_LONG, true, true),
    MIN_X(3, ValueLayout.JAVA_INT, true, false),
    MIN_Y(4, ValueLayout.JAVA_INT, true, false),
    MIN_Z(5, ValueLayout.JAVA_INT, true, false),
    MAX_X(6, ValueLayout.JAVA_INT, true, false),
    MAX_Y(7, ValueLayout.JAVA_INT, true, false),
    MAX_Z(8, ValueLayout.JAVA_INT, true, false),
    /** The mean x of the cells: the exact coordinate sum over the size, as doubles. */
    CENTROID_X(9, ValueLayout.JAVA_DOUBLE, true, false),
    CENTROID_Y(10, ValueLayout.JAVA_DOUBLE, true, false),
    CENTROID_Z(11, ValueLayout.JAVA_DOUBLE, true, false),
    /** The {@link Face} bits of the faces the component touches. */
    TOUCHES(12, ValueLayout.JAVA_INT, true, false),
    /** The sum of the intensity over the component. */
    SUM(13, ValueLayout.JAVA_DOUBLE, true, false),
    MIN(14, ValueLayout.JAVA_DOUBLE, true, false),
    MAX(15, ValueLayout.JAVA_DOUBLE, true, false),
    MEAN(16, ValueLayout.JAVA_DOUBLE, true, false),
    /** Edges among the component's vertices: arcs {@code u -> v} with {@code u < v}, and self-loop arcs. */
    EDGES(17, ValueLayout.JAVA_LONG, false, true),
    /** The largest vertex id (the smallest is {@link #FIRST}). */
    MAX_VERTEX(18, ValueLayout.JAVA_INT, false, true),
    /** The largest number of arcs leaving one of the component's vertices. */
    MAX_DEGREE(19, ValueLayout.JAVA_LONG, false, true),
    /**
     * The periodic axes the component wraps around (bits 1 = x, 2 = y, 4 = z): it holds a loop
     * through the boundary of the axis, so that its copies in the periodic continuation of the
     * grid join into one infinite cluster (it percolates along the axis). 0 on open axes.
     */
    WRAPS(20, ValueLayout.JAVA_INT, true, false);

    private final int nativeCode;
    private final ValueLayout layout;
    private final boolean mesh;
    private final boolean graph;

    StatisticsColumn(int nativeCode, ValueLayout layout, boolean mesh, boolean graph) {
        this.nativeCode = nativeCode;
        this.layout = layout;
        this.mesh = mesh;
        this.graph = graph;
    }

    /** The layout of one value: {@code JAVA_INT}, {@code JAVA_LONG} or {@code JAVA_DOUBLE}. */
    public ValueLayout layout() {
        return layout;
    }

    /** Whether mesh tables have this column. */
    public boolean inMeshTables() {
        return mesh;
    }

    /** Whether graph tables have this column. */
    public boolean inGraphTables() {
        return graph;
    }

    int nativeCode() {
        return nativeCode;
    }
}
