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
 * <li>{@link GridFormat#NPY}, {@link GridFormat#NRRD}, {@link GridFormat#NIFTI}: 2D and 3D arrays
 *     of uint8 (a uint8 grid), int8, uint16, int16, int32 and uint32 within int32's range (an int32
 *     grid), in either byte order; NumPy's C and Fortran order; NRRD's raw and gzip encodings and
 *     detached data files. Shape {@code (H, W)} or {@code (D, H, W)} in NumPy, x fastest in the
 *     others. Each is refused, with the byte offset (NRRD: the header line) and value at fault, in
 *     every other variant.</li>
 * <li>{@link GridFormat#TIFF}: through {@code javax.imageio}, one z-slice a page, one sample a
 *     pixel, integers as above.</li>
 * </ul>
 * float32 cells (all four formats) are read only with a threshold, which makes the uint8 field
 * (a NaN is below every threshold).
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
 * recognises but does not read (JPEG, GIF, NIfTI-2, HDF5, DICOM; zip, tar, bzip2, zstd, xz) raise an {@link ImageFormatException} that names the format, rather than being misread
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
     *                                  (JPEG, HDF5, ...: the message names it)
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
                case TIFF -> TiffFormat.read(source.contentFile(), name, options, arena);
                case NPY, NRRD, NIFTI -> {
                    ArrayLayout layout = layout(format, source.contentFile(), name);
                    checkDims(name, layout.dims(), options);
                    layout.checkSize();
                    yield layout.read(options, arena);
                }
                case AUTO -> throw new AssertionError("resolve never returns AUTO");
            };
        } catch (Source.DamagedException e) {
            throw new ImageFormatException(input.name(), -1, -1, e.getMessage(), e);
        }
    }

    /**
     * A grid over the cells of a raw file, or of a NumPy, NRRD or NIfTI file whose cells lie in it
     * as a grid's (uncompressed, x fastest: C order for NumPy, raw encoding for NRRD; uint8, or
     * little-endian int32 on a little-endian host), mapped into memory rather than read ({@code FileChannel.map},
     * read-only): nothing is copied and the file may be larger than the host's memory, the page
     * cache serving the cells as they are labelled (in slabs, where the grid does not fit:
     * {@code MeshOptions.memoryBudget}). The file must not shrink while the grid is in use: reading
     * a page past its end faults.
     *
     * @param file    a raw file: uncompressed, its size exactly the dimensions' cells; or a NumPy,
     *                NRRD or NIfTI file as above
     * @param options the dimensions and cell type of raw cells (format {@link GridFormat#RAW}, or
     *                {@link GridFormat#AUTO} where the extension or the content says raw); no threshold
     * @param arena   the arena of the mapping: the grid is valid until it closes
     * @return a read-only grid over the mapped file
     * @throws ImageFormatException     when the file's size does not match the dimensions and cell type
     * @throws IllegalArgumentException when the file is neither raw cells nor a mappable array file,
     *                                  is compressed, the dimensions are missing, a threshold is asked
     *                                  for, or int32 cells are mapped on a big-endian host
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
            if (format == GridFormat.RAW) {
                return RawReader.map(file, options, arena);
            }
            if (format != GridFormat.NPY && format != GridFormat.NRRD && format != GridFormat.NIFTI) {
                throw new IllegalArgumentException(file + ": only raw cells and NumPy, NRRD and NIfTI files can be"
                        + " mapped, not " + format.formatName());
            }
            ArrayLayout layout = mappableLayout(source, format, options);
            if (layout == null) {
                throw new IllegalArgumentException(file + ": its cells do not lie as a grid's (uint8, or aligned"
                        + " uint16, int32 or float32 in the host's byte order, x fastest, uncompressed), or a threshold"
                        + " is asked for: read it instead");
            }
            checkDims(file, layout.dims(), options);
            layout.checkSize();
            return layout.map(arena);
        } catch (Source.DamagedException e) {
            throw new ImageFormatException(file, -1, -1, e.getMessage(), e);
        }
    }

    /**
     * Whether {@link #map} takes {@code file} with {@code options}: uncompressed raw cells with their
     * dimensions, or a NumPy, NRRD or NIfTI file whose cells lie as a grid's; no threshold, and int32
     * cells only on a little-endian host. Reads the first bytes (and an array file's header) only.
     *
     * @param file    the file
     * @param options the options it would be read with
     * @return whether it can be mapped
     * @throws IOException when the file cannot be read
     */
    public static boolean canMap(Path file, GridReadOptions options) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        if (options.threshold().isPresent()) {
            return false;
        }
        try (Source source = Source.ofFile(file)) {
            if (compressed(source)) {
                return false;
            }
            GridFormat format = GridFormat.resolve(source, options);
            if (format == GridFormat.RAW) {
                return options.dims() != null
                        && (options.rawType() == Grid.CellType.U8 || ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN);
            }
            return mappableLayout(source, format, options) != null;
        }
    }

    private static boolean compressed(Source source) {
        return Magic.of(source.storedHead(), source.storedHead().length) == Magic.GZIP;
    }

    /** The layout of the cells of a NumPy, NRRD or NIfTI file, from its header. */
    private static ArrayLayout layout(GridFormat format, Path content, Path name) throws IOException {
        return switch (format) {
            case NPY -> NpyFormat.layout(content, name);
            case NRRD -> NrrdFormat.layout(content, name);
            case NIFTI -> NiftiFormat.layout(content, name);
            default -> throw new AssertionError(format + " has no array layout");
        };
    }

    /**
     * The layout of {@code source} when it is an uncompressed NumPy, NRRD or NIfTI file whose cells
     * can be mapped as they lie, else null.
     */
    private static ArrayLayout mappableLayout(Source source, GridFormat format, GridReadOptions options)
            throws IOException {
        if (format != GridFormat.NPY && format != GridFormat.NRRD && format != GridFormat.NIFTI) {
            return null;
        }
        ArrayLayout layout = layout(format, source.contentFile(), source.name());
        return layout.mappable(options) ? layout : null;
    }

    /** An image's dimensions against the ones the options give, if any. */
    static void checkDims(Path file, GridDims actual, GridReadOptions options) throws ImageFormatException {
        if (options.dims() != null && !options.dims().equals(actual)) {
            throw new ImageFormatException(file, -1, -1, "the image is " + actual + " but the dimensions "
                    + options.dims() + " were given");
        }
    }
}
