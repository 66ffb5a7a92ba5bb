package org.ccl4j.io;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.ccl4j.CsrGraph;

/**
 * Writes graphs in the formats that {@link GraphReader} reads, so that a graph read back is the
 * graph written (up to renumbering, for SNAP's default).
 *
 * <p>The graph is taken to be symmetric, as {@link CsrGraph} requires: the text formats that list
 * each edge once take it from its smaller endpoint (Matrix Market: the lower triangle, {@code row
 * >= column}), so an arc whose reverse is missing is not written. Self loops are written once.
 * <ul>
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
 */
public final class GraphWriter {
    private GraphWriter() {
    }

    /**
     * Writes {@code graph} to {@code file}, replacing it, in {@code format}; {@link GraphFormat#AUTO}
     * picks the format from the extension ({@code .egr .mtx .gr .txt .snap .edges .el .tsv .csv}).
     *
     * @throws IllegalArgumentException when AUTO meets an unknown extension, or the graph does not
     *                                  fit the format
     */
    public static void write(CsrGraph graph, Path file, GraphFormat format) throws IOException {
        Objects.requireNonNull(graph, "graph");
        GraphFormat resolved = format == GraphFormat.AUTO ? GraphFormat.ofExtension(file) : format;
        if (resolved == GraphFormat.AUTO) {
            throw new IllegalArgumentException("cannot tell a graph format from the name " + file.getFileName()
                    + ": use .egr, .mtx, .gr, .txt, .snap, .edges, .el, .tsv or .csv, or name the format");
        }
        checkFits(graph, resolved);
        try (OutputStream out = Files.newOutputStream(file)) {
            write(graph, resolved, out);
        }
    }

    /**
     * Writes {@code graph} to {@code out} in {@code format} (not {@link GraphFormat#AUTO}); flushes
     * {@code out} but leaves it open.
     */
    public static void write(CsrGraph graph, GraphFormat format, OutputStream out) throws IOException {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(out, "out");
        if (format == GraphFormat.AUTO) {
            throw new IllegalArgumentException("name the format to write to a stream, not AUTO");
        }
        checkFits(graph, format);
        OutputBuffer buffer = new OutputBuffer(out);
        switch (format) {
            case EGR -> writeEgr(graph, buffer);
            case MTX -> writeMatrixMarket(graph, buffer);
            case DIMACS -> writeDimacs(graph, buffer);
            case SNAP -> writeEdgeList(graph, buffer, '\t');
            case EDGES -> writeEdgeList(graph, buffer, ' ');
            case AUTO -> throw new AssertionError("checked above");
        }
        buffer.flush();
    }

    private static void checkFits(CsrGraph graph, GraphFormat format) {
        if (format == GraphFormat.EGR && graph.arcCount() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the graph has " + graph.arcCount() + " arcs, but an .egr file "
                    + "holds at most " + Integer.MAX_VALUE + " (32-bit offsets): write another format");
        }
    }

    private static void writeEgr(CsrGraph graph, OutputBuffer out) throws IOException {
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
        out.writeIntsLittleEndian(graph.neighbors(), 0, graph.arcCount());
    }

    private static void writeMatrixMarket(CsrGraph graph, OutputBuffer out) throws IOException {
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
        }
    }

    private static void writeDimacs(CsrGraph graph, OutputBuffer out) throws IOException {
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
        }
    }

    private static void writeEdgeList(CsrGraph graph, OutputBuffer out, char separator) throws IOException {
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
