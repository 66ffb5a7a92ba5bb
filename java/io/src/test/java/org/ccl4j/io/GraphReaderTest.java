package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.ccl4j.io.TestSupport.read;
import static org.ccl4j.io.TestSupport.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ccl4j.CsrGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphReaderTest {
    @TempDir
    Path dir;

    /** An .egr file: header, offsets, neighbours, then any extra ints (weights). */
    static byte[] egr(int n, int[] offsets, int[] neighbors, int... extra) {
        ByteBuffer b = ByteBuffer.allocate(8 + 4 * (offsets.length + neighbors.length + extra.length))
                .order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(n).putInt(neighbors.length);
        for (int o : offsets) {
            b.putInt(o);
        }
        for (int t : neighbors) {
            b.putInt(t);
        }
        for (int x : extra) {
            b.putInt(x);
        }
        return b.array();
    }

    @Test
    void readsMatrixMarketSymmetricPattern() throws IOException {
        Path file = write(dir, "g.mtx", """
                %%MatrixMarket matrix coordinate pattern symmetric
                % comment
                5 5 4

                2 1
                3 1
                3 3
                5 4
                """);
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = read(file, arena);
            assertEquals(GraphFormat.MTX, f.format());
            assertEquals(file, f.source());
            assertNull(f.originalIds());
            assertLists(new int[][] {{1, 2}, {0}, {0}, {4}, {3}}, f.graph());
        }
    }

    @Test
    void readsMatrixMarketGeneralRealWithZerosAndCaseInsensitiveBanner() throws IOException {
        Path file = write(dir, "g.mtx", """
                %%MatrixMarket MATRIX Coordinate REAL General
                3 3 4
                1 2 0
                2 1 -0.0
                3 1 1.5e+10
                1 3 .5
                """);
        try (Arena arena = Arena.ofConfined()) {
            assertLists(new int[][] {{1, 2}, {0}, {0}}, read(file, arena).graph());
        }
    }

    @Test
    void readsMatrixMarketIntegerSkewSymmetric() throws IOException {
        Path file = write(dir, "g.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\r\n"
                + "4 4 2\r\n2 1 -7\r\n4 3 +7\r\n");
        try (Arena arena = Arena.ofConfined()) {
            assertLists(new int[][] {{1}, {0}, {3}, {2}}, read(file, arena).graph());
        }
    }

    /** The value columns of real files are skipped unread: LAGraph's test matrices, shortened. */
    @Test
    void matrixMarketValuesAreIgnoredWhateverTheyHold() throws IOException {
        // comments_west0067.mtx: a GraphBLAS type line and nan; skew_fp32.mtx: inf in a skew matrix
        Path west = write(dir, "comments_west.mtx", """
                %%MatrixMarket matrix coordinate real general
                %%GraphBLAS double
                % comments for west0067.mtx
                6 6 7
                1 1 nan
                5 1 -.2788416
                2 3 NaN
                3 4 +inf
                4 2 -Infinity
                6 5 INF
                5 6 1e-300
                """);
        Path skew = write(dir, "skew_fp32.mtx", """
                %%MatrixMarket matrix coordinate real skew-symmetric
                %%GraphBLAS float
                4 4 3
                4 1 -.12565
                3 1 inf
                4 2 -inf
                """);
        // matrix_fp64.mtx: an 'integer' matrix with infinite values
        Path integer = write(dir, "matrix_fp64.mtx", """
                %%MatrixMarket matrix coordinate integer general
                4 4 3
                4 1 -inf
                1 2 inf
                3 3 0
                """);
        try (Arena arena = Arena.ofConfined()) {
            assertLists(new int[][] {{4}, {2, 3}, {1, 3}, {1, 2}, {0, 5}, {4}}, read(west, arena).graph());
            assertLists(new int[][] {{2, 3}, {3}, {0}, {0, 1}}, read(skew, arena).graph());
            assertLists(new int[][] {{1, 3}, {0}, {}, {0}}, read(integer, arena).graph());
        }
    }

    /** A value longer than the reader's look-ahead, across the end of its 1 MiB buffer, is skipped too. */
    @Test
    void aValueAcrossTheReadBufferIsSkipped() throws IOException {
        StringBuilder text = new StringBuilder("%%MatrixMarket matrix coordinate real general\n3 3 ");
        int lines = ((1 << 20) - 2000) / 8;
        text.append(lines + 2).append('\n');
        text.append("1 2 0.5\n".repeat(lines));
        text.append("2 3 ").append("7".repeat(5000)).append(" 0\n3 3 1\n");
        Path file = write(dir, "long.mtx", text.toString());
        try (Arena arena = Arena.ofConfined()) {
            assertLists(new int[][] {{1}, {0, 2}, {1}}, read(file, arena).graph());
        }
    }

    /** ParU's Ragusa16.mtx and Tina_AskCal_perm.mtx: 'pattern' files with a value column. */
    @Test
    void aValueColumnInAPatternFileIsIgnored() throws IOException {
        Path file = write(dir, "Tina.mtx", """
                %%MatrixMarket matrix coordinate pattern general
                %-------------------------------------------------------------------------------
                % Permuted version of Pajek/Tina_AskCal
                %-------------------------------------------------------------------------------
                5 5 4
                1 1  1
                1 5  1
                4 5  2
                3 2 1
                """);
        try (Arena arena = Arena.ofConfined()) {
            assertLists(new int[][] {{4}, {2}, {1}, {4}, {0, 3}}, read(file, arena).graph());
        }
    }

    @Test
    void complexAndHermitianMatricesGiveTheirPattern() throws IOException {
        Path complex = write(dir, "c.mtx", """
                %%MatrixMarket matrix coordinate complex hermitian
                3 3 3
                1 1 2.0 0.0
                2 1 1.5 -0.5
                3 2 nan inf
                """);
        Path general = write(dir, "g.mtx", "%%MatrixMarket matrix coordinate complex general\n3 3 1\n3 1 1 1\n");
        try (Arena arena = Arena.ofConfined()) {
            assertLists(new int[][] {{1}, {0, 2}, {1}}, read(complex, arena).graph());
            assertLists(new int[][] {{2}, {}, {0}}, read(general, arena).graph());
        }
    }

    /** The colouring benchmarks' .col files, as JGraphT's DIMACS importer reads them. */
    @Test
    void readsDimacsColouringFiles() throws IOException {
        Path myciel = write(dir, "myciel.col", """
                c FILE: myciel-like.col
                c SOURCE: written for this test
                p edge 7 5
                e 1 2
                e 2 3
                c a comment between edges
                e 3 1
                e 5 6 9
                e 6 5
                """);
        Path col = write(dir, "g.clq", """
                p col 4 2
                n 1 10
                n 4 3
                e 4 3
                a 1 4 2.5
                """);
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = read(myciel, arena);
            assertEquals(GraphFormat.DIMACS, f.format());
            assertLists(new int[][] {{1, 2}, {0, 2}, {0, 1}, {}, {5}, {4}, {}}, f.graph());
            assertLists(new int[][] {{3}, {}, {3}, {0, 2}}, read(col, arena).graph());
            // and with the format named, whatever the extension
            Path named = write(dir, "g.txt", "c x\np col 2 1\ne 2 1\n");
            assertLists(new int[][] {{1}, {0}},
                    GraphReader.read(named, GraphFormat.DIMACS, ReadOptions.defaults(), arena).graph());
        }
    }

    @Test
    void readsDimacs() throws IOException {
        Path file = write(dir, "g.gr", """
                c comment
                p sp 6 4
                a 1 2 7
                c another
                a 2 1 7
                a 4 3 1
                a 6 6 0
                """);
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = read(file, arena);
            assertEquals(GraphFormat.DIMACS, f.format());
            assertLists(new int[][] {{1}, {0}, {3}, {2}, {}, {}}, f.graph());
        }
    }

    @Test
    void readsEdgeListsKeepingIds() throws IOException {
        Path file = write(dir, "g.edges", """
                # comment
                % another
                4 2
                2\t4
                  0 1 2.5
                1,0

                6 6
                """);
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = read(file, arena);
            assertEquals(GraphFormat.EDGES, f.format());
            assertNull(f.originalIds());
            assertLists(new int[][] {{1}, {0}, {4}, {}, {2}, {}, {}}, f.graph());
        }
    }

    @Test
    void snapRemapsIdsInOrderOfFirstAppearance() throws IOException {
        Path file = write(dir, "g.txt", """
                # Nodes: 5
                500 30
                30 9000000000000
                9000000000000 500
                # later comment
                7 7
                30 1
                """);
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = read(file, arena);
            assertEquals(GraphFormat.SNAP, f.format());
            assertTrue(f.hasOriginalIds());
            assertArrayEquals(new long[] {500, 30, 9_000_000_000_000L, 7, 1},
                    f.originalIds().toArray(ValueLayout.JAVA_LONG));
            assertLists(new int[][] {{1, 2}, {0, 2, 4}, {0, 1}, {}, {1}}, f.graph());
        }
    }

    @Test
    void snapKeepsIdsWhenAsked() throws IOException {
        Path file = write(dir, "g.txt", "# c\n5 3\n3 9\n");
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(file, GraphFormat.SNAP, new ReadOptions(true), arena);
            assertNull(f.originalIds());
            assertEquals(10, f.graph().vertexCount());
            assertLists(new int[][] {{}, {}, {}, {5, 9}, {}, {3}, {}, {}, {}, {3}}, f.graph());
        }
    }

    @Test
    void snapWithOnlyCommentsIsTheEmptyGraph() throws IOException {
        Path file = write(dir, "g.txt", "# nothing here\n\n");
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = read(file, arena);
            assertEquals(0, f.graph().vertexCount());
            assertEquals(0, f.originalIds().byteSize());
        }
    }

    @Test
    void mapsACleanEgrInPlace() throws IOException {
        Path file = dir.resolve("g.egr");
        Files.write(file, egr(4, new int[] {0, 2, 3, 4, 4}, new int[] {1, 2, 0, 0}));
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = read(file, arena);
            assertEquals(GraphFormat.EGR, f.format());
            assertTrue(f.graph().neighbors().isMapped(), "a clean .egr is used in place");
            assertLists(new int[][] {{1, 2}, {0}, {0}, {}}, f.graph());
        }
    }

    @Test
    void ignoresEgrEdgeWeights() throws IOException {
        Path file = dir.resolve("g.egr");
        Files.write(file, egr(2, new int[] {0, 1, 2}, new int[] {1, 0}, 17, 17));
        try (Arena arena = Arena.ofConfined()) {
            assertLists(new int[][] {{1}, {0}}, read(file, arena).graph());
        }
    }

    @Test
    void rebuildsAnEgrThatIsNotClean() throws IOException {
        int[][][] cases = {
                // unsorted list
                {{0, 2, 3, 4}, {2, 1, 0, 0}},
                // self loop
                {{0, 3, 4, 5}, {0, 1, 2, 0, 0}},
                // repeated arc
                {{0, 3, 4, 5}, {1, 2, 2, 0, 0}},
                // missing reverse arcs 2 -> 0 and 1 -> 0
                {{0, 2, 2, 2}, {1, 2}},
        };
        for (int[][] c : cases) {
            Path file = dir.resolve("g.egr");
            Files.write(file, egr(3, c[0], c[1]));
            try (Arena arena = Arena.ofConfined()) {
                CsrGraph g = read(file, arena).graph();
                assertFalse(g.neighbors().isMapped());
                assertLists(new int[][] {{1, 2}, {0}, {0}}, g);
            }
        }
    }

    @Test
    void detectsAsymmetryThatSortedListsHide() throws IOException {
        // Sorted, loop-free, arc counts balanced (each vertex 1 out, 1 in) but 0->1, 1->2, 2->0: a cycle
        // of one-way arcs, which the symmetry check must catch.
        Path file = dir.resolve("g.egr");
        Files.write(file, egr(3, new int[] {0, 1, 2, 3}, new int[] {1, 2, 0}));
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = read(file, arena).graph();
            assertFalse(g.neighbors().isMapped());
            assertLists(new int[][] {{1, 2}, {0, 2}, {0, 1}}, g);
        }
    }

    @Test
    void readsAnEmptyEgrGraph() throws IOException {
        Path file = dir.resolve("g.egr");
        Files.write(file, egr(0, new int[] {0}, new int[] {}));
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(0, read(file, arena).graph().vertexCount());
        }
    }

    @Test
    void explicitFormatOverridesTheExtension() throws IOException {
        Path file = write(dir, "g.mtx", "0 1\n");
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(file, GraphFormat.EDGES, ReadOptions.defaults(), arena);
            assertEquals(GraphFormat.EDGES, f.format());
            assertLists(new int[][] {{1}, {0}}, f.graph());
        }
    }

    @Test
    void readsLongFilesAcrossBufferRefills() throws IOException {
        // Lines long enough that tokens straddle the 1 MiB buffer boundary at some point.
        StringBuilder text = new StringBuilder("# long\n");
        int lines = 300_000;
        for (int i = 0; i < lines; i++) {
            text.append(i).append("   \t ").append(i + 1).append(i % 3 == 0 ? " 1.25\n" : "\r\n");
        }
        Path file = write(dir, "path.edges", text.toString());
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = read(file, arena).graph();
            assertEquals(lines + 1, g.vertexCount());
            assertEquals(2L * lines, g.arcCount());
            for (int v = 1; v < lines; v++) {
                assertEquals(2, g.degree(v));
                assertEquals(v - 1, g.neighbor(g.offset(v)));
                assertEquals(v + 1, g.neighbor(g.offset(v) + 1));
            }
        }
    }
}
