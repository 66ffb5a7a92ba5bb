package org.ccl4j.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;


/**
 * The graph file formats that {@link GraphReader} reads and {@link GraphWriter} writes.
 *
 * <p>Each has a short name, as on command lines ({@link #formatName()}, {@link #fromName}). {@link #AUTO}
 * stands for "find out": by extension first, by content when the extension says nothing.
 */
public enum GraphFormat {
    /** Detect the format: see {@link #detect(Path)}. */
    AUTO("auto"),
    /**
     * ECL's binary CSR ({@code .egr}): little-endian {@code int32} vertex count {@code n}, arc count
     * {@code m}, offsets {@code [n+1]}, neighbours {@code [m]}, optionally followed by {@code m}
     * edge weights, which are ignored.
     */
    EGR("egr"),
    /** Matrix Market coordinate format ({@code .mtx}): every entry {@code (i, j)} is an edge. */
    MTX("mtx"),
    /** SNAP edge list ({@code .txt}): {@code #} comments, pairs of ids of up to 63 bits. */
    SNAP("snap"),
    /**
     * DIMACS formats: shortest paths ({@code .gr}: {@code c} comments, {@code p sp N M},
     * {@code a u v w}), cliques and colouring ({@code .col}, {@code .clq}: {@code p edge N M} or
     * {@code p col N M}, {@code e u v}).
     */
    DIMACS("dimacs"),
    /** Plain edge list: {@code #} or {@code %} comments, pairs of 0-based vertex ids. */
    EDGES("edges");

    private final String formatName;

    GraphFormat(String formatName) {
        this.formatName = formatName;
    }

    /** The name used on command lines: {@code auto}, {@code egr}, {@code mtx}, ... */
    public String formatName() {
        return formatName;
    }

    /**
     * The format with command-line name {@code name}, ignoring case.
     *
     * @throws IllegalArgumentException naming the valid names when there is none
     */
    public static GraphFormat fromName(String name) {
        for (GraphFormat f : values()) {
            if (f.formatName.equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown graph format '" + name + "'; expected one of "
                + java.util.Arrays.stream(values()).map(GraphFormat::formatName).collect(java.util.stream.Collectors.joining(", ")));
    }

    /** This format, or for {@link #AUTO} the format {@link #detect} finds for {@code file}. */
    public GraphFormat resolve(Path file) throws IOException {
        return this == AUTO ? detect(file) : this;
    }

    /**
     * Finds the format of {@code file}. By extension: {@code .egr} EGR, {@code .mtx} MTX,
     * {@code .gr .col .clq} DIMACS, {@code .edges .el .tsv .csv} EDGES. For {@code .txt}, {@code .snap} and
     * unknown extensions, by content: a {@code %%MatrixMarket} banner means MTX; a binary file whose
     * size matches its {@code .egr} header means EGR; a first line starting with {@code c} or
     * {@code p} means DIMACS, with {@code #} SNAP, with {@code %} EDGES; otherwise (a first line of
     * numbers) SNAP for {@code .txt} and {@code .snap}, EDGES for anything else.
     *
     * @return a format other than {@link #AUTO}
     */
    public static GraphFormat detect(Path file) throws IOException {
        GraphFormat byName = ofExtension(file);
        return switch (byName) {
            case SNAP -> byContent(file, SNAP);
            case AUTO -> byContent(file, EDGES);
            default -> byName;
        };
    }

    /**
     * The format that the extension of {@code file} names ({@code .txt} and {@code .snap}: SNAP), or
     * {@link #AUTO} for any other extension.
     */
    static GraphFormat ofExtension(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = name.lastIndexOf('.');
        return switch (dot < 0 ? "" : name.substring(dot + 1)) {
            case "egr" -> EGR;
            case "mtx" -> MTX;
            case "gr", "col", "clq" -> DIMACS;
            case "edges", "el", "tsv", "csv" -> EDGES;
            case "txt", "snap" -> SNAP;
            default -> AUTO;
        };
    }

    private static GraphFormat byContent(Path file, GraphFormat numbers) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(4096);
        }
        String text = new String(head, StandardCharsets.ISO_8859_1);
        // A MatrixMarket banner, an .egr header that fits the file size, or the first line's start.
        if (text.startsWith("%%MatrixMarket")) {
            return MTX;
        }
        if (head.length >= 8) {
            ByteBuffer header = ByteBuffer.wrap(head, 0, 8).order(ByteOrder.LITTLE_ENDIAN);
            long n = header.getInt();
            long m = header.getInt();
            long size = Files.size(file);
            long plain = 8 + 4 * (n + 1) + 4 * m;
            if (n >= 0 && m >= 0 && (size == plain || size == plain + 4 * m)) {
                return EGR;
            }
        }
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            return switch (trimmed.charAt(0)) {
                case 'c', 'p' -> DIMACS;
                case '#' -> SNAP;
                case '%' -> EDGES;
                default -> numbers;
            };
        }
        return numbers;
    }
}
