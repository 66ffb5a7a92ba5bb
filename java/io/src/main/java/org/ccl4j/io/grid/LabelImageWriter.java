package org.ccl4j.io.grid;

import org.ccl4j.GridDims;
import org.ccl4j.MeshLabels;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.ccl4j.io.LabelWriter;

/**
 * Writes the labels of a grid: one {@code int32} per cell, x fastest, a negative label (−1) for
 * background cells; in a {@link MemorySegment} (native order) or an {@code int[]}; or the labels of
 * {@link MeshLabels}, int32 or int64 (grids past 2^31-1 cells).
 * <ul>
 * <li>Raw: the labels as little-endian {@code int32}s, {@code 4 × cells} bytes, nothing else; int64
 *     {@code MeshLabels} as little-endian {@code int64}s, {@code 8 × cells} bytes.</li>
 * <li>NumPy, NRRD, NIfTI-1 and TIFF ({@link #write(MeshLabels, Path)}, by the file's extension):
 *     the same values, int32 or int64 ({@code <i4}/{@code <i8}, {@code int32}/{@code int64},
 *     datatype 8/1024; TIFF 32-bit signed samples, one page per z-slice, int32 only), x fastest, as
 *     {@link GridWriter} writes grids.</li>
 * <li>PNG: 8-bit RGB, every cluster in its own colour ({@link #color}), background black. A 3D grid
 *     gives one PNG per z-slice, named by {@link #slicePath}, or one chosen slice
 *     ({@link #writePngSlice}).</li>
 * </ul>
 */
public final class LabelImageWriter {
    private LabelImageWriter() {
    }

    /**
     * The colour of {@code label} as {@code 0xRRGGBB}: black for a negative label, otherwise a bright
     * colour that depends on the label alone (hue from a 32-bit integer hash of the label, saturation
     * 0.55..1, value 0.75..1), so equal labels look the same in every slice and every run, and two
     * different labels, such as those of touching clusters, differ with high probability.
     */
    public static int color(int label) {
        if (label < 0) {
            return 0;
        }
        // a Weyl step (so that label 0 does not hash to 0), then murmur3's finaliser: every input
        // bit affects every output bit
        int h = label * 0x9E3779B9 + 0x7F4A7C15;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        double hue = (h >>> 12) / (double) (1 << 20) * 6;
        double saturation = 0.55 + 0.45 * ((h >>> 4) & 0xFF) / 255.0;
        double value = 0.75 + 0.25 * (h & 0xF) / 15.0;
        int sector = (int) hue;
        double f = hue - sector;
        double p = value * (1 - saturation);
        double q = value * (1 - saturation * f);
        double t = value * (1 - saturation * (1 - f));
        double r;
        double g;
        double b;
        switch (sector) {
            case 0 -> { r = value; g = t; b = p; }
            case 1 -> { r = q; g = value; b = p; }
            case 2 -> { r = p; g = value; b = t; }
            case 3 -> { r = p; g = q; b = value; }
            case 4 -> { r = t; g = p; b = value; }
            default -> { r = value; g = p; b = q; }
        }
        return channel(r) << 16 | channel(g) << 8 | channel(b);
    }

    /**
     * The colour of an int64 label, as {@link #color(int)}: a label below 2^31 has the colour of the
     * same int32 label, so that a picture does not depend on the labels' width.
     */
    public static int color(long label) {
        return color(label < 0 ? -1 : Long.hashCode(label));
    }

    private static int channel(double v) {
        return (int) Math.round(v * 255);
    }

    /**
     * The file of slice {@code z} when a volume of {@code depth} slices is written to {@code file}:
     * {@code -z} and the slice number, zero-padded to the digits of {@code depth - 1}, before the
     * extension: {@code out.png} → {@code out-z000.png} … {@code out-z511.png} for 512 slices.
     */
    public static Path slicePath(Path file, int z, int depth) {
        Objects.checkIndex(z, depth);
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String extension = dot > 0 ? name.substring(dot) : ".png";
        int digits = Integer.toString(Math.max(0, depth - 1)).length();
        return file.resolveSibling(stem + "-z" + String.format("%0" + digits + "d", z) + extension);
    }

    /**
     * Writes {@code labels} in the format that the extension of {@code file} names ({@code .npy},
     * {@code .nrrd}, {@code .nii}, {@code .nii.gz}, {@code .tif}, {@code .tiff}), else raw
     * ({@link #writeRaw(MeshLabels, Path)}): int32 or int64 as they are.
     *
     * @throws IllegalArgumentException for int64 labels in TIFF, or a grid the format cannot hold
     */
    public static void write(MeshLabels labels, Path file) throws IOException {
        write(labels, file, VoxelSpace.none());
    }

    /**
     * As {@link #write(MeshLabels, Path)}, a NIfTI or NRRD file with the voxel sizes and orientation
     * of {@code space} (read from the labelled file) where it applies: a file of its format and
     * extents.
     */
    public static void write(MeshLabels labels, Path file, VoxelSpace space) throws IOException {
        Objects.requireNonNull(labels, "labels");
        write(labels.segment(), labels.labelBytes(), labels.width(), labels.height(), labels.depth(), file, space);
    }

    /**
     * Writes labels of {@code labelBytes} 4 (int32) or 8 (int64), native order, in the format that
     * the extension of {@code file} names, as {@link #write(MeshLabels, Path)}.
     */
    public static void write(MemorySegment labels, int labelBytes, int width, int height, int depth, Path file)
            throws IOException {
        write(labels, labelBytes, width, height, depth, file, VoxelSpace.none());
    }

    /** As {@link #write(MemorySegment, int, int, int, int, Path)}, with the voxel space where it applies. */
    public static void write(MemorySegment labels, int labelBytes, int width, int height, int depth, Path file,
                             VoxelSpace space) throws IOException {
        Objects.requireNonNull(space, "space");
        GridDims dims = new GridDims(width, height, depth);
        GridFormat format = GridFormat.ofExtension(file);
        // labels are no picture: a .pgm or .png name gets raw labels, as before these formats
        if (format == GridFormat.RAW || format == GridFormat.PGM || format == GridFormat.PNG) {
            if (labelBytes == Long.BYTES) {
                writeRaw64(labels, width, height, depth, file);
            } else {
                writeRaw(labels, width, height, depth, file);
            }
            return;
        }
        GridWriter.writeArray(ArrayOutput.labels(labels, labelBytes, dims), file, space);
    }

    /**
     * Whether labels {@code labelBytes} wide can be written in the format that the name of
     * {@code file} says: every format holds int32 labels, all but TIFF int64 ones.
     *
     * @param labelBytes 4 (int32) or 8 (int64)
     * @return whether {@link #write(MeshLabels, Path)} takes them
     */
    public static boolean holds(Path file, int labelBytes) {
        return labelBytes == Integer.BYTES || GridFormat.ofExtension(file) != GridFormat.TIFF;
    }

    /**
     * The bytes that precede the labels in a file of this name, so that a caller can write the labels
     * in place (into a mapped file) after them: none for raw, the header for {@code .npy},
     * {@code .nrrd} and {@code .nii} (its end 64-byte aligned for the first two, at byte 352 for
     * NIfTI); null where the labels cannot lie in the file as they are in memory (TIFF, gzip).
     *
     * @param labelBytes 4 (int32) or 8 (int64)
     * @return the header, empty for raw, or null
     */
    public static byte[] headerBeforeLabels(Path file, int width, int height, int depth, int labelBytes) {
        return headerBeforeLabels(file, width, height, depth, labelBytes, VoxelSpace.none());
    }

    /** As {@link #headerBeforeLabels(Path, int, int, int, int)}, with the voxel space where it applies. */
    public static byte[] headerBeforeLabels(Path file, int width, int height, int depth, int labelBytes,
                                            VoxelSpace space) {
        Objects.requireNonNull(space, "space");
        GridDims dims = new GridDims(width, height, depth);
        SampleType type = labelBytes == Long.BYTES ? SampleType.I8 : SampleType.I4;
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".gz") || name.endsWith(".nhdr")) {
            return GridFormat.ofExtension(file) == GridFormat.RAW ? new byte[0] : null;
        }
        return switch (GridFormat.ofExtension(file)) {
            case NPY -> NpyFormat.header(dims, type);
            case NRRD -> NrrdFormat.header(dims, type, space);
            case NIFTI -> NiftiFormat.header(dims, type, space);
            case TIFF -> null;
            default -> new byte[0];
        };
    }

    /** Writes the labels of a {@code width × height × depth} grid as raw little-endian {@code int32}s. */
    public static void writeRaw(MemorySegment labels, int width, int height, int depth, Path file) throws IOException {
        LabelWriter.writeBinary(labels, checked(labels, width, height, depth), file);
    }

    /**
     * Writes {@code labels} as they are: raw little-endian {@code int32}s, or {@code int64}s when
     * they are int64 ({@link MeshLabels#labelBytes()} 8).
     */
    public static void writeRaw(MeshLabels labels, Path file) throws IOException {
        Objects.requireNonNull(labels, "labels");
        if (labels.labelBytes() == Integer.BYTES) {
            writeRaw(labels.segment(), labels.width(), labels.height(), labels.depth(), file);
            return;
        }
        writeRaw64(labels.segment(), labels.width(), labels.height(), labels.depth(), file);
    }

    /**
     * Writes the int64 labels of a {@code width × height × depth} grid (native-order longs, such as
     * {@link MeshLabels#compact} makes of int64 labels) as raw little-endian {@code int64}s.
     */
    public static void writeRaw64(MemorySegment labels, int width, int height, int depth, Path file)
            throws IOException {
        Objects.requireNonNull(labels, "labels");
        long cells = new GridDims(width, height, depth).cellCount();
        if (labels.byteSize() / Long.BYTES < cells) {
            throw new IllegalArgumentException("labels segment of " + labels.byteSize() + " bytes does not hold the "
                    + cells + " longs of a " + new GridDims(width, height, depth) + " grid");
        }
        byte[] chunk = new byte[CHUNK_LABELS * Long.BYTES];
        MemorySegment target = MemorySegment.ofArray(chunk);
        ValueLayout.OfLong littleEndian = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            for (long at = 0; at < cells; at += CHUNK_LABELS) {
                int n = (int) Math.min(CHUNK_LABELS, cells - at);
                MemorySegment.copy(labels, ValueLayout.JAVA_LONG, at * Long.BYTES, target, littleEndian, 0, n);
                out.write(chunk, 0, n * Long.BYTES);
            }
        }
    }

    /** Labels a chunk of raw int64 output holds. */
    private static final int CHUNK_LABELS = 1 << 16;

    /** As {@link #writeRaw(MemorySegment, int, int, int, Path)}, from an array. */
    public static void writeRaw(int[] labels, int width, int height, int depth, Path file) throws IOException {
        writeRaw(MemorySegment.ofArray(labels), width, height, depth, file);
    }

    /**
     * Writes the labels as colour PNGs: for a 2D grid ({@code depth} 1) the image {@code file}; for a
     * 3D grid one image per z-slice, named by {@link #slicePath}.
     *
     * @return the files written, in z order
     */
    public static List<Path> writePng(MemorySegment labels, int width, int height, int depth, Path file)
            throws IOException {
        checked(labels, width, height, depth);
        if (depth == 1) {
            writePngSlice(labels, width, height, depth, 0, file);
            return List.of(file);
        }
        List<Path> written = new ArrayList<>(depth);
        for (int z = 0; z < depth; z++) {
            Path slice = slicePath(file, z, depth);
            writePngSlice(labels, width, height, depth, z, slice);
            written.add(slice);
        }
        return written;
    }

    /** As {@link #writePng(MemorySegment, int, int, int, Path)}, from an array. */
    public static List<Path> writePng(int[] labels, int width, int height, int depth, Path file) throws IOException {
        return writePng(MemorySegment.ofArray(labels), width, height, depth, file);
    }

    /** Writes z-slice {@code z} of the labels as one colour PNG, {@code width × height}. */
    public static void writePngSlice(MemorySegment labels, int width, int height, int depth, int z, Path file)
            throws IOException {
        checked(labels, width, height, depth);
        writePngSlice(i -> labels.getAtIndex(ValueLayout.JAVA_INT, i), width, height, depth, z, file);
    }

    /**
     * Writes z-slice {@code z} of {@code labels}, int32 or int64, as one colour PNG: an int64 label
     * below 2^31 has the colour of the same int32 label, so the picture does not depend on the
     * labels' width.
     */
    public static void writePngSlice(MeshLabels labels, int z, Path file) throws IOException {
        Objects.requireNonNull(labels, "labels");
        MemorySegment segment = labels.segment();
        if (labels.labelBytes() == Integer.BYTES) {
            writePngSlice(segment, labels.width(), labels.height(), labels.depth(), z, file);
            return;
        }
        writePngSlice(i -> segment.getAtIndex(ValueLayout.JAVA_LONG, i), labels.width(), labels.height(),
                labels.depth(), z, file);
    }

    /** Reads the label of the cell at a linear index. */
    @FunctionalInterface
    private interface LabelKeys {
        long at(long index);
    }

    private static void writePngSlice(LabelKeys labels, int width, int height, int depth, int z, Path file)
            throws IOException {
        Objects.checkIndex(z, depth);
        long base = (long) width * height * z;
        PngOutput.rgb8(file, width, height, (y, row) -> {
            long at = base + (long) width * y;
            long previousLabel = -1;
            int rgb = 0;
            for (int x = 0; x < width; x++) {
                long label = labels.at(at + x);
                // runs of one label are common: hash once per run
                if (x == 0 || label != previousLabel) {
                    rgb = color(label);
                    previousLabel = label;
                }
                row[3 * x] = (byte) (rgb >>> 16);
                row[3 * x + 1] = (byte) (rgb >>> 8);
                row[3 * x + 2] = (byte) rgb;
            }
        });
    }

    private static int checked(MemorySegment labels, int width, int height, int depth) {
        Objects.requireNonNull(labels, "labels");
        long cells = new GridDims(width, height, depth).cellCount();
        if (cells > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a " + new GridDims(width, height, depth) + " grid has " + cells
                    + " cells, more than int32 labels number: its labels are int64 (write them from MeshLabels)");
        }
        if (labels.byteSize() < cells * Integer.BYTES) {
            throw new IllegalArgumentException("labels segment of " + labels.byteSize() + " bytes does not hold the "
                    + cells + " int32 labels of a " + new GridDims(width, height, depth) + " grid");
        }
        return (int) cells;
    }
}
