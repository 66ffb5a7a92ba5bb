package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertMalformed;
import static org.ccl4j.io.TestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of malformed input raises a GraphFormatException naming file, place, value and problem. */
class MalformedInputTest {
    private static final String PATTERN = "%%MatrixMarket matrix coordinate pattern general\n";

    @TempDir
    Path dir;

    // ---- Matrix Market ----

    @Test
    void matrixMarketHeader() throws IOException {
        assertMalformed(dir, "a.mtx", "", -1, "the file is empty");
        assertMalformed(dir, "b.mtx", "3 3 1\n1 2\n", 1, "expected the Matrix Market banner");
        assertMalformed(dir, "c.mtx", "%%MatrixMarket matrix\n", 1, "banner ends before its format");
        assertMalformed(dir, "d.mtx", "%%MatrixMarket vector coordinate real general\n", 1, "'vector'");
        assertMalformed(dir, "e.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1,
                "'array' (dense) format is not supported");
        assertMalformed(dir, "f.mtx", "%%MatrixMarket matrix coordinate quaternion general\n", 1,
                "unknown Matrix Market field 'quaternion': expected pattern, integer, real or complex");
        assertMalformed(dir, "g.mtx", "%%MatrixMarket matrix coordinate complex\n", 1,
                "the Matrix Market banner ends before its symmetry");
        assertMalformed(dir, "h.mtx", "%%MatrixMarket matrix coordinate real upper\n", 1,
                "unknown Matrix Market symmetry 'upper': expected general, symmetric, skew-symmetric or hermitian");
        assertMalformed(dir, "i.mtx", "%%MatrixMarket matrix coordinate boolean general\n", 1,
                "unknown Matrix Market field 'boolean'");
        assertMalformed(dir, "j.mtx", "%%MatrixMarket matrix coordinate real general extra\n", 1,
                "unexpected 'extra' after the Matrix Market banner");
        assertMalformed(dir, "k.mtx", PATTERN + "% only comments\n", 3, "missing the size line");
        assertMalformed(dir, "l.mtx", PATTERN + "3 3\n1 2\n", 2, "expected entry count, found the end of the line");
        assertMalformed(dir, "m.mtx", PATTERN + "3 4 1\n1 2\n", 2, "the matrix is 3 x 4: a graph needs a square matrix");
        assertMalformed(dir, "n.mtx", PATTERN + "3000000000 3000000000 1\n1 2\n", 2,
                "row count 3000000000 is too large (the largest is 2147483647)");
        assertMalformed(dir, "o.mtx", PATTERN + "3 3 1 9\n", 2, "unexpected '9' after the size line");
    }

    @Test
    void matrixMarketEntries() throws IOException {
        GraphFormatException e = assertMalformed(dir, "a.mtx", PATTERN + "5 5 2\n1 2\n0 3\n", 4,
                "row index 0 is out of range 1..5");
        assertEquals(PATTERN.length() + 6 + 4, e.byteOffset(), "byte offset of the offending token");
        assertMalformed(dir, "b.mtx", PATTERN + "5 5 1\n1 6\n", 3, "column index 6 is out of range 1..5");
        assertMalformed(dir, "c.mtx", PATTERN + "5 5 1\n-1 2\n", 3, "row index -1 is negative");
        assertMalformed(dir, "d.mtx", PATTERN + "5 5 1\n1 x\n", 3, "expected column index, found 'x'");
        assertMalformed(dir, "e.mtx", PATTERN + "5 5 1\n1 2x\n", 3, "expected column index, found '2x'");
        assertMalformed(dir, "f.mtx", PATTERN + "5 5 1\n1\n", 3, "expected column index, found the end of the line");
        // values are ignored, but a third one means the line is not an entry
        GraphFormatException extra = assertMalformed(dir, "g.mtx", PATTERN + "5 5 2\n1 2 nan 0 3 4\n", 3,
                "unexpected '3' after the entry: a line holds the row, the column and at most two values");
        assertEquals(PATTERN.length() + 6 + 10, extra.byteOffset());
        assertMalformed(dir, "h.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 1\n1 nan 2\n", 3,
                "expected column index, found 'nan'");
        assertMalformed(dir, "i.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 1\n1.0 2.0 1.5\n", 3,
                "expected row index, found '1.0'");
        assertMalformed(dir, "j.mtx", "%%MatrixMarket matrix coordinate integer general\n5 5 1\n1 6 inf\n", 3,
                "column index 6 is out of range 1..5");
        assertMalformed(dir, "k.mtx", PATTERN + "5 5 3\n1 2\n2 3\n", 5,
                "the file ends after 2 of the 3 entries declared on line 2");
        assertMalformed(dir, "l.mtx", PATTERN + "5 5 1\n1 2\n% c\n2 3\n", 5,
                "more entries than the 1 declared on line 2");
        assertMalformed(dir, "m.mtx", PATTERN + "5 5 1\n99999999999999999999 1\n", 3,
                "row index 99999999999999999999 is too large");
    }

    @Test
    void bogusEntryCountFailsFast() throws IOException {
        Path file = write(dir, "a.mtx", PATTERN + "20 20 9000000000000000000\n1 2\n");
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertMalformed(file, GraphFormat.AUTO, 4,
                "the file ends after 1 of the 9000000000000000000 entries declared on line 2"));
    }

    // ---- DIMACS ----

    @Test
    void dimacs() throws IOException {
        assertMalformed(dir, "a.gr", "", -1, "the file is empty");
        assertMalformed(dir, "b.gr", "c no problem line\n", -1,
                "missing the problem line ('p sp N M', 'p edge N M' or 'p col N M')");
        assertMalformed(dir, "c.gr", "a 1 2 3\np sp 2 1\n", 1, "arc before the problem line");
        assertMalformed(dir, "d.gr", "p max 2 1\n", 1,
                "unsupported DIMACS problem 'max': expected 'p sp N M', 'p edge N M' or 'p col N M'");
        assertMalformed(dir, "e.gr", "p sp 2 1\np sp 2 1\n", 2, "a second problem line (the first is line 1)");
        assertMalformed(dir, "f.gr", "p sp 2\n", 1, "expected arc count, found the end of the line");
        assertMalformed(dir, "g.gr", "p sp 5 1\na 1 7 1\n", 2, "head vertex 7 is out of range 1..5");
        assertMalformed(dir, "h.gr", "p sp 5 1\na 0 2 1\n", 2, "tail vertex 0 is out of range 1..5");
        assertMalformed(dir, "i.gr", "p sp 5 1\na 1\n", 2, "expected head vertex, found the end of the line");
        assertMalformed(dir, "j.gr", "p sp 5 1\na 1 x 2\n", 2, "expected head vertex, found 'x'");
        assertMalformed(dir, "k.gr", "p sp 5 1\na 1 2 3 4\n", 2,
                "unexpected '4' after the arc: the line is 'a u v' with at most one weight");
        assertMalformed(dir, "l.gr", "p sp 5 1\nx 1 2\n", 2, "unknown DIMACS line type 'x': lines start with c, p, a, e or n");
        assertMalformed(dir, "m.gr", "p sp 5 2\na 1 2 1\n", 3, "the file ends after 1 of the 2 arcs declared on line 1");
        assertMalformed(dir, "n.gr", "p sp 5 1\na 1 2 1\nc\na 2 3 1\n", 4, "more arcs than the 1 declared on line 1");
        assertMalformed(dir, "o.gr", "p sp -5 1\n", 1, "vertex count -5 is negative");
    }

    @Test
    void dimacsColouring() throws IOException {
        assertMalformed(dir, "a.col", "e 1 2\np edge 2 1\n", 1, "edge before the problem line");
        assertMalformed(dir, "b.col", "p edge 4\n", 1, "expected edge count, found the end of the line");
        assertMalformed(dir, "c.col", "p col 4 2\ne 1 2\n", 3, "the file ends after 1 of the 2 edges declared on line 1");
        assertMalformed(dir, "d.col", "p edge 4 1\ne 1 2\ne 2 3\n", 3, "more edges than the 1 declared on line 1");
        assertMalformed(dir, "e.col", "p edge 4 1\ne 1 5\n", 2, "head vertex 5 is out of range 1..4");
        assertMalformed(dir, "f.col", "p edge 4 1\ne 0 1\n", 2, "tail vertex 0 is out of range 1..4");
        assertMalformed(dir, "g.col", "p edge 4 1\ne 1 2 3 4\n", 2,
                "unexpected '4' after the edge: the line is 'e u v' with at most one weight");
        assertMalformed(dir, "h.col", "p edge 4 1 x\n", 1, "unexpected 'x' after the problem line 'p edge N M'");
        assertMalformed(dir, "i.col", "p edge 3 1\ne 1 -2\n", 2, "head vertex -2 is negative");
    }

    // ---- SNAP and edge lists ----

    @Test
    void edgeLists() throws IOException {
        assertMalformed(dir, "a.txt", "", -1, "the file is empty");
        assertMalformed(dir, "b.txt", "# c\n1 2\n3\n", 3, "expected target id, found the end of the line");
        assertMalformed(dir, "c.txt", "1 2\n3 4 5 6\n", 2, "unexpected '6': a line holds two vertex ids and at most one weight");
        assertMalformed(dir, "d.txt", "1 2\n3 4 w\n", 2, "expected weight, found 'w'");
        assertMalformed(dir, "e.txt", "1 2\n-5 3\n", 2, "source id -5 is negative");
        assertMalformed(dir, "f.txt", "a b\n", 1, "expected source id, found 'a'");
        // a SNAP file with a header line: the plain edge-list reader takes those
        assertMalformed(dir, "header.txt", "src dst\n1 2\n", 1, "expected source id, found 'src'; SNAP ids are numbers: "
                + "read it as an edge list (format edges) to skip a header line and number text ids");
        assertMalformed(dir, "g.txt", "1 9223372036854775808\n", 1, "target id 9223372036854775808 is too large");
        assertMalformed(write(dir, "h.txt", "0 1\n% not a SNAP comment\n"), GraphFormat.SNAP, 2,
                "expected source id, found '%'");
        // Edge-list ids that are not vertex numbers (2147483647, 12x) are numbered instead (GraphReaderTest),
        // but an edge list still needs two ids a line, text, and quotes that close.
        assertMalformed(dir, "i.edges", "0 1\n2\n", 2, "expected target id, found the end of the line");
        assertMalformed(dir, "j.edges", "0 1\n\n\nx\u0001y 3\n", 4,
                "source id holds the control byte 0x01: the input is not text");
        assertMalformed(dir, "k.edges", "", -1, "the file is empty");
        assertMalformed(dir, "l.csv", "a,b\n\"x,y\n", 2, "the quoted source id '\"x' has no closing quote on its line");
        assertMalformed(dir, "m.csv", "a,b\n\"x\"y,z\n", 2, "unexpected 'y' after the closing quote of the source id");
        assertMalformed(dir, "n.csv", "a,b\n\"\",z\n", 2, "the source id is empty");
        assertMalformed(dir, "o.csv", "a,b\nx,y,z\n", 2, "expected weight, found 'z'");
        Path keep = write(dir, "keep.txt", "1 3000000000\n");
        GraphFormatException e = assertThrows(GraphFormatException.class,
                () -> GraphReader.read(keep, GraphFormat.SNAP, new ReadOptions(true), Arena.global()));
        assertEquals(1, e.line());
        assertEquals(2, e.byteOffset());
        assertTrue(e.getMessage().contains("target id 3000000000 is too large (the largest is 2147483646)"), e.getMessage());
    }

    @Test
    void longTokensAreShortenedInMessages() throws IOException {
        String junk = "x".repeat(5000);
        GraphFormatException e = assertMalformed(dir, "a.edges", "0 1\n" + junk + " 2\n", 2,
                "source id 'xxx");
        assertTrue(e.getMessage().contains("is longer than the 1000 bytes an id may have"), e.getMessage());
        assertTrue(e.getMessage().length() < 200, e.getMessage());
        GraphFormatException snap = assertMalformed(dir, "b.txt", "0 1\n" + junk + " 2\n", 2,
                "expected source id, found 'xxx");
        assertTrue(snap.getMessage().length() < 200, snap.getMessage());
    }

    // ---- ECL binary ----

    private Path egrFile(String name, int... ints) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * ints.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int i : ints) {
            b.putInt(i);
        }
        Path file = dir.resolve(name);
        Files.write(file, b.array());
        return file;
    }

    @Test
    void egrSizes() throws IOException {
        Path empty = dir.resolve("empty.egr");
        Files.write(empty, new byte[0]);
        assertMalformed(empty, GraphFormat.AUTO, -1, "the file is empty");
        Path shortHeader = dir.resolve("short.egr");
        Files.write(shortHeader, new byte[5]);
        assertMalformed(shortHeader, GraphFormat.AUTO, -1, "the file is 5 bytes, shorter than the 8-byte .egr header");
        GraphFormatException huge = assertTimeoutPreemptively(Duration.ofSeconds(5), () ->
                assertMalformed(egrFile("huge.egr", Integer.MAX_VALUE, 0, 0, 0, 0), GraphFormat.AUTO, -1,
                        "the file is 20 bytes but its header (2147483647 vertices, 0 arcs) needs 8589934600 bytes"));
        assertTrue(huge.getMessage().contains("truncated"), huge.getMessage());
        assertMalformed(egrFile("truncated.egr", 2, 2, 0, 1, 2, 1), GraphFormat.AUTO, -1, "it is truncated");
        assertMalformed(egrFile("trailing.egr", 2, 2, 0, 1, 2, 1, 0, 9), GraphFormat.AUTO, -1,
                "the file is 32 bytes but its header (2 vertices, 2 arcs) needs 28 bytes (36 with edge weights)");
        GraphFormatException negativeN = assertMalformed(egrFile("n.egr", -3, 0, 0), GraphFormat.AUTO, -1,
                "vertex count -3 is negative");
        assertEquals(0, negativeN.byteOffset());
        GraphFormatException negativeM = assertMalformed(egrFile("m.egr", 1, -1, 0, 0), GraphFormat.AUTO, -1,
                "arc count -1 is negative");
        assertEquals(4, negativeM.byteOffset());
        assertTrue(negativeM.getMessage().startsWith(dir.resolve("m.egr") + ": at byte 4: "), negativeM.getMessage());
    }

    /** Structure errors name the byte offset of the offending int: header 0..7, offsets from 8, then neighbours. */
    @Test
    void egrStructure() throws IOException {
        GraphFormatException decreasing = assertMalformed(egrFile("dec.egr", 3, 2, 0, 2, 1, 2, 1, 0),
                GraphFormat.AUTO, -1, "at byte 16: invalid CSR structure: offsets[2] is 1, less than offsets[1] = 2: "
                        + "offsets must not decrease");
        assertEquals(16, decreasing.byteOffset());
        assertTrue(decreasing.getCause() instanceof IllegalArgumentException);
        assertEquals(8, assertMalformed(egrFile("first.egr", 2, 2, 1, 2, 2, 1, 0), GraphFormat.AUTO, -1,
                "at byte 8: invalid CSR structure: offsets[0] is 1, must be 0").byteOffset());
        assertEquals(16, assertMalformed(egrFile("last.egr", 2, 2, 0, 1, 1, 1, 0), GraphFormat.AUTO, -1,
                "at byte 16: invalid CSR structure: offsets[2] is 1, but the header declares 2 arcs").byteOffset());
        assertEquals(12, assertMalformed(egrFile("past.egr", 2, 2, 0, 3, 2, 1, 0), GraphFormat.AUTO, -1,
                "at byte 12: invalid CSR structure: offsets[1] is 3, past the 2 arcs that the header declares")
                .byteOffset());
        assertEquals(24, assertMalformed(egrFile("range.egr", 2, 2, 0, 1, 2, 1, 5), GraphFormat.AUTO, -1,
                "at byte 24: invalid CSR structure: neighbour id 5 of arc 1 is outside 0..1").byteOffset());
        assertEquals(20, assertMalformed(egrFile("negative.egr", 2, 2, 0, 1, 2, -4, 0), GraphFormat.AUTO, -1,
                "at byte 20: invalid CSR structure: neighbour id -4 of arc 0 is outside 0..1").byteOffset());
    }
}
