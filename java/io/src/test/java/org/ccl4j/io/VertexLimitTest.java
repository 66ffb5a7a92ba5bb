package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vertex count that a header declares or an id implies is refused when the file's size does not
 * justify it ({@link ReadOptions#vertexLimit}), before anything is allocated, and accepted when the
 * caller allows it with {@link ReadOptions#withMaxVertices}.
 */
class VertexLimitTest {
    private static final ReadOptions KEEP_IDS = ReadOptions.defaults().withKeepIds(true);

    @TempDir
    Path dir;

    /** Reads {@code file} and expects the refusal of {@code count} vertices at {@code line}, naming {@code value}. */
    private static GraphFormatException assertRefused(Path file, GraphFormat format, ReadOptions options, long line,
                                                      String value, long count) throws IOException {
        long size = Files.size(file);
        GraphFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(
                GraphFormatException.class, () -> {
                    try (Arena arena = Arena.ofConfined()) {
                        GraphReader.read(file, format, options, arena);
                    }
                }));
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(file + ":" + line + ": " + value + " means " + count + " vertices, more than a " + size
                + "-byte file can justify (at most " + options.vertexLimit(size) + "); if they are genuine, allow "
                + "them with ReadOptions.withMaxVertices(" + count + ")", e.getMessage());
        return e;
    }

    private static int vertexCount(Path file, GraphFormat format, ReadOptions options) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return GraphReader.read(file, format, options, arena).graph().vertexCount();
        }
    }

    @Test
    void theLimitIsAMillionPlusSixteenPerByte() {
        assertEquals(1_048_576 + 16 * 13, ReadOptions.defaults().vertexLimit(13));
        assertEquals(1_048_576, ReadOptions.defaults().vertexLimit(0));
        assertEquals(5_000_000, ReadOptions.defaults().withMaxVertices(5_000_000).vertexLimit(13));
        assertEquals(1_048_576 + 16L * 1_000_000, ReadOptions.defaults().withMaxVertices(5).vertexLimit(1_000_000));
        assertEquals(Long.MAX_VALUE, ReadOptions.defaults().vertexLimit(Long.MAX_VALUE / 2));
        assertThrows(IllegalArgumentException.class, () -> ReadOptions.defaults().withMaxVertices(-1));
        // the old constructor still means: no allowance beyond the file's size
        assertEquals(new ReadOptions(true, 0), new ReadOptions(true));
    }

    @Test
    void aThirteenByteEdgeListCannotAskForTwoBillionVertices() throws IOException {
        Path file = write(dir, "big.edges", "2147483646 0\n");
        assertEquals(13, Files.size(file));
        GraphFormatException e = assertRefused(file, GraphFormat.AUTO, ReadOptions.defaults(), 1,
                "source id 2147483646", 2_147_483_647L);
        assertEquals(0, e.byteOffset(), "the offending token");
        assertRefused(write(dir, "target.edges", "0 1\n1 2000000000\n"), GraphFormat.AUTO, ReadOptions.defaults(), 2,
                "target id 2000000000", 2_000_000_001L);
    }

    @Test
    void theBoundaryIsExact() throws IOException {
        // "X 0\n" with a 7-digit X is 10 bytes: up to 1048576 + 160 vertices, ids up to 1048735
        Path fits = write(dir, "fits.edges", "1048735 0\n");
        assertEquals(1_048_736, vertexCount(fits, GraphFormat.EDGES, ReadOptions.defaults()));
        assertRefused(write(dir, "over.edges", "1048736 0\n"), GraphFormat.EDGES, ReadOptions.defaults(), 1,
                "source id 1048736", 1_048_737);
    }

    @Test
    void aMatrixMarketSizeLine() throws IOException {
        Path file = write(dir, "big.mtx", "%%MatrixMarket matrix coordinate pattern general\n2147483646 2147483646 1\n1 2\n");
        GraphFormatException e = assertRefused(file, GraphFormat.AUTO, ReadOptions.defaults(), 2,
                "row count 2147483646", 2_147_483_646L);
        assertEquals(49, e.byteOffset(), "the row count's token");
        Path sparse = write(dir, "sparse.mtx", "%%MatrixMarket matrix coordinate pattern general\n3000000 3000000 1\n1 2\n");
        assertRefused(sparse, GraphFormat.AUTO, ReadOptions.defaults(), 2, "row count 3000000", 3_000_000);
        assertEquals(3_000_000, vertexCount(sparse, GraphFormat.AUTO, ReadOptions.defaults().withMaxVertices(3_000_000)));
    }

    @Test
    void aDimacsProblemLine() throws IOException {
        Path file = write(dir, "big.gr", "p sp 2147483647 1\n");
        assertRefused(file, GraphFormat.AUTO, ReadOptions.defaults(), 1, "vertex count 2147483647", 2_147_483_647L);
        assertRefused(write(dir, "big.col", "c colouring\np edge 2000000 1\ne 1 2\n"), GraphFormat.AUTO,
                ReadOptions.defaults(), 2, "vertex count 2000000", 2_000_000);
        Path sparse = write(dir, "sparse.gr", "p sp 2500000 1\na 1 2500000 7\n");
        assertEquals(2_500_000, vertexCount(sparse, GraphFormat.AUTO, ReadOptions.defaults().withMaxVertices(2_500_000)));
        // an allowance below the declaration does not let it through
        assertRefused(sparse, GraphFormat.AUTO, ReadOptions.defaults().withMaxVertices(2_499_999), 1,
                "vertex count 2500000", 2_500_000);
    }

    @Test
    void snapWithKeptIds() throws IOException {
        Path file = write(dir, "big.txt", "# kept ids\n1 2\n5 2000000000\n");
        assertRefused(file, GraphFormat.SNAP, KEEP_IDS, 3, "target id 2000000000", 2_000_000_001L);
        // renumbered, the same file is four vertices
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(4, GraphReader.read(file, GraphFormat.SNAP, ReadOptions.defaults(), arena).graph().vertexCount());
        }
        Path sparse = write(dir, "sparse.txt", "0 1\n4000000 1\n");
        assertRefused(sparse, GraphFormat.SNAP, KEEP_IDS, 2, "source id 4000000", 4_000_001);
        assertEquals(4_000_001, vertexCount(sparse, GraphFormat.SNAP, KEEP_IDS.withMaxVertices(4_000_001)));
    }
}
