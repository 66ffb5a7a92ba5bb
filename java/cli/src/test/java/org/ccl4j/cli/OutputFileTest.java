package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.forked;
import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Output files: written whole through a temporary file or not at all, and a file that cannot be
 * written reported as such (exit code 5), not as invalid input.
 */
class OutputFileTest {
    @TempDir
    Path dir;

    private List<String> files() throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aCompleteFileReplacesTheOldOneAndNothingElseIsLeft() throws IOException {
        Path file = Files.writeString(dir.resolve("labels.raw"), "an older, longer file");
        OutputFile.write(file, temporary -> {
            assertEquals(dir, temporary.getParent(), "beside the target, so that the move is a rename");
            assertTrue(temporary.getFileName().toString().endsWith("-labels.raw"), "the extension is kept");
            assertFalse(temporary.equals(file));
            Files.writeString(temporary, "new");
        });
        assertEquals("new", Files.readString(file));
        assertEquals(List.of("labels.raw"), files());
    }

    @Test
    void aWriteThatFailsHalfWayLeavesTheOldFileAndNoTemporaryOne() throws IOException {
        Path file = Files.writeString(dir.resolve("labels.raw"), "old");
        OutputException e = assertThrows(OutputException.class, () -> OutputFile.write(file, temporary -> {
            try (OutputStream out = Files.newOutputStream(temporary)) {
                out.write(new byte[4096]);
                throw new IOException("No space left on device (writing " + temporary + ")");
            }
        }));
        // the message names the target, also where the writer named the temporary file
        assertEquals(file + ": No space left on device (writing " + file.toAbsolutePath() + ")", e.getMessage());
        assertEquals(file, e.file());
        assertEquals("old", Files.readString(file));
        assertEquals(List.of("labels.raw"), files());
    }

    @Test
    void anErrorWhileWritingAlsoRemovesTheTemporaryFile() throws IOException {
        Path file = dir.resolve("grid.pgm");
        OutOfMemoryError error = new OutOfMemoryError("Java heap space");
        OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, () -> OutputFile.write(file, temporary -> {
            Files.writeString(temporary, "P5 partial");
            throw error;
        }));
        assertSame(error, thrown, "errors are not wrapped");
        assertEquals(List.of(), files());
    }

    @Test
    void aDirectoryInPlaceOfTheFileIsNeitherReplacedNorWrittenInto() throws IOException {
        Path directory = Files.createDirectory(dir.resolve("out.raw"));
        OutputException e = assertThrows(OutputException.class,
                () -> OutputFile.write(directory, temporary -> Files.writeString(temporary, "x")));
        assertEquals(directory + ": it is a directory", e.getMessage());
        assertTrue(Files.isDirectory(directory), "an empty directory would be replaced by a plain move");
        assertEquals(List.of("out.raw"), files());
    }

    @Test
    void aMissingDirectoryIsNamed() {
        Path file = dir.resolve("missing").resolve("labels.raw");
        OutputException e = assertThrows(OutputException.class, () -> OutputFile.check(file));
        assertEquals(file + ": no such directory: " + dir.resolve("missing"), e.getMessage());
    }

    @Test
    void labelOutOnADirectoryIsAnOutputErrorWithItsOwnExitCodeAndKind() throws IOException {
        Path graph = Files.writeString(dir.resolve("g.edges"), "0 1\n1 2\n");
        Result r = run("label", graph.toString(), "--out", dir.toString());
        assertEquals(Main.OUTPUT_ERROR, r.code(), r.err());
        assertEquals("", r.out(), "checked before the graph is labelled");
        assertEquals("ccl4j: cannot write " + dir + ": it is a directory\n", r.err());

        r = run("label", graph.toString(), "--out", dir.toString(), "--json");
        assertEquals(Main.OUTPUT_ERROR, r.code());
        assertEquals("", r.err());
        JsonNode error = new ObjectMapper().readTree(r.out());
        assertEquals("output-error", error.get("kind").asText());
        assertEquals(Main.OUTPUT_ERROR, error.get("exitCode").asInt());
        assertEquals("cannot write " + dir + ": it is a directory", error.get("error").asText());
    }

    @Test
    void meshOutputsInAMissingDirectoryFailBeforeAnyWork() throws IOException {
        for (String option : List.of("--out", "--save", "--png")) {
            Path file = dir.resolve("missing").resolve("x.png");
            Result r = run("mesh", "--generate", "spiral:9", option, file.toString());
            assertEquals(Main.OUTPUT_ERROR, r.code(), option + ": " + r.err());
            assertEquals("", r.out(), option);
            assertEquals("ccl4j: cannot write " + file + ": no such directory: " + dir.resolve("missing") + "\n",
                    r.err(), option);
        }
        assertEquals(List.of(), files());
    }

    @Test
    void generateGraphIntoAReadOnlyDirectoryIsRefusedWhereTheSystemRefuses() throws IOException {
        Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        Path file = readOnly.resolve("g.egr");
        Result r = run("generate-graph", "line", file.toString(), "4");
        if (Files.isWritable(readOnly)) {
            // Permission bits do not bind this user (root): the check must not refuse what the
            // system allows, and the file is written whole.
            System.out.println("NOTICE: this user may write into read-only directories - the refusal is"
                    + " not exercised in OutputFileTest, only that such a directory is written to");
            assertEquals(Main.OK, r.code(), r.err());
            try (Stream<Path> list = Files.list(readOnly)) {
                assertEquals(List.of(file), list.toList());
            }
            assertTrue(Files.size(file) > 0, "an empty graph file");
            return;
        }
        assertEquals(Main.OUTPUT_ERROR, r.code(), r.err());
        assertEquals("ccl4j: cannot write " + file + ": permission denied: cannot create files in " + readOnly + "\n",
                r.err());
    }

    @Test
    void aWrittenLabelFileIsCompleteAndAloneWithTheInput() throws IOException {
        Path graph = Files.writeString(dir.resolve("g.edges"), "0 1\n2 3\n");
        Path labels = Files.writeString(dir.resolve("labels.raw"), "an older file");
        Result r = run("label", graph.toString(), "--out", labels.toString(), "--backend", "java");
        assertEquals(Main.OK, r.code(), r.err());
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0}, Files.readAllBytes(labels));
        assertEquals(List.of("g.edges", "labels.raw"), files());
    }

    /**
     * A file-size limit (ulimit -f, which the JVM meets as EFBIG, "File too large") stops the
     * labels half way through: the old file keeps its contents and no partial file is left.
     */
    @Test
    void aDiskThatFillsHalfWayLeavesTheOldFileAndNoPartialOne() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash for ulimit");
        Path labels = Files.writeString(dir.resolve("labels.raw"), "old");
        // 600 x 600 int32 labels are 1.4 MB; 200 KiB are allowed
        Result r = forked(dir, List.of(), "ulimit -f 200", "mesh", "--generate", "spiral:600", "--backend", "java",
                "--out", labels.toString());
        assertEquals(Main.OUTPUT_ERROR, r.code(), r.err());
        assertEquals("ccl4j: cannot write " + labels + ": File too large\n", r.err());
        assertEquals("old", Files.readString(labels));
        assertEquals(List.of("labels.raw"), files());
    }

    /**
     * A run stopped by a signal (SIGTERM here; Ctrl-C's SIGINT ends the JVM the same way) runs no
     * finally block: the temporary file goes at exit. Whenever the signal lands, the labels are
     * then complete or absent, and no partial file is left.
     */
    @Test
    void aRunStoppedBySignalLeavesNoPartialFile() throws Exception {
        Path labels = dir.resolve("labels.raw");
        long size = 4L * 4000 * 4000;
        Process process = CliTestSupport.forkedProcess(dir, List.of(), null, "mesh", "--generate",
                "percolation:4000x4000:0.5:1", "--backend", "cpu", "--out", labels.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        // stop it as soon as it writes, while the labels are being written if the polling is quick enough
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (process.isAlive() && files().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        process.destroy();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the forked ccl4j did not stop");
        List<String> left = files();
        assertTrue(left.isEmpty() || left.equals(List.of("labels.raw")) && Files.size(labels) == size,
                "complete labels or none: " + left);
    }

    @Test
    void aGroupsOutputsReplaceTheOldOnesOnlyAtCommit() throws IOException {
        Path grid = Files.writeString(dir.resolve("grid.pgm"), "old grid");
        Path labels = Files.writeString(dir.resolve("labels.raw"), "old labels");
        try (OutputFile.Group outputs = new OutputFile.Group()) {
            outputs.write(grid, temporary -> Files.writeString(temporary, "new grid"));
            outputs.write(labels, temporary -> Files.writeString(temporary, "new labels"));
            assertEquals("old grid", Files.readString(grid));
            assertEquals("old labels", Files.readString(labels));
            assertEquals(4, files().size(), "two complete temporary files beside the old ones: " + files());
            outputs.commit();
        }
        assertEquals("new grid", Files.readString(grid));
        assertEquals("new labels", Files.readString(labels));
        assertEquals(List.of("grid.pgm", "labels.raw"), files());
    }

    @Test
    void aGroupThatFailsReplacesNoneOfItsOutputs() throws IOException {
        Path grid = Files.writeString(dir.resolve("grid.pgm"), "old grid");
        Path labels = Files.writeString(dir.resolve("labels.raw"), "old labels");
        assertThrows(OutputException.class, () -> {
            try (OutputFile.Group outputs = new OutputFile.Group()) {
                outputs.write(grid, temporary -> Files.writeString(temporary, "new grid"));
                outputs.write(labels, temporary -> {
                    throw new IOException("No space left on device");
                });
                outputs.commit();
            }
        });
        assertEquals("old grid", Files.readString(grid), "a complete output of a failed run is not moved");
        assertEquals("old labels", Files.readString(labels));
        assertEquals(List.of("grid.pgm", "labels.raw"), files());
    }

    /**
     * mesh writes --save before it labels: a labelling that fails leaves the old --save, as it
     * leaves the old --out, and no temporary file.
     */
    @Test
    void aMeshRunThatFailsAfterItsFirstOutputLeavesAllTheOldOnes() throws IOException {
        Path grid = Files.writeString(dir.resolve("grid.pgm"), "old grid");
        Path labels = Files.writeString(dir.resolve("labels.raw"), "old labels");
        Result r = run("mesh", "--generate", "spiral:32", "--mode", "same-value", "--algorithm", "cpu-raster",
                "--max-iterations", "1", "--save", grid.toString(), "--out", labels.toString());
        assertEquals(Main.NOT_CONVERGED, r.code(), r.err());
        assertEquals("old grid", Files.readString(grid));
        assertEquals("old labels", Files.readString(labels));
        assertEquals(List.of("grid.pgm", "labels.raw"), files());
    }

    /**
     * A run stopped by a signal while it writes its last output (the labels) leaves the outputs all
     * old, or, once their moves have begun, all new: never the new grid beside the old labels.
     */
    @Test
    void aRunStoppedBySignalLeavesItsOutputsAllOldOrAllNew() throws Exception {
        Path grid = Files.writeString(dir.resolve("grid.raw"), "old");
        Path labels = Files.writeString(dir.resolve("labels.raw"), "old");
        Process process = CliTestSupport.forkedProcess(dir, List.of(), null, "mesh", "--generate",
                "percolation:4000x4000:0.5:1", "--backend", "cpu", "--save", grid.toString(), "--out",
                labels.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (process.isAlive() && files().stream().noneMatch(f -> f.endsWith("-labels.raw"))
                && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        process.destroy();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the forked ccl4j did not stop");
        boolean oldGrid = Files.readString(grid).equals("old");
        boolean oldLabels = Files.readString(labels).equals("old");
        assertEquals(oldGrid, oldLabels, "old grid " + oldGrid + ", old labels " + oldLabels);
        assertEquals(List.of("grid.raw", "labels.raw"), files());
    }

    /**
     * A run killed outright (SIGKILL) leaves its temporary file; the next run that writes the same
     * output removes it, but not one of a running process, nor one of another output, nor a file
     * whose name only looks alike.
     */
    @Test
    void theNextRunRemovesTheTemporaryFilesOfDeadRunsOfItsOutput() throws Exception {
        Path labels = dir.resolve("labels.raw");
        Process killed = CliTestSupport.forkedProcess(dir, List.of(), null, "mesh", "--generate",
                "percolation:4000x4000:0.5:1", "--backend", "cpu", "--out", labels.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (killed.isAlive() && files().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        killed.destroyForcibly();
        assertTrue(killed.waitFor(60, TimeUnit.SECONDS), "the forked ccl4j did not stop");
        List<String> left = files();
        Assumptions.assumeTrue(left.size() == 1 && left.get(0).startsWith(".part-" + killed.pid() + "-"),
                "killed while writing its labels: " + left);

        Process running = new ProcessBuilder("sleep", "60").start();
        try {
            String live = ".part-" + running.pid() + "-1-labels.raw";
            String other = ".part-" + killed.pid() + "-2-other.raw";
            String alike = ".part-labels.raw";
            for (String name : List.of(live, other, alike)) {
                Files.createFile(dir.resolve(name));
            }
            Result r = run("mesh", "--generate", "spiral:8", "--out", labels.toString());
            assertEquals(Main.OK, r.code(), r.err());
            assertEquals(Stream.of(live, other, alike, "labels.raw").sorted().toList(), files());
        } finally {
            running.destroy();
        }
    }

    @Test
    void aVolumesPicturesAreWrittenSliceBySlice() throws IOException {
        Path png = dir.resolve("alloy.png");
        Result r = run("mesh", "--generate", "alloy:12x10x3:1:1", "--png", png.toString());
        assertEquals(Main.OK, r.code(), r.err());
        assertEquals(List.of("alloy-z0.png", "alloy-z1.png", "alloy-z2.png"), files());
        assertTrue(r.out().contains("pictures: " + dir.resolve("alloy-z0.png") + " ... " + dir.resolve("alloy-z2.png")
                + " (3 slices)"), r.out());
    }
}
