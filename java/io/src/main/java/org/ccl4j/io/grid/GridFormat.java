package org.ccl4j.io.grid;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;


/**
 * The grid file formats that {@link GridReader} reads and {@link GridWriter} writes. Each has a
 * short name, as on command lines ({@link #formatName()}, {@link #fromName}); {@link #AUTO} stands for
 * "find out" ({@link #detect}).
 */
public enum GridFormat {
    /** Detect the format: see {@link #detect(Path)}. */
    AUTO("auto"),
    /** Netpbm greymap: {@code P2} (ASCII) or {@code P5} (binary, 8 or 16-bit big-endian samples). */
    PGM("pgm"),
    /** PNG: greyscale (1 to 16 bits), palette or colour, interlaced or not. */
    PNG("png"),
    /** Raw cells, nothing else: uint8, or little-endian int32; the dimensions and cell type are given. */
    RAW("raw");

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    private final String formatName;

    GridFormat(String formatName) {
        this.formatName = formatName;
    }

    /** The name used on command lines: {@code auto}, {@code pgm}, {@code png}, {@code raw}. */
    public String formatName() {
        return formatName;
    }

    /**
     * The format with command-line name {@code name}, ignoring case.
     *
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

    /** This format, or for {@link #AUTO} the format {@link #detect} finds for {@code file}. */
    public GridFormat resolve(Path file) throws IOException {
        return this == AUTO ? detect(file) : this;
    }

    /**
     * Finds the format of {@code file}: {@code .raw}, {@code .bin} and {@code .vol} files are RAW;
     * otherwise a PNG signature means PNG and {@code P} followed by a digit (a Netpbm magic number)
     * PGM; failing both, the extension decides: {@code .png} PNG, {@code .pgm} PGM (so that the
     * reader reports what is wrong with the file), anything else RAW.
     *
     * @return a format other than {@link #AUTO}
     */
    public static GridFormat detect(Path file) throws IOException {
        GridFormat byName = ofExtension(file);
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".raw") || name.endsWith(".bin") || name.endsWith(".vol")) {
            return RAW;
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(PNG_SIGNATURE.length);
        }
        if (Arrays.equals(head, PNG_SIGNATURE)) {
            return PNG;
        }
        if (head.length >= 2 && head[0] == 'P' && head[1] >= '0' && head[1] <= '9') {
            return PGM;
        }
        return byName;
    }

    /** The format that the extension of {@code file} names: {@code .pgm} PGM, {@code .png} PNG, else RAW. */
    static GridFormat ofExtension(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".pgm")) {
            return PGM;
        }
        return name.endsWith(".png") ? PNG : RAW;
    }
}
