package org.ccl4j.io.grid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.ccl4j.MeshLabels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link VoxelSpace}: the voxel sizes and orientation of NIfTI-1 and NRRD files (written here byte
 * by byte, both byte orders, plain and gzip) carried to the labels written of them, field by field,
 * and not carried to files of other extents or formats.
 */
class VoxelSpaceTest {
    private static final short[] DIM = {3, 4, 3, 2, 1, 1, 1, 1};
    /** pixdim[0..7] (qfac -1), the quaternion b, c, d and offsets, srow_x, srow_y, srow_z. */
    private static final float[] PIXDIM = {-1f, 0.75f, 0.5f, 2.5f, 1f, 1f, 1f, 1f};
    private static final float[] QUATERNION = {0.1f, -0.2f, 0.3f, -90.5f, 12.25f, 7f};
    private static final float[] SROW = {0.75f, 0, 0, -90.5f, 0, 0.5f, 0.1f, 12.25f, 0, -0.1f, 2.5f, 7f};

    @TempDir
    Path dir;

    /** A 4x3x2 uint8 NIfTI-1 file with every spatial field set. */
    private static byte[] nifti(ByteOrder order) {
        byte[] bytes = ArrayBytes.nifti(order, DIM, (short) 2, (short) 8, 352f, new byte[24]);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(order);
        for (int i = 0; i < 8; i++) {
            b.putFloat(76 + 4 * i, PIXDIM[i]);
        }
        b.put(123, (byte) 10);  // millimetres and seconds
        b.putShort(252, (short) 1).putShort(254, (short) 2);
        for (int i = 0; i < 6; i++) {
            b.putFloat(256 + 4 * i, QUATERNION[i]);
        }
        for (int i = 0; i < 12; i++) {
            b.putFloat(280 + 4 * i, SROW[i]);
        }
        return bytes;
    }

    private static MeshLabels labels(int w, int h, int d) {
        int[] values = new int[w * h * d];
        Arrays.setAll(values, i -> i % 3 == 0 ? -1 : i);
        return new MeshLabels(w, h, d, MemorySegment.ofArray(values), null);
    }

    private static void assertSpatialFields(ByteBuffer written, String what) {
        for (int i = 0; i < 8; i++) {
            assertEquals(PIXDIM[i], written.getFloat(76 + 4 * i), what + ": pixdim[" + i + "]");
        }
        assertEquals(10, written.get(123), what + ": xyzt_units");
        assertEquals(1, written.getShort(252), what + ": qform_code");
        assertEquals(2, written.getShort(254), what + ": sform_code");
        for (int i = 0; i < 6; i++) {
            assertEquals(QUATERNION[i], written.getFloat(256 + 4 * i), what + ": quaternion " + i);
        }
        for (int i = 0; i < 12; i++) {
            assertEquals(SROW[i], written.getFloat(280 + 4 * i), what + ": srow " + i);
        }
    }

    @Test
    void niftiLabelsKeepTheInputsVoxelSizesAndOrientation() throws IOException {
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            for (boolean gzip : new boolean[] {false, true}) {
                byte[] bytes = nifti(order);
                Path input = Files.write(dir.resolve(gzip ? "in.nii.gz" : "in.nii"), gzip ? ArrayBytes.gzip(bytes) : bytes);
                VoxelSpace space = VoxelSpace.of(input);
                String what = order + (gzip ? " gzip" : "");
                assertArrayEquals(new double[] {0.75, 0.5, 2.5}, space.voxelSize(), what);
                for (String name : List.of("labels.nii", "labels.nii.gz")) {
                    Path out = dir.resolve(name);
                    LabelImageWriter.write(labels(4, 3, 2), out, space);
                    byte[] written = Files.readAllBytes(out);
                    if (name.endsWith(".gz")) {
                        written = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(written))
                                .readAllBytes();
                    }
                    ByteBuffer b = ByteBuffer.wrap(written).order(ByteOrder.LITTLE_ENDIAN);
                    assertSpatialFields(b, what + " to " + name);
                    assertEquals(8, b.getShort(70), "the labels' own datatype (int32)");
                    assertEquals(352f, b.getFloat(108), "the labels' own vox_offset");
                }
                // in place (a mapped --out): the header before the labels carries them too
                byte[] header = LabelImageWriter.headerBeforeLabels(dir.resolve("mapped.nii"), 4, 3, 2, Long.BYTES, space);
                assertSpatialFields(ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN), what + " in place");
            }
        }
    }

    @Test
    void otherExtentsAndFormatsAreWrittenWithout() throws IOException {
        VoxelSpace space = VoxelSpace.of(Files.write(dir.resolve("in.nii"), nifti(ByteOrder.LITTLE_ENDIAN)));
        Path out = dir.resolve("region.nii");
        LabelImageWriter.write(labels(2, 3, 2), out, space);
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1f, b.getFloat(80), "a region of the input: unit pixdim");
        assertEquals(0, b.getShort(252), "no qform");
        assertEquals(0, b.getShort(254), "no sform");
        Path nrrd = dir.resolve("labels.nrrd");
        LabelImageWriter.write(labels(4, 3, 2), nrrd, space);
        assertFalse(header(nrrd).contains("space"), "NIfTI fields do not go into NRRD");
        Path raw = Files.write(dir.resolve("cells.raw"), new byte[24]);
        assertArrayEquals(new double[] {1, 1, 1}, VoxelSpace.of(raw).voxelSize());
        LabelImageWriter.write(labels(4, 3, 2), dir.resolve("plain.nii"), VoxelSpace.of(raw));
        assertEquals(1f, ByteBuffer.wrap(Files.readAllBytes(dir.resolve("plain.nii"))).order(ByteOrder.LITTLE_ENDIAN)
                .getFloat(80));
    }

    private static String header(Path nrrd) throws IOException {
        String text = new String(Files.readAllBytes(nrrd), StandardCharsets.ISO_8859_1);
        return text.substring(0, text.indexOf("\n\n") + 1);
    }

    @Test
    void nrrdLabelsKeepTheSpaceFields() throws IOException {
        String spatial = "space: left-posterior-superior\nspace directions: (0.75,0,0) (0,0.5,0.1) (0,0,2.5)\n"
                + "space origin: (-90.5,12.25,7)\nspace units: \"mm\" \"mm\" \"mm\"\n";
        for (boolean gzip : new boolean[] {false, true}) {
            byte[] bytes = ArrayBytes.nrrd("type: uint8\ndimension: 3\nsizes: 4 3 2\nencoding: raw\n" + spatial
                    + "kinds: domain domain domain\n# a comment\n", new byte[24]);
            Path input = Files.write(dir.resolve(gzip ? "in.nrrd.gz" : "in.nrrd"), gzip ? ArrayBytes.gzip(bytes) : bytes);
            VoxelSpace space = VoxelSpace.of(input);
            double[] size = space.voxelSize();
            assertEquals(0.75, size[0], 1e-12);
            assertEquals(Math.hypot(0.5, 0.1), size[1], 1e-12);
            assertEquals(2.5, size[2], 1e-12);
            Path out = dir.resolve("labels.nrrd");
            LabelImageWriter.write(labels(4, 3, 2), out, space);
            String written = header(out);
            assertTrue(written.contains(spatial), written);
            assertTrue(written.contains("type: int32\n"), written);
            // the labels still lie where the header says, 64-byte aligned
            assertEquals(0, (written.length() + 1) % 64, written);
        }
        Path spacings = Files.write(dir.resolve("s.nrrd"), ArrayBytes.nrrd(
                "type: uint8\ndimension: 2\nsizes: 4 3\nencoding: raw\nspacings: 0.25 4", new byte[12]));
        assertArrayEquals(new double[] {0.25, 4, 1}, VoxelSpace.of(spacings).voxelSize());
        LabelImageWriter.write(labels(4, 3, 1), dir.resolve("s-labels.nrrd"), VoxelSpace.of(spacings));
        assertTrue(header(dir.resolve("s-labels.nrrd")).contains("\nspacings: 0.25 4\n"));
    }
}
