package org.ccl4j.io.grid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Point;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferFloat;
import java.awt.image.DataBufferUShort;
import java.awt.image.PixelInterleavedSampleModel;
import java.awt.image.Raster;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.testing.MeshTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NumPy, NRRD, NIfTI and TIFF files: every variant that is not read is refused with the byte offset
 * (NRRD: the header line) and the value at fault; detection by magic bytes and by extension;
 * mapping where the cells lie as a grid's.
 */
class ArrayFormatsTest {
    @TempDir
    Path dir;

    private static final double[] SIX = {0, 1, 2, 3, 4, 5};

    @Test
    void npyRefusalsNameTheirByteOffset() throws IOException {
        byte[] good = ArrayBytes.npy(1, "<i4", false, new int[] {2, 3}, SIX);
        String header = new String(good, 10, 118, java.nio.charset.StandardCharsets.ISO_8859_1);
        int descrAt = 10 + header.indexOf("<i4");
        int shapeAt = 10 + header.indexOf("(2, 3)") + 1;

        byte[] version = good.clone();
        version[6] = 4;
        refused("v.npy", version, 6, "format version 4.0 is not supported: expected 1.0, 2.0 or 3.0");
        refused("c.npy", ArrayBytes.npy(1, "<c8", false, new int[] {2, 3}, SIX), descrAt,
                "dtype '<c8' (complex64) is not supported: expected one of |u1, |i1, <u2, <i2, <u4, <i4, <f4"
                + " (or > for big-endian)");
        refused("f8.npy", ArrayBytes.npy(1, "<f8", false, new int[] {2, 3}, SIX), descrAt,
                "dtype '<f8' (float64) is not supported");
        refused("i8.npy", ArrayBytes.npy(1, "<i8", false, new int[] {2, 3}, SIX), descrAt,
                "dtype '<i8' (int64) is not supported");
        refused("one.npy", ArrayBytes.npy(1, "<i4", false, new int[] {6}, SIX), shapeAt,
                "shape (6,) has 1 dimensions: expected 2 (H, W) or 3 (D, H, W)");
        refused("four.npy", ArrayBytes.npy(1, "<i4", false, new int[] {1, 1, 2, 3}, SIX), shapeAt,
                "shape (1, 1, 2, 3) has 4 dimensions");
        refused("zero.npy", ArrayBytes.npy(1, "<i4", false, new int[] {0, 3}, new double[0]), shapeAt,
                "shape (0, 3) has the extent 0");
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 5);
        refused("t.npy", truncated, truncated.length, "it is truncated");
        refused("x.npy", ArrayBytes.concat(good, new byte[3]), good.length, "it has bytes after them");
        refused("u4.npy", ArrayBytes.npy(1, "<u4", false, new int[] {2, 3}, new double[] {0, 1, 2, 3L << 30, 4, 5}),
                128 + 3 * 4, "uint32 value 3221225472 is out of the int32 range of grid cells");
        refused("u4f.npy", ArrayBytes.npy(1, ">u4", true, new int[] {2, 3}, new double[] {0, 1, 2, 3L << 30, 4, 5}),
                // Fortran order: element (1, 0) is the second one stored
                128 + 4, "uint32 value 3221225472");
        refused("head.npy", java.util.Arrays.copyOf(good, 40), 40, "the file ends inside the header");
        byte[] structured = ArrayBytes.npy(1, "<i4", false, new int[] {2, 3}, SIX);
        String bad = new String(structured, java.nio.charset.StandardCharsets.ISO_8859_1)
                .replace("'<i4'", "[('a','<i4')]".substring(0, 5));
        refused("s.npy", bad.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), descrAt - 1,
                "structured dtypes are not supported");
    }

    @Test
    void nrrdRefusalsNameTheirHeaderLine() throws IOException {
        byte[] data = ArrayBytes.elements("i2", ByteOrder.LITTLE_ENDIAN, SIX);
        String ok = "type: short\ndimension: 2\nsizes: 3 2\nencoding: raw\nendian: little\n";
        refusedAtLine("d.nrrd", ArrayBytes.nrrd(ok.replace("short", "double"), data), 2,
                "type 'double' is not supported: expected one of uchar, char, ushort, short, uint, int, float");
        refusedAtLine("e.nrrd", ArrayBytes.nrrd(ok.replace("raw", "ascii"), data), 5,
                "encoding 'ascii' is not supported: expected raw or gzip");
        refusedAtLine("n.nrrd", ArrayBytes.nrrd(ok.replace("dimension: 2", "dimension: 4"), data), 3,
                "dimension 4 is not supported: expected 2 or 3");
        refusedAtLine("s.nrrd", ArrayBytes.nrrd(ok.replace("sizes: 3 2", "sizes: 3 2 1"), data), 4,
                "sizes '3 2 1' has 3 extents, dimension is 2");
        refusedAtLine("b.nrrd", ArrayBytes.nrrd(ok.replace("endian: little", "endian: middle"), data), 6,
                "endian 'middle' is neither little nor big");
        refusedAtLine("m.nrrd", ArrayBytes.nrrd(ok.replace("endian: little\n", ""), data), 6,
                "the header has no 'endian' field, which int16 cells need");
        refusedAtLine("v.nrrd", ("NRRD0009\n" + ok + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII), 1,
                "magic 'NRRD0009' is not NRRD0001..NRRD0005");
        refusedAtLine("l.nhdr", ("NRRD0004\n" + ok + "data file: missing.raw\n").getBytes(
                java.nio.charset.StandardCharsets.US_ASCII), 7, "data file 'missing.raw'");
        byte[] file = ArrayBytes.nrrd(ok, java.util.Arrays.copyOf(data, 10));
        refused("t.nrrd", file, file.length, "it is truncated");
        byte[] u4 = ArrayBytes.nrrd(ok.replace("short", "uint").replace("little", "big"), ArrayBytes.elements("u4",
                ByteOrder.BIG_ENDIAN, new double[] {0, 1, 2, 3, 4, 1L << 31}));
        refused("u.nrrd", u4, u4.length - 4, "uint32 value 2147483648 is out of the int32 range");
        byte[] compressed = ArrayBytes.gzip(data);
        Path cut = Files.write(dir.resolve("g.nrrd"), ArrayBytes.nrrd(ok.replace("raw", "gzip"),
                java.util.Arrays.copyOf(compressed, compressed.length - 12)));
        assertTrue(refusedPlain(cut, GridReadOptions.defaults()).getMessage()
                .startsWith(cut + ": the gzip-compressed data is truncated"));
    }

    @Test
    void niftiRefusalsNameTheirByteOffset() throws IOException {
        byte[] data = ArrayBytes.elements("i4", ByteOrder.LITTLE_ENDIAN, SIX);
        short[] dim = {2, 3, 2, 1, 1, 1, 1, 1};
        refused("f8.nii", ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN, dim, (short) 64, (short) 64, 352, data), 70,
                "datatype 64 (float64) is not supported: expected uint8 (2), int8 (256), uint16 (512), int16 (4),"
                + " uint32 (768), int32 (8) or float32 (16)");
        refused("rank.nii", ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN, new short[] {5, 3, 2, 1, 1, 1, 1, 1},
                (short) 8, (short) 32, 352, data), 40, "dim[0] 5 is not supported: expected 2 or 3 (or 4 with dim[4] 1)");
        refused("time.nii", ArrayBytes.nifti(ByteOrder.BIG_ENDIAN, new short[] {4, 3, 1, 1, 2, 1, 1, 1},
                (short) 8, (short) 32, 352, data), 48, "dim[4] 2 is not supported");
        refused("bits.nii", ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN, dim, (short) 8, (short) 16, 352, data), 72,
                "bitpix 16 does not match datatype 8 (int32, 32 bits)");
        refused("vox.nii", ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN, dim, (short) 8, (short) 32, 100, data), 108,
                "vox_offset 100.0 is not a whole number of bytes from 352 on");
        refused("u4.nii", ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN, dim, (short) 768, (short) 32, 352,
                ArrayBytes.elements("u4", ByteOrder.LITTLE_ENDIAN, new double[] {0, 4294967295L, 0, 0, 0, 0})),
                356, "uint32 value 4294967295");
        byte[] pair = ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN, dim, (short) 8, (short) 32, 352, data);
        pair[345] = 'i';
        // a .hdr/.img pair header is not a single file: the NIfTI reader says so when the name asks for it
        refused("pair.nii", pair, 344, "magic 'ni1\\0' is not 'n+1\\0': a header of a .hdr/.img pair");
        byte[] whole = ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN, dim, (short) 8, (short) 32, 352, data);
        refused("short.nii", java.util.Arrays.copyOf(whole, whole.length - 1), whole.length - 1, "it is truncated");
        refused("tiny.nii", java.util.Arrays.copyOf(whole, 300), 300, "the file ends inside the 348-byte NIfTI-1"
                + " header");
    }

    @Test
    void tiffPagesAreSlicesAndOtherSamplesAreRefused() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            // two 16-bit pages written by the JDK's plugin: a 3x2x2 volume of uint16 cells
            Path stack = dir.resolve("stack.tif");
            writeTiff(stack, List.of(ushort(new short[] {0, 1, 2, 3, 4, (short) 65535}),
                    ushort(new short[] {6, 7, 8, 9, 10, 11})));
            Grid g = GridReader.read(stack, arena);
            assertEquals(new GridDims(3, 2, 2), GridDims.of(g));
            assertEquals(Grid.CellType.U16, g.type());
            assertArrayEquals(new int[] {0, 1, 2, 3, 4, 65535, 6, 7, 8, 9, 10, 11}, MeshTestSupport.values(g));

            Path rgb = dir.resolve("rgb.tif");
            writeTiff(rgb, List.of(new BufferedImage(3, 2, BufferedImage.TYPE_INT_RGB)));
            assertTrue(refusedPlain(rgb, GridReadOptions.defaults()).getMessage()
                    .endsWith("page 0 has 3 samples per pixel: only one (greyscale, labels) is read"));

            Path floats = dir.resolve("f.tiff");
            writeTiff(floats, List.of(floats(new float[] {-1.5f, 0.5f, 2f, Float.NaN, 3f, 0f})));
            assertFloats(GridReader.read(floats, arena), -1.5f, 0.5f, 2f, Float.NaN, 3f, 0f);
            Grid cut = GridReader.read(floats, GridReadOptions.defaults().withThreshold(1), arena);
            assertArrayEquals(new int[] {0, 0, 1, 0, 1, 0}, MeshTestSupport.values(cut));
        }
    }

    @Test
    void magicBytesDecideOverNamesThatSayNothing() throws IOException {
        byte[] npy = ArrayBytes.npy(2, "|u1", false, new int[] {2, 3}, SIX);
        byte[] nii = ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN, new short[] {2, 3, 2, 1, 1, 1, 1, 1}, (short) 2,
                (short) 8, 352, ArrayBytes.elements("u1", ByteOrder.LITTLE_ENDIAN, SIX));
        byte[] nrrd = ArrayBytes.nrrd("type: uchar\ndimension: 2\nsizes: 3 2\nencoding: raw\n",
                ArrayBytes.elements("u1", ByteOrder.LITTLE_ENDIAN, SIX));
        try (Arena arena = Arena.ofConfined()) {
            for (Object[] c : new Object[][] {{"a.dat", npy, GridFormat.NPY}, {"b", nii, GridFormat.NIFTI},
                    {"c.img", nrrd, GridFormat.NRRD}, {"d.data.gz", ArrayBytes.gzip(nii), GridFormat.NIFTI}}) {
                Path file = Files.write(dir.resolve((String) c[0]), (byte[]) c[1]);
                assertEquals(c[2], GridFormat.detect(file), file.toString());
                assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, MeshTestSupport.values(GridReader.read(file, arena)));
            }
        }
        // without magic bytes, the extension names the reader, which says what is wrong
        for (String name : new String[] {"e.npy", "e.nrrd", "e.nhdr", "e.nii", "e.nii.gz", "e.tif", "e.tiff"}) {
            Path file = Files.write(dir.resolve(name), name.endsWith(".gz") ? ArrayBytes.gzip(new byte[] {1, 2})
                    : new byte[] {1, 2});
            GridFormat expected = GridFormat.fromName(name.contains("nrrd") || name.contains("nhdr") ? "nrrd"
                    : name.contains("nii") ? "nifti" : name.contains("tif") ? "tiff" : "npy");
            assertEquals(expected, GridFormat.detect(file), name);
            ImageFormatException e = refusedPlain(file, GridReadOptions.defaults());
            assertTrue(e.getMessage().startsWith(file.toString()), e::getMessage);
        }
    }

    @Test
    void cellsThatLieAsAGridsAreMapped() throws IOException {
        double[] values = {7, -1, 300000, 4, 5, 6, 7, 8};
        int[] expected = {7, -1, 300000, 4, 5, 6, 7, 8};
        byte[] le = ArrayBytes.elements("i4", ByteOrder.LITTLE_ENDIAN, values);
        Path npy = Files.write(dir.resolve("m.npy"), ArrayBytes.npy(1, "<i4", false, new int[] {2, 2, 2}, values));
        Path nii = Files.write(dir.resolve("m.nii"), ArrayBytes.nifti(ByteOrder.LITTLE_ENDIAN,
                new short[] {3, 2, 2, 2, 1, 1, 1, 1}, (short) 8, (short) 32, 352, le));
        String nrrdHeader = "type: int\ndimension: 3\nsizes: 2 2 2\nencoding: raw\nendian: little\n";
        // int32 cells are mapped where they are aligned: here after a header of 80 bytes
        Path nrrd = Files.write(dir.resolve("m.nrrd"), ArrayBytes.nrrd(nrrdHeader + "####\n", le));
        Path unaligned = Files.write(dir.resolve("u.nrrd"), ArrayBytes.nrrd(nrrdHeader, le));
        Path fortran = Files.write(dir.resolve("f.npy"), ArrayBytes.npy(1, "<i4", true, new int[] {2, 2, 2}, values));
        Path big = Files.write(dir.resolve("b.npy"), ArrayBytes.npy(1, ">i4", false, new int[] {2, 2, 2}, values));
        Path gz = Files.write(dir.resolve("g.nii.gz"), ArrayBytes.gzip(Files.readAllBytes(nii)));
        GridReadOptions options = GridReadOptions.defaults();
        try (Arena arena = Arena.ofConfined()) {
            for (Path file : new Path[] {npy, nii, nrrd}) {
                assertTrue(GridReader.canMap(file, options), file.toString());
                assertFalse(GridReader.canMap(file, options.withThreshold(1)), file.toString());
                Grid g = GridReader.map(file, options, arena);
                assertTrue(g.cells().isReadOnly());
                assertArrayEquals(expected, MeshTestSupport.values(g), file.toString());
            }
            for (Path file : new Path[] {fortran, big, gz, unaligned}) {
                assertFalse(GridReader.canMap(file, options), file.toString());
                assertArrayEquals(expected, MeshTestSupport.values(GridReader.read(file, arena)), file.toString());
            }
            assertThrows(IllegalArgumentException.class, () -> GridReader.map(fortran, options, arena));
        }
    }

    /** float32 arrays are float grids, NaN and -0.0 as stored, in either byte order, read or mapped (aligned). */
    @Test
    void floatArraysAreFloatGrids() throws IOException {
        float[] stored = {-1.5f, 0.5f, -0.0f, Float.NaN, 3e38f, Float.NEGATIVE_INFINITY};
        double[] values = new double[stored.length];
        for (int i = 0; i < stored.length; i++) {
            values[i] = stored[i];
        }
        short[] dim = {2, 3, 2, 1, 1, 1, 1, 1};
        try (Arena arena = Arena.ofConfined()) {
            for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
                byte[] data = ArrayBytes.elements("f4", order, values);
                String endian = order == ByteOrder.BIG_ENDIAN ? "big" : "little";
                List<Path> files = List.of(
                        Files.write(dir.resolve(endian + ".npy"), ArrayBytes.npy(1, (order == ByteOrder.BIG_ENDIAN
                                ? ">" : "<") + "f4", false, new int[] {2, 3}, values)),
                        Files.write(dir.resolve(endian + ".nrrd"), ArrayBytes.nrrd("type: float\ndimension: 2\n"
                                + "sizes: 3 2\nencoding: raw\nendian: " + endian + "\n", data)),
                        Files.write(dir.resolve(endian + ".nii"), ArrayBytes.nifti(order, dim, (short) 16, (short) 32,
                                352, data)));
                for (Path file : files) {
                    assertFloats(GridReader.read(file, arena), stored);
                    if (order == ByteOrder.nativeOrder() && !file.toString().endsWith(".nrrd")) {  // (header unaligned)
                        assertFloats(GridReader.map(file, GridReadOptions.defaults(), arena), stored);
                    }
                    Grid cut = GridReader.read(file, GridReadOptions.defaults().withThreshold(0), arena);
                    assertArrayEquals(new int[] {0, 1, 1, 0, 1, 0}, MeshTestSupport.values(cut), file.toString());
                }
            }
        }
    }

    /** uint16 and float32 grids, dense and as regions, written in every array format and raw and read back as they were. */
    @Test
    void sixteenBitAndFloatGridsRoundTrip() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid shorts = Grid.allocate(arena, Grid.CellType.U16, 5, 4, 3);
            Grid floats = Grid.allocate(arena, Grid.CellType.F32, 5, 4, 3);
            for (int i = 0; i < shorts.cellCount(); i++) {
                shorts.set(i, (i * 7919) % 65536);
                floats.setValue(i, i % 7 == 3 ? Float.NaN : (i - 20) * 0.3125);
            }
            for (Grid g : List.of(shorts, floats, shorts.region(1, 1, 1, 3, 2, 2), floats.region(1, 1, 1, 3, 2, 2))) {
                for (String name : List.of("g.npy", "g.nrrd", "g.nii", "g.nii.gz", "g.tif", "g.raw")) {
                    Path file = dir.resolve(name);
                    GridWriter.write(g, file);
                    GridReadOptions options = name.endsWith(".raw") ? GridReadOptions.defaults()
                            .withDims(GridDims.of(g)).withRawType(g.type()) : GridReadOptions.defaults();
                    Grid back = GridReader.read(file, options, arena);
                    assertEquals(g.type(), back.type(), name);
                    assertEquals(GridDims.of(g), GridDims.of(back), name);
                    for (int i = 0; i < g.cellCount(); i++) {
                        assertEquals(Double.doubleToRawLongBits(g.value(i)), Double.doubleToRawLongBits(back.value(i)),
                                name + " " + g.type() + " cell " + i);
                    }
                }
            }
            assertThrows(IllegalArgumentException.class, () -> GridWriter.write(floats, dir.resolve("f.png")));
        }
    }

    private static void assertFloats(Grid g, float... expected) {
        assertEquals(Grid.CellType.F32, g.type());
        assertEquals(expected.length, g.cellCount());
        for (int i = 0; i < expected.length; i++) {
            assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits((float) g.value(i)), "cell " + i);
        }
    }

    @Test
    void writersRefuseWhatTheirFormatCannotHold() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = Grid.allocate(arena, Grid.CellType.U8, 2, 2, 1);
            assertThrows(IllegalArgumentException.class, () -> GridWriter.write(g, dir.resolve("g.nhdr")));
            var labels = arena.allocate(4 * Long.BYTES, Long.BYTES);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LabelImageWriter.write(labels, Long.BYTES, 2, 2, 1, dir.resolve("l.tif")));
            assertTrue(e.getMessage().contains("int64 labels are written as .npy, .nrrd, .nii or raw"), e::getMessage);
            Grid wide = Grid.allocate(arena, Grid.CellType.U8, 40000, 1, 1);
            assertThrows(IllegalArgumentException.class, () -> GridWriter.write(wide, dir.resolve("w.nii")));
        }
    }

    private void refused(String name, byte[] bytes, long offset, String reason) throws IOException {
        Path file = Files.write(dir.resolve(name), bytes);
        ImageFormatException e = refusedPlain(file, GridReadOptions.defaults());
        assertEquals(offset, e.byteOffset(), e::getMessage);
        assertEquals(-1, e.line(), e::getMessage);
        assertTrue(e.getMessage().startsWith(e.file() + ": at byte " + offset + ": "), e::getMessage);
        assertTrue(e.getMessage().contains(reason), e::getMessage);
    }

    private void refusedAtLine(String name, byte[] bytes, long line, String reason) throws IOException {
        Path file = Files.write(dir.resolve(name), bytes);
        ImageFormatException e = refusedPlain(file, GridReadOptions.defaults());
        assertEquals(line, e.line(), e::getMessage);
        assertTrue(e.getMessage().startsWith(file + ":" + line + ": " + reason), e::getMessage);
    }

    private static ImageFormatException refusedPlain(Path file, GridReadOptions options) {
        return assertThrows(ImageFormatException.class, () -> {
            try (Arena arena = Arena.ofConfined()) {
                GridReader.read(file, options, arena);
            }
        });
    }

    private static BufferedImage ushort(short[] samples) {
        return grey(new DataBufferUShort(samples, samples.length), DataBuffer.TYPE_USHORT, 16);
    }

    private static BufferedImage floats(float[] samples) {
        return grey(new DataBufferFloat(samples, samples.length), DataBuffer.TYPE_FLOAT, 32);
    }

    private static BufferedImage grey(DataBuffer buffer, int type, int bits) {
        ComponentColorModel model = new ComponentColorModel(ColorSpace.getInstance(ColorSpace.CS_GRAY),
                new int[] {bits}, false, false, Transparency.OPAQUE, type);
        return new BufferedImage(model, Raster.createWritableRaster(new PixelInterleavedSampleModel(type, 3, 2, 1, 3,
                new int[] {0}), buffer, new Point(0, 0)), false, null);
    }

    private static void writeTiff(Path file, List<BufferedImage> pages) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("tiff").next();
        try (ImageOutputStream out = ImageIO.createImageOutputStream(file.toFile())) {
            writer.setOutput(out);
            writer.prepareWriteSequence(null);
            for (BufferedImage page : pages) {
                writer.writeToSequence(new IIOImage(page, null, null), null);
            }
            writer.endWriteSequence();
        } finally {
            writer.dispose();
        }
    }
}
