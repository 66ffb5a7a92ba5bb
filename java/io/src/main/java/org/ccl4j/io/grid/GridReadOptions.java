package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How {@link GridReader} reads a grid file.
 *
 * @param format    the file format, {@link GridFormat#AUTO} to detect it
 * @param dims      the dimensions: required for raw files; for PGM and PNG, null or the image's own
 *                  (a mismatch is an error)
 * @param rawType   the cell type of raw files: {@link Grid.CellType#U8}, or little-endian
 *                  {@link Grid.CellType#U16}, {@link Grid.CellType#I32} or {@link Grid.CellType#F32}
 * @param threshold when present, cells whose value is at least this become 1 and the others 0, in a
 *                  uint8 grid (a foreground field); the value is the grey sample, the luminance of a
 *                  colour pixel, or the raw cell
 * @param color     what palette and colour PNG pixels become
 */
public record GridReadOptions(GridFormat format, GridDims dims, Grid.CellType rawType, OptionalInt threshold,
        ColorMode color) {
    /** What palette and colour PNG pixels become; greyscale images always give their samples. */
    public enum ColorMode {
        /**
         * ITU-R BT.601 luma of the 8-bit sRGB colour, {@code (19595 R + 38470 G + 7471 B + 32768) >> 16},
         * 0..255, in a uint8 grid.
         */
        LUMINANCE,
        /**
         * The colour packed as {@code 0xRRGGBB} (8 bits a channel) in an int32 grid, so that
         * same-value labelling separates every distinct colour.
         */
        RGB
    }

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException when a threshold is combined with {@link ColorMode#RGB}
     */
    public GridReadOptions {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(rawType, "rawType");
        Objects.requireNonNull(threshold, "threshold");
        Objects.requireNonNull(color, "color");
        if (threshold.isPresent() && color == ColorMode.RGB) {
            throw new IllegalArgumentException("a threshold applies to grey values; it cannot be combined with "
                    + "packed RGB colours");
        }
    }

    /**
     * Detect the format; uint8 raw cells; no dimensions, no threshold; luminance for colour.
     *
     * @return the defaults
     */
    public static GridReadOptions defaults() {
        return new GridReadOptions(GridFormat.AUTO, null, Grid.CellType.U8, OptionalInt.empty(), ColorMode.LUMINANCE);
    }

    /**
     * With the file format ({@link GridFormat#AUTO}: detect it).
     *
     * @param newFormat the format
     * @return the options
     */
    public GridReadOptions withFormat(GridFormat newFormat) {
        return new GridReadOptions(newFormat, dims, rawType, threshold, color);
    }

    /**
     * With the dimensions (required for raw files).
     *
     * @param newDims the dimensions, or null
     * @return the options
     */
    public GridReadOptions withDims(GridDims newDims) {
        return new GridReadOptions(format, newDims, rawType, threshold, color);
    }

    /**
     * With the cell type of raw files.
     *
     * @param newRawType {@link Grid.CellType#U8} or {@link Grid.CellType#I32}
     * @return the options
     */
    public GridReadOptions withRawType(Grid.CellType newRawType) {
        return new GridReadOptions(format, dims, newRawType, threshold, color);
    }

    /**
     * Cells {@code >= t} become 1, the others 0 (uint8).
     *
     * @param t the threshold
     * @return the options
     * @throws IllegalArgumentException when the options pack colours as {@link ColorMode#RGB}
     */
    public GridReadOptions withThreshold(int t) {
        return new GridReadOptions(format, dims, rawType, OptionalInt.of(t), color);
    }

    /**
     * Without a threshold: cells keep their values.
     *
     * @return the options
     */
    public GridReadOptions withoutThreshold() {
        return new GridReadOptions(format, dims, rawType, OptionalInt.empty(), color);
    }

    /**
     * With what palette and colour PNG pixels become.
     *
     * @param newColor luminance or packed RGB
     * @return the options
     * @throws IllegalArgumentException when {@link ColorMode#RGB} meets a threshold
     */
    public GridReadOptions withColor(ColorMode newColor) {
        return new GridReadOptions(format, dims, rawType, threshold, newColor);
    }
}
