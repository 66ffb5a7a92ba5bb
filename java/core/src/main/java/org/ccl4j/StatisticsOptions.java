package org.ccl4j;

import java.util.Objects;

import org.ccl4j.engine.spi.IntensityData;

/**
 * What a mesh statistics table is made with: the {@link Numbering} of its rows and labels
 * (default {@link Numbering#RASTER}, the labels of OpenCV and scikit-image), and the intensity it
 * sums (default null: the labelled grid's own cells).
 */
public record StatisticsOptions(Numbering numbering, Intensity intensity) {
    public StatisticsOptions {
        Objects.requireNonNull(numbering, "numbering");
    }

    /** Raster numbering, the grid's own cells as intensity. */
    public static StatisticsOptions defaults() {
        return new StatisticsOptions(Numbering.RASTER, null);
    }

    public StatisticsOptions withNumbering(Numbering n) {
        return new StatisticsOptions(n, intensity);
    }

    /** Sums {@code values} (the labelled grid's extents) instead of the grid's cells; null for the cells. */
    public StatisticsOptions withIntensity(Intensity values) {
        return new StatisticsOptions(numbering, values);
    }

    /** The intensity as the engines take it; null for the grid's own cells. */
    IntensityData intensityData() {
        return intensity == null ? null : intensity.data();
    }

    /** The intensity for {@code grid}: the options' (checked against its extents) or its own cells. */
    Intensity intensityFor(Grid grid) {
        if (intensity == null) {
            return Intensity.of(grid);
        }
        intensity.checkExtents(grid.width(), grid.height(), grid.depth());
        return intensity;
    }
}
