package org.ccl4j.io.grid;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.ccl4j.io.internal.Magic;
import org.ccl4j.io.internal.Source;


/**
 * The grid file formats that {@link GridReader} reads and {@link GridWriter} writes. Each has a
 * short name, as on command lines ({@link #formatName()}, {@link #fromName}); {@link #AUTO} stands for
 * "find out" ({@link #detect}). Every format may be gzip-compressed: readers recognise gzip by its
 * first bytes, whatever the extension, and decompress it through {@link java.util.zip.GZIPInputStream}.
 */
public enum GridFormat {
    /** Detect the format: see {@link #detect(Path)}. */
    AUTO("auto"),
    /** Netpbm greymap: {@code P2} (ASCII) or {@code P5} (binary, 8 or 16-bit big-endian samples). */
    PGM("pgm"),
    /** PNG: greyscale (1 to 16 bits), palette or colour, interlaced or not. */
    PNG("png"),
    /** Raw cells, nothing else: uint8, or little-endian int32; the dimensions and cell type are given. */
    RAW("raw"),
    /** NumPy {@code .npy}: versions 1.0 to 3.0, C or Fortran order, either endian, 2 or 3 dimensions. */
    NPY("npy"),
    /** NRRD: {@code .nrrd} (attached header) or {@code .nhdr} and its data file; raw or gzip data. */
    NRRD("nrrd"),
    /** NIfTI-1 single files: {@code .nii}, {@code .nii.gz}. */
    NIFTI("nifti"),
    /** TIFF through {@code javax.imageio}: one page per z-slice. */
    TIFF("tiff");

    private final String formatName;

    GridFormat(String formatName) {
        this.formatName = formatName;
    }

    /**
     * The name used on command lines: {@code auto}, {@code pgm}, {@code png}, {@code raw}, {@code npy},
     * {@code nrrd}, {@code nifti}, {@code tiff}.
     *
     * @return the name
     */
    public String formatName() {
        return formatName;
    }

    /**
     * The format with command-line name {@code name}, ignoring case.
     *
     * @param name the name
     * @return the format
     * @throws IllegalArgumentException naming the valid names when there is none
     */
    public static GridFormat fromName(String name) {
        for (GridFormat f : values()) {
            if (f.formatName.equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown grid format '" + name + "'; expected one of "
                + java.util.Arrays.stream(values()).map(GridFormat::formatName).collect(java.util.stream.Collectors.joining(", ")));
    }

    /**
     * This format, or for {@link #AUTO} the format {@link #detect} finds for {@code file}.
     *
     * @param file the file
     * @return a format other than {@link #AUTO}
     * @throws ImageFormatException when the file is of a format that ccl4j recognises but does not read
     * @throws IOException          when the file cannot be read
     */
    public GridFormat resolve(Path file) throws IOException {
        return this == AUTO ? detect(file) : this;
    }

    /**
     * Finds the format of {@code file}. First by its first bytes: gzip-compressed files are
     * decompressed and their content is what the rest looks at (and {@code scan.pgm.gz} has the
     * extension {@code .pgm}); formats that ccl4j recognises but does not read are refused by name
     * (JPEG and GIF images; NIfTI-2, HDF5 and DICOM files; zip, tar, 7-Zip archives; bzip2, zstd
     * and xz data), and so is a NumPy, NRRD, NIfTI-1 or TIFF file whose extension names another
     * format. Then {@code .raw}, {@code .bin} and {@code .vol} files are RAW; otherwise the
     * signature decides: {@code \x93NUMPY} NPY, {@code NRRD000} NRRD, {@code n+1\0} at byte 344
     * NIFTI, {@code II*\0} or {@code MM\0*} TIFF, PNG's PNG, and {@code P} followed by a digit (a
     * Netpbm magic number) PGM; failing all, the extension decides: {@code .png} PNG, {@code .pgm}
     * PGM, {@code .npy} NPY, {@code .nrrd} and {@code .nhdr} NRRD, {@code .nii} NIFTI, {@code .tif}
     * and {@code .tiff} TIFF (so that the reader reports what is wrong with the file), anything else
     * RAW.
     *
     * @param file the file
     * @return a format other than {@link #AUTO}
     * @throws ImageFormatException when the file is of a format that ccl4j recognises but does not
     *                              read, or its compressed data is damaged
     * @throws IOException          when the file cannot be read
     */
    public static GridFormat detect(Path file) throws IOException {
        try (Source source = Source.ofFile(file)) {
            return resolve(source, GridReadOptions.defaults());
        } catch (Source.DamagedException e) {
            throw new ImageFormatException(file, -1, -1, e.getMessage(), e);
        }
    }

    private static final String READS = "ccl4j reads PGM, PNG, NumPy, NRRD, NIfTI-1, TIFF and raw grids, plain or"
            + " gzip-compressed";

    /**
     * The format to read {@code source} as: {@code options.format()} or, for {@link #AUTO}, the
     * detected one. Decompresses {@code source} when it is gzip-compressed, and refuses the formats
     * that ccl4j recognises but does not read, except for a raw grid whose size is the one its
     * dimensions give (raw cells may begin with any bytes).
     */
    static GridFormat resolve(Source source, GridReadOptions options) throws IOException {
        GridFormat requested = options.format();
        Path name = source.name();
        Path content = source.contentName();
        GridFormat expected = requested != AUTO ? requested : named(content);
        boolean raw = options.dims() != null && (requested == RAW || (requested == AUTO && rawName(content)))
                && source.storedSize() == options.dims().cellCount() * options.rawType().bytes();
        if (!raw) {
            Magic stored = Magic.of(source.storedHead(), source.storedHead().length);
            if (stored == Magic.GZIP) {
                source.decompress();
                Magic inner = Magic.of(source.head(), source.head().length);
                if (inner != null && !readable(inner, expected)) {
                    throw refusal(name, inner, true, expected);
                }
            } else if (stored != null && !readable(stored, expected)) {
                throw refusal(name, stored, false, expected);
            }
        }
        if (requested != AUTO) {
            return requested;
        }
        if (rawName(content)) {
            return RAW;
        }
        byte[] head = source.head();
        if (Magic.of(head, head.length) == Magic.PNG) {
            return PNG;
        }
        if (Magic.looksLikeNetpbm(head, head.length)) {
            return PGM;
        }
        GridFormat signed = ofMagic(Magic.of(head, head.length));
        return signed != null ? signed : ofExtension(content);
    }

    /**
     * Whether a file of {@code magic} goes on to a reader: the one of its format, unless the
     * extension or the caller expects another. PNG and Netpbm images also go to the PGM, PNG and raw
     * readers (which report what is wrong with them, or take them for raw cells), as before the
     * array formats were read.
     */
    private static boolean readable(Magic magic, GridFormat expected) {
        GridFormat format = ofMagic(magic);
        if (format == null) {
            return false;
        }
        boolean image = format == PNG || format == PGM;
        return expected == AUTO || expected == format || (image && (expected == PNG || expected == PGM
                || expected == RAW));
    }

    /** The format that reads files of {@code magic}, or null. */
    private static GridFormat ofMagic(Magic magic) {
        if (magic == null) {
            return null;
        }
        return switch (magic) {
            case PNG -> PNG;
            case PGM, NETPBM -> PGM;
            case NUMPY -> NPY;
            case NRRD -> NRRD;
            case NIFTI1 -> NIFTI;
            case TIFF -> TIFF;
            default -> null;
        };
    }

    private static boolean rawName(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".raw") || name.endsWith(".bin") || name.endsWith(".vol");
    }

    /** The format the extension of {@code file} names, or AUTO when it names none. */
    private static GridFormat named(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        GridFormat format = ofExtension(file);
        return format != RAW || rawName(file) ? format : AUTO;
    }

    private static ImageFormatException refusal(Path name, Magic magic, boolean compressed, GridFormat expected) {
        String not = switch (expected) {
            case RAW -> ", not raw cells";
            case AUTO -> "";
            default -> ", not " + (expected == NIFTI ? "a NIfTI" : expected == NPY ? "a NumPy"
                    : "a" + (expected == NRRD ? "n " : " ") + expected.name()) + " file";
        };
        GridFormat readBy = ofMagic(magic);
        return new ImageFormatException(name, -1, 0, "this is " + magic.description()
                + (compressed ? " inside gzip-compressed data" : "") + not + "; " + READS + ": "
                + (readBy != null ? "read it as " + readBy.formatName() + " (format " + readBy.formatName()
                        + " or auto)" : magic.advice("PGM, PNG, NumPy, NRRD, NIfTI-1, TIFF or raw cells")));
    }

    /**
     * The format that the extension of {@code file} names: {@code .pgm} PGM, {@code .png} PNG,
     * {@code .npy} NPY, {@code .nrrd} and {@code .nhdr} NRRD, {@code .nii} NIFTI, {@code .tif} and
     * {@code .tiff} TIFF (the last four also with {@code .gz} after them), else RAW.
     */
    static GridFormat ofExtension(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".pgm")) {
            return PGM;
        }
        if (name.endsWith(".png")) {
            return PNG;
        }
        String content = name.endsWith(".gz") ? name.substring(0, name.length() - 3) : name;
        if (content.endsWith(".npy")) {
            return NPY;
        }
        if (content.endsWith(".nrrd") || content.endsWith(".nhdr")) {
            return NRRD;
        }
        if (content.endsWith(".nii")) {
            return NIFTI;
        }
        return content.endsWith(".tif") || content.endsWith(".tiff") ? TIFF : RAW;
    }
}
