package org.ccl4j.io.grid;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ccl4j.GridDims;

/**
 * NIfTI-1 single files ({@code .nii}, and {@code .nii.gz} through the readers' gzip handling): the
 * 348-byte header, in either byte order (its first field, 348, tells which), the magic
 * {@code n+1\0} at byte 344, and the voxels from {@code vox_offset}, dim[1] (x) fastest. Read:
 * dim[0] 2 or 3 (or 4 with dim[4] 1), datatypes uint8, int8, uint16, int16, uint32, int32 and
 * float32. {@code scl_slope} and {@code scl_inter} are not applied (labels and masks are stored
 * unscaled; a threshold compares the stored values), and {@code pixdim} is not kept (grids have no
 * spacing). Written: little-endian, {@code vox_offset} 352, no scaling, and the voxel sizes and
 * orientation of a {@link VoxelSpace} read from a NIfTI file of the same extents, else
 * {@code pixdim} 1 and no orientation ({@code qform_code} and {@code sform_code} 0).
 */
final class NiftiFormat {
    static final int HEADER_BYTES = 348;
    /** The header and the four bytes that say no extension follows. */
    static final int VOX_OFFSET = 352;

    private NiftiFormat() {
    }

    static ArrayLayout layout(Path content, Path file) throws IOException {
        byte[] h;
        try (InputStream in = Files.newInputStream(content)) {
            h = in.readNBytes(HEADER_BYTES);
        }
        if (h.length < HEADER_BYTES) {
            throw new ImageFormatException(file, -1, h.length, "the file ends inside the 348-byte NIfTI-1 header");
        }
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != HEADER_BYTES) {
            b.order(ByteOrder.BIG_ENDIAN);
            if (b.getInt(0) != HEADER_BYTES) {
                throw new ImageFormatException(file, -1, 0, "sizeof_hdr " + b.order(ByteOrder.LITTLE_ENDIAN).getInt(0)
                        + " is not 348 in either byte order: not a NIfTI-1 file");
            }
        }
        String magic = new String(h, 344, 4, StandardCharsets.ISO_8859_1);
        if (!magic.equals("n+1\0")) {
            throw new ImageFormatException(file, -1, 344, "magic '" + magic.replace("\0", "\\0") + "' is not"
                    + " 'n+1\\0'" + (magic.equals("ni1\0") ? ": a header of a .hdr/.img pair; only single .nii"
                    + " files are read" : ""));
        }
        int rank = b.getShort(40);
        if (rank < 2 || rank > 4 || (rank == 4 && b.getShort(48) != 1)) {
            throw new ImageFormatException(file, -1, rank == 4 ? 48 : 40, rank == 4 ? "dim[4] " + b.getShort(48)
                    + " is not supported: a 4D image is read only with one volume (dim[4] 1)"
                    : "dim[0] " + rank + " is not supported: expected 2 or 3 (or 4 with dim[4] 1)");
        }
        int[] extent = {1, 1, 1};
        for (int i = 1; i <= Math.min(rank, 3); i++) {
            extent[i - 1] = b.getShort(40 + 2 * i);
            if (extent[i - 1] < 1) {
                throw new ImageFormatException(file, -1, 40 + 2 * i, "dim[" + i + "] " + extent[i - 1]
                        + " is not an extent: expected at least 1");
            }
        }
        int datatype = b.getShort(70);
        SampleType type = switch (datatype) {
            case 2 -> SampleType.U1;
            case 256 -> SampleType.I1;
            case 512 -> SampleType.U2;
            case 4 -> SampleType.I2;
            case 768 -> SampleType.U4;
            case 8 -> SampleType.I4;
            case 16 -> SampleType.F4;
            default -> throw new ImageFormatException(file, -1, 70, "datatype " + datatype + name(datatype)
                    + " is not supported: expected uint8 (2), int8 (256), uint16 (512), int16 (4), uint32 (768),"
                    + " int32 (8) or float32 (16)");
        };
        int bitpix = b.getShort(72);
        if (bitpix != type.bytes() * 8) {
            throw new ImageFormatException(file, -1, 72, "bitpix " + bitpix + " does not match datatype " + datatype
                    + " (" + type.title() + ", " + type.bytes() * 8 + " bits)");
        }
        float voxOffset = b.getFloat(108);
        if (!(voxOffset >= VOX_OFFSET) || voxOffset != Math.rint(voxOffset) || voxOffset > Long.MAX_VALUE / 2) {
            throw new ImageFormatException(file, -1, 108, "vox_offset " + voxOffset
                    + " is not a whole number of bytes from 352 on");
        }
        return new ArrayLayout(content, (long) voxOffset, 0, new ArrayLayout.Type(type, -1, 70, "datatype "
                + datatype), b.order(), new GridDims(extent[0], extent[1], extent[2]), false, false);
    }

    /** The NIfTI name of a datatype code that is not read, as " (float64)". */
    private static String name(int datatype) {
        return switch (datatype) {
            case 1 -> " (binary)";
            case 32 -> " (complex64)";
            case 64 -> " (float64)";
            case 128 -> " (rgb24)";
            case 1024 -> " (int64)";
            case 1280 -> " (uint64)";
            case 1536 -> " (float128)";
            case 1792 -> " (complex128)";
            case 2048 -> " (complex256)";
            case 2304 -> " (rgba32)";
            default -> "";
        };
    }

    /**
     * The header and the empty extension flag: the voxels follow at byte 352; the spatial fields
     * those of {@code space} where it applies.
     */
    static byte[] header(GridDims dims, SampleType type, VoxelSpace space) {
        if (dims.width() > Short.MAX_VALUE || dims.height() > Short.MAX_VALUE || dims.depth() > Short.MAX_VALUE) {
            throw new IllegalArgumentException("a NIfTI-1 file holds extents up to " + Short.MAX_VALUE + ", not "
                    + dims + ": write .npy, .nrrd or raw");
        }
        short datatype = switch (type) {
            case U1 -> 2;
            case U2 -> 512;
            case I4 -> 8;
            case F4 -> 16;
            case I8 -> 1024;
            default -> throw new IllegalArgumentException(type.title() + " is not written");
        };
        ByteBuffer b = ByteBuffer.allocate(VOX_OFFSET).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, HEADER_BYTES);
        int rank = dims.depth() == 1 ? 2 : 3;
        b.putShort(40, (short) rank).putShort(42, (short) dims.width()).putShort(44, (short) dims.height())
                .putShort(46, (short) dims.depth());
        for (int i = rank + 1; i <= 7; i++) {
            b.putShort(40 + 2 * i, (short) 1);
        }
        b.putShort(70, datatype).putShort(72, (short) (type.bytes() * 8));
        // pixdim[0] is qfac (1); the grid has no spacing: 1 on every axis
        for (int i = 0; i < 8; i++) {
            b.putFloat(76 + 4 * i, 1f);
        }
        b.putFloat(108, VOX_OFFSET);
        b.put(344, "n+1\0".getBytes(StandardCharsets.US_ASCII));
        if (space.appliesTo(GridFormat.NIFTI, dims)) {
            space.writeNifti(b);
        }
        return b.array();
    }

    static void write(ArrayOutput cells, Path file, VoxelSpace space) throws IOException {
        try (OutputStream out = ArrayOutput.open(file)) {
            out.write(header(cells.dims(), cells.type(), space));
            cells.writeLittleEndian(out);
        }
    }
}
