package org.ccl4j.io.grid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.testing.MeshTestSupport;

/**
 * Grids and labels written as NumPy, NRRD, NIfTI and TIFF read back to the same values; files of
 * every element type, byte order and layout read as the values they hold.
 */
class ArrayRoundTripProperties {
    private static final String[] NAMES = {"g.npy", "g.nrrd", "g.nii", "g.nii.gz", "g.tif", "g.npy.gz"};

    @Property(tries = 40)
    void gridsComeBackFromEveryFormat(@ForAll @IntRange(min = 1, max = 30) int width,
            @ForAll @IntRange(min = 1, max = 20) int height, @ForAll @IntRange(min = 1, max = 4) int depth,
            @ForAll boolean wide, @ForAll long seed) throws IOException {
        Path dir = Files.createTempDirectory("array-round-trip");
        try (Arena arena = Arena.ofConfined()) {
            SplittableRandom random = new SplittableRandom(seed);
            Grid g = Grid.allocate(arena, wide ? Grid.CellType.I32 : Grid.CellType.U8, width, height, depth);
            for (int i = 0; i < g.cellCount(); i++) {
                g.set(i, wide ? random.nextInt() : random.nextInt(256));
            }
            int[] expected = MeshTestSupport.values(g);
            for (String name : NAMES) {
                Path file = dir.resolve(name);
                GridWriter.write(g, file);
                Grid back = GridReader.read(file, arena);
                assertEquals(g.type(), back.type(), name);
                assertEquals(GridDims.of(g), GridDims.of(back), name);
                assertArrayEquals(expected, MeshTestSupport.values(back), name);
            }
            // a view (not dense) is written cell by cell
            if (width > 2) {
                Grid view = g.region(1, 0, 0, width - 2, height, depth);
                for (String name : NAMES) {
                    Path file = dir.resolve("view-" + name);
                    GridWriter.write(view, file);
                    assertArrayEquals(MeshTestSupport.values(view),
                            MeshTestSupport.values(GridReader.read(file, arena)), name);
                }
            }
        } finally {
            GridTestFiles.deleteTree(dir);
        }
    }

    @Property(tries = 30)
    void labelsComeBackFromEveryFormat(@ForAll @IntRange(min = 1, max = 30) int width,
            @ForAll @IntRange(min = 1, max = 20) int height, @ForAll @IntRange(min = 1, max = 4) int depth,
            @ForAll boolean int64, @ForAll long seed) throws IOException {
        Path dir = Files.createTempDirectory("label-round-trip");
        try (Arena arena = Arena.ofConfined()) {
            SplittableRandom random = new SplittableRandom(seed);
            int cells = width * height * depth;
            int bytes = int64 ? Long.BYTES : Integer.BYTES;
            MemorySegment labels = arena.allocate((long) cells * bytes, bytes);
            long[] expected = new long[cells];
            for (int i = 0; i < cells; i++) {
                expected[i] = random.nextInt(4) == 0 ? -1 : int64 ? random.nextLong(1L << 40) : random.nextInt(cells);
                if (int64) {
                    labels.setAtIndex(ValueLayout.JAVA_LONG, i, expected[i]);
                } else {
                    labels.setAtIndex(ValueLayout.JAVA_INT, i, (int) expected[i]);
                }
            }
            for (String name : NAMES) {
                Path file = dir.resolve(name);
                if (int64 && name.endsWith(".tif")) {
                    continue;
                }
                LabelImageWriter.write(labels, bytes, width, height, depth, file);
                byte[] content = Files.readAllBytes(file);
                if (name.endsWith(".gz")) {
                    try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(file))) {
                        content = in.readAllBytes();
                    }
                }
                if (!int64) {
                    Grid back = GridReader.read(file, arena);
                    assertEquals(new GridDims(width, height, depth), GridDims.of(back), name);
                    assertArrayEquals(java.util.Arrays.stream(expected).mapToInt(v -> (int) v).toArray(),
                            MeshTestSupport.values(back), name);
                }
                if (!name.endsWith(".tif")) {
                    // the labels are the file's last bytes, little-endian, after a header aligned for mapping
                    int start = content.length - cells * bytes;
                    assertEquals(0, start % 8, name);
                    ByteBuffer data = ByteBuffer.wrap(content, start, cells * bytes).order(ByteOrder.LITTLE_ENDIAN);
                    for (int i = 0; i < cells; i++) {
                        assertEquals(expected[i], int64 ? data.getLong() : data.getInt(), name);
                    }
                    byte[] header = LabelImageWriter.headerBeforeLabels(Path.of(name.replace(".gz", "")), width,
                            height, depth, bytes);
                    assertEquals(start, header.length, name);
                }
            }
        } finally {
            GridTestFiles.deleteTree(dir);
        }
    }

    /** Every integer element type, both byte orders, both NumPy layouts, 2D and 3D: the values, int8, int16 and uint32 widened. */
    @Property(tries = 80)
    void everyElementTypeReadsAsItsValues(@ForAll @IntRange(min = 0, max = 5) int kind,
            @ForAll boolean bigEndian, @ForAll boolean fortran, @ForAll boolean threeD,
            @ForAll @IntRange(min = 1, max = 9) int width, @ForAll @IntRange(min = 1, max = 7) int height,
            @ForAll @IntRange(min = 1, max = 5) int depthIn, @ForAll long seed) throws IOException {
        String[] kinds = {"u1", "i1", "u2", "i2", "i4", "u4"};
        long[] lows = {0, -128, 0, -32768, Integer.MIN_VALUE, 0};
        long[] highs = {255, 127, 65535, 32767, Integer.MAX_VALUE, Integer.MAX_VALUE};
        String k = kinds[kind];
        int depth = threeD ? depthIn : 1;
        SplittableRandom random = new SplittableRandom(seed);
        double[] values = new double[width * height * depth];
        int[] expected = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            long v = random.nextLong(lows[kind], highs[kind] + 1);
            values[i] = v;
            expected[i] = (int) v;
        }
        ByteOrder order = bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        String descr = (k.endsWith("1") ? "|" : bigEndian ? ">" : "<") + k;
        int[] shape = threeD ? new int[] {depth, height, width} : new int[] {height, width};
        Grid.CellType type = switch (k) {
            case "u1" -> Grid.CellType.U8;
            case "u2" -> Grid.CellType.U16;
            default -> Grid.CellType.I32;
        };
        Path dir = Files.createTempDirectory("array-types");
        try (Arena arena = Arena.ofConfined()) {
            Path npy = Files.write(dir.resolve("a.npy"), ArrayBytes.npy(1 + random.nextInt(3), descr, fortran,
                    shape, values));
            String nrrdType = switch (k) {
                case "u1" -> "uchar";
                case "i1" -> "signed char";
                case "u2" -> "ushort";
                case "i2" -> "short";
                case "u4" -> "uint";
                default -> "int";
            };
            String sizes = width + " " + height + (threeD ? " " + depth : "");
            byte[] data = ArrayBytes.elements(k, order, values);
            Path nrrd = Files.write(dir.resolve("a.nrrd"), ArrayBytes.nrrd("type: " + nrrdType + "\ndimension: "
                    + (threeD ? 3 : 2) + "\nsizes: " + sizes + "\nencoding: raw\nendian: " + (bigEndian ? "big" : "little")
                    + "\n", data));
            Path nrrdGz = Files.write(dir.resolve("z.nrrd"), ArrayBytes.nrrd("type: " + nrrdType + "\ndimension: "
                    + (threeD ? 3 : 2) + "\nsizes: " + sizes + "\nencoding: gzip\nendian: " + (bigEndian ? "big" : "little")
                    + "\n", ArrayBytes.gzip(data)));
            Path nhdr = Files.writeString(dir.resolve("d.nhdr"), "NRRD0005\ntype: " + nrrdType + "\ndimension: "
                    + (threeD ? 3 : 2) + "\nsizes: " + sizes + "\nencoding: raw\nendian: " + (bigEndian ? "big" : "little")
                    + "\nbyte skip: 3\ndata file: d.raw\n");
            Files.write(dir.resolve("d.raw"), ArrayBytes.concat(new byte[3], data));
            short datatype = switch (k) {
                case "u1" -> 2;
                case "i1" -> 256;
                case "u2" -> 512;
                case "i2" -> 4;
                case "u4" -> 768;
                default -> 8;
            };
            short[] dim = {(short) (threeD ? 3 : 2), (short) width, (short) height, (short) depth, 1, 1, 1, 1};
            Path nii = Files.write(dir.resolve("a.nii"), ArrayBytes.nifti(order, dim, datatype,
                    (short) (8 * Integer.parseInt(k.substring(1))), 352, data));
            Path niiGz = Files.write(dir.resolve("a.nii.gz"), ArrayBytes.gzip(Files.readAllBytes(nii)));
            for (Path file : new Path[] {npy, nrrd, nrrdGz, nhdr, nii, niiGz}) {
                Grid g = GridReader.read(file, arena);
                assertEquals(type, g.type(), file.toString());
                assertEquals(new GridDims(width, height, depth), GridDims.of(g), file.toString());
                assertArrayEquals(expected, MeshTestSupport.values(g), file.toString());
                int t = expected[random.nextInt(expected.length)];
                Grid cut = GridReader.read(file, GridReadOptions.defaults().withThreshold(t), arena);
                assertEquals(Grid.CellType.U8, cut.type());
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(expected[i] >= t ? 1 : 0, cut.get(i), file.toString());
                }
            }
        } finally {
            GridTestFiles.deleteTree(dir);
        }
    }

    @Property(tries = 30)
    void floatsAreReadThroughTheirThreshold(@ForAll boolean bigEndian, @ForAll boolean fortran,
            @ForAll @IntRange(min = -3, max = 3) int threshold, @ForAll long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        int width = 1 + random.nextInt(8);
        int height = 1 + random.nextInt(8);
        int depth = 1 + random.nextInt(3);
        double[] values = new double[width * height * depth];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextInt(10) == 0 ? Float.NaN : (float) (random.nextDouble() * 8 - 4);
        }
        ByteOrder order = bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        Path dir = Files.createTempDirectory("array-floats");
        try (Arena arena = Arena.ofConfined()) {
            Path npy = Files.write(dir.resolve("f.npy"), ArrayBytes.npy(1, (bigEndian ? ">" : "<") + "f4", fortran,
                    new int[] {depth, height, width}, values));
            Path nrrd = Files.write(dir.resolve("f.nrrd"), ArrayBytes.nrrd("type: float\ndimension: 3\nsizes: " + width
                    + " " + height + " " + depth + "\nencoding: raw\nendian: " + (bigEndian ? "big" : "little") + "\n",
                    ArrayBytes.elements("f4", order, values)));
            Path nii = Files.write(dir.resolve("f.nii"), ArrayBytes.nifti(order, new short[] {3, (short) width,
                    (short) height, (short) depth, 1, 1, 1, 1}, (short) 16, (short) 32, 352,
                    ArrayBytes.elements("f4", order, values)));
            for (Path file : new Path[] {npy, nrrd, nii}) {
                Grid g = GridReader.read(file, GridReadOptions.defaults().withThreshold(threshold), arena);
                assertEquals(Grid.CellType.U8, g.type());
                for (int i = 0; i < values.length; i++) {
                    assertEquals(values[i] >= threshold ? 1 : 0, g.get(i), file + " cell " + i);
                }
            }
        } finally {
            GridTestFiles.deleteTree(dir);
        }
    }
}
