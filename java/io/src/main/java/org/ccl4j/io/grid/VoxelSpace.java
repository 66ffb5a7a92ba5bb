package org.ccl4j.io.grid;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import org.ccl4j.GridDims;

/**
 * Where the cells of a NIfTI-1 or NRRD file lie in space: the header fields that give the voxel
 * sizes and the orientation, read from an input ({@link #of}) so that the labels written of it in
 * the same format ({@link LabelImageWriter#write(org.ccl4j.MeshLabels, Path, VoxelSpace)}) overlay
 * it in viewers (ITK-SNAP, 3D Slicer, FSLeyes, napari):
 * <ul>
 * <li>NIfTI-1: {@code pixdim} (with {@code qfac}), {@code xyzt_units}, {@code qform_code},
 *     {@code sform_code}, the quaternion and its offsets, {@code srow_x}, {@code srow_y},
 *     {@code srow_z};</li>
 * <li>NRRD: the lines {@code space}, {@code space dimension}, {@code space directions},
 *     {@code space origin}, {@code space units}, {@code spacings}, {@code thicknesses},
 *     {@code axis mins}, {@code axis maxs}, {@code centers}/{@code centerings}, {@code units} and
 *     {@code measurement frame}, as they are.</li>
 * </ul>
 * They are carried only to a file of the same format and of the same extents (the labels of a
 * region of the input lie elsewhere); other files are written as without them. Files of other
 * formats have no voxel space ({@link #none()}).
 */
public final class VoxelSpace {
    private static final VoxelSpace NONE = new VoxelSpace(null, null, null, List.of());
    private static final Set<String> NRRD_FIELDS = Set.of("space", "space dimension", "space directions",
            "space origin", "space units", "spacings", "thicknesses", "axis mins", "axis maxs", "centers",
            "centerings", "units", "measurement frame");
    /** The spatial fields of a NIfTI-1 header: offset and length in bytes, each a run of floats or shorts. */
    private static final int[][] NIFTI_FLOATS = {{76, 8}, {256, 6}, {280, 12}};  // pixdim, quaternion, srow
    private static final int[] NIFTI_SHORTS = {252, 254};  // qform_code, sform_code
    private static final int NIFTI_UNITS = 123;  // xyzt_units, a byte

    private final GridFormat format;  // NIFTI or NRRD; null: none
    private final GridDims dims;
    private final ByteBuffer nifti;  // the spatial fields at their offsets of a little-endian header
    private final List<String> nrrd;  // the spatial lines of the header

    private VoxelSpace(GridFormat format, GridDims dims, ByteBuffer nifti, List<String> nrrd) {
        this.format = format;
        this.dims = dims;
        this.nifti = nifti;
        this.nrrd = nrrd;
    }

    /**
     * No voxel space: files are written with unit spacing and no orientation.
     *
     * @return the empty voxel space
     */
    public static VoxelSpace none() {
        return NONE;
    }

    /**
     * The voxel space of a NIfTI-1 ({@code .nii}, {@code .nii.gz}) or NRRD ({@code .nrrd},
     * {@code .nhdr}) file, plain or gzip-compressed; {@link #none()} for other formats.
     *
     * @param file the file
     * @return its voxel space
     * @throws ImageFormatException when its header cannot be read
     * @throws IOException          when the file cannot be read
     */
    public static VoxelSpace of(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        GridFormat format = GridFormat.detect(file);
        if (format != GridFormat.NIFTI && format != GridFormat.NRRD) {
            return NONE;
        }
        try (InputStream in = open(file)) {
            return format == GridFormat.NIFTI ? nifti(in, file) : nrrd(in, file);
        }
    }

    /** The file's content, decompressed when it is gzip-compressed (by its magic bytes). */
    private static InputStream open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file));
        in.mark(2);
        boolean gzip = in.read() == 0x1f && in.read() == 0x8b;
        in.reset();
        return gzip ? new BufferedInputStream(new GZIPInputStream(in)) : in;
    }

    private static VoxelSpace nifti(InputStream in, Path file) throws IOException {
        byte[] h = in.readNBytes(NiftiFormat.HEADER_BYTES);
        if (h.length < NiftiFormat.HEADER_BYTES) {
            throw new ImageFormatException(file, -1, h.length, "the file ends inside the 348-byte NIfTI-1 header");
        }
        ByteBuffer in32 = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        if (in32.getInt(0) != NiftiFormat.HEADER_BYTES) {
            in32.order(ByteOrder.BIG_ENDIAN);
        }
        ByteBuffer out = ByteBuffer.allocate(NiftiFormat.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int[] run : NIFTI_FLOATS) {
            for (int i = 0; i < run[1]; i++) {
                out.putFloat(run[0] + 4 * i, in32.getFloat(run[0] + 4 * i));
            }
        }
        for (int offset : NIFTI_SHORTS) {
            out.putShort(offset, in32.getShort(offset));
        }
        out.put(NIFTI_UNITS, in32.get(NIFTI_UNITS));
        int rank = in32.getShort(40);
        int[] extent = {1, 1, 1};
        for (int i = 1; i <= Math.min(Math.max(rank, 0), 3); i++) {
            extent[i - 1] = Math.max(1, in32.getShort(40 + 2 * i));
        }
        return new VoxelSpace(GridFormat.NIFTI, new GridDims(extent[0], extent[1], extent[2]), out, List.of());
    }

    private static VoxelSpace nrrd(InputStream in, Path file) throws IOException {
        List<String> kept = new ArrayList<>();
        int[] extent = {1, 1, 1};
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        long read = 0;
        for (int c; (c = in.read()) >= 0 && read++ < (1 << 20);) {
            if (c != '\n') {
                text.write(c);
                continue;
            }
            String line = text.toString(StandardCharsets.ISO_8859_1).strip();
            text.reset();
            if (line.isEmpty()) {
                break;  // the header's end
            }
            int colon = line.indexOf(": ");
            if (line.startsWith("#") || line.contains(":=") || colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            if (NRRD_FIELDS.contains(key)) {
                kept.add(line);
            } else if (key.equals("sizes")) {
                String[] sizes = line.substring(colon + 2).strip().split("\\s+");
                for (int i = 0; i < Math.min(3, sizes.length); i++) {
                    try {
                        extent[i] = Math.max(1, Integer.parseInt(sizes[i]));
                    } catch (NumberFormatException e) {
                        throw new ImageFormatException(file, -1, -1, "sizes '" + line + "' are not extents");
                    }
                }
            }
        }
        return new VoxelSpace(GridFormat.NRRD, new GridDims(extent[0], extent[1], extent[2]), null, List.copyOf(kept));
    }

    /**
     * The size of a voxel along x, y and z: NIfTI's {@code pixdim[1..3]}, NRRD's {@code spacings} or
     * the lengths of its {@code space directions}; 1 where the file gives none (or none that is
     * positive and finite), and for files without a voxel space.
     *
     * @return three sizes
     */
    public double[] voxelSize() {
        double[] size = {1, 1, 1};
        if (format == GridFormat.NIFTI) {
            for (int axis = 0; axis < 3; axis++) {
                size[axis] = nifti.getFloat(76 + 4 * (axis + 1));
            }
        } else if (format == GridFormat.NRRD) {
            for (String line : nrrd) {
                String key = line.substring(0, line.indexOf(": ")).strip().toLowerCase(Locale.ROOT);
                String value = line.substring(line.indexOf(": ") + 2).strip();
                if (key.equals("spacings")) {
                    String[] s = value.split("\\s+");
                    for (int axis = 0; axis < Math.min(3, s.length); axis++) {
                        size[axis] = number(s[axis]);
                    }
                } else if (key.equals("space directions")) {
                    // one vector "(a,b,c)" per axis, "none" for axes that are not spatial
                    String[] v = value.split("\\)\\s*");
                    for (int axis = 0; axis < Math.min(3, v.length); axis++) {
                        String vector = v[axis].replace("(", "").strip();
                        double norm = 0;
                        for (String c : vector.split(",")) {
                            double x = number(c.strip());
                            norm += x * x;
                        }
                        size[axis] = Math.sqrt(norm);
                    }
                }
            }
        }
        for (int axis = 0; axis < 3; axis++) {
            if (!(size[axis] > 0) || !Double.isFinite(size[axis])) {
                size[axis] = 1;
            }
        }
        return size;
    }

    private static double number(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;  // "nan", "none": no size
        }
    }

    /**
     * Whether these fields go into a file of {@code format} holding a grid of {@code dims}.
     */
    boolean appliesTo(GridFormat format, GridDims dims) {
        return this.format == format && this.dims.equals(dims);
    }

    /** Writes the NIfTI-1 fields into a little-endian header. */
    void writeNifti(ByteBuffer header) {
        for (int[] run : NIFTI_FLOATS) {
            for (int i = 0; i < run[1]; i++) {
                header.putFloat(run[0] + 4 * i, nifti.getFloat(run[0] + 4 * i));
            }
        }
        for (int offset : NIFTI_SHORTS) {
            header.putShort(offset, nifti.getShort(offset));
        }
        header.put(NIFTI_UNITS, nifti.get(NIFTI_UNITS));
    }

    /** The NRRD lines, each ended by a newline. */
    String nrrdLines() {
        StringBuilder s = new StringBuilder();
        nrrd.forEach(line -> s.append(line).append('\n'));
        return s.toString();
    }

    @Override
    public String toString() {
        return format == null ? "VoxelSpace[none]" : "VoxelSpace[" + format + " " + dims + "]";
    }
}
