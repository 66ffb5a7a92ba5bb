package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.ccl4j.io.TestSupport.lists;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;
import org.ccl4j.LabelOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code .csr} format as docs/FORMATS.md specifies it: the bytes the writer writes, the
 * canonical flag it sets only for canonical graphs, what the reader does with a file with the flag
 * (maps it in place without the canonical test) and without (tests it, rebuilds it if need be),
 * detection by the magic bytes, and the progress of a write.
 */
class CsrFileTest {
    @TempDir
    Path dir;

    /** The triangle 0-1-2 and the isolated vertex 3. */
    private static CsrGraph triangle(Arena arena) {
        return new GraphBuilder().vertexCount(4).addEdge(0, 1).addEdge(1, 2).addEdge(2, 0).build(arena);
    }

    private static byte[] written(CsrGraph graph) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GraphWriter.write(graph, GraphFormat.CSR, out);
        return out.toByteArray();
    }

    private Path file(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    @Test
    void theWriterWritesTheSpecifiedBytes() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            long[] offsets = {0, 2, 4, 6, 6};
            int[] neighbors = {1, 2, 0, 2, 0, 1};
            assertArrayEquals(new CsrBytes(offsets, neighbors).canonical().bytes(), written(triangle(arena)));
            CsrGraph wide = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_LONG, offsets), Long.BYTES,
                    arena.allocateFrom(ValueLayout.JAVA_INT, neighbors));
            assertArrayEquals(new CsrBytes(offsets, neighbors).width(8).canonical().bytes(), written(wide));
            CsrGraph empty = new GraphBuilder().build(arena);
            assertArrayEquals(new CsrBytes(new long[] {0}, new int[0]).canonical().bytes(), written(empty));
        }
    }

    /** The flag says what the lists are; a graph that is not canonical is written as it is, without it. */
    @Test
    void onlyACanonicalGraphIsFlagged() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            long[] offsets = {0, 2, 3, 4};
            List<int[]> notCanonical = List.of(
                    new int[] {2, 1, 0, 0},  // a list out of order
                    new int[] {1, 1, 0, 0},  // a repeated arc (0 -> 1 twice, 1 -> 0 once)
                    new int[] {0, 1, 0, 0},  // a self loop
                    new int[] {1, 2, 0, 1}); // 0 -> 2 without 2 -> 0
            for (int[] neighbors : notCanonical) {
                CsrGraph g = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_INT, 0, 2, 3, 4), Integer.BYTES,
                        arena.allocateFrom(ValueLayout.JAVA_INT, neighbors));
                assertArrayEquals(new CsrBytes(offsets, neighbors).bytes(), written(g));
            }
            CsrGraph canonical = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_INT, 0, 2, 3, 4), Integer.BYTES,
                    arena.allocateFrom(ValueLayout.JAVA_INT, 1, 2, 0, 0));
            assertArrayEquals(new CsrBytes(offsets, new int[] {1, 2, 0, 0}).canonical().bytes(), written(canonical));
        }
    }

    @Test
    void aFlaggedFileIsMappedInPlace() throws IOException {
        for (int width : new int[] {4, 8}) {
            Path file = file("g" + width + ".csr", new CsrBytes(new long[] {0, 2, 4, 6, 6}, new int[] {1, 2, 0, 2, 0, 1})
                    .width(width).canonical().bytes());
            try (Arena arena = Arena.ofConfined()) {
                GraphFile f = GraphReader.read(file, arena);
                assertEquals(GraphFormat.CSR, f.format());
                assertEquals(width, f.graph().offsetBytes());
                assertTrue(f.graph().neighbors().isMapped(), "a flagged .csr is used in place");
                assertTrue(f.graph().offsets().isMapped());
                assertLists(new int[][] {{1, 2}, {0, 2}, {0, 1}, {}}, f.graph());
            }
        }
    }

    /**
     * The reader takes the flag at its word (no canonical test on open): lists out of order stay
     * so. Symmetry, which labels depend on, is what labelling checks anyway: a flagged file that
     * lacks a reverse arc is read, but refused by the labeller and by {@link CsrGraph#check()}.
     */
    @Test
    void aFlagThatLiesIsCaughtWhereItMatters() throws IOException {
        Path unsorted = file("unsorted.csr", new CsrBytes(new long[] {0, 2, 3, 4}, new int[] {2, 1, 0, 0}).canonical()
                .bytes());
        Path asymmetric = file("asymmetric.csr", new CsrBytes(new long[] {0, 2, 3, 4}, new int[] {1, 2, 0, 1})
                .canonical().bytes());
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create()) {
            CsrGraph g = GraphReader.read(unsorted, arena).graph();
            assertLists(new int[][] {{2, 1}, {0}, {0}}, g);
            assertEquals(0, labeler.label(g).get(2));
            CsrGraph lying = GraphReader.read(asymmetric, arena).graph();
            assertTrue(lying.neighbors().isMapped());
            assertTrue(assertThrows(IllegalArgumentException.class, () -> labeler.label(lying)).getMessage()
                    .contains("not symmetric"));
            assertThrows(IllegalArgumentException.class, lying::check);
            // unchecked at the caller's word, as for any wrapped graph
            labeler.label(lying, LabelOptions.defaults().withCheckInput(false), arena);
        }
    }

    /** Without the flag the file is tested as an .egr file is: used in place when canonical, else rebuilt. */
    @Test
    void anUnflaggedFileIsTestedAndRebuiltWhenNotCanonical() throws IOException {
        Path clean = file("clean.csr", new CsrBytes(new long[] {0, 2, 4, 6, 6}, new int[] {1, 2, 0, 2, 0, 1}).bytes());
        Path messy = file("messy.csr", new CsrBytes(new long[] {0, 3, 4, 4}, new int[] {2, 0, 2, 0}).width(8).bytes());
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = GraphReader.read(clean, arena).graph();
            assertTrue(g.neighbors().isMapped());
            assertLists(new int[][] {{1, 2}, {0, 2}, {0, 1}, {}}, g);
            CsrGraph rebuilt = GraphReader.read(messy, arena).graph();
            assertFalse(rebuilt.neighbors().isMapped());
            // 0 -> 2 twice, a self loop at 0, 1 -> 0 without its reverse: symmetrised, loops and repeats dropped
            assertLists(new int[][] {{1, 2}, {0}, {0}}, rebuilt);
        }
    }

    /** Its magic bytes make a .csr file one whatever its name; another format asked for is refused by name. */
    @Test
    void theMagicBytesTellTheFormat() throws IOException {
        byte[] bytes = new CsrBytes(new long[] {0, 1, 2}, new int[] {1, 0}).canonical().bytes();
        for (String name : new String[] {"g.bin", "g.txt", "g.egr", "g.mtx", "graph"}) {
            Path file = file(name, bytes);
            assertEquals(GraphFormat.CSR, GraphFormat.detect(file), name);
            try (Arena arena = Arena.ofConfined()) {
                assertLists(new int[][] {{1}, {0}}, GraphReader.read(file, arena).graph());
            }
        }
        Path file = dir.resolve("g.bin");
        GraphFormatException e = assertThrows(GraphFormatException.class, () -> {
            try (Arena arena = Arena.ofConfined()) {
                GraphReader.read(file, GraphFormat.MTX, ReadOptions.defaults(), arena);
            }
        });
        assertEquals(file + ": at byte 0: this is a ccl4j .csr graph, not a Matrix Market file; ccl4j reads graphs"
                + " as edge lists, SNAP, Matrix Market, DIMACS, .egr and .csr files, plain or gzip-compressed: read it"
                + " as csr, or let its format be detected (auto)", e.getMessage());
    }

    @Test
    void standardInputIsCopiedIntoTheArena() throws IOException {
        byte[] bytes = new CsrBytes(new long[] {0, 1, 2}, new int[] {1, 0}).width(8).canonical().bytes();
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(Input.of(new ByteArrayInputStream(bytes), "(upload)"), GraphFormat.AUTO,
                    ReadOptions.defaults(), arena);
            assertEquals(GraphFormat.CSR, f.format());
            assertFalse(f.graph().neighbors().isMapped(), "a stream's temporary copy is deleted: the graph is copied");
            assertEquals(8, f.graph().offsetBytes());
            assertLists(new int[][] {{1}, {0}}, f.graph());
        }
    }

    /** The progress of a write: every 2^20 arcs or so, and all of them at the end. */
    @Test
    void aWriteTellsItsProgress() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GraphBuilder builder = new GraphBuilder().vertexCount(1 << 20);
            for (int v = 1; v < 1 << 20; v++) {
                builder.addEdge(v - 1, v);
            }
            CsrGraph path = builder.build(arena);
            for (GraphFormat format : new GraphFormat[] {GraphFormat.CSR, GraphFormat.EDGES}) {
                List<Long> told = new ArrayList<>();
                GraphWriter.write(path, dir.resolve("path." + format.formatName()), format, told::add);
                assertEquals(path.arcCount(), told.get(told.size() - 1), format + ": " + told);
                assertTrue(told.size() >= 2, format + ": " + told);
                for (int i = 1; i < told.size(); i++) {
                    assertTrue(told.get(i) > told.get(i - 1), format + ": " + told);
                }
            }
        }
    }

    @Test
    void theFormatOfAFileToWriteIsItsExtensions() {
        assertEquals(GraphFormat.CSR, GraphWriter.formatOf(Path.of("a/g.CSR")));
        assertEquals(GraphFormat.EDGES, GraphWriter.formatOf(Path.of("g.el")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GraphWriter.formatOf(Path.of("g.bin")));
        assertEquals("cannot tell a graph format from the name g.bin: use .csr, .egr, .mtx, .gr, .txt, .snap, .edges,"
                + " .el, .tsv or .csv, or name the format", e.getMessage());
    }

    @Test
    void aGraphReadBackIsTheGraphWritten() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = triangle(arena);
            Path file = dir.resolve("t.csr");
            GraphWriter.write(g, file, GraphFormat.AUTO);
            assertLists(lists(g), GraphReader.read(file, arena).graph());
        }
    }
}
