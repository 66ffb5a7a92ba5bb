package org.ccl4j.io;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongConsumer;
import org.ccl4j.CsrGraph;

/**
 * Writes graphs in the formats that {@link GraphReader} reads, so that a graph read back is the
 * graph written (up to renumbering, for SNAP's default).
 *
 * <p>The graph is taken to be symmetric, as {@link CsrGraph} requires: the text formats that list
 * each edge once take it from its smaller endpoint (Matrix Market: the lower triangle, {@code row
 * >= column}), so an arc whose reverse is missing is not written. Self loops are written once.
 * <ul>
 * <li>{@link GraphFormat#CSR}: the CSR as it is, offsets as wide as the graph's
 *     ({@link CsrGraph#offsetBytes()}), with the canonical flag set when the graph is canonical (each
 *     list strictly increasing without self loops, every arc's reverse present: tested before the
 *     header is written, a parallel pass for a graph in shared or global memory), so that the
 *     reader uses the file without testing it again. See docs/FORMATS.md.</li>
 * <li>{@link GraphFormat#EGR}: the CSR as it is, little-endian; only for graphs whose arc count fits
 *     ECL's 32-bit offsets.</li>
 * <li>{@link GraphFormat#MTX}: {@code coordinate pattern symmetric}, 1-based.</li>
 * <li>{@link GraphFormat#DIMACS}: {@code p sp n m} and every arc as {@code a u v 1}, 1-based.</li>
 * <li>{@link GraphFormat#EDGES} and {@link GraphFormat#SNAP}: a {@code #} comment with the counts, then
 *     {@code u v} (SNAP: tab-separated) per edge, 0-based. As the reader takes the vertex count from
 *     the largest id, an isolated last vertex {@code n-1} is written as the self loop
 *     {@code n-1 n-1}, which the reader drops after counting the vertex. (Isolated vertices do not
 *     survive SNAP's default renumbering, which only sees ids that occur.)</li>
 * </ul>
 * Every format streams from the graph's memory through a small buffer: writing takes no second
 * copy of the graph. A file is written in place; a caller that must never leave a partial file
 * writes to a temporary one and moves it (as the command line does).
 */
public final class GraphWriter {
    /** How many arcs are written between two reports of the progress. */
    private static final long PROGRESS_ARCS = 1 << 20;

    private GraphWriter() {
    }

    /**
     * The format that {@link #write(CsrGraph, Path, GraphFormat)} writes to {@code file} when told
     * {@link GraphFormat#AUTO}: the one its extension names.
     *
     * @param file the file to write
     * @return a format other than {@link GraphFormat#AUTO}
     * @throws IllegalArgumentException when the extension names no format
     */
    public static GraphFormat formatOf(Path file) {
        GraphFormat format = GraphFormat.ofExtension(Objects.requireNonNull(file, "file"));
        if (format == GraphFormat.AUTO) {
            throw new IllegalArgumentException("cannot tell a graph format from the name " + file.getFileName()
                    + ": use .csr, .egr, .mtx, .gr, .txt, .snap, .edges, .el, .tsv or .csv, or name the format");
        }
        return format;
    }

    /**
     * Writes {@code graph} to {@code file}, replacing it, in {@code format}; {@link GraphFormat#AUTO}
     * picks the format from the extension ({@link #formatOf}).
     *
     * @param graph  the graph
     * @param file   the file, created or replaced
     * @param format the format, or {@link GraphFormat#AUTO}
     * @throws IllegalArgumentException when AUTO meets an unknown extension, or the graph does not
     *                                  fit the format (the file is then untouched)
     * @throws IOException              when the file cannot be written
     */
    public static void write(CsrGraph graph, Path file, GraphFormat format) throws IOException {
        write(graph, file, format, arcs -> { });
    }

    /**
     * As {@link #write(CsrGraph, Path, GraphFormat)}, telling {@code arcsWritten} how many of the
     * graph's arcs are written, now and then (every 2^20 arcs or so, and once all are), on the
     * calling thread: a long write can show its progress.
     *
     * @param graph       the graph
     * @param file        the file, created or replaced
     * @param format      the format, or {@link GraphFormat#AUTO}
     * @param arcsWritten told the arcs written so far
     * @throws IllegalArgumentException when AUTO meets an unknown extension, or the graph does not
     *                                  fit the format (the file is then untouched)
     * @throws IOException              when the file cannot be written
     */
    public static void write(CsrGraph graph, Path file, GraphFormat format, LongConsumer arcsWritten)
            throws IOException {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(arcsWritten, "arcsWritten");
        GraphFormat resolved = format == GraphFormat.AUTO ? formatOf(file) : format;
        checkFits(graph, resolved);
        try (OutputStream out = Files.newOutputStream(file)) {
            write(graph, resolved, out, arcsWritten);
        }
    }

    /**
     * Writes {@code graph} to {@code out} in {@code format} (not {@link GraphFormat#AUTO}); flushes
     * {@code out} but leaves it open.
     *
     * @param graph  the graph
     * @param format the format
     * @param out    the stream
     * @throws IllegalArgumentException for AUTO, or a graph that does not fit the format
     * @throws IOException              when the stream cannot be written
     */
    public static void write(CsrGraph graph, GraphFormat format, OutputStream out) throws IOException {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(out, "out");
        if (format == GraphFormat.AUTO) {
            throw new IllegalArgumentException("name the format to write to a stream, not AUTO");
        }
        checkFits(graph, format);
        write(graph, format, out, arcs -> { });
    }

    private static void write(CsrGraph graph, GraphFormat format, OutputStream out, LongConsumer arcsWritten)
            throws IOException {
        OutputBuffer buffer = new OutputBuffer(out);
        Progress progress = new Progress(arcsWritten);
        switch (format) {
            case CSR -> writeCsr(graph, buffer, progress);
            case EGR -> writeEgr(graph, buffer, progress);
            case MTX -> writeMatrixMarket(graph, buffer, progress);
            case DIMACS -> writeDimacs(graph, buffer, progress);
            case SNAP -> writeEdgeList(graph, buffer, '\t', progress);
            case EDGES -> writeEdgeList(graph, buffer, ' ', progress);
            case AUTO -> throw new AssertionError("resolved by the callers");
        }
        buffer.flush();
        progress.finish(graph.arcCount());
    }

    private static void checkFits(CsrGraph graph, GraphFormat format) {
        if (format == GraphFormat.EGR && graph.arcCount() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the graph has " + graph.arcCount() + " arcs, but an .egr file "
                    + "holds at most " + Integer.MAX_VALUE + " (32-bit offsets): write another format (csr)");
        }
    }

    /** Tells the caller the arcs written, each time another {@link #PROGRESS_ARCS} are, and once all are. */
    private static final class Progress {
        private final LongConsumer arcsWritten;
        private long told = -1;
        private long next = PROGRESS_ARCS;

        Progress(LongConsumer arcsWritten) {
            this.arcsWritten = arcsWritten;
        }

        /** The arcs before {@code arcs} are written. */
        void at(long arcs) {
            if (arcs >= next) {
                tell(arcs);
                next = arcs + PROGRESS_ARCS;
            }
        }

        /** All {@code arcs} are written. */
        void finish(long arcs) {
            if (told != arcs) {
                tell(arcs);
            }
        }

        private void tell(long arcs) {
            arcsWritten.accept(arcs);
            told = arcs;
        }
    }

    private static void writeCsr(CsrGraph graph, OutputBuffer out, Progress progress) throws IOException {
        CsrHeader header = CsrHeader.of(graph, CanonicalCheck.isCanonical(graph));
        out.writeBytes(header.bytes());
        long offsets = graph.vertexCount() + 1L;
        if (graph.offsetBytes() == Integer.BYTES) {
            out.writeIntsLittleEndian(graph.offsets(), 0, offsets);
        } else {
            out.writeLongsLittleEndian(graph.offsets(), 0, offsets);
        }
        out.writeBytes(new byte[header.padding()]);
        writeNeighbors(graph, out, progress);
    }

    private static void writeEgr(CsrGraph graph, OutputBuffer out, Progress progress) throws IOException {
        int n = graph.vertexCount();
        out.writeIntLittleEndian(n);
        out.writeIntLittleEndian((int) graph.arcCount());
        if (graph.offsetBytes() == Integer.BYTES) {
            out.writeIntsLittleEndian(graph.offsets(), 0, (long) n + 1);
        } else {
            for (int v = 0; v <= n; v++) {
                out.writeIntLittleEndian((int) graph.offset(v));
            }
        }
        writeNeighbors(graph, out, progress);
    }

    private static void writeNeighbors(CsrGraph graph, OutputBuffer out, Progress progress) throws IOException {
        MemorySegment neighbors = graph.neighbors();
        for (long from = 0; from < graph.arcCount(); from += PROGRESS_ARCS) {
            long count = Math.min(PROGRESS_ARCS, graph.arcCount() - from);
            out.writeIntsLittleEndian(neighbors, from, count);
            progress.at(from + count);
        }
    }

    private static void writeMatrixMarket(CsrGraph graph, OutputBuffer out, Progress progress) throws IOException {
        int n = graph.vertexCount();
        out.writeAscii("%%MatrixMarket matrix coordinate pattern symmetric\n");
        out.writeDecimal(n);
        out.writeByte(' ');
        out.writeDecimal(n);
        out.writeByte(' ');
        out.writeDecimal(countLowerArcs(graph));
        out.writeByte('\n');
        MemorySegment neighbors = graph.neighbors();
        for (int u = 0; u < n; u++) {
            long end = graph.offset(u + 1);
            for (long a = graph.offset(u); a < end; a++) {
                int t = neighbors.getAtIndex(ValueLayout.JAVA_INT, a);
                if (t <= u) {
                    out.writeDecimal(u + 1L);
                    out.writeByte(' ');
                    out.writeDecimal(t + 1L);
                    out.writeByte('\n');
                }
            }
            progress.at(end);
        }
    }

    private static void writeDimacs(CsrGraph graph, OutputBuffer out, Progress progress) throws IOException {
        int n = graph.vertexCount();
        out.writeAscii("c undirected graph written by ccl4j: every edge as two arcs\np sp ");
        out.writeDecimal(n);
        out.writeByte(' ');
        out.writeDecimal(graph.arcCount());
        out.writeByte('\n');
        MemorySegment neighbors = graph.neighbors();
        for (int u = 0; u < n; u++) {
            long end = graph.offset(u + 1);
            for (long a = graph.offset(u); a < end; a++) {
                out.writeAscii("a ");
                out.writeDecimal(u + 1L);
                out.writeByte(' ');
                out.writeDecimal(neighbors.getAtIndex(ValueLayout.JAVA_INT, a) + 1L);
                out.writeAscii(" 1\n");
            }
            progress.at(end);
        }
    }

    private static void writeEdgeList(CsrGraph graph, OutputBuffer out, char separator, Progress progress)
            throws IOException {
        int n = graph.vertexCount();
        out.writeAscii("# undirected graph: " + n + " vertices, " + countLowerArcs(graph) + " edges\n");
        MemorySegment neighbors = graph.neighbors();
        for (int u = 0; u < n; u++) {
            long end = graph.offset(u + 1);
            for (long a = graph.offset(u); a < end; a++) {
                int t = neighbors.getAtIndex(ValueLayout.JAVA_INT, a);
                if (t >= u) {
                    writePair(out, u, t, separator);
                }
            }
            progress.at(end);
        }
        if (n > 0 && graph.degree(n - 1) == 0) {
            writePair(out, n - 1, n - 1, separator);
        }
    }

    private static void writePair(OutputBuffer out, int u, int v, char separator) throws IOException {
        out.writeDecimal(u);
        out.writeByte(separator);
        out.writeDecimal(v);
        out.writeByte('\n');
    }

    /** The number of arcs {@code u -> t} with {@code t <= u}: the edges of a symmetric graph. */
    private static long countLowerArcs(CsrGraph graph) {
        MemorySegment neighbors = graph.neighbors();
        long count = 0;
        for (int u = 0; u < graph.vertexCount(); u++) {
            long end = graph.offset(u + 1);
            for (long a = graph.offset(u); a < end; a++) {
                if (neighbors.getAtIndex(ValueLayout.JAVA_INT, a) <= u) {
                    count++;
                }
            }
        }
        return count;
    }
}
