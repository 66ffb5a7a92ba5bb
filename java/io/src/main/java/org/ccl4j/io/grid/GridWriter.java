package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * Writes grids, so that generated or converted fields can be saved and given to other tools.
 * <ul>
 * <li>PGM: {@code P5} (binary) or {@code P2} (ASCII) with maxval the largest cell (at least 1),
 *     8-bit samples when that is at most 255, else 16-bit big-endian; cells must lie in 0..65535.
 *     Viewers scale by maxval, so a 0/1 field shows black and white.</li>
 * <li>PNG: greyscale, 8-bit when every cell is at most 255, else 16-bit; cells must lie in
 *     0..65535 and are stored unscaled.</li>
 * <li>Raw: the cells alone, uint8 bytes or little-endian int32s, x fastest.</li>
 * <li>NumPy ({@code .npy}): version 1.0, C order, {@code |u1} or {@code <i4}, shape {@code (H, W)}
 *     or {@code (D, H, W)}.</li>
 * <li>NRRD ({@code .nrrd}): attached header, raw little-endian {@code uint8} or {@code int32},
 *     sizes x fastest.</li>
 * <li>NIfTI-1 ({@code .nii}, gzip-compressed {@code .nii.gz}): {@code uint8} or {@code int32},
 *     {@code vox_offset} 352, {@code pixdim} 1 (grids have no spacing), no scaling.</li>
 * <li>TIFF ({@code .tif}, {@code .tiff}): one uncompressed page per z-slice, 8-bit unsigned or
 *     32-bit signed samples.</li>
 * </ul>
 * A {@code .gz} after the last four extensions gzip-compresses the file.
 * PGM and PNG are 2D: the z-slices of a 3D grid are stacked top to bottom into one
 * {@code width × (height·depth)} image (raw files keep any shape; their dimensions are not stored).
 * {@link GridReader} reads every file written here back to the same cell values.
 */
public final class GridWriter {
    private static final int CHUNK_CELLS = 1 << 16;

    private GridWriter() {
    }

    /**
     * Writes {@code grid} in the format that the extension of {@code file} names: {@code .pgm} P5,
     * {@code .png}, {@code .npy}, {@code .nrrd}, {@code .nii}, {@code .tif} or {@code .tiff} (the
     * last five also with {@code .gz}), else raw.
     *
     * @throws IllegalArgumentException for a {@code .nhdr} name (NRRD is written with its header
     *                                  attached: {@code .nrrd}), or cells the format cannot hold
     */
    public static void write(Grid grid, Path file) throws IOException {
        switch (GridFormat.ofExtension(file)) {
            case PGM -> writePgm(grid, file);
            case PNG -> writePng(grid, file);
            case NPY, NRRD, NIFTI, TIFF -> writeArray(ArrayOutput.of(grid), file, VoxelSpace.none());
            default -> writeRaw(grid, file);
        }
    }

    /**
     * Writes an array in the NumPy, NRRD, NIfTI or TIFF format that the name of {@code file} says,
     * with the spatial fields of {@code space} where it applies.
     */
    static void writeArray(ArrayOutput cells, Path file, VoxelSpace space) throws IOException {
        GridFormat format = GridFormat.ofExtension(file);
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".nhdr")) {
            throw new IllegalArgumentException(file + ": NRRD is written with its header attached: name it .nrrd");
        }
        switch (format) {
            case NPY -> NpyFormat.write(cells, file);
            case NRRD -> NrrdFormat.write(cells, file, space);
            case NIFTI -> NiftiFormat.write(cells, file, space);
            case TIFF -> TiffFormat.write(cells, file);
            default -> throw new IllegalArgumentException(file + " names no array format");
        }
    }

    /** Writes {@code grid} as a binary {@code P5} greymap. */
    public static void writePgm(Grid grid, Path file) throws IOException {
        int maxval = Math.max(1, checkedMax(grid));
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(("P5\n" + grid.width() + " " + imageHeight(grid) + "\n" + maxval + "\n")
                    .getBytes(StandardCharsets.US_ASCII));
            writeSamples(grid, maxval > 255, out);
        }
    }

    /** Writes {@code grid} as an ASCII {@code P2} greymap (lines of at most 70 characters, as Netpbm advises). */
    public static void writePgmAscii(Grid grid, Path file) throws IOException {
        int maxval = Math.max(1, checkedMax(grid));
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            StringBuilder text = new StringBuilder("P2\n" + grid.width() + " " + imageHeight(grid) + "\n"
                    + maxval + "\n");
            int lineLength = 0;
            for (long i = 0; i < grid.cellCount(); i++) {
                String value = Integer.toString(grid.get(i));
                boolean rowEnd = (i + 1) % grid.width() == 0;
                if (lineLength > 0 && lineLength + 1 + value.length() > 70) {
                    text.append('\n');
                    lineLength = 0;
                } else if (lineLength > 0) {
                    text.append(' ');
                    lineLength++;
                }
                text.append(value);
                lineLength += value.length();
                if (rowEnd) {
                    text.append('\n');
                    lineLength = 0;
                }
                if (text.length() >= CHUNK_CELLS) {
                    out.write(text.toString().getBytes(StandardCharsets.US_ASCII));
                    text.setLength(0);
                }
            }
            out.write(text.toString().getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** Writes {@code grid} as a greyscale PNG, 8-bit or 16-bit by its largest cell, through {@code javax.imageio}. */
    public static void writePng(Grid grid, Path file) throws IOException {
        boolean wide = checkedMax(grid) > 255;
        int width = grid.width();
        int height = imageHeight(grid);
        if (wide) {
            PngOutput.grey16(file, width, height, (y, row) -> {
                long base = (long) y * width;
                for (int x = 0; x < width; x++) {
                    row[x] = (short) grid.get(base + x);
                }
            });
        } else {
            PngOutput.grey8(file, width, height, (y, row) -> {
                long base = (long) y * width;
                for (int x = 0; x < width; x++) {
                    row[x] = (byte) grid.get(base + x);
                }
            });
        }
    }

    /** Writes the cells of {@code grid} as they are: uint8 bytes or little-endian int32s, x fastest. */
    public static void writeRaw(Grid grid, Path file) throws IOException {
        Objects.requireNonNull(grid, "grid");
        byte[] chunk = new byte[CHUNK_CELLS * Integer.BYTES];
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            if (grid.isDense()) {
                writeCells(grid.cells(), grid.type(), chunk, out);
                return;
            }
            for (int z = 0; z < grid.depth(); z++) {
                for (int y = 0; y < grid.height(); y++) {
                    writeCells(grid.row(y, z), grid.type(), chunk, out);
                }
            }
        }
    }

    /** Writes back-to-back cells through {@code chunk}. */
    private static void writeCells(MemorySegment cells, Grid.CellType type, byte[] chunk, OutputStream out)
            throws IOException {
        ValueLayout.OfInt littleEndian = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        MemorySegment target = MemorySegment.ofArray(chunk);
        long count = cells.byteSize() / type.bytes();
        for (long at = 0; at < count; at += CHUNK_CELLS) {
            int n = (int) Math.min(CHUNK_CELLS, count - at);
            switch (type) {
                case U8 -> MemorySegment.copy(cells, ValueLayout.JAVA_BYTE, at, chunk, 0, n);
                case U16 -> MemorySegment.copy(cells, ValueLayout.JAVA_SHORT, at * 2, target,
                        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, n);
                default -> MemorySegment.copy(cells, ValueLayout.JAVA_INT, at * 4, target, littleEndian, 0, n);
            }
            out.write(chunk, 0, type.bytes() * n);
        }
    }

    private static void writeSamples(Grid grid, boolean wide, OutputStream out) throws IOException {
        byte[] chunk = new byte[CHUNK_CELLS * 2];
        for (long at = 0; at < grid.cellCount(); at += CHUNK_CELLS) {
            int n = (int) Math.min(CHUNK_CELLS, grid.cellCount() - at);
            for (int k = 0; k < n; k++) {
                int value = grid.get(at + k);
                if (wide) {
                    chunk[2 * k] = (byte) (value >>> 8);
                    chunk[2 * k + 1] = (byte) value;
                } else {
                    chunk[k] = (byte) value;
                }
            }
            out.write(chunk, 0, wide ? 2 * n : n);
        }
    }

    /** The rows of the image of {@code grid}, its layers one under the other; throws past an image's int32 height. */
    private static int imageHeight(Grid grid) {
        long rows = (long) grid.height() * grid.depth();
        if (rows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(grid + " has " + rows + " rows, more than an image holds (2^31-1):"
                    + " write a raw file instead");
        }
        return (int) rows;
    }

    /** The largest cell; throws unless every cell lies in 0..65535. */
    private static int checkedMax(Grid grid) {
        Objects.requireNonNull(grid, "grid");
        if (grid.type() == Grid.CellType.F32) {
            throw new IllegalArgumentException("PGM and PNG hold integer samples: float cells are written as .npy,"
                    + " .nrrd, .nii, .tif or raw");
        }
        int max = 0;
        for (long i = 0; i < grid.cellCount(); i++) {
            int value = grid.get(i);
            if (value < 0 || value > 65535) {
                throw new IllegalArgumentException("cell " + i + " holds " + value
                        + ": PGM and PNG samples lie in 0..65535 (write a raw file instead)");
            }
            max = Math.max(max, value);
        }
        return max;
    }
}
