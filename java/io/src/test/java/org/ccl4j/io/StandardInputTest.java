package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.io.grid.GridFormat;
import org.ccl4j.io.grid.GridReadOptions;
import org.ccl4j.io.grid.GridReader;
import org.ccl4j.io.grid.ImageFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code -} is standard input ({@link Input#of(String)}), and every reader reads a stream: the
 * format given, or the one the content shows; gzip and errors as for files, named
 * {@value Input#STANDARD_INPUT_NAME}.
 */
@ResourceLock("java.lang.System.in")
class StandardInputTest {
    private static final Path STDIN = Path.of(Input.STANDARD_INPUT_NAME);

    @Test
    void aDashIsStandardInput() {
        Input dash = Input.of("-");
        assertFalse(dash.isFile());
        assertNull(dash.file());
        assertEquals(STDIN, dash.name());
        assertEquals("(stdin)", dash.toString());
        Input file = Input.of("graph.mtx");
        assertTrue(file.isFile());
        assertEquals(Path.of("graph.mtx"), file.file());
        assertNull(file.stream());
        assertEquals(Path.of("./-"), Input.of("./-").file(), "only '-' itself is standard input");
    }

    /** Reads {@code bytes} from System.in through {@code Input.of("-")}. */
    private static GraphFile readStdin(byte[] bytes, GraphFormat format, Arena arena) throws IOException {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(bytes));
            return GraphReader.read(Input.of("-"), format, ReadOptions.defaults(), arena);
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void everyTextFormatIsDetectedFromItsContent() throws IOException {
        Object[][] cases = {
            {"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 1\n", GraphFormat.MTX},
            {"c shortest paths\np sp 3 1\na 1 2 5\n", GraphFormat.DIMACS},
            {"p edge 3 1\ne 1 2\n", GraphFormat.DIMACS},
            {"# SNAP\n0\t1\n", GraphFormat.SNAP},
            {"% edges\n0 1\n2 2\n", GraphFormat.EDGES},
            {"0 1\n2 2\n", GraphFormat.EDGES},
            {"src,dst\n0,1\n2,2\n", GraphFormat.EDGES},
        };
        for (Object[] c : cases) {
            try (Arena arena = Arena.ofConfined()) {
                GraphFile f = readStdin(ascii((String) c[0]), GraphFormat.AUTO, arena);
                assertEquals(c[1], f.format(), (String) c[0]);
                assertEquals(STDIN, f.source());
                assertEquals(2, f.graph().arcCount(), (String) c[0]);
            }
        }
    }

    @Test
    void anEgrFileOnStandardInputIsCopiedIntoTheArena() throws IOException {
        ByteBuffer egr = ByteBuffer.allocate(8 + 4 * 4 + 4 * 2).order(ByteOrder.LITTLE_ENDIAN);
        egr.putInt(3).putInt(2).putInt(0).putInt(1).putInt(2).putInt(2).putInt(1).putInt(0);
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = readStdin(egr.array(), GraphFormat.AUTO, arena);
            assertEquals(GraphFormat.EGR, f.format());
            assertFalse(f.graph().neighbors().isMapped(), "the temporary copy of a stream is not mapped");
            assertLists(new int[][] {{1}, {0}, {}}, f.graph());
        }
    }

    @Test
    void theFormatGivenIsTheFormatRead() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            // numbers: an edge list by its content, SNAP when said so (and renumbered)
            assertEquals(8, readStdin(ascii("5 7\n"), GraphFormat.AUTO, arena).graph().vertexCount());
            GraphFile snap = readStdin(ascii("5 7\n"), GraphFormat.SNAP, arena);
            assertEquals(2, snap.graph().vertexCount());
            assertEquals("7", snap.vertexIds().id(1));
        }
    }

    @Test
    void compressedStandardInputIsDecompressed() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = readStdin(gzip(ascii("# SNAP\n10 20\n20 30\n")), GraphFormat.AUTO, arena);
            assertEquals(GraphFormat.SNAP, f.format());
            assertEquals(3, f.graph().vertexCount());
        }
    }

    @Test
    void errorsNameStandardInput() {
        try (Arena arena = Arena.ofConfined()) {
            GraphFormatException e = assertThrows(GraphFormatException.class,
                    () -> readStdin(ascii("0 1\n2\n"), GraphFormat.AUTO, arena));
            assertEquals("(stdin):2: expected target id, found the end of the line", e.getMessage());
            assertEquals(STDIN, e.file());
            GraphFormatException tiff = assertThrows(GraphFormatException.class,
                    () -> readStdin(new byte[] {'I', 'I', '*', 0, 8, 0, 0, 0}, GraphFormat.AUTO, arena));
            assertTrue(tiff.getMessage().startsWith("(stdin): at byte 0: this is a TIFF image; "), tiff::getMessage);
            GraphFormatException binary = assertThrows(GraphFormatException.class,
                    () -> readStdin(new byte[] {1, 2, 3}, GraphFormat.AUTO, arena));
            assertTrue(binary.getMessage().startsWith("(stdin): at byte 0: the format cannot be detected: "),
                    binary::getMessage);
            GraphFormatException empty = assertThrows(GraphFormatException.class,
                    () -> readStdin(new byte[0], GraphFormat.AUTO, arena));
            assertEquals("(stdin): the file is empty", empty.getMessage());
        }
    }

    /** Text ids that appear after numbers make the reader read the input again: a stream's copy allows it. */
    @Test
    void anEdgeListThatTurnsOutToHaveTextIdsIsReadAgain() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = readStdin(ascii("5 7\n7 alice\n"), GraphFormat.AUTO, arena);
            assertEquals(GraphFormat.EDGES, f.format());
            assertEquals(3, f.graph().vertexCount());
            assertEquals("alice", f.vertexIds().id(2));
        }
    }

    @Test
    void anyStreamWithANameOfItsOwn() throws IOException {
        TrackedStream stream = new TrackedStream(ascii("a,b\nx,y\n"));
        try (Arena arena = Arena.ofConfined()) {
            // the name's extension counts as a file's: .csv is an edge list
            GraphFile f = GraphReader.read(Input.of(stream, "upload.csv"), GraphFormat.AUTO, ReadOptions.defaults(), arena);
            assertEquals(GraphFormat.EDGES, f.format());
            assertEquals(Path.of("upload.csv"), f.source());
            assertEquals("y", f.vertexIds().id(1));
        }
        assertFalse(stream.closed, "the caller's stream is left open");
    }

    // ---- grids ----

    private static Grid readStdinGrid(byte[] bytes, GridReadOptions options, Arena arena) throws IOException {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(bytes));
            return GridReader.read(Input.of("-"), options, arena);
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void gridsOnStandardInput() throws IOException {
        byte[] png;
        try (InputStream in = StandardInputTest.class.getResourceAsStream("grid/grey8.png")) {
            png = in.readAllBytes();
        }
        try (Arena arena = Arena.ofConfined()) {
            Grid fromPng = readStdinGrid(png, GridReadOptions.defaults(), arena);
            assertEquals(Grid.CellType.U8, fromPng.type());
            assertEquals(fromPng.cellCount(), readStdinGrid(gzip(png), GridReadOptions.defaults(), arena).cellCount());
            Grid pgm = readStdinGrid(ascii("P2\n2 1\n255\n7 9\n"), GridReadOptions.defaults(), arena);
            assertEquals(9, pgm.get(1, 0, 0));
            GridReadOptions raw = GridReadOptions.defaults().withDims(new GridDims(2, 2, 1));
            Grid cells = readStdinGrid(new byte[] {1, 2, 3, 4}, raw.withFormat(GridFormat.RAW), arena);
            assertEquals(4, cells.get(1, 1, 0));
            // with its dimensions, content of no recognised format is raw cells
            assertEquals(3, readStdinGrid(new byte[] {1, 2, 3, 4}, raw, arena).get(0, 1, 0));
        }
    }

    @Test
    void aGridOnStandardInputWhoseFormatCannotBeDetected() {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> readStdinGrid(new byte[] {1, 2, 3, 4}, GridReadOptions.defaults(), arena));
            assertEquals("(stdin): the format cannot be detected: the content is neither a PNG nor a PGM image, the "
                    + "formats a stream's first bytes tell; raw cells need the format raw with their dimensions (WxH or"
                    + " WxHxD) and cell type", e.getMessage());
            ImageFormatException tiff = assertThrows(ImageFormatException.class,
                    () -> readStdinGrid(new byte[] {'M', 'M', 0, '*', 0, 0, 0, 8}, GridReadOptions.defaults(), arena));
            // a TIFF image's first bytes tell it: its reader refuses this one
            assertTrue(tiff.getMessage().startsWith("(stdin): the TIFF image cannot be read: "), tiff::getMessage);
            ImageFormatException pgm = assertThrows(ImageFormatException.class,
                    () -> readStdinGrid(ascii("P2\n2 1\n255\n7\n"), GridReadOptions.defaults(), arena));
            assertTrue(pgm.getMessage().startsWith("(stdin):"), pgm::getMessage);
        }
    }

    private static final class TrackedStream extends ByteArrayInputStream {
        boolean closed;

        TrackedStream(byte[] bytes) {
            super(bytes);
        }

        @Override
        public void close() throws IOException {
            closed = true;
            super.close();
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }
}
