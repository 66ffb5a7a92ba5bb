package org.ccl4j.io.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The file formats that ccl4j-io recognises by their first bytes (their magic numbers), whether it
 * reads them or not: the graph and grid readers look here before they trust an extension, read
 * what they can (gzip is decompressed, {@code .csr} goes to the graph reader, PNG and PGM to the
 * grid reader) and refuse the others by name instead of misreading them. This package is not
 * exported by the module.
 *
 * <p>Only signatures that text files and real raw data practically never begin with are listed:
 * each is at least three fixed bytes, or a binary field and a second signature (NIfTI). A Netpbm
 * image is recognised only when its magic number {@code P1..P7} is followed by whitespace (and
 * comments) and a digit, as a header must be.
 */
public enum Magic {
    /** ccl4j's binary CSR graph ({@code .csr}): {@code 89 43 53 52 0d 0a 1a 0a}, read by the graph reader. */
    CSR("a ccl4j .csr graph", Kind.GRAPH),
    /** gzip: {@code 1f 8b}, deflate (8) as the method, no reserved flag set. */
    GZIP("gzip-compressed data", Kind.COMPRESSED),
    /** bzip2: {@code BZh} and the block size {@code 1..9}. */
    BZIP2("bzip2-compressed data", Kind.COMPRESSED),
    /** Zstandard: {@code 28 b5 2f fd}. */
    ZSTD("zstd-compressed data", Kind.COMPRESSED),
    /** xz: {@code fd 37 7a 58 5a 00}. */
    XZ("xz-compressed data", Kind.COMPRESSED),
    /** zip: {@code PK 03 04}, or {@code PK 05 06} (empty), {@code PK 07 08} (spanned). */
    ZIP("a zip archive", Kind.COMPRESSED),
    /** 7-Zip: {@code 37 7a bc af 27 1c}. */
    SEVEN_ZIP("a 7-Zip archive", Kind.COMPRESSED),
    /** tar: {@code ustar} at byte 257. */
    TAR("a tar archive", Kind.COMPRESSED),
    /** PNG: {@code 89 50 4e 47 0d 0a 1a 0a}. */
    PNG("a PNG image", Kind.IMAGE),
    /** Netpbm greymap: {@code P2} (ASCII) or {@code P5} (binary), then whitespace and the width. */
    PGM("a PGM image", Kind.IMAGE),
    /** The other Netpbm images: {@code P1}, {@code P4} (bitmaps), {@code P3}, {@code P6} (pixmaps), {@code P7} (PAM). */
    NETPBM("a Netpbm image (PBM, PPM or PAM)", Kind.IMAGE),
    /** TIFF and BigTIFF: {@code II*\0}, {@code MM\0*}, {@code II+\0}, {@code MM\0+}. */
    TIFF("a TIFF image", Kind.IMAGE),
    /** JPEG: {@code ff d8 ff}. */
    JPEG("a JPEG image", Kind.IMAGE),
    /** GIF: {@code GIF87a} or {@code GIF89a}. */
    GIF("a GIF image", Kind.IMAGE),
    /** NumPy array: {@code 93 NUMPY}. */
    NUMPY("a NumPy array (.npy)", Kind.IMAGE),
    /** NRRD: {@code NRRD000} and the version digit. */
    NRRD("an NRRD volume", Kind.IMAGE),
    /** NIfTI-1: header size 348 at byte 0 (either byte order) and {@code n+1\0} or {@code ni1\0} at byte 344. */
    NIFTI1("a NIfTI-1 volume", Kind.IMAGE),
    /** NIfTI-2: header size 540 at byte 0 (either byte order) and {@code n+2\0} or {@code ni2\0} at byte 4. */
    NIFTI2("a NIfTI-2 volume", Kind.IMAGE),
    /** HDF5: {@code 89 HDF 0d 0a 1a 0a}. */
    HDF5("an HDF5 file", Kind.IMAGE),
    /** DICOM: {@code DICM} at byte 128. */
    DICOM("a DICOM file", Kind.IMAGE);

    /** What a format is, for the advice that goes with a refusal. */
    public enum Kind {
        /** Compressed data or an archive: decompress or extract it first. */
        COMPRESSED,
        /** An image or volume format, or an array container: convert it first. */
        IMAGE,
        /** A graph: the graph reader reads it. */
        GRAPH
    }

    /** The bytes from the start of a file that {@link #of} needs to see: NIfTI-1 looks at byte 344. */
    public static final int HEAD_BYTES = 512;

    /**
     * PNG's design: a byte above 127 (never ASCII, and caught when a transfer drops the eighth bit),
     * the name, CR LF and LF (caught when line endings are converted) and Ctrl-Z (which stops
     * {@code type} on DOS).
     */
    private static final byte[] CSR_SIGNATURE = {(byte) 0x89, 'C', 'S', 'R', '\r', '\n', 0x1A, '\n'};
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    private static final byte[] HDF5_SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1A, '\n'};
    private static final byte[] XZ_SIGNATURE = {(byte) 0xFD, '7', 'z', 'X', 'Z', 0};
    private static final byte[] SEVEN_ZIP_SIGNATURE = {'7', 'z', (byte) 0xBC, (byte) 0xAF, 0x27, 0x1C};
    private static final byte[] ZSTD_SIGNATURE = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD};
    private static final byte[] NUMPY_SIGNATURE = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final int NIFTI1_HEADER = 348;
    private static final int NIFTI2_HEADER = 540;

    private final String description;
    private final Kind kind;

    Magic(String description, Kind kind) {
        this.description = description;
        this.kind = kind;
    }

    /**
     * What the format is, for messages: "a TIFF image", "gzip-compressed data".
     *
     * @return the description, with its article where it takes one
     */
    public String description() {
        return description;
    }

    /**
     * Whether the format is compressed data or an archive, or an image or volume.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The advice that ends a refusal: to decompress or extract compressed data, to convert an image.
     *
     * @param into what to convert images into, as "PGM, PNG or raw cells"
     * @return the advice, starting with a verb
     */
    public String advice(String into) {
        return switch (kind) {
            case COMPRESSED -> "decompress or extract it first";
            case IMAGE -> "convert it to " + into + " first";
            case GRAPH -> "read it as a graph (GraphReader, ccl4j label)";
        };
    }

    /**
     * The first bytes of every {@code .csr} file, which {@link #CSR} stands for.
     *
     * @return a new array of the 8 bytes
     */
    public static byte[] csrSignature() {
        return CSR_SIGNATURE.clone();
    }

    /**
     * The format whose signature {@code head} starts with.
     *
     * @param head   the first bytes of a file ({@link #HEAD_BYTES} or the whole file, when shorter)
     * @param length how many bytes of {@code head} are the file's
     * @return the format, or null when the bytes are none of these
     */
    public static Magic of(byte[] head, int length) {
        byte[] h = length == head.length ? head : Arrays.copyOf(head, length);
        if (startsWith(h, CSR_SIGNATURE)) {
            return CSR;
        }
        if (h.length >= 4 && (h[0] & 0xFF) == 0x1F && (h[1] & 0xFF) == 0x8B && h[2] == 8 && (h[3] & 0xE0) == 0) {
            return GZIP;
        }
        if (startsWith(h, PNG_SIGNATURE)) {
            return PNG;
        }
        if (startsWith(h, HDF5_SIGNATURE)) {
            return HDF5;
        }
        if (h.length >= 4 && h[0] == 'B' && h[1] == 'Z' && h[2] == 'h' && h[3] >= '1' && h[3] <= '9') {
            return BZIP2;
        }
        if (startsWith(h, ZSTD_SIGNATURE)) {
            return ZSTD;
        }
        if (startsWith(h, XZ_SIGNATURE)) {
            return XZ;
        }
        if (h.length >= 4 && h[0] == 'P' && h[1] == 'K' && ((h[2] == 3 && h[3] == 4) || (h[2] == 5 && h[3] == 6)
                || (h[2] == 7 && h[3] == 8))) {
            return ZIP;
        }
        if (startsWith(h, SEVEN_ZIP_SIGNATURE)) {
            return SEVEN_ZIP;
        }
        if (h.length >= 4 && ((h[0] == 'I' && h[1] == 'I' && (h[2] == '*' || h[2] == '+') && h[3] == 0)
                || (h[0] == 'M' && h[1] == 'M' && h[2] == 0 && (h[3] == '*' || h[3] == '+')))) {
            return TIFF;
        }
        if (h.length >= 3 && (h[0] & 0xFF) == 0xFF && (h[1] & 0xFF) == 0xD8 && (h[2] & 0xFF) == 0xFF) {
            return JPEG;
        }
        if (startsWith(h, "GIF87a".getBytes(StandardCharsets.US_ASCII))
                || startsWith(h, "GIF89a".getBytes(StandardCharsets.US_ASCII))) {
            return GIF;
        }
        if (startsWith(h, NUMPY_SIGNATURE)) {
            return NUMPY;
        }
        if (startsWith(h, "NRRD000".getBytes(StandardCharsets.US_ASCII))) {
            return NRRD;
        }
        if (headerSize(h) == NIFTI1_HEADER && h.length >= 348
                && (at(h, 344, "n+1\0") || at(h, 344, "ni1\0"))) {
            return NIFTI1;
        }
        if (headerSize(h) == NIFTI2_HEADER && (at(h, 4, "n+2\0") || at(h, 4, "ni2\0"))) {
            return NIFTI2;
        }
        if (at(h, 128, "DICM")) {
            return DICOM;
        }
        if (at(h, 257, "ustar")) {
            return TAR;
        }
        return netpbm(h);
    }

    /**
     * Whether {@code head} starts with {@code P} and a digit: what a Netpbm reader takes as its own,
     * to report what is wrong with the header (a looser test than the one {@link #of} makes).
     *
     * @param head   the first bytes of a file
     * @param length how many of them are the file's
     * @return true for {@code P0} to {@code P9}
     */
    public static boolean looksLikeNetpbm(byte[] head, int length) {
        return length >= 2 && head[0] == 'P' && head[1] >= '0' && head[1] <= '9';
    }

    /** {@code P1..P7}, whitespace, optional {@code #} comments, then a digit (the width). */
    private static Magic netpbm(byte[] h) {
        if (h.length < 4 || h[0] != 'P' || h[1] < '1' || h[1] > '7' || !whitespace(h[2])) {
            return null;
        }
        int i = 2;
        while (i < h.length) {
            if (whitespace(h[i])) {
                i++;
            } else if (h[i] == '#') {
                while (i < h.length && h[i] != '\n' && h[i] != '\r') {
                    i++;
                }
            } else {
                break;
            }
        }
        if (i == h.length || h[i] < '0' || h[i] > '9') {
            return null;
        }
        return h[1] == '2' || h[1] == '5' ? PGM : NETPBM;
    }

    private static boolean whitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0B;
    }

    /** The int32 at byte 0, read in the byte order that makes it small: NIfTI headers are either. */
    private static int headerSize(byte[] h) {
        if (h.length < 8) {
            return -1;
        }
        int little = ByteBuffer.wrap(h, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int big = ByteBuffer.wrap(h, 0, 4).order(ByteOrder.BIG_ENDIAN).getInt();
        return little == NIFTI1_HEADER || little == NIFTI2_HEADER ? little : big;
    }

    private static boolean startsWith(byte[] h, byte[] prefix) {
        return h.length >= prefix.length && Arrays.equals(h, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static boolean at(byte[] h, int offset, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        return h.length >= offset + bytes.length
                && Arrays.equals(h, offset, offset + bytes.length, bytes, 0, bytes.length);
    }
}
