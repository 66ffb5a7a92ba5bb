package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphFormatTest {
    @TempDir
    Path dir;

    @Test
    void namesRoundTrip() {
        for (GraphFormat f : GraphFormat.values()) {
            assertEquals(f, GraphFormat.fromName(f.formatName()));
            assertEquals(f, GraphFormat.fromName(f.formatName().toUpperCase()));
        }
        assertEquals("dimacs", GraphFormat.DIMACS.formatName());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GraphFormat.fromName("csv"));
        assertEquals("unknown graph format 'csv'; expected one of auto, egr, csr, mtx, snap, dimacs, edges", e.getMessage());
    }

    @Test
    void detectsByExtension() throws IOException {
        // The content says otherwise: the extension wins.
        String edges = "0 1\n";
        assertEquals(GraphFormat.EGR, GraphFormat.detect(write(dir, "g.EGR", edges)));
        assertEquals(GraphFormat.CSR, GraphFormat.detect(write(dir, "g.csr", edges)));
        assertEquals(GraphFormat.MTX, GraphFormat.detect(write(dir, "g.mtx", edges)));
        assertEquals(GraphFormat.DIMACS, GraphFormat.detect(write(dir, "g.gr", edges)));
        assertEquals(GraphFormat.DIMACS, GraphFormat.detect(write(dir, "myciel3.col", edges)));
        assertEquals(GraphFormat.DIMACS, GraphFormat.detect(write(dir, "brock200_1.CLQ", edges)));
        for (String ext : new String[] {"edges", "el", "tsv", "csv"}) {
            assertEquals(GraphFormat.EDGES, GraphFormat.detect(write(dir, "g." + ext, "# snap-like\n0 1\n")), ext);
        }
        assertEquals(GraphFormat.SNAP, GraphFormat.detect(write(dir, "g.txt", edges)));
        assertEquals(GraphFormat.SNAP, GraphFormat.detect(write(dir, "g.snap", edges)));
        assertEquals(GraphFormat.MTX, GraphFormat.AUTO.resolve(write(dir, "x.mtx", edges)));
        assertEquals(GraphFormat.EDGES, GraphFormat.EDGES.resolve(write(dir, "y.mtx", edges)));
    }

    @Test
    void detectsByContentWhenTheExtensionSaysNothing() throws IOException {
        assertEquals(GraphFormat.MTX, GraphFormat.detect(write(dir, "a.dat",
                "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n")));
        assertEquals(GraphFormat.MTX, GraphFormat.detect(write(dir, "a.txt",
                "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n")));
        assertEquals(GraphFormat.DIMACS, GraphFormat.detect(write(dir, "b.dat", "c comment\np sp 1 0\n")));
        assertEquals(GraphFormat.DIMACS, GraphFormat.detect(write(dir, "c", "\n\np sp 1 0\n")));
        assertEquals(GraphFormat.DIMACS, GraphFormat.detect(write(dir, "b.txt", "c comment\np sp 1 0\n")));
        assertEquals(GraphFormat.SNAP, GraphFormat.detect(write(dir, "d.dat", "# Nodes: 2\n0\t1\n")));
        assertEquals(GraphFormat.EDGES, GraphFormat.detect(write(dir, "e.dat", "% comment\n0 1\n")));
        assertEquals(GraphFormat.EDGES, GraphFormat.detect(write(dir, "f.dat", "0 1\n1 2\n")));
        assertEquals(GraphFormat.EDGES, GraphFormat.detect(write(dir, "egr", "0 1\n")));
        assertEquals(GraphFormat.EDGES, GraphFormat.detect(write(dir, "g.dat", "")));
        assertEquals(GraphFormat.SNAP, GraphFormat.detect(write(dir, "g.txt", "0 1\n")));
        ByteBuffer egr = ByteBuffer.allocate(8 + 4 * 3 + 4 * 2).order(ByteOrder.LITTLE_ENDIAN);
        egr.putInt(2).putInt(2).putInt(0).putInt(1).putInt(2).putInt(1).putInt(0);
        Path binary = dir.resolve("h.bin");
        Files.write(binary, egr.array());
        assertEquals(GraphFormat.EGR, GraphFormat.detect(binary));
    }

    @Test
    void autoReadsByContent() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GraphFile f = GraphReader.read(write(dir, "g.data", "c x\np sp 3 1\na 1 3 1\n"), arena);
            assertEquals(GraphFormat.DIMACS, f.format());
            assertEquals(3, f.graph().vertexCount());
            assertEquals(2, f.graph().arcCount());
        }
    }
}
