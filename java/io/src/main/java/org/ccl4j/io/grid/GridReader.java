package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Reads grids from image and volume files into off-heap {@link Grid}s.
 * <ul>
 * <li>{@link GridFormat#PGM}: {@code P2} and {@code P5} greymaps, {@code #} comments and any
 *     whitespace in the header, 8-bit samples and 16-bit big-endian ones; maxval up to 255 gives
 *     uint8 cells, up to 65535 int32 cells, holding the samples as stored.</li>
 * <li>{@link GridFormat#PNG}: greyscale PNGs give their samples (1 to 8 bits: uint8, 16 bits:
 *     int32); palette and colour PNGs give BT.601 luminance (uint8) or, with
 *     {@link GridReadOptions.ColorMode#RGB}, the colour packed as {@code 0xRRGGBB} (int32), so that
 *     same-value labelling tells every colour apart. Alpha is ignored. The library's own decoder
 *     writes the rows straight into the grid, and refuses damaged files strictly (chunk CRCs and
 *     order, header fields, zlib data, palette indices, the amount of image data).</li>
 * <li>{@link GridFormat#RAW}: the cells alone, x fastest, uint8 or little-endian int32, with the
 *     dimensions and cell type given in the options; the file size must match exactly.</li>
 * </ul>
 * With a threshold ({@link GridReadOptions#withThreshold}) the result is a uint8 foreground field:
 * 1 where the value is at least the threshold, 0 elsewhere.
 *
 * <p>Malformed files raise an {@link ImageFormatException} naming the file, the line (PGM headers,
 * P2 samples) or byte offset (binary data) and the problem. Nothing is allocated by what a header
 * claims beyond what the file can hold: PGM and raw sizes are checked against the file length, and
 * a PNG's image data against what its compressed data can expand to, before the grid is allocated,
 * so truncated files and bogus headers fail at once.
 */
public final class GridReader {
    private GridReader() {
    }

    /** Reads a PGM or PNG file, detecting the format, without threshold. */
    public static Grid read(Path file, Arena arena) throws IOException {
        return read(file, GridReadOptions.defaults(), arena);
    }

    /**
     * Reads {@code file} into {@code arena} as the options say.
     *
     * @throws ImageFormatException     when the file does not follow its format or the dimensions
     * @throws IllegalArgumentException when a raw file is read without dimensions
     * @throws IOException              when the file cannot be read
     */
    public static Grid read(Path file, GridReadOptions options, Arena arena) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(arena, "arena");
        return switch (options.format().resolve(file)) {
            case PGM -> PgmReader.read(file, options, arena);
            case PNG -> PngReader.read(file, options, arena);
            case RAW -> RawReader.read(file, options, arena);
            case AUTO -> throw new AssertionError("resolve never returns AUTO");
        };
    }

    /** An image's dimensions against the ones the options give, if any. */
    static void checkDims(Path file, GridDims actual, GridReadOptions options) throws ImageFormatException {
        if (options.dims() != null && !options.dims().equals(actual)) {
            throw new ImageFormatException(file, -1, -1, "the image is " + actual + " but the dimensions "
                    + options.dims() + " were given");
        }
    }
}
