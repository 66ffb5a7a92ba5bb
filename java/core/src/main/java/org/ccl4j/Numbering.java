package org.ccl4j;

import org.ccl4j.engine.spi.RowNumbering;

/**
 * How the components of a statistics table are numbered, and with them its rows and the labels
 * that come with it. Every numbering starts from canonical labels (the smallest index of each
 * component); raster order is the order of those smallest indices, the order in which a scan of
 * the cells (x fastest) or of the vertex ids meets each component first.
 */
public enum Numbering {
    /** Labels stay canonical (-1 for background); rows in raster order. */
    CANONICAL,
    /**
     * Labels 1..k in raster order, 0 for background; row r has label r + 1. These are the labels
     * of scikit-image's {@code label} (2D and 3D), and of OpenCV's
     * {@code connectedComponentsWithStats} with its SAUF algorithm ({@code CCL_SAUF}, also named
     * {@code CCL_WU}); OpenCV's default algorithm may number components in another order (at
     * 8-connectivity it scans blocks of 2 × 2 pixels), which matches these labels once renumbered
     * by each component's first pixel in raster order.
     */
    RASTER,
    /** Labels 0..k-1, largest component first (equal sizes in raster order), -1 for background; row r has label r. */
    SIZE;

    /** The engines' numbering of the same name. */
    RowNumbering rows() {
        return RowNumbering.valueOf(name());
    }

    /**
     * The label of background cells in this numbering.
     *
     * @return 0 for {@link #RASTER}, -1 for the others
     */
    public int background() {
        return this == RASTER ? 0 : -1;
    }
}
