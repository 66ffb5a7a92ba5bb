package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.ccl4j.io.TestSupport.lists;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every graph format reads gzip-compressed, recognised by gzip's magic number whatever the name
 * says: the same graph (and ids) as the plain file.
 */
class GzipInputTest {
    @TempDir
    Path dir;

    private static CsrGraph randomGraph(Arena arena, long seed) {
        Random random = new Random(seed);
        GraphBuilder builder = new GraphBuilder().vertexCount(300);
        for (int i = 0; i < 400; i++) {
            builder.addEdge(random.nextInt(300), random.nextInt(300));
        }
        return builder.build(arena);
    }

    private static String extension(GraphFormat format) {
        return switch (format) {
            case EGR -> ".egr";
            case CSR -> ".csr";
            case MTX -> ".mtx";
            case DIMACS -> ".gr";
            case SNAP -> ".txt";
            case EDGES -> ".edges";
            case AUTO -> throw new AssertionError();
        };
    }

    @ParameterizedTest
    @EnumSource(value = GraphFormat.class, names = "AUTO", mode = EnumSource.Mode.EXCLUDE)
    void everyFormatRoundTripsGzipped(GraphFormat format) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph written = randomGraph(arena, format.ordinal());
            ByteArrayOutputStream plain = new ByteArrayOutputStream();
            GraphWriter.write(written, format, plain);
            byte[] compressed = gzip(plain.toByteArray());
            // .gz named, gzip under the format's own extension, and no extension at all: read as the
            // plain file of the name without .gz is
            for (String name : new String[] {"g" + extension(format) + ".gz", "h" + extension(format), "data.gz", "data"}) {
                Path file = write(name, compressed);
                GraphFile expected = GraphReader.read(write("plain-" + name.replace(".gz", ""), plain.toByteArray()),
                        arena);
                GraphFile read = GraphReader.read(file, arena);
                assertEquals(expected.format(), read.format(), name);
                assertEquals(file, read.source());
                assertLists(lists(expected.graph()), read.graph());
                assertSameIds(expected, read);
                GraphFile explicit = GraphReader.read(file, format, ReadOptions.defaults(), arena);
                assertEquals(format, explicit.format());
                assertEquals(written.arcCount(), explicit.graph().arcCount());
            }
            assertEquals(format, GraphReader.read(dir.resolve("g" + extension(format) + ".gz"), arena).format());
            if (format == GraphFormat.EGR || format == GraphFormat.CSR) {
                GraphFile read = GraphReader.read(dir.resolve("data.gz"), arena);
                assertFalse(read.graph().neighbors().isMapped(), "decompressed " + format + " is copied, not mapped");
            }
        }
    }

    @Test
    void aCsvWithAHeaderAndTextIdsRoundTripsGzipped() throws IOException {
        byte[] csv = "source,target,weight\nalice,bob,1\nbob,carol,2.5\ndave,erin,0\n".getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(write("people.csv.gz", gzip(csv)), arena);
            assertEquals(GraphFormat.EDGES, f.format());
            assertLists(new int[][] {{1}, {0, 2}, {1}, {4}, {3}}, f.graph());
            assertEquals("carol", f.vertexIds().id(2));
        }
    }

    @Test
    void damagedCompressedDataIsAFormatError() throws IOException {
        byte[] compressed = gzip("0 1\n1 2\n2 3\n".repeat(100).getBytes(StandardCharsets.US_ASCII));
        Path truncated = write("t.edges.gz", Arrays.copyOf(compressed, compressed.length - 12));
        GraphFormatException t = refuse(truncated);
        assertTrue(t.getMessage().startsWith(truncated + ": the gzip-compressed data is truncated"), t::getMessage);
        byte[] corrupt = compressed.clone();
        corrupt[corrupt.length - 6] ^= 0x55; // the CRC and size trailer
        Path damaged = write("d.edges.gz", corrupt);
        GraphFormatException d = refuse(damaged);
        assertTrue(d.getMessage().startsWith(damaged + ": the gzip-compressed data is damaged"), d::getMessage);
        Path header = write("h.gz", Arrays.copyOf(compressed, 6));
        assertTrue(refuse(header).getMessage().contains("the gzip-compressed data is truncated"));
    }

    /** The vertex bound of compressed input is the size it decompresses to, checked when it has been read. */
    @Test
    void compressedDeclarationsAreBoundedByTheDecompressedSize() throws IOException {
        String text = "%%MatrixMarket matrix coordinate pattern general\n2147483646 2147483646 1\n1 2\n";
        Path mtx = write("big.mtx.gz", gzip(text.getBytes(StandardCharsets.US_ASCII)));
        GraphFormatException e = refuse(mtx);
        assertEquals(2, e.line());
        assertEquals(49, e.byteOffset());
        assertEquals(mtx + ":2: row count 2147483646 means 2147483646 vertices, more than the " + text.length()
                + " bytes that the input decompresses to can justify (at most "
                + ReadOptions.defaults().vertexLimit(text.length()) + "); if they are genuine, allow them with "
                + "ReadOptions.withMaxVertices(2147483646)", e.getMessage());
        Path edges = write("big.edges.gz", gzip("0 1\n2000000000 0\n".getBytes(StandardCharsets.US_ASCII)));
        GraphFormatException id = refuse(edges);
        assertEquals(2, id.line());
        assertTrue(id.getMessage().contains("source id 2000000000 means 2000000001 vertices"), id::getMessage);
        Path sparse = write("sparse.gr.gz", gzip("p sp 2500000 1\na 1 2500000 7\n".getBytes(StandardCharsets.US_ASCII)));
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(2_500_000, GraphReader.read(sparse, GraphFormat.AUTO,
                    ReadOptions.defaults().withMaxVertices(2_500_000), arena).graph().vertexCount());
        }
    }

    private static void assertSameIds(GraphFile expected, GraphFile read) {
        if (expected.vertexIds() == null) {
            assertNull(read.vertexIds());
        } else {
            assertArrayEquals(expected.originalIds().toArray(ValueLayout.JAVA_LONG),
                    read.originalIds().toArray(ValueLayout.JAVA_LONG));
        }
    }

    private GraphFormatException refuse(Path file) {
        try (Arena arena = Arena.ofConfined()) {
            GraphFormatException e = assertThrows(GraphFormatException.class, () -> GraphReader.read(file, arena));
            assertEquals(file, e.file());
            return e;
        }
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }

    static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }
}
