package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files of formats that ccl4j recognises by their first bytes but does not read as graphs are
 * refused by name, as a {@link GraphFormatException} at byte 0, whatever their extension says;
 * gzip is decompressed instead, and a file that is an .egr file by its size is read as one.
 */
class MagicBytesTest {
    @TempDir
    Path dir;

    /** A few bytes of each format that the graph reader refuses, and the name it gives the format. */
    static Object[][] refused() {
        byte[] nifti1 = new byte[352];
        ByteBuffer.wrap(nifti1).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 348);
        System.arraycopy(ascii("n+1\0"), 0, nifti1, 344, 4);
        byte[] nifti1BigEndian = new byte[352];
        ByteBuffer.wrap(nifti1BigEndian).order(ByteOrder.BIG_ENDIAN).putInt(0, 348);
        System.arraycopy(ascii("ni1\0"), 0, nifti1BigEndian, 344, 4);
        byte[] nifti2 = new byte[16];
        ByteBuffer.wrap(nifti2).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 540);
        System.arraycopy(ascii("n+2\0"), 0, nifti2, 4, 4);
        byte[] tar = new byte[300];
        System.arraycopy(ascii("ustar"), 0, tar, 257, 5);
        byte[] dicom = new byte[140];
        System.arraycopy(ascii("DICM"), 0, dicom, 128, 4);
        return new Object[][] {
            {"PNG", bytes(0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13), "a PNG image"},
            {"PGM P5", ascii("P5\n3 2\n255\n\0\1\2\3\4\5"), "a PGM image"},
            {"PGM P2", ascii("P2 3 2 255 0 1 2 3 4 5\n"), "a PGM image"},
            {"PPM P6", ascii("P6\n# c\n1 1 255\n\0\0\0"), "a Netpbm image (PBM, PPM or PAM)"},
            {"TIFF little-endian", bytes('I', 'I', '*', 0, 8, 0, 0, 0), "a TIFF image"},
            {"TIFF big-endian", bytes('M', 'M', 0, '*', 0, 0, 0, 8), "a TIFF image"},
            {"BigTIFF", bytes('I', 'I', '+', 0, 8, 0, 0, 0), "a TIFF image"},
            {"JPEG", bytes(0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F'), "a JPEG image"},
            {"GIF", ascii("GIF89a\1\0\1\0"), "a GIF image"},
            {"NumPy", bytes(0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0x76, 0), "a NumPy array (.npy)"},
            {"NRRD", ascii("NRRD0004\ntype: uint8\n"), "an NRRD volume"},
            {"NIfTI-1", nifti1, "a NIfTI-1 volume"},
            {"NIfTI-1 big-endian pair header", nifti1BigEndian, "a NIfTI-1 volume"},
            {"NIfTI-2", nifti2, "a NIfTI-2 volume"},
            {"HDF5", bytes(0x89, 'H', 'D', 'F', '\r', '\n', 0x1A, '\n', 0, 0, 0, 0), "an HDF5 file"},
            {"DICOM", dicom, "a DICOM file"},
            {"zip", bytes('P', 'K', 3, 4, 20, 0, 0, 0), "a zip archive"},
            {"empty zip", bytes('P', 'K', 5, 6, 0, 0, 0, 0), "a zip archive"},
            {"bzip2", ascii("BZh91AY&SY"), "bzip2-compressed data"},
            {"zstd", bytes(0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x04), "zstd-compressed data"},
            {"xz", bytes(0xFD, '7', 'z', 'X', 'Z', 0, 0, 4), "xz-compressed data"},
            {"7-Zip", bytes('7', 'z', 0xBC, 0xAF, 0x27, 0x1C, 0, 4), "a 7-Zip archive"},
            {"tar", tar, "a tar archive"},
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void unsupportedFormatsAreRefusedByName(String format, byte[] bytes, String description) throws IOException {
        // whatever the extension: a graph format's, none, or the format's own
        for (String name : new String[] {"graph.txt", "graph.csv", "graph.mtx", "graph", "graph.dat"}) {
            Path file = write(name, bytes);
            GraphFormatException e = refuse(file, GraphFormat.AUTO);
            assertEquals(0, e.byteOffset(), e::getMessage);
            assertEquals(-1, e.line());
            assertTrue(e.getMessage().startsWith(file + ": at byte 0: this is " + description), e::getMessage);
            assertTrue(e.getMessage().contains("ccl4j reads graphs as edge lists, SNAP, Matrix Market, DIMACS, .egr"
                    + " and .csr files, plain or gzip-compressed"), e::getMessage);
            assertThrows(GraphFormatException.class, () -> GraphFormat.detect(file));
        }
        // an explicit format does not make the file readable, and the message says what was expected
        GraphFormatException explicit = refuse(write("graph.bin", bytes), GraphFormat.SNAP);
        assertTrue(explicit.getMessage().contains("this is " + description + ", not a SNAP edge list; "),
                explicit::getMessage);
    }

    @Test
    void theAdviceFitsTheFormat() throws IOException {
        assertTrue(refuse(write("a.txt", ascii("BZh91AY&SY")), GraphFormat.AUTO).getMessage()
                .endsWith(": decompress or extract it first"));
        assertTrue(refuse(write("a.mtx", bytes('I', 'I', '*', 0, 8, 0, 0, 0)), GraphFormat.AUTO).getMessage()
                .endsWith("this is a TIFF image, not a Matrix Market file; ccl4j reads graphs as edge lists, SNAP, "
                        + "Matrix Market, DIMACS, .egr and .csr files, plain or gzip-compressed: convert it to one of them"
                        + " first"));
        assertTrue(refuse(write("a.edges", ascii("P5\n1 1\n255\n\0")), GraphFormat.AUTO).getMessage()
                .endsWith("this is a PGM image, not an edge list; ccl4j reads graphs as edge lists, SNAP, Matrix Market, "
                        + "DIMACS, .egr and .csr files, plain or gzip-compressed: images are read as grids (GridReader), not"
                        + " as graphs"));
    }

    /** The case: a gzip'd SNAP file read as text gave "expected source id, found 'ºs'". */
    @Test
    void aGzippedSnapFileIsDecompressed() throws IOException {
        byte[] snap = ascii("# c\n10 20\n20 30\n");
        for (String name : new String[] {"b.snap.gz", "b.snap", "b.gz", "b"}) {
            Path file = write(name, gzip(snap));
            try (Arena arena = Arena.ofConfined()) {
                GraphFile f = GraphReader.read(file, arena);
                assertEquals(GraphFormat.SNAP, f.format(), name);
                assertEquals(3, f.graph().vertexCount());
                assertEquals("30", f.vertexIds().id(2));
            }
            assertEquals(GraphFormat.SNAP, GraphFormat.detect(file));
        }
    }

    @Test
    void whatGzipHoldsIsRecognisedToo() throws IOException {
        Path file = write("b.snap.gz", gzip(bytes('I', 'I', '*', 0, 8, 0, 0, 0)));
        GraphFormatException e = refuse(file, GraphFormat.AUTO);
        assertTrue(e.getMessage().startsWith(file + ": at byte 0: this is a TIFF image inside gzip-compressed data, not a"
                + " SNAP edge list; "), e::getMessage);
        GraphFormatException twice = refuse(write("c.gz", gzip(gzip(ascii("0 1\n")))), GraphFormat.AUTO);
        assertTrue(twice.getMessage().contains("this is gzip-compressed data inside gzip-compressed data; "),
                twice::getMessage);
    }

    @Test
    void binaryDataOfNoKnownFormatIsRefused() throws IOException {
        Path file = write("mystery", bytes('a', 'b', 0, 1, 2, 3, 4, 5, 6));
        GraphFormatException e = refuse(file, GraphFormat.AUTO);
        assertEquals(2, e.byteOffset());
        assertTrue(e.getMessage().contains("the format cannot be detected: this is binary data (byte 0x00) but not an"
                + " .egr file whose size fits its header"), e::getMessage);
    }

    /** 560927 vertices make an .egr header that starts with gzip's magic number: its size tells them apart. */
    @Test
    void anEgrFileWhoseHeaderLooksLikeGzipIsAnEgrFile() throws IOException {
        int n = 0x00088B1F;
        ByteBuffer egr = ByteBuffer.allocate(8 + 4 * (n + 1) + 4 * 2).order(ByteOrder.LITTLE_ENDIAN);
        egr.putInt(n).putInt(2).putInt(0).putInt(1);
        for (int v = 2; v <= n; v++) {
            egr.putInt(2);
        }
        egr.putInt(1).putInt(0);
        byte[] bytes = egr.array();
        assertEquals(0x1F, bytes[0] & 0xFF);
        assertEquals(0x8B, bytes[1] & 0xFF);
        assertEquals(8, bytes[2]);
        for (String name : new String[] {"g.egr", "g.bin"}) {
            Path file = write(name, bytes);
            try (Arena arena = Arena.ofConfined()) {
                GraphFile f = GraphReader.read(file, arena);
                assertEquals(GraphFormat.EGR, f.format());
                assertEquals(n, f.graph().vertexCount());
                assertEquals(2, f.graph().arcCount());
            }
        }
    }

    @Test
    void textThatMerelyStartsLikeAMagicNumberIsText() throws IOException {
        // "P1 P2" is a header of column names, not a bitmap: a Netpbm header goes on with a digit
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(write("pairs.csv", ascii("P1 P2\n0 1\n")), arena);
            assertLists(new int[][] {{1}, {0}}, f.graph());
        }
    }

    private GraphFormatException refuse(Path file, GraphFormat format) {
        try (Arena arena = Arena.ofConfined()) {
            GraphFormatException e = assertThrows(GraphFormatException.class,
                    () -> GraphReader.read(file, format, ReadOptions.defaults(), arena));
            assertEquals(file, e.file());
            return e;
        }
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }

    static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
