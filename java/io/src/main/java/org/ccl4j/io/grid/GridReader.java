package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Objects;
import org.ccl4j.io.Input;
import org.ccl4j.io.internal.Magic;
import org.ccl4j.io.internal.Source;

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
 *
 * <p>Every format may be gzip-compressed, recognised by its first bytes whatever the extension; the
 * content is decompressed into a temporary file, deleted once read. Files of formats that ccl4j
 * recognises but does not read (TIFF, JPEG, GIF, NumPy, NRRD, NIfTI, HDF5, DICOM; zip, tar, bzip2,
 * zstd, xz) raise an {@link ImageFormatException} that names the format, rather than being misread
 * as raw cells.
 */
public final class GridReader {
    private GridReader() {
    }

    /**
     * Reads a PGM or PNG file, detecting the format, without threshold.
     *
     * @param file  the file, plain or gzip-compressed
     * @param arena where the grid is allocated
     * @return the grid
     * @throws ImageFormatException     when the file does not follow its format, or is of a format
     *                                  that ccl4j recognises but does not read
     * @throws IllegalArgumentException when the file turns out to be raw cells, which need dimensions
     * @throws IOException              when the file cannot be read
     */
    public static Grid read(Path file, Arena arena) throws IOException {
        return read(file, GridReadOptions.defaults(), arena);
    }

    /**
     * Reads {@code file} into {@code arena} as the options say.
     *
     * @param file    the file, plain or gzip-compressed
     * @param options the format, dimensions, cell type, threshold and colour mode
     * @param arena   where the grid is allocated
     * @return the grid
     * @throws ImageFormatException     when the file does not follow its format or the dimensions,
     *                                  or is of a format that ccl4j recognises but does not read
     *                                  (TIFF, NumPy, ...: the message names it)
     * @throws IllegalArgumentException when a raw file is read without dimensions
     * @throws IOException              when the file cannot be read
     */
    public static Grid read(Path file, GridReadOptions options, Arena arena) throws IOException {
        return read(Input.of(Objects.requireNonNull(file, "file")), options, arena);
    }

    /**
     * Reads {@code input} (a file, standard input or another stream: see {@link Input}) into
     * {@code arena} as the options say. A stream has no extension: with {@link GridFormat#AUTO} its
     * first bytes tell PNG and PGM apart, and anything else is raw cells, which need the dimensions.
     * Binary content from a stream or compressed is read from a temporary file, deleted afterwards.
     *
     * @param input   the input, plain or gzip-compressed
     * @param options the format, dimensions, cell type, threshold and colour mode
     * @param arena   where the grid is allocated
     * @return the grid
     * @throws ImageFormatException     when the input does not follow its format or the dimensions,
     *                                  is of a format that ccl4j recognises but does not read, or its
     *                                  compressed data is damaged
     * @throws IllegalArgumentException when raw cells are read without dimensions (for a stream of
     *                                  undetected format, the message says so)
     * @throws IOException              when the input cannot be read
     */
    public static Grid read(Input input, GridReadOptions options, Arena arena) throws IOException {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(arena, "arena");
        try (Source source = Source.of(input.file(), input.stream(), input.name())) {
            GridFormat format = GridFormat.resolve(source, options);
            Path name = source.name();
            if (format == GridFormat.RAW && options.dims() == null && options.format() == GridFormat.AUTO
                    && source.isStream()) {
                throw new IllegalArgumentException(name + ": the format cannot be detected: the content is neither "
                        + "a PNG nor a PGM image, the formats a stream's first bytes tell; raw cells need the format "
                        + "raw with their dimensions (WxH or WxHxD) and cell type");
            }
            return switch (format) {
                case PGM -> PgmReader.read(source.contentFile(), name, options, arena);
                case PNG -> PngReader.read(source.contentFile(), name, options, arena);
                case RAW -> RawReader.read(source, name, options, arena);
                case AUTO -> throw new AssertionError("resolve never returns AUTO");
            };
        } catch (Source.DamagedException e) {
            throw new ImageFormatException(input.name(), -1, -1, e.getMessage(), e);
        }
    }

    /**
     * A grid over the cells of a raw file, mapped into memory rather than read ({@code FileChannel.map},
     * read-only): nothing is copied and the file may be larger than the host's memory, the page
     * cache serving the cells as they are labelled (in slabs, where the grid does not fit:
     * {@code MeshOptions.memoryBudget}). The file must not shrink while the grid is in use: reading
     * a page past its end faults.
     *
     * @param file    a raw file: uncompressed, its size exactly the dimensions' cells
     * @param options the dimensions and cell type (format {@link GridFormat#RAW}, or {@link GridFormat#AUTO}
     *                where the extension or the content says raw); no threshold
     * @param arena   the arena of the mapping: the grid is valid until it closes
     * @return a read-only grid over the mapped file
     * @throws ImageFormatException     when the file's size does not match the dimensions and cell type
     * @throws IllegalArgumentException when the file is not raw cells, is compressed, the dimensions
     *                                  are missing, a threshold is asked for, or int32 cells are
     *                                  mapped on a big-endian host (they are little-endian)
     * @throws IOException              when the file cannot be read
     */
    public static Grid map(Path file, GridReadOptions options, Arena arena) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(arena, "arena");
        try (Source source = Source.ofFile(file)) {
            if (compressed(source)) {
                throw new IllegalArgumentException(file + ": a compressed file cannot be mapped; read it instead");
            }
            GridFormat format = GridFormat.resolve(source, options);
            if (format != GridFormat.RAW) {
                throw new IllegalArgumentException(file + ": only raw cells can be mapped, not " + format.formatName());
            }
            return RawReader.map(file, options, arena);
        } catch (Source.DamagedException e) {
            throw new ImageFormatException(file, -1, -1, e.getMessage(), e);
        }
    }

    /**
     * Whether {@link #map} takes {@code file} with {@code options}: uncompressed raw cells with their
     * dimensions, no threshold, and int32 cells only on a little-endian host. Reads the first bytes only.
     *
     * @param file    the file
     * @param options the options it would be read with
     * @return whether it can be mapped
     * @throws IOException when the file cannot be read
     */
    public static boolean canMap(Path file, GridReadOptions options) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        if (options.dims() == null || options.threshold().isPresent()
                || (options.rawType() != Grid.CellType.U8 && ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)) {
            return false;
        }
        try (Source source = Source.ofFile(file)) {
            return !compressed(source) && GridFormat.resolve(source, options) == GridFormat.RAW;
        }
    }

    private static boolean compressed(Source source) {
        return Magic.of(source.storedHead(), source.storedHead().length) == Magic.GZIP;
    }

    /** An image's dimensions against the ones the options give, if any. */
    static void checkDims(Path file, GridDims actual, GridReadOptions options) throws ImageFormatException {
        if (options.dims() != null && !options.dims().equals(actual)) {
            throw new ImageFormatException(file, -1, -1, "the image is " + actual + " but the dimensions "
                    + options.dims() + " were given");
        }
    }
}
