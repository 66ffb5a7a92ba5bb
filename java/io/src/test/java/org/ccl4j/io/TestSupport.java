package org.ccl4j.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.ccl4j.CsrGraph;

/** Helpers shared by the I/O tests. */
final class TestSupport {
    private TestSupport() {
    }

    /** The neighbour lists of {@code g}, in stored order. */
    static int[][] lists(CsrGraph g) {
        int[][] lists = new int[g.vertexCount()][];
        for (int v = 0; v < g.vertexCount(); v++) {
            long begin = g.offset(v);
            lists[v] = new int[(int) g.degree(v)];
            for (int i = 0; i < lists[v].length; i++) {
                lists[v][i] = g.neighbor(begin + i);
            }
        }
        return lists;
    }

    static void assertLists(int[][] expected, CsrGraph g) {
        assertEquals(expected.length, g.vertexCount(), "vertex count");
        int[][] actual = lists(g);
        for (int v = 0; v < expected.length; v++) {
            int vertex = v;
            assertArrayEquals(expected[v], actual[v], () -> "neighbours of vertex " + vertex + " in "
                    + Arrays.deepToString(actual));
        }
        assertEquals(Arrays.stream(expected).mapToLong(l -> l.length).sum(), g.arcCount(), "arc count");
    }

    static Path write(Path dir, String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        return file;
    }

    static GraphFile read(Path file, Arena arena) throws IOException {
        return GraphReader.read(file, GraphFormat.AUTO, ReadOptions.defaults(), arena);
    }

    /** Reads {@code text} as {@code name} and expects a GraphFormatException mentioning {@code phrase} at {@code line}. */
    static GraphFormatException assertMalformed(Path dir, String name, String text, long line, String phrase)
            throws IOException {
        return assertMalformed(write(dir, name, text), GraphFormat.AUTO, line, phrase);
    }

    static GraphFormatException assertMalformed(Path file, GraphFormat format, long line, String phrase) {
        try (Arena arena = Arena.ofConfined()) {
            GraphFormatException e = assertThrows(GraphFormatException.class,
                    () -> GraphReader.read(file, format, ReadOptions.defaults(), arena));
            assertEquals(file, e.file());
            assertEquals(line, e.line(), () -> "line of: " + e.getMessage());
            assertTrue(e.getMessage().contains(phrase), () -> "'" + e.getMessage() + "' should contain '" + phrase + "'");
            assertTrue(e.getMessage().startsWith(file.toString()), e::getMessage);
            if (line > 0) {
                assertTrue(e.getMessage().startsWith(file + ":" + line + ": "), e::getMessage);
            }
            return e;
        }
    }
}
