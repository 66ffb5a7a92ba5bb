package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.forked;
import static org.ccl4j.cli.CliTestSupport.run;
import static org.ccl4j.cli.CliTestSupport.runWithInput;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;
import org.ccl4j.cli.CliTestSupport.Result;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.GraphWriter;
import org.ccl4j.io.ReadOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code ccl4j convert IN OUT}: an edge list into {@code .csr} (the bytes docs/FORMATS.md specifies,
 * read back and labelled as the edge list is), a {@code .csr} file into every format the writer
 * writes, {@code --to}, the ids of a renumbered input beside OUT, damaged and lying {@code .csr}
 * files refused with their byte offset before anything is written, an output written whole or not
 * at all, the progress of a long write, and the help.
 */
class ConvertCommandTest {
    /** Components {0, 1, 2}, {3, 4}, {5} (a self loop, dropped); 2 - 0 repeats 0 - 2's edge. */
    private static final String EDGES = "0 1\n1 2\n3 4\n5 5\n2 0\n";
    /** Its canonical lists: 8 arcs. */
    private static final int[][] LISTS = {{1, 2}, {0, 2}, {0, 1}, {4}, {3}, {}};

    @TempDir
    Path dir;

    private Path edges() throws IOException {
        return Files.writeString(dir.resolve("g.edges"), EDGES);
    }

    private static JsonNode json(Result r) throws IOException {
        assertEquals(Main.OK, r.code(), r.err() + r.out());
        return new ObjectMapper().readTree(r.out());
    }

    private static int[][] lists(CsrGraph g) {
        int[][] lists = new int[g.vertexCount()][];
        for (int v = 0; v < g.vertexCount(); v++) {
            lists[v] = g.neighbors().asSlice(4 * g.offset(v), 4 * g.degree(v)).toArray(ValueLayout.JAVA_INT);
        }
        return lists;
    }

    private static int[][] read(Path file, GraphFormat format) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            // ids kept: SNAP would renumber them by first appearance
            return lists(GraphReader.read(file, format, new ReadOptions(true), arena).graph());
        }
    }

    private List<String> files() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void anEdgeListBecomesTheSpecifiedCsrFileWhichLabelReadsAsTheEdgeList() throws IOException {
        Path in = edges();
        Path out = dir.resolve("g.csr");
        Result r = run("convert", in.toString(), out.toString());
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().startsWith(in + " (edges) -> " + out + " (csr): 6 vertices, 8 arcs, 104 bytes in "),
                r.out());

        // header, 7 offsets of 4 bytes (68 bytes, padded to 72), 8 neighbours
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(104, b.capacity());
        byte[] magic = new byte[8];
        b.get(magic);
        assertArrayEquals(new byte[] {(byte) 0x89, 'C', 'S', 'R', '\r', '\n', 0x1A, '\n'}, magic);
        assertEquals(1, b.getInt(8), "version");
        assertEquals(1, b.getInt(12), "flags: canonical");
        assertEquals(6, b.getLong(16), "vertices");
        assertEquals(8, b.getLong(24), "arcs");
        assertEquals(4, b.getInt(32), "offset width");
        CRC32 crc = new CRC32();
        crc.update(b.array(), 0, 36);
        assertEquals((int) crc.getValue(), b.getInt(36), "CRC-32 of bytes 0..35");
        int[] offsets = new int[7];
        b.position(40).asIntBuffer().get(offsets);
        assertArrayEquals(new int[] {0, 2, 4, 6, 7, 8, 8}, offsets);
        assertEquals(0, b.getInt(68), "padding");
        int[] neighbors = new int[8];
        b.position(72).asIntBuffer().get(neighbors);
        assertArrayEquals(new int[] {1, 2, 0, 2, 0, 1, 4, 3}, neighbors);

        try (Arena arena = Arena.ofConfined()) {
            CsrGraph mapped = GraphReader.read(out, arena).graph();
            assertTrue(mapped.neighbors().isMapped(), "label maps a .csr file");
            assertArrayEquals(LISTS, lists(mapped));
        }
        JsonNode fromCsr = json(run("label", out.toString(), "--backend", "java", "--json"));
        assertEquals(3, fromCsr.get("components").asInt());
        assertEquals(8, fromCsr.get("arcs").asInt());
        assertEquals(json(run("label", in.toString(), "--backend", "java", "--json")).get("components"),
                fromCsr.get("components"));
        assertEquals(List.of("g.csr", "g.edges"), files(), "no temporary file is left");
    }

    /** Each format by OUT's extension; each file read back is the graph of the .csr file. */
    @Test
    void aCsrFileConvertsToEveryFormatTheWriterWrites() throws IOException {
        Path csr = dir.resolve("g.csr");
        assertEquals(Main.OK, run("convert", edges().toString(), csr.toString()).code());
        List<List<String>> cases = List.of(List.of("egr", "egr"), List.of("mtx", "mtx"), List.of("gr", "dimacs"),
                List.of("txt", "snap"), List.of("snap", "snap"), List.of("edges", "edges"), List.of("el", "edges"),
                List.of("tsv", "edges"), List.of("csv", "edges"), List.of("copy.csr", "csr"));
        for (List<String> c : cases) {
            Path out = dir.resolve("out." + c.get(0));
            JsonNode result = json(run("convert", csr.toString(), out.toString(), "--json"));
            assertEquals("csr", result.get("inputFormat").asText());
            assertEquals(c.get(1), result.get("format").asText(), c.get(0));
            assertEquals(Files.size(out), result.get("bytes").asLong());
            assertEquals(8, result.get("arcs").asLong());
            assertArrayEquals(LISTS, read(out, GraphFormat.fromName(c.get(1))), c.get(0));
        }
        assertArrayEquals(Files.readAllBytes(csr), Files.readAllBytes(dir.resolve("out.copy.csr")),
                "a .csr file converted to .csr is the same file");
    }

    @Test
    void toNamesTheFormatWhateverOutsName() throws IOException {
        Path in = edges();
        Path bin = dir.resolve("graph.bin");
        JsonNode result = json(run("convert", in.toString(), bin.toString(), "--to", "csr", "--json"));
        assertEquals("csr", result.get("format").asText());
        assertEquals(GraphFormat.CSR, GraphFormat.detect(bin), "by its magic bytes");
        assertArrayEquals(LISTS, read(bin, GraphFormat.CSR));

        // an .egr file under a .csr name: read as one only when told, as the name promises the magic bytes
        Path egr = dir.resolve("graph.csr");
        json(run("convert", in.toString(), egr.toString(), "--to", "egr", "--json"));
        assertArrayEquals(LISTS, read(egr, GraphFormat.EGR));
        Result byName = run("label", egr.toString());
        assertEquals(Main.INVALID_INPUT, byName.code(), byName.err());
        assertTrue(byName.err().startsWith("ccl4j: invalid input: " + egr + ": at byte 0: the file starts with 06 00 00 00"),
                byName.err());
        assertEquals(3, json(run("label", egr.toString(), "--format", "egr", "--json")).get("components").asInt());

        Result unknown = run("convert", in.toString(), dir.resolve("graph.dat").toString());
        assertEquals(Main.USAGE, unknown.code());
        assertTrue(unknown.err().startsWith("ccl4j: cannot tell a graph format from the name graph.dat: use .csr,"
                + " .egr, .mtx, .gr, .txt, .snap, .edges, .el, .tsv or .csv, or name the format"), unknown.err());
        assertFalse(Files.exists(dir.resolve("graph.dat")));
    }

    /** An input whose ids were renumbered keeps them beside OUT, as label keeps them beside its labels. */
    @Test
    void renumberedIdsGoBesideTheOutput() throws IOException {
        Path csv = Files.writeString(dir.resolve("people.csv"), "source,target\nalice,bob\nbob,carol\ndave,erin\n");
        Path out = dir.resolve("people.csr");
        JsonNode result = json(run("convert", csv.toString(), out.toString(), "--json"));
        assertTrue(result.get("idsRenumbered").asBoolean());
        Path ids = dir.resolve("people.csr.ids.csv");
        assertEquals(ids.toString(), result.get("idsFile").asText());
        assertEquals(List.of("vertex,id", "0,alice", "1,bob", "2,carol", "3,dave", "4,erin"), Files.readAllLines(ids));
        assertArrayEquals(new int[][] {{1}, {0, 2}, {1}, {4}, {3}}, read(out, GraphFormat.CSR));

        Result text = run("convert", csv.toString(), out.toString());
        assertTrue(text.out().contains("ids: the file's text ids, numbered in order of first appearance; mapping: "
                + ids + "\n"), text.out());
        Files.delete(ids);
        result = json(run("convert", edges().toString(), dir.resolve("plain.csr").toString(), "--json"));
        assertFalse(result.get("idsRenumbered").asBoolean());
        assertFalse(result.has("idsFile"), result.toString());
        assertFalse(Files.exists(dir.resolve("plain.csr.ids.csv")));
    }

    @Test
    void standardInputIsConvertedToo() throws IOException {
        Path out = dir.resolve("stdin.csr");
        JsonNode result = json(runWithInput(EDGES.getBytes(StandardCharsets.US_ASCII), "convert", "-", out.toString(),
                "--json"));
        assertEquals("edges", result.get("inputFormat").asText());
        assertArrayEquals(LISTS, read(out, GraphFormat.CSR));
    }

    /**
     * A truncated .csr file, and one whose header was damaged, are refused (exit 3) naming the byte
     * offset, and the old output stays as it was.
     */
    @Test
    void aDamagedCsrFileIsRefusedWithItsByteOffsetAndTheOutputIsUntouched() throws IOException {
        Path csr = dir.resolve("g.csr");
        assertEquals(Main.OK, run("convert", edges().toString(), csr.toString()).code());
        byte[] bytes = Files.readAllBytes(csr);
        Path out = Files.writeString(dir.resolve("out.edges"), "old");

        Path truncated = Files.write(dir.resolve("truncated.csr"), Arrays.copyOf(bytes, 90));
        Result r = run("convert", truncated.toString(), out.toString());
        assertEquals(Main.INVALID_INPUT, r.code(), r.err());
        assertEquals("ccl4j: invalid input: " + truncated + ": at byte 90: the file is 90 bytes but its header (6 vertices, 8 arcs,"
                + " 4-byte offsets) needs 104 bytes: it is truncated\n", r.err());

        byte[] damaged = bytes.clone();
        damaged[24] = 9; // the arc count, without its checksum
        Path lying = Files.write(dir.resolve("lying.csr"), damaged);
        JsonNode error = new ObjectMapper().readTree(run("convert", lying.toString(), out.toString(), "--json").out());
        assertEquals("invalid-input", error.get("kind").asText());
        assertTrue(error.get("error").asText().contains(lying + ": at byte 36: header checksum 0x"), error.toString());
        assertTrue(error.get("error").asText().endsWith(": the header is damaged"), error.toString());

        assertEquals("old", Files.readString(out));
        assertEquals(List.of("g.csr", "g.edges", "lying.csr", "out.edges", "truncated.csr"), files());
    }

    /**
     * The reader takes a .csr file's canonical flag at its word; convert checks the graph before
     * writing it, since the writers of edges take each edge from one end: a flag that lies about a
     * missing reverse arc is refused, not written as a smaller graph.
     */
    @Test
    void aCanonicalFlagThatLiesIsRefusedBeforeWriting() throws IOException {
        Path csr = dir.resolve("asymmetric.csr");
        try (Arena arena = Arena.ofConfined()) {
            // 0 -> 1, 1 -> 0 and 1 -> 2, whose reverse is missing: written without the flag
            CsrGraph g = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 3, 3), Integer.BYTES,
                    arena.allocateFrom(ValueLayout.JAVA_INT, 1, 0, 2));
            GraphWriter.write(g, csr, GraphFormat.CSR);
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(csr)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, b.getInt(12), "not canonical: no flag");
        // without the flag the file is rebuilt as every reader builds graphs: symmetrised
        Path out = dir.resolve("out.edges");
        json(run("convert", csr.toString(), out.toString(), "--json"));
        assertArrayEquals(new int[][] {{1}, {0, 2}, {1}}, read(out, GraphFormat.EDGES));

        b.putInt(12, 1);
        CRC32 crc = new CRC32();
        crc.update(b.array(), 0, 36);
        b.putInt(36, (int) crc.getValue());
        Files.write(csr, b.array());
        Files.delete(out);
        Result r = run("convert", csr.toString(), out.toString());
        assertEquals(Main.INVALID_INPUT, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: invalid input: " + csr + ": its canonical flag is set, but the graph is not"
                + " symmetric"), r.err());
        assertFalse(Files.exists(out));
    }

    /** OUT is checked before IN is read: a missing directory fails at once, even for an input that is missing too. */
    @Test
    void anOutputThatCannotBeWrittenIsRefusedFirst() {
        Path out = dir.resolve("no-such-directory").resolve("g.csr");
        Result r = run("convert", dir.resolve("missing.edges").toString(), out.toString());
        assertEquals(Main.OUTPUT_ERROR, r.code(), r.err());
        assertEquals("ccl4j: cannot write " + out + ": no such directory: " + out.getParent() + "\n", r.err());
        Result directory = run("convert", dir.resolve("missing.edges").toString(), dir.toString(), "--to", "csr");
        assertEquals(Main.OUTPUT_ERROR, directory.code(), directory.err());
    }

    /** A path of 2^20 vertices: 2^21 - 2 arcs, two reports of the writer's progress. */
    private Path longPath() throws IOException {
        Path file = dir.resolve("path.csr");
        try (Arena arena = Arena.ofConfined()) {
            GraphBuilder builder = new GraphBuilder().vertexCount(1 << 20);
            for (int v = 1; v < 1 << 20; v++) {
                builder.addEdge(v - 1, v);
            }
            GraphWriter.write(builder.build(arena), file, GraphFormat.CSR);
        }
        return file;
    }

    /**
     * A file-size limit (ulimit -f, in KiB) stops the write half way: exit 5, the old file as it was,
     * and no temporary file left.
     */
    @Test
    void aWriteThatFailsHalfWayLeavesTheOldFile() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash for ulimit");
        Path in = longPath();
        Path out = Files.writeString(dir.resolve("out.edges"), "old");
        Result r = forked(dir, List.of(), "ulimit -f 1024", "convert", in.toString(), out.toString(), "--quiet");
        assertEquals(Main.OUTPUT_ERROR, r.code(), r.err());
        assertEquals("ccl4j: cannot write " + out + ": File too large\n", r.err());
        assertEquals("old", Files.readString(out));
        assertEquals(List.of("out.edges", "path.csr"), files());
    }

    /**
     * On a terminal the write shows a bar, cleared at the end; --quiet hides it, and a short run
     * leaves nothing in a log.
     */
    @Test
    void aLongWriteShowsItsProgress() throws IOException {
        Path in = longPath();
        Path out = dir.resolve("path.egr");
        Result terminal = run(true, "convert", in.toString(), out.toString());
        assertEquals(Main.OK, terminal.code(), terminal.err());
        assertTrue(terminal.err().startsWith("\r["), terminal.err());
        assertTrue(terminal.err().contains("writing path.egr"), terminal.err());
        assertTrue(terminal.err().matches("(?s).*\r +\r"), "the bar is cleared: " + terminal.err());
        assertTrue(terminal.out().contains("1048576 vertices, 2097150 arcs"), terminal.out());
        assertEquals("", run(true, "convert", in.toString(), out.toString(), "--quiet").err());
        assertEquals("", run(false, "convert", in.toString(), out.toString()).err());
    }

    @Test
    void theHelpSaysWhatConvertReadsAndWrites() {
        Result help = run("convert", "--help");
        assertEquals(Main.OK, help.code(), help.err());
        assertTrue(help.out().startsWith("usage: ccl4j convert "), help.out());
        for (String part : List.of("IN", "OUT", "--to=FORMAT", "--format=FORMAT", "--keep-ids", "--quiet", ".csr",
                "ccl4j convert web-Google.txt.gz web-Google.csr")) {
            assertTrue(help.out().contains(part), part + " in " + help.out());
        }
        assertEquals(help.out(), run("convert", "-h").out());
        assertEquals(help.out(), run("help", "convert").out());
        assertTrue(run("--help").out().contains("\n  convert "), "the top-level help lists convert");
    }
}
