package org.ccl4j.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Objects;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;
import org.ccl4j.io.internal.Source;

/**
 * Reads graphs from files, standard input and other streams ({@link Input}) into off-heap
 * {@link CsrGraph}s.
 *
 * <p>Whatever the format, the graph comes out undirected and clean: every edge as two arcs, self
 * loops and repeated edges dropped, neighbour lists sorted ascending. Vertex counts:
 * <ul>
 * <li>{@link GraphFormat#EGR}: the header's. A file that is already clean (strictly increasing
 *     neighbour lists, no self loops, every arc's reverse present, as {@code .egr} files from ECL's
 *     converters are) is memory-mapped into the arena and used in place, without a copy: it must not
 *     change while the graph is in use (from a stream or compressed, it is copied into the arena
 *     instead). Any other is rebuilt through {@link GraphBuilder}. Telling
 *     them apart costs a sequential pass and a random-access pass over the arcs, both parallel, and
 *     4 bytes per vertex. Edge weights after the neighbour lists are accepted and ignored.</li>
 * <li>{@link GraphFormat#CSR}: the header's. Mapped in place as an {@code .egr} file is, with
 *     offsets of 4 or 8 bytes (more than 2^31 arcs). The header's fields are checked against each
 *     other, its checksum and the file's size before anything is mapped, and the arrays (offsets,
 *     neighbour ids) in one pass once mapped, whatever the file. A file whose canonical flag is set
 *     (what {@link GraphWriter} writes for a canonical graph) is used in place without the
 *     canonical test: its lists are taken to be sorted and symmetric, as the flag says. Symmetry,
 *     which the labels depend on, is checked anyway when a mapped graph is labelled (unless
 *     {@code LabelOptions.withCheckInput(false)}), and on demand by {@link CsrGraph#check()}. A file
 *     without the flag is tested and, if need be, rebuilt as an {@code .egr} file is.</li>
 * <li>{@link GraphFormat#MTX}: the matrix dimension; entry {@code (i, j)} is the edge
 *     {@code i-1 – j-1} whatever its value, explicit zeros included; symmetric files may store
 *     either triangle. Coordinate matrices of every field ({@code pattern}, {@code integer},
 *     {@code real}, {@code complex}) and symmetry ({@code general}, {@code symmetric},
 *     {@code skew-symmetric}, {@code hermitian}) are read. The values are not needed and are skipped
 *     unread, so what real files hold there is taken: {@code nan}, {@code inf}, {@code -Infinity},
 *     an {@code inf} in an {@code integer} file, a value column in a {@code pattern} file, the two
 *     parts of a complex value; more than two values on a line is an error. {@code array} (dense)
 *     and non-square matrices are rejected.</li>
 * <li>{@link GraphFormat#DIMACS}: {@code N} of the problem line {@code p sp N M} (shortest paths,
 *     {@code .gr}) or {@code p edge N M} / {@code p col N M} (cliques and colouring, {@code .col});
 *     an arc line {@code a u v w} or an edge line {@code e u v} is the edge {@code u-1 – v-1}, the
 *     weight optional and ignored; node lines {@code n v value} are skipped. The file must hold
 *     exactly {@code M} arc or edge lines.</li>
 * <li>{@link GraphFormat#SNAP}: by default the distinct ids (numbers up to {@code 2^63-1}) numbered
 *     {@code 0..n-1} in order of first appearance, with the file's ids in
 *     {@link GraphFile#vertexIds()}; with {@link ReadOptions#keepIds()} the largest id plus one.</li>
 * <li>{@link GraphFormat#EDGES}: when every id is a vertex number (an integer below
 *     {@link Integer#MAX_VALUE}), the largest id plus one, isolated vertices below the largest id
 *     included; this common case needs no map and is read in one pass. Otherwise (text ids such as
 *     {@code alice}, quoted CSV fields, ids of {@code 2^31-1} and beyond) the distinct ids numbered
 *     {@code 0..n-1} in order of first appearance, with the file's ids in
 *     {@link GraphFile#vertexIds()}: the reader meets the first such id, and reads the file again
 *     from the start (a stream's temporary copy, for standard input). Numeric ids are numbered in
 *     an off-heap map of 4 to 50 bytes an id; once an id is text, every id is kept as text in an
 *     off-heap map of its bytes plus 24 to 40 bytes an id (a hundred million ids of 10 bytes take
 *     3.4 to 5 GB), and {@link GraphFile#vertexIds()} holds the text plus 8 bytes an id in the
 *     arena.</li>
 * </ul>
 * In SNAP and EDGES files a line holds two ids and optionally one more number (a weight or time,
 * ignored); ids are separated by spaces, tabs or commas; SNAP comments start with {@code #}, EDGES
 * comments with {@code #} or {@code %}. An EDGES file may start with a header line, which is
 * skipped: by default the first line that is neither blank nor a comment when one of its first
 * two fields is not a number ({@code source,target}); {@link ReadOptions#withHeader} says otherwise.
 * EDGES ids may be text of up to 1000 bytes without control characters,
 * and fields in double quotes, as CSV writes them ({@code "Smith, J."}, {@code ""} for a quote).
 * Blank lines are skipped everywhere, and a file that holds only comments is an empty graph, but a
 * file of zero bytes is an error.
 *
 * <p>Every format may be gzip-compressed, recognised by its first bytes whatever the name (a
 * {@code .gz} extension is then dropped to find the format by the name): text is decompressed as
 * it is parsed, an {@code .egr} file into a temporary file first. Formats that ccl4j recognises by
 * their first bytes but does not read (images, volumes, archives, other compressors: see
 * {@link GraphFormat#detect}) are refused by name.
 *
 * <p>Malformed input raises a {@link GraphFormatException} that names the file, the line (text) or
 * byte offset (binary), the offending value and what is wrong with it. Nothing is allocated by what
 * a file claims beyond what its size justifies, so a bogus header or id fails fast instead of
 * exhausting memory: entry and arc counts in headers are never trusted for allocation, an
 * {@code .egr} header is checked against the file size before anything is mapped, and a vertex count
 * that a text header declares or that the largest id implies is accepted up to
 * {@link ReadOptions#vertexLimit} (isolated vertices are vertices, but a million per file and 16 per
 * byte beyond that, unless {@link ReadOptions#withMaxVertices} allows more). Text is parsed by hand
 * from a large buffer; the edges go off-heap at once, so the heap needed does not grow with the file.
 */
public final class GraphReader {
    private static final long EGR_HEADER_BYTES = 8;
    private static final String DIMACS_PROBLEMS = "'p sp N M', 'p edge N M' or 'p col N M'";

    private GraphReader() {
    }

    /**
     * Reads {@code file}, detecting its format, with the default options.
     *
     * @param file  the file
     * @param arena where the graph (and the file's ids, when they are renumbered) is allocated
     * @return the graph, its format and the file's ids
     * @throws GraphFormatException when the file does not follow the format, or is of a format that
     *                              ccl4j recognises but does not read
     * @throws IOException          when the file cannot be read
     */
    public static GraphFile read(Path file, Arena arena) throws IOException {
        return read(file, GraphFormat.AUTO, ReadOptions.defaults(), arena);
    }

    /**
     * Reads {@code file} as {@code format} ({@link GraphFormat#AUTO}: detected) into {@code arena}.
     *
     * @param file    the file, plain or gzip-compressed
     * @param format  the format, or {@link GraphFormat#AUTO} to detect it
     * @param options how to read it
     * @param arena   where the graph (and the file's ids, when they are renumbered) is allocated
     * @return the graph, its format and the file's ids
     * @throws GraphFormatException when the file does not follow the format, or is of a format that
     *                              ccl4j recognises but does not read
     * @throws IOException          when the file cannot be read
     */
    public static GraphFile read(Path file, GraphFormat format, ReadOptions options, Arena arena)
            throws IOException {
        return read(Input.of(Objects.requireNonNull(file, "file")), format, options, arena);
    }

    /**
     * Reads {@code input} (a file, standard input or another stream: see {@link Input}) as
     * {@code format} into {@code arena}. With {@link GraphFormat#AUTO} the format is detected as
     * {@link GraphFormat#detect(Path)} says; a stream has no extension, so only its content tells:
     * a Matrix Market banner, an {@code .egr} header that fits its size, the first character of
     * the first line (DIMACS, SNAP, EDGES), or else an edge list.
     *
     * @param input   the input, plain or gzip-compressed
     * @param format  the format, or {@link GraphFormat#AUTO} to detect it
     * @param options how to read it
     * @param arena   where the graph (and the file's ids, when they are renumbered) is allocated
     * @return the graph, its format and the file's ids; its {@link GraphFile#source()} is the input's
     *         {@link Input#name()}
     * @throws GraphFormatException when the input does not follow the format, is of a format that
     *                              ccl4j recognises but does not read, or its compressed data is
     *                              damaged
     * @throws IOException          when the input cannot be read
     */
    public static GraphFile read(Input input, GraphFormat format, ReadOptions options, Arena arena)
            throws IOException {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(arena, "arena");
        try (Source source = Source.of(input.file(), input.stream(), input.name())) {
            GraphFormat resolved = GraphFormat.resolve(source, format);
            Path name = source.name();
            return switch (resolved) {
                case EGR -> new GraphFile(readEgr(source, arena), name, resolved, (VertexIds) null);
                case CSR -> new GraphFile(readCsr(source, arena), name, resolved, (VertexIds) null);
                case MTX -> new GraphFile(readMatrixMarket(source, options, arena), name, resolved, (VertexIds) null);
                case DIMACS -> new GraphFile(readDimacs(source, options, arena), name, resolved, (VertexIds) null);
                case SNAP, EDGES -> readEdgeList(source, resolved, options, arena);
                case AUTO -> throw new AssertionError("resolve never returns AUTO");
            };
        } catch (Source.DamagedException e) {
            throw new GraphFormatException(input.name(), -1, -1, e.getMessage(), e);
        }
    }

    /** The text of {@code source}'s content, decompressed when it is compressed. */
    private static TextInput text(Source source, boolean commaSeparates) throws IOException {
        return new TextInput(source.name(), source.open(), source.contentSize(), commaSeparates);
    }

    // ---- ECL's binary CSR, and ccl4j's -------------------------------------------------------

    private static CsrGraph readEgr(Source source, Arena arena) throws IOException {
        Path file = source.name();
        try (FileChannel channel = FileChannel.open(source.contentFile(), StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < EGR_HEADER_BYTES) {
                throw new GraphFormatException(file, -1, size == 0 ? -1 : 0, size == 0 ? "the file is empty"
                        : "the file is " + size + " bytes, shorter than the 8-byte .egr header");
            }
            ByteBuffer header = ByteBuffer.allocate((int) EGR_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
                // read the 8 header bytes, however the channel splits them
            }
            int n = header.getInt(0);
            int m = header.getInt(4);
            if (n < 0) {
                throw new GraphFormatException(file, -1, 0, "vertex count " + n + " is negative");
            }
            if (m < 0) {
                throw new GraphFormatException(file, -1, 4, "arc count " + m + " is negative");
            }
            long neighborsAt = EGR_HEADER_BYTES + Integer.BYTES * ((long) n + 1);
            MappedCsr.Layout layout = new MappedCsr.Layout(n, m, Integer.BYTES, EGR_HEADER_BYTES, neighborsAt);
            long csrBytes = layout.end();
            if (size != csrBytes && size != csrBytes + Integer.BYTES * (long) m) {
                throw new GraphFormatException(file, -1, Math.min(size, csrBytes), "the file is " + size
                        + " bytes but its header (" + n + " vertices, " + m + " arcs) needs " + csrBytes
                        + " bytes (" + (csrBytes + Integer.BYTES * (long) m) + " with edge weights)"
                        + (size < csrBytes ? ": it is truncated" : ""));
            }
            return MappedCsr.read(source, channel, layout, false, arena);
        }
    }

    private static CsrGraph readCsr(Source source, Arena arena) throws IOException {
        try (FileChannel channel = FileChannel.open(source.contentFile(), StandardOpenOption.READ)) {
            CsrHeader header = CsrHeader.read(source.name(), channel);
            return MappedCsr.read(source, channel, header.layout(), header.canonical(), arena);
        }
    }

    // ---- Matrix Market --------------------------------------------------------------------------

    private static CsrGraph readMatrixMarket(Source source, ReadOptions options, Arena arena) throws IOException {
        try (TextInput in = text(source, false); GraphBuilder builder = new GraphBuilder()) {
            requireNonEmpty(in);
            String banner = in.readWord();
            if (!"%%MatrixMarket".equalsIgnoreCase(banner)) {
                throw in.error("expected the Matrix Market banner '%%MatrixMarket matrix coordinate <field> "
                        + "<symmetry>', found '" + (banner == null ? "" : banner) + "'");
            }
            String object = bannerWord(in, "object");
            if (!object.equals("matrix")) {
                throw in.error("unsupported Matrix Market object '" + object + "': only 'matrix' describes a graph");
            }
            String layout = bannerWord(in, "format");
            if (layout.equals("array")) {
                throw in.error("the Matrix Market 'array' (dense) format is not supported: use 'coordinate'");
            } else if (!layout.equals("coordinate")) {
                throw in.error("unknown Matrix Market format '" + layout + "': expected 'coordinate'");
            }
            String field = bannerWord(in, "field");
            switch (field) {
                case "pattern", "integer", "real", "double", "complex" -> {
                    // the values, if any, are not needed: an entry is an edge whatever its value
                }
                default -> throw in.error("unknown Matrix Market field '" + field
                        + "': expected pattern, integer, real or complex");
            }
            String symmetry = bannerWord(in, "symmetry");
            switch (symmetry) {
                case "general", "symmetric", "skew-symmetric", "hermitian" -> {
                    // an entry is an edge, and edges are undirected, whichever triangle holds it
                }
                default -> throw in.error("unknown Matrix Market symmetry '" + symmetry
                        + "': expected general, symmetric, skew-symmetric or hermitian");
            }
            if (!in.atLineEnd()) {
                throw in.error("unexpected '" + in.readWord() + "' after the Matrix Market banner");
            }
            in.nextLine();
            skipMatrixMarketComments(in);
            if (in.skipBlanks() == TextInput.EOF) {
                throw in.error("missing the size line 'rows columns entries'");
            }
            long sizeLine = in.line();
            VertexBound bound = new VertexBound(in, options, in.sizeKnown());
            long rows = in.readUnsigned("row count", Integer.MAX_VALUE);
            bound.check(rows, "row count", rows);
            long columns = in.readUnsigned("column count", Integer.MAX_VALUE);
            long entries = in.readUnsigned("entry count");
            if (!in.atLineEnd()) {
                throw in.error("unexpected '" + in.readWord() + "' after the size line 'rows columns entries'");
            }
            if (rows != columns) {
                throw in.errorAtLine(sizeLine, "the matrix is " + rows + " x " + columns
                        + ": a graph needs a square matrix");
            }
            builder.vertexCount((int) rows);
            in.nextLine();
            long read = 0;
            while (true) {
                skipMatrixMarketComments(in);
                if (in.skipBlanks() == TextInput.EOF) {
                    break;
                }
                if (read == entries) {
                    throw in.error("more entries than the " + entries + " declared on line " + sizeLine);
                }
                long i = in.readUnsigned("row index");
                if (i < 1 || i > rows) {
                    throw in.error("row index " + i + " is out of range 1.." + rows);
                }
                long j = in.readUnsigned("column index");
                if (j < 1 || j > rows) {
                    throw in.error("column index " + j + " is out of range 1.." + rows);
                }
                // The values are skipped unread: 1.5, -0, nan, inf, a value in a pattern file, the
                // two parts of a complex one. More than two tokens is not an entry, though.
                for (int values = 0; !in.atLineEnd(); values++) {
                    if (values == 2) {
                        throw in.error("unexpected '" + in.readWord() + "' after the entry: a line holds the row, "
                                + "the column and at most two values");
                    }
                    in.skipToken();
                }
                builder.addEdge((int) i - 1, (int) j - 1);
                read++;
                in.nextLine();
            }
            if (read < entries) {
                throw in.errorAtLine(in.line(), "the file ends after " + read + " of the " + entries
                        + " entries declared on line " + sizeLine);
            }
            bound.finish();
            return builder.build(arena);
        }
    }

    private static String bannerWord(TextInput in, String what) throws IOException {
        String word = in.readWord();
        if (word == null) {
            throw in.error("the Matrix Market banner ends before its " + what
                    + ": expected '%%MatrixMarket matrix coordinate <field> <symmetry>'");
        }
        return word.toLowerCase(Locale.ROOT);
    }

    private static void skipMatrixMarketComments(TextInput in) throws IOException {
        while (true) {
            int b = in.skipBlanks();
            if (b != '\n' && b != '%') {
                return;
            }
            in.nextLine();
        }
    }

    // ---- DIMACS: shortest paths, cliques and colouring -----------------------------------------

    /**
     * The DIMACS formats share their lines: {@code c} comments, one problem line, then one line per
     * edge, {@code a u v w} (shortest paths, {@code p sp}) or {@code e u v} (cliques and colouring,
     * {@code p edge} and {@code p col}, as in the {@code .col} benchmark files). Both kinds of edge
     * line are taken under every problem, with or without a weight (ignored), as JGraphT's importer
     * does; node lines {@code n v value} and {@code %} comments are skipped.
     */
    private static CsrGraph readDimacs(Source source, ReadOptions options, Arena arena) throws IOException {
        try (TextInput in = text(source, false); GraphBuilder builder = new GraphBuilder()) {
            requireNonEmpty(in);
            VertexBound bound = new VertexBound(in, options, in.sizeKnown());
            long n = -1;
            long declared = 0;
            long problemLine = -1;
            String counted = "edges";
            long edges = 0;
            while (true) {
                int b = in.skipBlanks();
                if (b == TextInput.EOF) {
                    break;
                }
                if (b == '\n' || b == 'c' || b == '%') {
                    in.nextLine();
                    continue;
                }
                String kind = in.readWord();
                if (kind.equals("a") || kind.equals("e")) {
                    String what = kind.equals("a") ? "arc" : "edge";
                    if (n < 0) {
                        throw in.error(what + " before the problem line (" + DIMACS_PROBLEMS + ")");
                    }
                    if (edges == declared) {
                        throw in.error("more " + counted + " than the " + declared + " declared on line " + problemLine);
                    }
                    long u = in.readUnsigned("tail vertex");
                    if (u < 1 || u > n) {
                        throw in.error("tail vertex " + u + " is out of range 1.." + n);
                    }
                    long v = in.readUnsigned("head vertex");
                    if (v < 1 || v > n) {
                        throw in.error("head vertex " + v + " is out of range 1.." + n);
                    }
                    if (in.skipToken() && !in.atLineEnd()) {
                        throw in.error("unexpected '" + in.readWord() + "' after the " + what + ": the line is '"
                                + kind + " u v' with at most one weight");
                    }
                    builder.addEdge((int) u - 1, (int) v - 1);
                    edges++;
                } else if (kind.equals("p")) {
                    if (n >= 0) {
                        throw in.error("a second problem line (the first is line " + problemLine + ")");
                    }
                    String problem = in.readWord();
                    if (!"sp".equals(problem) && !"edge".equals(problem) && !"col".equals(problem)) {
                        throw in.error("unsupported DIMACS problem '" + (problem == null ? "" : problem)
                                + "': expected " + DIMACS_PROBLEMS);
                    }
                    counted = problem.equals("sp") ? "arcs" : "edges";
                    problemLine = in.line();
                    n = in.readUnsigned("vertex count", Integer.MAX_VALUE);
                    bound.check(n, "vertex count", n);
                    declared = in.readUnsigned(problem.equals("sp") ? "arc count" : "edge count");
                    if (!in.atLineEnd()) {
                        throw in.error("unexpected '" + in.readWord() + "' after the problem line 'p " + problem
                                + " N M'");
                    }
                    builder.vertexCount((int) n);
                } else if (!kind.equals("n")) {
                    throw in.error("unknown DIMACS line type '" + kind + "': lines start with c, p, a, e or n");
                }
                in.nextLine();
            }
            if (n < 0) {
                throw new GraphFormatException(in.file(), -1, -1, "missing the problem line (" + DIMACS_PROBLEMS + ")");
            }
            if (edges < declared) {
                throw in.errorAtLine(in.line(), "the file ends after " + edges + " of the " + declared + " "
                        + counted + " declared on line " + problemLine);
            }
            bound.finish();
            return builder.build(arena);
        }
    }

    // ---- SNAP and plain edge lists ------------------------------------------------------------

    /** How an edge list's ids become vertices. */
    private enum Ids {
        /** SNAP with kept ids: ids are vertex numbers, and anything else is an error. */
        KEPT,
        /** EDGES, first: ids are vertex numbers while they all are; the first that is not restarts with NUMBERED. */
        VERTEX_NUMBERS,
        /** Ids numbered in order of first appearance: numbers (SNAP), numbers or text (EDGES). */
        NUMBERED
    }

    /** An EDGES id that is not a vertex number: the file is read again, its ids numbered. */
    private static final class NotVertexNumbers extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotVertexNumbers() {
            super(null, null, false, false);
        }
    }

    private static GraphFile readEdgeList(Source source, GraphFormat format, ReadOptions options, Arena arena)
            throws IOException {
        if (format == GraphFormat.SNAP) {
            return readEdgeList(source, format, options.keepIds() ? Ids.KEPT : Ids.NUMBERED, options, arena);
        }
        try {
            return readEdgeList(source, format, Ids.VERTEX_NUMBERS, options, arena);
        } catch (NotVertexNumbers e) {
            return readEdgeList(source, format, Ids.NUMBERED, options, arena);
        }
    }

    /**
     * Reads a SNAP or plain edge list. Plain edge lists ({@link GraphFormat#EDGES}) may start with a
     * header line, and take ids as vertex numbers while every id is one (the fast path: no map);
     * at the first id that is not, the file is read again from the start with its ids, numbers or
     * text, numbered in order of first appearance. Kept ids are bounded by the file's size only
     * at the end, since a later id may turn the file into one whose ids are numbered.
     */
    private static GraphFile readEdgeList(Source source, GraphFormat format, Ids ids, ReadOptions options,
                                          Arena arena) throws IOException {
        boolean edges = format == GraphFormat.EDGES;
        try (TextInput in = text(source, true); GraphBuilder builder = new GraphBuilder();
             Numbering numbering = ids == Ids.NUMBERED ? new Numbering() : null) {
            requireNonEmpty(in);
            VertexBound bound = ids == Ids.NUMBERED ? null : new VertexBound(in, options, ids == Ids.KEPT && in.sizeKnown());
            boolean firstLine = true;
            while (true) {
                int b = in.skipBlanks();
                if (b == TextInput.EOF) {
                    break;
                }
                if (b == '\n' || b == '#' || (b == '%' && edges)) {
                    in.nextLine();
                    continue;
                }
                boolean suspicious = false;
                if (firstLine) {
                    firstLine = false;
                    if (!edges) {
                        suspicious = in.atHeaderLine();
                    } else if (switch (options.header()) {
                        case DETECT -> in.atHeaderLine();
                        case PRESENT -> true;
                        case ABSENT -> false;
                    }) {
                        in.nextLine();
                        continue;
                    }
                }
                int u;
                int v;
                try {
                    u = vertex(in, "source id", ids, edges, numbering, bound);
                    v = vertex(in, "target id", ids, edges, numbering, bound);
                } catch (GraphFormatException e) {
                    // A SNAP file with a header line or text ids: the plain edge-list reader takes those.
                    throw suspicious ? new GraphFormatException(in.file(), e.line(), e.byteOffset(), e.reason()
                            + "; SNAP ids are numbers: read it as an edge list (format edges) to skip a header line"
                            + " and number text ids", e) : e;
                }
                if (!in.atLineEnd()) {
                    in.skipNumber("weight", false);
                    if (!in.atLineEnd()) {
                        throw in.error("unexpected '" + in.readWord()
                                + "': a line holds two vertex ids and at most one weight");
                    }
                }
                builder.addEdge(u, v);
                in.nextLine();
            }
            if (bound != null) {
                bound.finish();
            }
            CsrGraph graph = builder.build(arena);
            // every id numbered occurs in an edge, so the ids number the vertices exactly
            VertexIds vertexIds = numbering == null ? null : numbering.copyTo(arena);
            return new GraphFile(graph, source.name(), format, vertexIds);
        }
    }

    /** Reads the next id of an edge line and gives its vertex. */
    private static int vertex(TextInput in, String what, Ids ids, boolean edges, Numbering numbering,
                              VertexBound bound) throws IOException {
        switch (ids) {
            case KEPT -> {
                long id = in.readUnsigned(what, Integer.MAX_VALUE - 1);
                bound.check(id + 1, what, id);
                return (int) id;
            }
            case VERTEX_NUMBERS -> {
                long id = in.readId(what);
                if (id < 0 || id >= Integer.MAX_VALUE) {
                    throw new NotVertexNumbers();
                }
                bound.check(id + 1, what, id);
                return (int) id;
            }
            default -> {
                if (!edges) {
                    long id = in.readUnsigned(what);
                    return number(in, numbering.numberOf(id), id);
                }
                long id = in.readId(what);
                int number = id >= 0 ? numbering.numberOf(id) : numbering.numberOf(in.idText(), in.idLength());
                return number(in, number, id);
            }
        }
    }

    /**
     * The bound on the vertex count that headers declare and kept ids imply
     * ({@link ReadOptions#vertexLimit}): checked at once when the input's size is known, else (for
     * compressed input, and kept edge-list ids, which a later text id may make numbered) at the
     * end of the input, against the largest count seen, before anything is allocated for it.
     */
    private static final class VertexBound {
        private final TextInput in;
        private final ReadOptions options;
        private final long limit;
        private long largest = -1;
        private long line;
        private long offset;
        private String what;
        private long value;

        VertexBound(TextInput in, ReadOptions options, boolean now) {
            this.in = in;
            this.options = options;
            this.limit = now ? options.vertexLimit(in.fileSize()) : Long.MAX_VALUE;
        }

        /** {@code count} vertices asked for by the current token, {@code what} {@code value} ("row count 7"). */
        void check(long count, String what, long value) {
            if (count > limit) {
                throw tooManyVertices(in, in.line(), in.tokenOffset(), limit, count, what + " " + value);
            }
            if (count > largest) {
                largest = count;
                line = in.line();
                offset = in.tokenOffset();
                this.what = what;
                this.value = value;
            }
        }

        /** Checks the largest count against the bound of the whole input, once it has been read. */
        void finish() {
            long end = options.vertexLimit(in.fileSize());
            if (largest > end) {
                throw tooManyVertices(in, line, offset, end, largest, what + " " + value);
            }
        }
    }

    /**
     * The error, at the current token {@code value}, of a vertex count above {@code limit}
     * ({@link ReadOptions#vertexLimit}): the memory it would take is not justified by the file.
     */
    private static GraphFormatException tooManyVertices(TextInput in, long line, long offset, long limit, long count,
                                                        String value) {
        String size = in.sizeKnown() ? "a " + in.fileSize() + "-byte file"
                : "the " + in.fileSize() + " bytes that the input decompresses to";
        return new GraphFormatException(in.file(), line, offset, value + " means " + count + " vertices, more than "
                + size + " can justify (at most " + limit + "); if they are genuine, allow them with "
                + "ReadOptions.withMaxVertices(" + count + ")");
    }

    /** The number {@link Numbering} gave the current id ({@code id}, or -1 for text), or the error of one too many. */
    private static int number(TextInput in, int number, long id) {
        if (number < 0) {
            throw in.error("id " + (id >= 0 ? Long.toString(id) : "'" + new String(in.idText().asSlice(0, in.idLength())
                    .toArray(ValueLayout.JAVA_BYTE), java.nio.charset.StandardCharsets.UTF_8) + "'")
                    + " is new, but a graph holds at most " + Integer.MAX_VALUE + " vertices");
        }
        return number;
    }

    private static void requireNonEmpty(TextInput in) {
        if (in.isEmptyFile()) {
            throw new GraphFormatException(in.file(), -1, -1, "the file is empty");
        }
    }
}
