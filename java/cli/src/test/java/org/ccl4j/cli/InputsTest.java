package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.ccl4j.cli.CliTestSupport.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the reading commands take: {@code -} for standard input, gzip-compressed files, CSV edge
 * lists with a header and text or 64-bit ids (the mapping written beside binary labels, the ids in
 * text labels, {@code --header}), and files of formats that ccl4j does not read, refused by name.
 */
class InputsTest {
    /** Two components, {alice, bob, carol} and {dave, erin}, in a CSV with a header. */
    private static final String PEOPLE = "source,target\nalice,bob\nbob,carol\ndave,erin\n";
    /** A 3x2 greymap with two foreground cells that touch only by a corner: two clusters under 4-connectivity. */
    private static final String GREYMAP = "P2\n3 2\n255\n0 255 0\n255 0 0\n";

    @TempDir
    Path dir;

    private static JsonNode json(Result r) throws IOException {
        assertEquals(0, r.code(), r.err());
        return new ObjectMapper().readTree(r.out());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] gzip(String text) throws IOException {
        return gzip(bytes(text));
    }

    private static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(out)) {
            z.write(content);
        }
        return out.toByteArray();
    }

    private static List<Integer> int32s(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        List<Integer> values = new ArrayList<>();
        while (b.hasRemaining()) {
            values.add(b.getInt());
        }
        return values;
    }

    @Test
    void labelAndDistancesReadStandardInput() throws IOException {
        // {0, 1, 2} and {3, 4}
        byte[] edges = bytes("0 1\n1 2\n3 4\n");
        JsonNode label = json(runWithInput(edges, "label", "-", "--json"));
        assertEquals(5, label.get("vertices").asInt());
        assertEquals(2, label.get("components").asInt());
        assertFalse(label.get("idsRenumbered").asBoolean(), label.toString());

        Result text = runWithInput(edges, "label", "-", "--format", "edges");
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().startsWith("(stdin): 5 vertices, 6 arcs (EDGES), read in "), text.out());

        // gzip-compressed standard input is decompressed as a file is
        JsonNode distances = json(runWithInput(gzip("0 1\n1 2\n3 4\n"), "distances", "-", "--json"));
        assertEquals(2, distances.get("components").asInt());
        assertEquals(2, distances.get("rows").get(0).get("diameter").asInt());

        // an error names standard input as the file, with the line
        Result bad = runWithInput(bytes("0 1\n1 2 x\n"), "label", "-", "--format", "edges");
        assertEquals(Main.INVALID_INPUT, bad.code(), bad.err());
        assertTrue(bad.err().contains("ccl4j: invalid input: (stdin):2: "), bad.err());
        // as does one found when the input is empty
        Result empty = runWithInput(new byte[0], "label", "-", "--json");
        assertEquals(Main.INVALID_INPUT, empty.code(), empty.out());
        assertTrue(empty.out().contains("(stdin)"), empty.out());
    }

    /** The process's own standard input, as a pipe or a shell's redirection gives it, not System.setIn's. */
    @Test
    void aSeparateProcessReadsItsStandardInput() throws IOException, InterruptedException {
        Path edges = Files.writeString(dir.resolve("input"), "0 1\n2 3\n4 5\n");
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process process = CliTestSupport.forkedProcess(dir, List.of(), null, "label", "-", "--json",
                "--backend", "java").redirectInput(edges.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("the forked ccl4j did not finish in 2 minutes");
        }
        assertEquals(0, process.exitValue(), Files.readString(err));
        JsonNode result = new ObjectMapper().readTree(Files.readString(out));
        assertEquals(6, result.get("vertices").asInt());
        assertEquals(3, result.get("components").asInt());
    }

    @Test
    void aGzipCompressedEdgeListIsLabelled() throws IOException {
        Path gz = Files.write(dir.resolve("g.edges.gz"), gzip("0 1\n1 2\n5 6\n"));
        JsonNode result = json(run("label", gz.toString(), "--json"));
        assertEquals(7, result.get("vertices").asInt());
        assertEquals(4, result.get("components").asInt()); // {0,1,2}, {3}, {4}, {5,6}
        // whatever its name: gzip is told by its first bytes
        Path named = Files.write(dir.resolve("plain.edges"), gzip("0 1\n1 2\n5 6\n"));
        assertEquals(4, json(run("label", named.toString(), "--json")).get("components").asInt());
        Result text = run("label", gz.toString());
        assertTrue(text.out().startsWith(gz + ": 7 vertices, 6 arcs (EDGES)"), text.out());
    }

    @Test
    void textIdsGoToTextLabelsAndBesideBinaryLabels() throws IOException {
        Path csv = Files.writeString(dir.resolve("people.csv"), PEOPLE);
        Path bin = dir.resolve("labels.bin");
        JsonNode result = json(run("label", csv.toString(), "--out", bin.toString(), "--json"));
        assertEquals(5, result.get("vertices").asInt());
        assertEquals(2, result.get("components").asInt());
        assertTrue(result.get("idsRenumbered").asBoolean(), result.toString());
        Path ids = dir.resolve("labels.bin.ids.csv");
        assertEquals(ids.toString(), result.get("idsFile").asText());
        // vertices are numbered in order of first appearance: the labels name them, the mapping gives their ids
        assertEquals(List.of(0, 0, 0, 3, 3), int32s(bin));
        assertEquals(List.of("vertex,id", "0,alice", "1,bob", "2,carol", "3,dave", "4,erin"), Files.readAllLines(ids));

        // text labels name each vertex by its id; no mapping is needed beside them
        Path txt = dir.resolve("labels.txt");
        Result text = run("label", csv.toString(), "--out", txt.toString());
        assertEquals(0, text.code(), text.err());
        assertEquals(List.of("alice 0", "bob 0", "carol 0", "dave 3", "erin 3"), Files.readAllLines(txt));
        assertFalse(Files.exists(dir.resolve("labels.txt.ids.csv")));
        assertTrue(text.out().contains("ids: the file's text ids, numbered in order of first appearance; " + txt
                + " names vertices by them\n"), text.out());

        // the summary says where the mapping went
        text = run("label", csv.toString(), "--out", bin.toString(), "--compact");
        assertTrue(text.out().contains("ids: the file's text ids, numbered in order of first appearance; mapping: "
                + ids + "\n"), text.out());
        assertEquals(List.of(0, 0, 0, 1, 1), int32s(bin));

        // ids beyond int32 are renumbered too, and their mapping is numeric
        Path wide = Files.writeString(dir.resolve("wide.edges"), "10000000000 20000000000\n20000000000 7\n");
        result = json(run("label", wide.toString(), "--out", bin.toString(), "--json"));
        assertEquals(3, result.get("vertices").asInt());
        assertEquals(List.of("vertex,id", "0,10000000000", "1,20000000000", "2,7"), Files.readAllLines(ids));
        text = run("label", wide.toString());
        assertTrue(text.out().contains("ids: the file's numeric ids, numbered in order of first appearance\n"),
                text.out());

        // ids taken as vertex numbers: no mapping
        Path plain = Files.writeString(dir.resolve("plain.edges"), "0 1\n2 3\n");
        Path other = dir.resolve("other.bin");
        result = json(run("label", plain.toString(), "--out", other.toString(), "--json"));
        assertFalse(result.get("idsRenumbered").asBoolean());
        assertFalse(result.has("idsFile"), result.toString());
        assertFalse(Files.exists(dir.resolve("other.bin.ids.csv")));
    }

    @Test
    void distancesNameComponentsByTheirIdsInTheFile() throws IOException {
        Path csv = Files.writeString(dir.resolve("people.csv"), PEOPLE);
        JsonNode rows = json(run("distances", csv.toString(), "--json")).get("rows");
        assertEquals("alice", rows.get(0).get("fileId").asText());
        assertEquals(0, rows.get(0).get("label").asInt());
        assertEquals("dave", rows.get(1).get("fileId").asText());
        assertEquals(3, rows.get(1).get("label").asInt());
        Result text = run("distances", csv.toString());
        assertTrue(text.out().contains("     alice          3                    8       1.333333        2\n"),
                text.out());

        // numeric ids stay numbers in the JSON
        Path wide = Files.writeString(dir.resolve("wide.edges"), "10000000000 20000000000\n");
        rows = json(run("distances", wide.toString(), "--json")).get("rows");
        assertTrue(rows.get(0).get("fileId").isNumber(), rows.toString());
        assertEquals(10_000_000_000L, rows.get(0).get("fileId").asLong());
    }

    @Test
    void headerSaysWhetherAnEdgeListStartsWithColumnNames() throws IOException {
        // text ids and no header: detected, the first edge would be taken for column names
        Path headerless = Files.writeString(dir.resolve("pairs.edges"), "alice bob\ncarol dave\nbob carol\n");
        JsonNode detected = json(run("label", headerless.toString(), "--json"));
        assertEquals(3, detected.get("vertices").asInt()); // carol, dave, bob
        JsonNode absent = json(run("label", headerless.toString(), "--header", "no", "--json"));
        assertEquals(4, absent.get("vertices").asInt());
        assertEquals(1, absent.get("components").asInt());
        Path txt = dir.resolve("pairs.txt");
        assertEquals(0, run("label", headerless.toString(), "--header", "no", "--out", txt.toString()).code());
        assertEquals(List.of("alice 0", "bob 0", "carol 0", "dave 0"), Files.readAllLines(txt));
        // from standard input too, and for distances
        absent = json(runWithInput(Files.readAllBytes(headerless), "distances", "-", "--header", "no", "--json"));
        assertEquals(4, absent.get("vertices").asInt());

        // numbers: a first line of numbers is an edge unless --header yes says it is a header
        Path numbers = Files.writeString(dir.resolve("numbers.edges"), "0 1\n2 3\n");
        assertEquals(2, json(run("label", numbers.toString(), "--json")).get("components").asInt());
        JsonNode present = json(run("label", numbers.toString(), "--header", "yes", "--json"));
        assertEquals(4, present.get("vertices").asInt());
        assertEquals(3, present.get("components").asInt()); // {2, 3}, {0}, {1}

        // a bad value, and a header for a format that has none, are usage errors
        Result bad = run("label", numbers.toString(), "--header", "maybe");
        assertEquals(Main.USAGE, bad.code());
        assertTrue(bad.err().contains("unknown header setting 'maybe'; expected one of auto, yes, no"), bad.err());
        bad = run("distances", numbers.toString(), "--header", "yes", "--format", "mtx");
        assertEquals(Main.USAGE, bad.code());
        assertTrue(bad.err().contains("--header yes applies to edge lists (--format edges or auto), not to"
                + " --format mtx"), bad.err());

        // a .txt file is SNAP's, whose ids are numbers: the message names the option that reads text ids
        Path snap = Files.writeString(dir.resolve("pairs-snap.txt"), "alice bob\n");
        bad = run("label", snap.toString());
        assertEquals(Main.INVALID_INPUT, bad.code());
        assertTrue(bad.err().contains("read it as an edge list (--format edges)"), bad.err());
    }

    @Test
    void meshReadsAGridFromStandardInput() throws IOException {
        JsonNode result = json(runWithInput(bytes(GREYMAP), "mesh", "-", "--json"));
        assertEquals(3, result.get("width").asInt());
        assertEquals(2, result.get("height").asInt());
        assertEquals(2, result.get("clusters").asInt());
        assertEquals(1, json(runWithInput(gzip(GREYMAP), "mesh", "-", "--connectivity", "8", "--json"))
                .get("clusters").asInt());
        Result text = runWithInput(bytes(GREYMAP), "mesh", "-");
        assertTrue(text.out().startsWith("(stdin): 3x2 u8 grid, 6 cells\n"), text.out());

        // raw cells from standard input, named as such
        byte[] raw = {1, 0, 0, 1, 1, 0, 0, 0};
        result = json(runWithInput(raw, "mesh", "-", "--format", "raw", "--dims", "4x2", "--json"));
        assertEquals(2, result.get("clusters").asInt());

        // the intensity of --regions may come from standard input, but not both grids
        Path pgm = Files.writeString(dir.resolve("grey.pgm"), GREYMAP);
        Path regions = dir.resolve("regions.csv");
        Result both = runWithInput(bytes(GREYMAP), "mesh", pgm.toString(), "--regions", regions.toString(),
                "--intensity", "-");
        assertEquals(0, both.code(), both.err());
        assertEquals(3, Files.readAllLines(regions).size());
        Result twice = runWithInput(bytes(GREYMAP), "mesh", "-", "--regions", regions.toString(), "--intensity", "-");
        assertEquals(Main.USAGE, twice.code());
        assertTrue(twice.err().contains("FILE and --intensity cannot both be standard input (-)"), twice.err());
    }

    @Test
    void aGridOfUndetectableFormatOnStandardInputAsksForFormatRawAndItsDimensions() {
        byte[] raw = {1, 0, 0, 1, 1, 0, 0, 0};
        Result r = runWithInput(raw, "mesh", "-");
        assertEquals(Main.USAGE, r.code(), r.err());
        assertTrue(r.err().startsWith("ccl4j: (stdin): the format cannot be detected"), r.err());
        assertTrue(r.err().contains("give --format raw --dims WxH[xD] (and --type i32 for int32 cells)"), r.err());
        // --format raw without the dimensions asks for those only
        r = runWithInput(raw, "mesh", "-", "--format", "raw", "--json");
        assertEquals(Main.USAGE, r.code(), r.out());
        assertTrue(r.out().contains("(stdin): a raw grid file needs its dimensions"), r.out());
        assertTrue(r.out().contains("give --dims WxH[xD]") && !r.out().contains("--format raw --dims"), r.out());
    }

    @Test
    void formatsThatCcl4jDoesNotReadAreRefusedByName() throws IOException {
        byte[] tiff = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
        Path graph = Files.write(dir.resolve("scan.edges"), tiff);
        Result r = run("label", graph.toString());
        assertEquals(Main.INVALID_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("scan.edges") && r.err().contains("TIFF image"), r.err());
        r = run("distances", graph.toString(), "--json");
        assertEquals(Main.INVALID_INPUT, r.code(), r.out());
        assertTrue(r.out().contains("\"kind\":\"invalid-input\"") && r.out().contains("TIFF image"), r.out());

        Path grid = Files.write(dir.resolve("scan.pgm"), tiff);
        r = run("mesh", grid.toString());
        assertEquals(Main.INVALID_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("scan.pgm") && r.err().contains("TIFF image"), r.err());
        // compressed, and from standard input
        Path compressed = Files.write(dir.resolve("scan.edges.gz"), gzip(tiff));
        r = run("label", compressed.toString());
        assertEquals(Main.INVALID_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("scan.edges.gz") && r.err().contains("TIFF image"), r.err());
        r = runWithInput(tiff, "mesh", "-");
        assertEquals(Main.INVALID_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("(stdin)") && r.err().contains("TIFF image"), r.err());
        r = runWithInput(tiff, "label", "-");
        assertEquals(Main.INVALID_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("(stdin)") && r.err().contains("TIFF image"), r.err());
    }
}
