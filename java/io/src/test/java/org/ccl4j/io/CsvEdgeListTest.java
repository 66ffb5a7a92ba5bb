package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.ccl4j.io.TestSupport.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Edge lists as spreadsheets and databases write them: a header line, text ids, ids of 64 bits,
 * quoted fields; the file's ids numbered in order of first appearance and kept in
 * {@link GraphFile#vertexIds()}.
 */
class CsvEdgeListTest {
    @TempDir
    Path dir;

    private GraphFile read(String name, String text) throws IOException {
        return read(name, text, ReadOptions.defaults());
    }

    private GraphFile read(String name, String text, ReadOptions options) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return GraphReader.read(file, GraphFormat.AUTO, options, Arena.ofAuto());
    }

    /** The case: a CSV with a header line exited 3 ("expected source id, found 'source'"). */
    @Test
    void aHeaderLineIsSkippedAndNumericIdsStayVertexNumbers() throws IOException {
        for (String text : new String[] {"source,target\n4,2\n2,4\n0,1\n", "# c\n\n\"from\",\"to\",\"weight\"\n4,2,0.5\n0,1,1\n",
                "Source\tTarget\n4\t2\n0\t1\n", "u v\n4 2\n0 1\n"}) {
            GraphFile f = read("g.csv", text);
            assertEquals(GraphFormat.EDGES, f.format());
            assertNull(f.vertexIds(), "vertex numbers need no map");
            assertLists(new int[][] {{1}, {0}, {4}, {}, {2}}, f.graph());
        }
    }

    @Test
    void textIdsAreNumberedInOrderOfFirstAppearance() throws IOException {
        GraphFile f = read("people.csv", """
                person,friend
                alice,bob
                carol,alice
                "Smith, J.","O""Brien"
                bob,alice
                dave,dave
                """);
        assertEquals(GraphFormat.EDGES, f.format());
        assertLists(new int[][] {{1, 2}, {0}, {0}, {4}, {3}, {}}, f.graph());
        VertexIds ids = f.vertexIds();
        assertFalse(ids.isNumeric());
        assertNull(f.originalIds());
        assertFalse(f.hasOriginalIds());
        assertTrue(f.isRenumbered());
        assertEquals(6, ids.count());
        String[] expected = {"alice", "bob", "carol", "Smith, J.", "O\"Brien", "dave"};
        for (int v = 0; v < expected.length; v++) {
            assertEquals(expected[v], ids.id(v));
        }
        assertThrows(IllegalStateException.class, () -> ids.numericId(0));
        assertThrows(IndexOutOfBoundsException.class, () -> ids.id(6));
        Path csv = dir.resolve("people.ids.csv");
        ids.writeCsv(csv);
        assertEquals("vertex,id\n0,alice\n1,bob\n2,carol\n3,\"Smith, J.\"\n4,\"O\"\"Brien\"\n5,dave\n",
                Files.readString(csv));
        // the ids written beside the labels are read back as the same edges: write, read, compare
        MemorySegment labels = Arena.ofAuto().allocateFrom(ValueLayout.JAVA_INT, 0, 0, 0, 3, 3, 5);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        LabelWriter.writeText(labels, 6, ids, text);
        assertEquals("alice 0\nbob 0\ncarol 0\n\"Smith, J.\" 3\n\"O\"\"Brien\" 3\ndave 5\n", text.toString(StandardCharsets.UTF_8));
    }

    @Test
    void idsOf64BitsAreNumbered() throws IOException {
        GraphFile f = read("big.csv", "src,dst\n9000000000000000000,5\n5,2147483647\n2147483647,9000000000000000000\n");
        VertexIds ids = f.vertexIds();
        assertTrue(ids.isNumeric());
        assertTrue(f.hasOriginalIds());
        assertArrayEquals(new long[] {9_000_000_000_000_000_000L, 5, 2_147_483_647L},
                f.originalIds().toArray(ValueLayout.JAVA_LONG));
        assertEquals(2_147_483_647L, ids.numericId(2));
        assertEquals("5", ids.id(1));
        assertLists(new int[][] {{1, 2}, {0, 2}, {0, 1}}, f.graph());
        ByteArrayOutputStream csv = new ByteArrayOutputStream();
        ids.writeCsv(csv);
        assertEquals("vertex,id\n0,9000000000000000000\n1,5\n2,2147483647\n", csv.toString(StandardCharsets.US_ASCII));
    }

    /** Numbers first, text later: the file is read again with every id numbered, in order of first appearance. */
    @Test
    void textAfterNumbersNumbersEveryId() throws IOException {
        GraphFile f = read("mixed.edges", "10 20\n20 007\n7 x\n\"20\" y\n");
        VertexIds ids = f.vertexIds();
        assertFalse(ids.isNumeric());
        // 007 and 7 are the number 7; "20" quoted is the number 20
        assertEquals(5, ids.count());
        assertArrayEquals(new String[] {"10", "20", "7", "x", "y"},
                new String[] {ids.id(0), ids.id(1), ids.id(2), ids.id(3), ids.id(4)});
        assertLists(new int[][] {{1}, {0, 2, 4}, {1, 3}, {2}, {1}}, f.graph());
    }

    @Test
    void theHeaderOption() throws IOException {
        String noHeader = "alice,bob\nbob,carol\n";
        // detected: a first line of text is a header
        GraphFile detected = read("a.csv", noHeader);
        assertEquals(2, detected.graph().vertexCount());
        // said absent: it is an edge
        GraphFile absent = read("b.csv", noHeader, ReadOptions.defaults().withHeader(ReadOptions.Header.ABSENT));
        assertEquals(3, absent.graph().vertexCount());
        assertEquals("alice", absent.vertexIds().id(0));
        // said present: skipped even when it is numbers
        GraphFile present = read("c.csv", "0,1\n2,3\n", ReadOptions.defaults().withHeader(ReadOptions.Header.PRESENT));
        assertLists(new int[][] {{}, {}, {3}, {2}}, present.graph());
        assertEquals(ReadOptions.Header.DETECT, ReadOptions.defaults().header());
        assertEquals(ReadOptions.Header.ABSENT, new ReadOptions(true, 5).withHeader(ReadOptions.Header.ABSENT).header());
        // numbers with signs, fractions and exponents are data, not a header: their ids are then text
        GraphFile signed = read("d.csv", "-1,2.5\n2.5,1e3\n");
        assertEquals(3, signed.graph().vertexCount());
        assertEquals("-1", signed.vertexIds().id(0));
        // a header alone is the empty graph
        assertEquals(0, read("e.csv", "source,target\n").graph().vertexCount());
    }

    /** Many text ids across buffer refills and map growth; the numbering agrees with a HashMap's. */
    @Test
    void manyTextIds() throws IOException {
        StringBuilder text = new StringBuilder("from,to\n");
        int lines = 120_000;
        for (int i = 0; i < lines; i++) {
            text.append("user").append(i * 7919L % 100_003).append(',').append("item-").append(i % 5000).append('\n');
        }
        GraphFile f = read("many.csv", text.toString());
        Map<String, Integer> oracle = new HashMap<>();
        Set<Long> edges = new HashSet<>();
        for (int i = 0; i < lines; i++) {
            int u = oracle.computeIfAbsent("user" + i * 7919L % 100_003, k -> oracle.size());
            int v = oracle.computeIfAbsent("item-" + i % 5000, k -> oracle.size());
            edges.add((long) Math.min(u, v) << 32 | Math.max(u, v));
        }
        VertexIds ids = f.vertexIds();
        assertEquals(oracle.size(), ids.count());
        assertEquals(oracle.size(), f.graph().vertexCount());
        oracle.forEach((id, number) -> assertEquals(id, ids.id(number)));
        assertEquals(2L * edges.size(), f.graph().arcCount());
    }

    @Test
    void snapFilesKeepTheirRules() throws IOException {
        // SNAP ids are numbers (a header line is an error with advice), and .txt is SNAP
        Path file = write(dir, "g.txt", "from to\n1 2\n");
        GraphFormatException e = assertThrows(GraphFormatException.class,
                () -> GraphReader.read(file, Arena.ofAuto()));
        assertTrue(e.getMessage().contains("read it as an edge list (format edges)"), e::getMessage);
        GraphFile asEdges = GraphReader.read(file, GraphFormat.EDGES, ReadOptions.defaults(), Arena.ofAuto());
        assertLists(new int[][] {{}, {2}, {1}}, asEdges.graph());
    }
}
