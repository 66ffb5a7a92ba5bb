package org.ccl4j;

import java.util.Objects;

import org.ccl4j.engine.spi.IntensityData;

/**
 * What a mesh statistics table is made with: the {@link Numbering} of its rows and labels
 * (default {@link Numbering#RASTER}, scikit-image's labels), the intensity it
 * sums (default null: the labelled grid's own cells), and whether it has the measurement columns
 * (default not: {@link StatisticsColumn#isMeasurement()}, read through {@link MeshStatistics#measurements}).
 *
 * @param numbering the numbering of the table's rows and labels
 * @param intensity the values summed per component, or null for the labelled grid's own cells
 * @param measurements whether the table has the measurement columns (moments, perimeters, faces),
 *                     one more pass over the labels
 */
public record StatisticsOptions(Numbering numbering, Intensity intensity, boolean measurements) {
    /**
     * Without measurements.
     *
     * @param numbering the numbering of the table's rows and labels
     * @param intensity the values summed per component, or null for the labelled grid's own cells
     */
    public StatisticsOptions(Numbering numbering, Intensity intensity) {
        this(numbering, intensity, false);
    }

    /**
     * Checks that there is a numbering.
     *
     * @throws NullPointerException when {@code numbering} is null
     */
    public StatisticsOptions {
        Objects.requireNonNull(numbering, "numbering");
    }

    /**
     * Raster numbering, the grid's own cells as intensity.
     *
     * @return the default options
     */
    public static StatisticsOptions defaults() {
        return new StatisticsOptions(Numbering.RASTER, null);
    }

    /**
     * With the rows and labels in numbering {@code n}.
     *
     * @param n the numbering
     * @return options with {@code n} and this intensity
     */
    public StatisticsOptions withNumbering(Numbering n) {
        return new StatisticsOptions(n, intensity, measurements);
    }

    /**
     * Sums {@code values} (the labelled grid's extents) instead of the grid's cells; null for the cells.
     *
     * @param values the values to sum, of the labelled grid's extents; null for the grid's own cells
     * @return options with this numbering and {@code values}
     */
    public StatisticsOptions withIntensity(Intensity values) {
        return new StatisticsOptions(numbering, values, measurements);
    }

    /**
     * With the measurement columns ({@link StatisticsColumn#isMeasurement()}), from which
     * {@link MeshStatistics#measurements} derives scikit-image's shape properties.
     *
     * @return options with this numbering and intensity, and measurements
     */
    public StatisticsOptions withMeasurements() {
        return new StatisticsOptions(numbering, intensity, true);
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
