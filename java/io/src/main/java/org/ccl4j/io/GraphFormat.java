package org.ccl4j.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.ccl4j.io.internal.Magic;
import org.ccl4j.io.internal.Source;


/**
 * The graph file formats that {@link GraphReader} reads and {@link GraphWriter} writes.
 *
 * <p>Each has a short name, as on command lines ({@link #formatName()}, {@link #fromName}). {@link #AUTO}
 * stands for "find out": by the first bytes (gzip is decompressed, unsupported formats refused by
 * name), then by extension, by content when the extension says nothing ({@link #detect(Path)}).
 *
 * <p>Every format may be gzip-compressed: readers recognise gzip by its first bytes, whatever the
 * extension, and read the content through {@link java.util.zip.GZIPInputStream}.
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
    /**
     * ccl4j's binary CSR ({@code .csr}): a checked header (magic bytes, version, flags, vertex and
     * arc counts, offset width, CRC-32), then little-endian offsets of 4 or 8 bytes ({@code [n+1]},
     * so more than 2^31 arcs) and {@code int32} neighbours ({@code [m]}), each array aligned to 8
     * bytes; memory-mapped when read. The byte layout is specified in docs/FORMATS.md of the source
     * repository.
     */
    CSR("csr"),
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
    /**
     * Plain edge list ({@code .edges .el .tsv .csv}): {@code #} or {@code %} comments, an optional
     * header line, pairs of ids separated by spaces, tabs or commas, each optionally followed by a
     * weight. Ids are 0-based vertex numbers when they all are; otherwise (text ids such as
     * {@code alice}, quoted CSV fields, ids of 2^31-1 and beyond) they are numbered in order of
     * first appearance ({@link GraphFile#vertexIds()}).
     */
    EDGES("edges");

    private final String formatName;

    GraphFormat(String formatName) {
        this.formatName = formatName;
    }

    /**
     * The name used on command lines: {@code auto}, {@code egr}, {@code mtx}, ...
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
    public static GraphFormat fromName(String name) {
        for (GraphFormat f : values()) {
            if (f.formatName.equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown graph format '" + name + "'; expected one of "
                + java.util.Arrays.stream(values()).map(GraphFormat::formatName).collect(java.util.stream.Collectors.joining(", ")));
    }

    /**
     * This format, or for {@link #AUTO} the format {@link #detect} finds for {@code file}.
     *
     * @param file the file
     * @return a format other than {@link #AUTO}
     * @throws GraphFormatException when {@code file} is of a format that ccl4j recognises but does
     *                              not read, or whose format cannot be detected
     * @throws IOException          when the file cannot be read
     */
    public GraphFormat resolve(Path file) throws IOException {
        if (this != AUTO) {
            return this;
        }
        try (Source source = Source.ofFile(file)) {
            return resolve(source, AUTO);
        } catch (Source.DamagedException e) {
            throw new GraphFormatException(file, -1, -1, e.getMessage(), e);
        }
    }

    /**
     * Finds the format of {@code file}. First by its first bytes: gzip-compressed files are
     * decompressed and their content is what the rest looks at (and {@code b.snap.gz} has the
     * extension {@code .snap}); a file that starts with the magic bytes of a {@code .csr} file is
     * one, whatever its name; formats that ccl4j recognises but does not read are refused by name
     * (images such as PNG, PGM, TIFF, JPEG; NumPy, NRRD, NIfTI, HDF5 and DICOM files; zip, tar,
     * 7-Zip archives; bzip2, zstd and xz data). Then by extension: {@code .egr} EGR, {@code .csr}
     * CSR (whose reader then refuses a file without the magic bytes), {@code .mtx}
     * MTX, {@code .gr .col .clq} DIMACS, {@code .edges .el .tsv .csv} EDGES. For {@code .txt},
     * {@code .snap} and unknown extensions, by content: a {@code %%MatrixMarket} banner means MTX; a
     * binary file whose size matches its {@code .egr} header means EGR; a first line starting with
     * {@code c} or {@code p} means DIMACS, with {@code #} SNAP, with {@code %} EDGES; otherwise (a
     * first line of numbers) SNAP for {@code .txt} and {@code .snap}, EDGES for anything else. A
     * binary file that is none of these is refused. A file whose size matches the {@code .egr}
     * header at its start is an {@code .egr} file whatever its first bytes look like, unless they
     * are those of a {@code .csr} file, whose own header states its size.
     *
     * @param file the file
     * @return a format other than {@link #AUTO}
     * @throws GraphFormatException when {@code file} is of a format that ccl4j recognises but does
     *                              not read, or whose format cannot be detected
     * @throws IOException          when the file cannot be read
     */
    public static GraphFormat detect(Path file) throws IOException {
        return AUTO.resolve(file);
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
            case "csr" -> CSR;
            case "mtx" -> MTX;
            case "gr", "col", "clq" -> DIMACS;
            case "edges", "el", "tsv", "csv" -> EDGES;
            case "txt", "snap" -> SNAP;
            default -> AUTO;
        };
    }

    /** What readers say the format is, in messages: "a Matrix Market file". */
    private String description() {
        return switch (this) {
            case EGR -> "an .egr file";
            case CSR -> "a .csr file";
            case MTX -> "a Matrix Market file";
            case SNAP -> "a SNAP edge list";
            case DIMACS -> "a DIMACS file";
            case EDGES -> "an edge list";
            case AUTO -> "a graph";
        };
    }

    private static final String READS = "ccl4j reads graphs as edge lists, SNAP, Matrix Market, DIMACS, .egr and "
            + ".csr files, plain or gzip-compressed";

    /**
     * The format to read {@code source} as, {@code requested} or, for {@link #AUTO}, the detected
     * one; decompresses {@code source} when it is gzip-compressed, and refuses the formats that
     * ccl4j recognises but does not read.
     */
    static GraphFormat resolve(Source source, GraphFormat requested) throws IOException {
        Path name = source.name();
        GraphFormat expected = requested != AUTO ? requested : ofExtension(source.contentName());
        Magic stored = Magic.of(source.storedHead(), source.storedHead().length);
        boolean egr = (requested == EGR || (requested == AUTO && stored != Magic.CSR))
                && egrFits(source.storedHead(), source.storedSize());
        Magic content = egr ? null : stored;
        boolean compressed = content == Magic.GZIP;
        if (compressed) {
            source.decompress();
            content = Magic.of(source.head(), source.head().length);
        }
        // a .csr file is the one recognised format that the graph reader reads
        if (content != null && (content != Magic.CSR || (requested != AUTO && requested != CSR))) {
            throw refusal(name, content, compressed, expected);
        }
        if (requested != AUTO) {
            return requested;
        }
        if (content == Magic.CSR) {
            return CSR;
        }
        GraphFormat byName = ofExtension(source.contentName());
        return switch (byName) {
            case SNAP -> byContent(source, SNAP);
            case AUTO -> byContent(source, EDGES);
            default -> byName;
        };
    }

    private static GraphFormatException refusal(Path name, Magic magic, boolean compressed, GraphFormat expected) {
        String advice = switch (magic) {
            case PNG, PGM, NETPBM -> "images are read as grids (GridReader), not as graphs";
            case CSR -> "read it as csr, or let its format be detected (auto)";
            default -> magic.advice("one of them");
        };
        return new GraphFormatException(name, -1, 0, "this is " + magic.description()
                + (compressed ? " inside gzip-compressed data" : "")
                + (expected == AUTO ? "" : ", not " + expected.description()) + "; " + READS + ": " + advice);
    }

    /** Whether {@code head} starts with the vertex and arc counts of an .egr header: two ints, not negative. */
    private static boolean egrCounts(byte[] head) {
        if (head.length < 8) {
            return false;
        }
        ByteBuffer header = ByteBuffer.wrap(head, 0, 8).order(ByteOrder.LITTLE_ENDIAN);
        return header.getInt() >= 0 && header.getInt() >= 0;
    }

    /** Whether {@code head} starts with an .egr header that the file's size matches, weights or not. */
    private static boolean egrFits(byte[] head, long size) {
        if (head.length < 8 || size < 0) {
            return false;
        }
        ByteBuffer header = ByteBuffer.wrap(head, 0, 8).order(ByteOrder.LITTLE_ENDIAN);
        long n = header.getInt();
        long m = header.getInt();
        long plain = 8 + 4 * (n + 1) + 4 * m;
        return n >= 0 && m >= 0 && (size == plain || size == plain + 4 * m);
    }

    private static GraphFormat byContent(Source source, GraphFormat numbers) throws IOException {
        byte[] head = source.head();
        String text = new String(head, StandardCharsets.ISO_8859_1);
        // A MatrixMarket banner, an .egr header that fits the file size, or the first line's start.
        if (text.startsWith("%%MatrixMarket")) {
            return MTX;
        }
        long size = source.contentSize();
        // Compressed content has no size yet: a binary head with counts that are not negative is
        // taken for an .egr header, and the reader checks the size once decompressed.
        if (size >= 0 ? egrFits(head, size) : binary(head) && egrCounts(head)) {
            return EGR;
        }
        if (binary(head)) {
            int at = firstControlByte(head);
            throw new GraphFormatException(source.name(), -1, at, String.format(Locale.ROOT, "the format cannot be "
                    + "detected: this is binary data (byte 0x%02x) but not an .egr file whose size fits its header; %s",
                    head[at] & 0xFF, READS));
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

    /** Whether {@code head} holds a NUL or another control byte that no text format has. */
    private static boolean binary(byte[] head) {
        return firstControlByte(head) >= 0;
    }

    private static int firstControlByte(byte[] head) {
        for (int i = 0; i < head.length; i++) {
            int b = head[i] & 0xFF;
            if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != 0x0B) {
                return i;
            }
        }
        return -1;
    }
}
