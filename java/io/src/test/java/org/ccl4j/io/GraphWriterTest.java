package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.ccl4j.io.TestSupport.lists;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GraphWriterTest {
    @TempDir
    Path dir;

    /** A random graph with isolated vertices, the last one among them when {@code isolatedLast}. */
    private static CsrGraph randomGraph(Arena arena, long seed, boolean isolatedLast) {
        Random random = new Random(seed);
        int n = 200;
        GraphBuilder builder = new GraphBuilder().vertexCount(n);
        for (int i = 0; i < 300; i++) {
            builder.addEdge(random.nextInt(n - 1), random.nextInt(n - 1));
        }
        if (!isolatedLast) {
            builder.addEdge(n - 1, 3);
        }
        return builder.build(arena);
    }

    @ParameterizedTest
    @CsvSource({"g.egr, AUTO", "g.csr, AUTO", "g.mtx, AUTO", "g.gr, AUTO", "g.edges, AUTO", "g.el, EDGES",
            "g.bin, EGR", "g.dat, CSR"})
    void roundTrips(String name, GraphFormat format) throws IOException {
        for (boolean isolatedLast : new boolean[] {true, false}) {
            try (Arena arena = Arena.ofConfined()) {
                CsrGraph written = randomGraph(arena, 5, isolatedLast);
                Path file = dir.resolve(name);
                GraphWriter.write(written, file, format);
                GraphFile read = GraphReader.read(file, format, ReadOptions.defaults(), arena);
                assertLists(lists(written), read.graph());
            }
        }
    }

    @Test
    void snapRoundTripKeepingIds() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph written = randomGraph(arena, 9, true);
            Path file = dir.resolve("g.txt");
            GraphWriter.write(written, file, GraphFormat.AUTO);
            assertEquals('#', Files.readString(file).charAt(0));
            GraphFile read = GraphReader.read(file, GraphFormat.AUTO, new ReadOptions(true), arena);
            assertLists(lists(written), read.graph());
        }
    }

    @Test
    void writesTheDocumentedText() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = new GraphBuilder().vertexCount(4).addEdge(1, 0).addEdge(2, 1).build(arena);
            assertEquals("%%MatrixMarket matrix coordinate pattern symmetric\n4 4 2\n2 1\n3 2\n",
                    text(g, GraphFormat.MTX));
            assertEquals("# undirected graph: 4 vertices, 2 edges\n0 1\n1 2\n3 3\n", text(g, GraphFormat.EDGES));
            assertEquals("# undirected graph: 4 vertices, 2 edges\n0\t1\n1\t2\n3\t3\n", text(g, GraphFormat.SNAP));
            assertEquals("c undirected graph written by ccl4j: every edge as two arcs\np sp 4 4\n"
                    + "a 1 2 1\na 2 1 1\na 2 3 1\na 3 2 1\n", text(g, GraphFormat.DIMACS));
            ByteArrayOutputStream egr = new ByteArrayOutputStream();
            GraphWriter.write(g, GraphFormat.EGR, egr);
            ByteBuffer b = ByteBuffer.wrap(egr.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
            int[] ints = new int[b.remaining() / 4];
            b.asIntBuffer().get(ints);
            assertArrayEquals(new int[] {4, 4, 0, 1, 3, 4, 4, 1, 0, 2, 1}, ints);
        }
    }

    private static String text(CsrGraph g, GraphFormat format) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GraphWriter.write(g, format, out);
        return out.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void writesWideOffsetGraphsWhoseArcsFit() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph wide = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_LONG, 0, 1, 2),
                    Long.BYTES, arena.allocateFrom(ValueLayout.JAVA_INT, 1, 0));
            Path file = dir.resolve("wide.egr");
            GraphWriter.write(wide, file, GraphFormat.AUTO);
            CsrGraph read = GraphReader.read(file, arena).graph();
            assertEquals(4, read.offsetBytes());
            assertLists(new int[][] {{1}, {0}}, read);
        }
    }

    @Test
    void rejectsUnknownTargets() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = new GraphBuilder().addEdge(0, 1).build(arena);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GraphWriter.write(g, dir.resolve("g.unknown"), GraphFormat.AUTO));
            assertEquals("cannot tell a graph format from the name g.unknown: use .csr, .egr, .mtx, .gr, .txt, .snap, "
                    + ".edges, .el, .tsv or .csv, or name the format", e.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> GraphWriter.write(g, GraphFormat.AUTO, new ByteArrayOutputStream()));
        }
    }

    @Test
    void writesLabelsAsBinaryAndText() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment labels = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 0, 2, -1, 70000);
            Path binary = dir.resolve("labels.bin");
            LabelWriter.writeBinary(labels, 5, binary);
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(binary)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(20, b.remaining());
            int[] back = new int[5];
            b.asIntBuffer().get(back);
            assertArrayEquals(new int[] {0, 0, 2, -1, 70000}, back);

            Path text = dir.resolve("labels.txt");
            LabelWriter.writeText(labels, 4, (VertexIds) null, text);
            assertEquals("0 0\n1 0\n2 2\n3 -1\n", Files.readString(text));

            MemorySegment ids = arena.allocateFrom(ValueLayout.JAVA_LONG, 500, 9_000_000_000_000_000_001L, 7);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            LabelWriter.writeText(labels, 3, ids, out);
            assertEquals("500 0\n9000000000000000001 0\n7 2\n", out.toString(StandardCharsets.US_ASCII));

            assertThrows(IllegalArgumentException.class, () -> LabelWriter.writeBinary(labels, 6, binary));
            assertThrows(IllegalArgumentException.class, () -> LabelWriter.writeText(labels, 4, ids, text));
        }
    }

    @Test
    void labelsOfAReadSnapFileUseItsIds() throws IOException {
        Path file = TestSupport.write(dir, "g.txt", "10 20\n30 40\n");
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(file, arena);
            MemorySegment labels = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 0, 2, 2);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            LabelWriter.writeText(labels, f.graph().vertexCount(), f.originalIds(), out);
            assertEquals("10 0\n20 0\n30 2\n40 2\n", out.toString(StandardCharsets.US_ASCII));
        }
    }
}
