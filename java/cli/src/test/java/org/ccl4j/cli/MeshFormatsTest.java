package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;

import org.ccl4j.Grid;
import org.ccl4j.io.grid.GridReader;
import org.ccl4j.io.grid.GridWriter;
import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ccl4j mesh} on NumPy, NRRD, NIfTI and TIFF files: a volume read from .npy, its labels
 * written in every format (.nii.gz and .tif among them), the grid saved in every format.
 */
class MeshFormatsTest {
    @TempDir
    Path dir;

    /** A 3D field of 0/1 cells, about half set. */
    private Path volume(String name, Grid.CellType type) throws IOException {
        SplittableRandom random = new SplittableRandom(7);
        try (Arena arena = Arena.ofConfined()) {
            Grid g = Grid.allocate(arena, type, 17, 11, 5);
            for (long i = 0; i < g.cellCount(); i++) {
                g.set(i, random.nextInt(2));
            }
            Path file = dir.resolve(name);
            GridWriter.write(g, file);
            return file;
        }
    }

    @Test
    void anNpyVolumesLabelsAreWrittenInEveryFormat() throws IOException {
        Path npy = volume("v.npy", Grid.CellType.U8);
        Path raw = dir.resolve("labels.raw");
        Result r = run("mesh", npy.toString(), "--connectivity", "26", "--out", raw.toString(), "--json");
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().contains("\"width\":17,\"height\":11,\"depth\":5"), r.out());
        int[] expected = ints(Files.readAllBytes(raw), 0);
        for (String name : new String[] {"labels.nii.gz", "labels.tif", "labels.npy", "labels.nrrd", "labels.nii",
                "labels.tiff"}) {
            Path out = dir.resolve(name);
            Result written = run("mesh", npy.toString(), "--connectivity", "26", "--out", out.toString(), "--json");
            assertEquals(Main.OK, written.code(), written.err());
            assertEquals(clusters(r.out()), clusters(written.out()), name);
            try (Arena arena = Arena.ofConfined()) {
                Grid labels = GridReader.read(out, arena);
                assertEquals(Grid.CellType.I32, labels.type(), name);
                int[] back = new int[(int) labels.cellCount()];
                for (int i = 0; i < back.length; i++) {
                    back[i] = labels.get(i);
                }
                assertArrayEquals(expected, back, name);
            }
        }
        // renumbered and compacted labels take the same ways
        Path raster = dir.resolve("raster.nii");
        assertEquals(Main.OK, run("mesh", npy.toString(), "--numbering", "raster", "--out", raster.toString()).code());
        Path rasterRaw = dir.resolve("raster.raw");
        assertEquals(Main.OK, run("mesh", npy.toString(), "--numbering", "raster", "--out", rasterRaw.toString()).code());
        assertArrayEquals(ints(Files.readAllBytes(rasterRaw), 0), ints(Files.readAllBytes(raster), 352));
        Path compact = dir.resolve("compact.npy");
        Result c = run("mesh", npy.toString(), "--compact", "--out", compact.toString());
        assertEquals(Main.OK, c.code(), c.err());
        Path compactRaw = dir.resolve("compact.raw");
        assertEquals(Main.OK, run("mesh", npy.toString(), "--compact", "--out", compactRaw.toString()).code());
        assertArrayEquals(ints(Files.readAllBytes(compactRaw), 0), ints(Files.readAllBytes(compact), 128));
    }

    /** The spatial fields of a NIfTI-1 header: pixdim, xyzt_units, qform/sform codes, quaternion, srow. */
    private static byte[] spatialFields(byte[] header) {
        ByteBuffer b = ByteBuffer.allocate(32 + 1 + 76);
        b.put(header, 76, 32).put(header[123]).put(header, 252, 76);
        return b.array();
    }

    @Test
    void labelsOfANiftiOrNrrdVolumeKeepItsVoxelSizesAndOrientation() throws IOException {
        Path nii = volume("v.nii", Grid.CellType.U8);
        byte[] input = Files.readAllBytes(nii);
        ByteBuffer b = ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN);
        float[] pixdim = {1f, 0.75f, 0.5f, 2.5f, 1f, 1f, 1f, 1f};
        for (int i = 0; i < 8; i++) {
            b.putFloat(76 + 4 * i, pixdim[i]);
        }
        b.put(123, (byte) 2).putShort(252, (short) 1).putShort(254, (short) 1);
        for (int i = 0; i < 18; i++) {
            b.putFloat(256 + 4 * i, i * 1.5f - 7f);  // the quaternion, its offsets and the rows of the affine
        }
        Files.write(nii, input);
        for (String[] c : new String[][] {{"mapped.nii"}, {"compact.nii", "--compact"}, {"gzip.nii.gz"},
                {"wide.nii", "--int64-labels"}}) {
            Path out = dir.resolve(c[0]);
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("mesh", nii.toString(), "--out",
                    out.toString()));
            args.addAll(java.util.List.of(c).subList(1, c.length));
            Result r = run(args.toArray(String[]::new));
            assertEquals(Main.OK, r.code(), r.err());
            byte[] written = c[0].endsWith(".gz") ? gunzip(Files.readAllBytes(out)) : Files.readAllBytes(out);
            assertArrayEquals(spatialFields(input), spatialFields(written), c[0]);
        }
        // a region lies elsewhere: its labels are written without the input's placement
        Path region = dir.resolve("region.nii");
        assertEquals(Main.OK, run("mesh", nii.toString(), "--region", "1,1,1:4x4x2", "--out", region.toString()).code());
        assertEquals(0, ByteBuffer.wrap(Files.readAllBytes(region)).order(ByteOrder.LITTLE_ENDIAN).getShort(254));

        // the contact area is measured in the file's voxel sizes unless --spacing says otherwise
        Path csv = dir.resolve("contacts.csv");
        Result r = run("mesh", nii.toString(), "--mode", "same-value", "--contacts", csv.toString());
        assertEquals(Main.OK, r.code(), r.err());
        java.util.List<String> rows = Files.readAllLines(csv);
        assertTrue(rows.size() > 2, rows.toString());
        for (String row : rows.subList(1, rows.size())) {
            String[] v = row.split(",");
            double area = Long.parseLong(v[3]) * 0.5 * 2.5 + Long.parseLong(v[4]) * 0.75 * 2.5
                    + Long.parseLong(v[5]) * 0.75 * 0.5;
            assertEquals(area, Double.parseDouble(v[6]), 1e-12, row);
        }

        Path nrrd = volume("v.nrrd", Grid.CellType.U8);
        String text = new String(Files.readAllBytes(nrrd), StandardCharsets.ISO_8859_1)
                .replace("encoding: raw\n", "spacings: 0.5 2 3\nencoding: raw\n");
        Files.write(nrrd, text.getBytes(StandardCharsets.ISO_8859_1));
        Path labels = dir.resolve("labels.nrrd");
        assertEquals(Main.OK, run("mesh", nrrd.toString(), "--out", labels.toString()).code());
        assertTrue(new String(Files.readAllBytes(labels), StandardCharsets.ISO_8859_1).contains("\nspacings: 0.5 2 3\n"));
    }

    @Test
    void int64LabelsGoToEveryFormatButTiff() throws IOException {
        Path npy = volume("v.npy", Grid.CellType.U8);
        Path raw = dir.resolve("wide.raw");
        assertEquals(Main.OK, run("mesh", npy.toString(), "--int64-labels", "--out", raw.toString()).code());
        byte[] expected = Files.readAllBytes(raw);
        Path out = dir.resolve("wide.nii.gz");
        Result r = run("mesh", npy.toString(), "--int64-labels", "--out", out.toString());
        assertEquals(Main.OK, r.code(), r.err());
        byte[] nii;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(out))) {
            nii = in.readAllBytes();
        }
        assertEquals(1024, ByteBuffer.wrap(nii).order(ByteOrder.LITTLE_ENDIAN).getShort(70));
        assertArrayEquals(expected, java.util.Arrays.copyOfRange(nii, 352, nii.length));
        Path npyOut = dir.resolve("wide.npy");
        assertEquals(Main.OK, run("mesh", npy.toString(), "--int64-labels", "--out", npyOut.toString()).code());
        byte[] written = Files.readAllBytes(npyOut);
        assertTrue(new String(written, 0, 128, StandardCharsets.ISO_8859_1).contains("'descr': '<i8'"));
        assertArrayEquals(expected, java.util.Arrays.copyOfRange(written, 128, written.length));
        Result tiff = run("mesh", npy.toString(), "--int64-labels", "--out", dir.resolve("wide.tif").toString());
        assertEquals(Main.USAGE, tiff.code(), tiff.err());
        assertTrue(tiff.err().contains("TIFF holds labels of up to 32 bits"), tiff.err());
    }

    @Test
    void theGridIsSavedInEveryFormatAndReadBackTheSame() throws IOException {
        Path npy = volume("v.npy", Grid.CellType.I32);
        Result first = run("mesh", npy.toString(), "--mode", "same-value", "--json");
        assertEquals(Main.OK, first.code(), first.err());
        for (String name : new String[] {"s.tif", "s.nrrd", "s.nii", "s.nii.gz", "s.npy"}) {
            Path saved = dir.resolve(name);
            assertEquals(Main.OK, run("mesh", npy.toString(), "--save", saved.toString()).code(), name);
            Result again = run("mesh", saved.toString(), "--mode", "same-value", "--json");
            assertEquals(Main.OK, again.code(), again.err());
            assertEquals(clusters(first.out()), clusters(again.out()), name);
            assertTrue(again.out().contains("\"width\":17,\"height\":11,\"depth\":5"), again.out());
        }
    }

    @Test
    void floatArraysAreLabelledAsTheyAreOrThroughAThreshold() throws IOException {
        // a float32 volume: 0.25 or 0.75 by the same pattern as a uint8 volume of 0 and 1
        Path u8 = volume("v.npy", Grid.CellType.U8);
        byte[] cells = Files.readAllBytes(u8);
        int start = 128;
        ByteBuffer floats = ByteBuffer.allocate((cells.length - start) * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = start; i < cells.length; i++) {
            floats.putFloat(cells[i] == 1 ? 0.75f : 0.25f);
        }
        byte[] header = new String(cells, 0, start, StandardCharsets.ISO_8859_1).replace("|u1", "<f4")
                .getBytes(StandardCharsets.ISO_8859_1);
        Path f4 = dir.resolve("f.npy");
        Files.write(f4, header);
        Files.write(f4, floats.array(), java.nio.file.StandardOpenOption.APPEND);
        // as they are: 0.75 and 0.25 cells are both foreground, each value its own clusters in same-value mode
        Result u8Clusters = run("mesh", u8.toString(), "--mode", "same-value", "--json");
        assertEquals(1, clustersOf(new String[] {f4.toString()}));
        assertEquals(clusters(u8Clusters.out()), clustersOf(new String[] {f4.toString()}, "--mode", "same-value"));
        // --threshold compares with an integer: 1 labels no cell, 0 every cell
        Result all = run("mesh", f4.toString(), "--threshold", "0", "--json");
        assertEquals(Main.OK, all.code(), all.err());
        assertEquals(1, clusters(all.out()));
        Result none = run("mesh", f4.toString(), "--threshold", "1", "--json");
        assertEquals(0, clusters(none.out()));
    }

    /** Float cells as they are, from NumPy and raw: foreground, same value, and same value within --delta. */
    @Test
    void floatFieldsAreLabelledAsTheyAreAndWithATolerance() throws IOException {
        float[] row = {0f, 0.3f, 0.6f, 5f, 5.2f};
        Path raw = dir.resolve("f.raw");
        ByteBuffer bytes = ByteBuffer.allocate(4 * row.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : row) {
            bytes.putFloat(v);
        }
        Files.write(raw, bytes.array());
        Path npy = dir.resolve("f.npy");
        try (Arena arena = Arena.ofConfined()) {
            Grid g = Grid.allocate(arena, Grid.CellType.F32, row.length, 1, 1);
            for (int i = 0; i < row.length; i++) {
                g.setValue(i, row[i]);
            }
            GridWriter.write(g, npy);
        }
        for (String[] input : new String[][] {{npy.toString()}, {raw.toString(), "--dims", "5x1", "--type", "f32"}}) {
            // 0 | 0.3 0.6 5 5.2: non-zero cells connect
            assertEquals(1, clustersOf(input));
            // every value apart
            assertEquals(5, clustersOf(input, "--mode", "same-value"));
            // 0 ~ 0.3 ~ 0.6 (each step 0.3 <= 0.35, though 0 and 0.6 are 0.6 apart), 5 ~ 5.2
            assertEquals(2, clustersOf(input, "--delta", "0.35"));
            assertEquals(1, clustersOf(input, "--delta", "4.4"));
        }
        Result negative = run("mesh", npy.toString(), "--delta", "-1");
        assertEquals(Main.USAGE, negative.code(), negative.err());
        assertTrue(negative.err().contains("delta must be a finite number >= 0, got -1.0"), negative.err());

        Path shorts = dir.resolve("u.raw");
        ByteBuffer u16 = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : new int[] {0, 65535, 65535, 0, 300}) {
            u16.putShort((short) v);
        }
        Files.write(shorts, u16.array());
        assertEquals(2, clustersOf(new String[] {shorts.toString(), "--dims", "5x1", "--type", "u16"}));
    }

    private static long clustersOf(String[] input, String... options) {
        String[] args = new String[2 + input.length + options.length];
        args[0] = "mesh";
        System.arraycopy(input, 0, args, 1, input.length);
        System.arraycopy(options, 0, args, 1 + input.length, options.length);
        args[args.length - 1] = "--json";
        Result r = run(args);
        assertEquals(Main.OK, r.code(), r.err());
        return clusters(r.out());
    }

    private static long clusters(String json) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"clusters\":(\\d+)").matcher(json);
        assertTrue(m.find(), json);
        return Long.parseLong(m.group(1));
    }

    private static byte[] gunzip(byte[] bytes) throws IOException {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        }
    }

    private static int[] ints(byte[] bytes, int from) {
        ByteBuffer b = ByteBuffer.wrap(bytes, from, bytes.length - from).order(ByteOrder.LITTLE_ENDIAN);
        int[] out = new int[(bytes.length - from) / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getInt();
        }
        return out;
    }
}
