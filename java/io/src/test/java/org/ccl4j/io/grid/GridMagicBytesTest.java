package org.ccl4j.io.grid;

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
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Image and volume files of formats that ccl4j recognises by their first bytes but does not read
 * are refused by name, as the documented {@link ImageFormatException} at byte 0, instead of being
 * taken for raw cells without dimensions; so are the formats it reads (NumPy, NRRD, NIfTI-1, TIFF)
 * under the name of another format.
 */
class GridMagicBytesTest {
    @TempDir
    Path dir;

    /** A few bytes of each format that the grid reader refuses, and the name it gives the format. */
    static Object[][] refused() {
        byte[] nifti2 = new byte[16];
        ByteBuffer.wrap(nifti2).order(ByteOrder.BIG_ENDIAN).putInt(0, 540);
        System.arraycopy(ascii("ni2\0"), 0, nifti2, 4, 4);
        byte[] tar = new byte[512];
        System.arraycopy(ascii("ustar"), 0, tar, 257, 5);
        byte[] dicom = new byte[132];
        System.arraycopy(ascii("DICM"), 0, dicom, 128, 4);
        return new Object[][] {
            {"photo.jpg", bytes(0xFF, 0xD8, 0xFF, 0xE1, 0, 16), "a JPEG image"},
            {"anim.gif", ascii("GIF87a\1\0\1\0"), "a GIF image"},
            {"brain2.nii", nifti2, "a NIfTI-2 volume"},
            {"data.h5", bytes(0x89, 'H', 'D', 'F', '\r', '\n', 0x1A, '\n', 0, 0), "an HDF5 file"},
            {"slice.dcm", dicom, "a DICOM file"},
            {"images.zip", bytes('P', 'K', 3, 4, 20, 0), "a zip archive"},
            {"image.pgm.bz2", ascii("BZh91AY&SY"), "bzip2-compressed data"},
            {"image.pgm.zst", bytes(0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x04), "zstd-compressed data"},
            {"image.pgm.xz", bytes(0xFD, '7', 'z', 'X', 'Z', 0, 0, 4), "xz-compressed data"},
            {"images.7z", bytes('7', 'z', 0xBC, 0xAF, 0x27, 0x1C), "a 7-Zip archive"},
            {"images.tar", tar, "a tar archive"},
            {"graph.csr", bytes(0x89, 'C', 'S', 'R', '\r', '\n', 0x1A, '\n', 1, 0), "a ccl4j .csr graph"},
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void unsupportedFormatsAreRefusedByName(String name, byte[] bytes, String description) throws IOException {
        for (String fileName : new String[] {name, "renamed.png", "renamed.pgm", "renamed.raw", "renamed"}) {
            Path file = write(fileName, bytes);
            // with dimensions or without: the file is not raw cells of any size
            for (GridReadOptions options : new GridReadOptions[] {GridReadOptions.defaults(),
                    GridReadOptions.defaults().withDims(new GridDims(2, 2, 1))}) {
                ImageFormatException e = refuse(file, options);
                assertEquals(0, e.byteOffset(), e::getMessage);
                assertTrue(e.getMessage().startsWith(file + ": at byte 0: this is " + description), e::getMessage);
                assertTrue(e.getMessage().contains("; ccl4j reads PGM, PNG, NumPy, NRRD, NIfTI-1, TIFF and raw grids,"
                        + " plain or gzip-compressed: "),
                        e::getMessage);
            }
            assertThrows(ImageFormatException.class, () -> GridFormat.detect(file));
        }
    }

    /** The array formats that ccl4j reads, under the name of another format: refused, naming what they are. */
    static Object[][] readElsewhere() {
        byte[] nifti1 = new byte[400];
        ByteBuffer.wrap(nifti1).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 348);
        System.arraycopy(ascii("n+1\0"), 0, nifti1, 344, 4);
        return new Object[][] {
            {bytes('I', 'I', '*', 0, 8, 0, 0, 0), "a TIFF image", "tiff"},
            {bytes('M', 'M', 0, '*', 0, 0, 0, 8), "a TIFF image", "tiff"},
            {bytes(0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0x76, 0), "a NumPy array (.npy)", "npy"},
            {ascii("NRRD0005\ntype: uint8\n"), "an NRRD volume", "nrrd"},
            {nifti1, "a NIfTI-1 volume", "nifti"},
        };
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("readElsewhere")
    void readFormatsUnderAnotherNameAreRefusedByName(byte[] bytes, String description, String format)
            throws IOException {
        for (String fileName : new String[] {"renamed.png", "renamed.pgm", "renamed.raw"}) {
            Path file = write(fileName, bytes);
            ImageFormatException e = refuse(file, GridReadOptions.defaults());
            assertEquals(0, e.byteOffset(), e::getMessage);
            assertTrue(e.getMessage().startsWith(file + ": at byte 0: this is " + description + ", not "),
                    e::getMessage);
            assertTrue(e.getMessage().endsWith(": read it as " + format + " (format " + format + " or auto)"),
                    e::getMessage);
        }
        // a format named explicitly is one that the content must be
        Path file = write("data", bytes);
        GridFormat other = format.equals("npy") ? GridFormat.NRRD : GridFormat.NPY;
        assertTrue(refuse(file, GridReadOptions.defaults().withFormat(other)).getMessage()
                .startsWith(file + ": at byte 0: this is " + description + ", not a"), description);
        assertEquals(GridFormat.fromName(format), GridFormat.detect(file));
    }

    /** A PNG or PGM image where an array format is named is refused by name, not handed to that reader. */
    @Test
    void imagesWhereAnArrayFormatIsNamedAreRefusedByName() throws IOException {
        byte[] pgm = ascii("P5\n2 1\n255\n\1\2");
        for (String name : new String[] {"a.npy", "a.nrrd", "a.nii", "a.tif"}) {
            Path file = write(name, pgm);
            assertTrue(refuse(file, GridReadOptions.defaults()).getMessage()
                    .startsWith(file + ": at byte 0: this is a PGM image, not a"), name);
        }
        Path file = write("b.pgm", pgm);
        assertTrue(refuse(file, GridReadOptions.defaults().withFormat(GridFormat.TIFF)).getMessage()
                .startsWith(file + ": at byte 0: this is a PGM image, not a TIFF file; "));
    }

    /** The issue's case: GridReader.read(tif) threw IllegalArgumentException; now its content goes to the TIFF reader. */
    @Test
    void theIssuesTiffAndNpy() throws IOException {
        Path tif = write("image.tif", bytes('I', 'I', '*', 0, 8, 0, 0, 0, 1, 2, 3));
        ImageFormatException e = assertThrows(ImageFormatException.class, () -> {
            try (Arena arena = Arena.ofConfined()) {
                GridReader.read(tif, arena);
            }
        });
        assertTrue(e.getMessage().startsWith(tif + ": the TIFF image cannot be read: "), e::getMessage);
        assertEquals(tif, e.file());
        Path npy = write("cells.npy", bytes(0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0x76, 0));
        assertEquals(npy + ": at byte 10: the file ends inside the header (118 bytes from byte 10)",
                refuse(npy, GridReadOptions.defaults()).getMessage());
    }

    @Test
    void theMessageSaysWhatTheExtensionOrTheFormatPromised() throws IOException {
        byte[] tiff = bytes('I', 'I', '*', 0, 8, 0, 0, 0);
        assertTrue(refuse(write("a.png", tiff), GridReadOptions.defaults()).getMessage()
                .contains("this is a TIFF image, not a PNG file; "));
        assertTrue(refuse(write("a.data", tiff), GridReadOptions.defaults().withFormat(GridFormat.PGM)).getMessage()
                .contains("this is a TIFF image, not a PGM file; "));
        assertTrue(refuse(write("a.vol", tiff), GridReadOptions.defaults()).getMessage()
                .contains("this is a TIFF image, not raw cells; "));
        assertTrue(refuse(write("a.zip", bytes('P', 'K', 3, 4, 20, 0)), GridReadOptions.defaults()).getMessage()
                .endsWith(": decompress or extract it first"));
        assertTrue(refuse(write("g.csr", bytes(0x89, 'C', 'S', 'R', '\r', '\n', 0x1A, '\n', 1, 0)),
                GridReadOptions.defaults()).getMessage().endsWith(": read it as a graph (GraphReader, ccl4j label)"));
        Path gz = write("a.pgm.gz", gzip(tiff));
        assertTrue(refuse(gz, GridReadOptions.defaults()).getMessage()
                .startsWith(gz + ": at byte 0: this is a TIFF image inside gzip-compressed data, not a PGM file; "));
    }

    /** Raw cells may begin with any bytes: a raw file whose size its dimensions give is read as raw cells. */
    @Test
    void rawCellsThatLookLikeAMagicNumberAreRawCells() throws IOException {
        byte[] cells = bytes('I', 'I', '*', 0, 0x1F, 0x8B, 8, 0);
        for (String name : new String[] {"cells.raw", "cells.data"}) {
            Path file = write(name, cells);
            GridReadOptions options = GridReadOptions.defaults().withDims(new GridDims(4, 2, 1))
                    .withFormat(name.endsWith(".raw") ? GridFormat.AUTO : GridFormat.RAW);
            try (Arena arena = Arena.ofConfined()) {
                Grid g = GridReader.read(file, options, arena);
                assertEquals(Grid.CellType.U8, g.type());
                assertEquals('I', g.get(0, 0, 0));
                assertEquals(0x8B, g.get(1, 1, 0));
            }
        }
        // gzip's magic number, too
        Path gz = write("g.raw", bytes(0x1F, 0x8B, 8, 0, 1, 2));
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridReader.read(gz, GridReadOptions.defaults().withDims(new GridDims(3, 2, 1)), arena);
            assertEquals(0x1F, g.get(0, 0, 0));
        }
    }

    private ImageFormatException refuse(Path file, GridReadOptions options) {
        ImageFormatException e = assertThrows(ImageFormatException.class, () -> {
            try (Arena arena = Arena.ofConfined()) {
                GridReader.read(file, options, arena);
            }
        });
        assertEquals(file, e.file());
        assertEquals(-1, e.line());
        return e;
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
