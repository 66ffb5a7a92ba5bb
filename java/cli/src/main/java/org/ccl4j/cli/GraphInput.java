package org.ccl4j.cli;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.ccl4j.io.GraphFile;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphFormatException;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.ReadOptions;

import picocli.CommandLine.Option;

/**
 * How {@code label} and {@code distances} read their graph: {@code --max-vertices}, the progress of
 * a large file, the time taken, and failures that name the file and, where the reader advises its
 * API, the option that does the same.
 */
final class GraphInput {
    /** Text files from this size on show their reading progress: smaller ones are read in a moment. */
    static final long PROGRESS_BYTES = 16L << 20;

    /** The reader's advice for a vertex count past the bound by the file's size: {@code ReadOptions.withMaxVertices(N)}. */
    private static final Pattern MAX_VERTICES_ADVICE = Pattern.compile("ReadOptions\\.withMaxVertices\\((\\d+)\\)");

    @Option(names = "--max-vertices", paramLabel = "N", description = "Accept vertex counts up to N whatever the"
            + " file's size, for files that genuinely declare many isolated vertices (default: 0; without it a file"
            + " may declare 2^20 vertices plus 16 per byte of it, so that a few bytes cannot ask for gigabytes).")
    long maxVertices;

    /** A graph read from its file, and the time the reading took. */
    record Read(GraphFile file, double ms) {
        /** The time as text: milliseconds below a second, else seconds. */
        String time() {
            return ms < 1000 ? String.format(Locale.ROOT, "%.1f ms", ms)
                    : String.format(Locale.ROOT, "%.1f s", ms / 1000);
        }
    }

    /**
     * Reads {@code file}, showing the progress of a large one as {@code progress} says; I/O
     * failures name the file (the JDK's messages do not always).
     */
    Read read(Path file, GraphFormat format, boolean keepIds, Arena arena, Progress.Options progress, Main top)
            throws IOException {
        if (maxVertices < 0) {
            throw new UsageException("--max-vertices must not be negative, got " + maxVertices);
        }
        ReadOptions options = new ReadOptions(keepIds, maxVertices);
        try {
            long start = System.nanoTime();
            long bytes = Files.size(file);
            GraphFile graph;
            if (progress.off || bytes < PROGRESS_BYTES || mapped(file, format)) {
                graph = GraphReader.read(file, format, options, arena);
            } else {
                try (Progress shown = progress.startReading(top, "read " + file.getFileName(), bytes);
                     ReadProgress _ = new ReadProgress(shown, file, bytes)) {
                    graph = GraphReader.read(file, format, options, arena);
                }
            }
            return new Read(graph, (System.nanoTime() - start) / 1e6);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (GraphFormatException e) {
            Matcher advice = MAX_VERTICES_ADVICE.matcher(e.getMessage());
            if (!advice.find()) {
                throw e;
            }
            throw new IllegalArgumentException(advice.replaceFirst("--max-vertices $1"), e);
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code file} is an .egr file, by {@code format} or its name: it is mapped, not read,
     * and has no reading to show (the reader tells the format of a file without an extension).
     */
    private static boolean mapped(Path file, GraphFormat format) {
        return format == GraphFormat.EGR || (format == GraphFormat.AUTO
                && String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT).endsWith(".egr"));
    }
}
