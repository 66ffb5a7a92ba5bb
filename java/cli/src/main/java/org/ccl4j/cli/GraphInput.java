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
import org.ccl4j.io.Input;
import org.ccl4j.io.ReadOptions;

import picocli.CommandLine.Option;

/**
 * How {@code label}, {@code distances} and {@code convert} read their graph: a file or standard input ({@code -}),
 * plain or gzip-compressed, {@code --max-vertices} and {@code --header}, the progress of a large
 * file, the time taken, and failures that name the file (or {@value Input#STANDARD_INPUT_NAME})
 * and, where the reader advises its API, the option that does the same.
 */
final class GraphInput {
    /** Text files from this size on show their reading progress: smaller ones are read in a moment. */
    static final long PROGRESS_BYTES = 16L << 20;

    /** The reader's advice for a vertex count past the bound by the file's size: {@code ReadOptions.withMaxVertices(N)}. */
    private static final Pattern MAX_VERTICES_ADVICE = Pattern.compile("ReadOptions\\.withMaxVertices\\((\\d+)\\)");
    /** The reader's advice for a SNAP file with a header or text ids: read it as an edge list. */
    private static final String FORMAT_ADVICE = "(format edges)";

    /** {@code --header}: whether an edge list starts with a line of column names. */
    enum Header {
        /** A first line whose first two fields are not both numbers ({@code source,target}) is a header. */
        AUTO(ReadOptions.Header.DETECT),
        /** The first line is a header, whatever it holds. */
        YES(ReadOptions.Header.PRESENT),
        /** No header: the first line is an edge, also when its ids are text. */
        NO(ReadOptions.Header.ABSENT);

        final ReadOptions.Header reader;

        Header(ReadOptions.Header reader) {
            this.reader = reader;
        }
    }

    @Option(names = "--max-vertices", paramLabel = "N", description = "Accept vertex counts up to N whatever the"
            + " file's size, for files that genuinely declare many isolated vertices (default: 0; without it a file"
            + " may declare 2^20 vertices plus 16 per byte of it, so that a few bytes cannot ask for gigabytes).")
    long maxVertices;

    @Option(names = "--header", paramLabel = "WHEN", defaultValue = "auto",
            completionCandidates = Converters.HeaderNames.class,
            description = "Whether an edge list starts with a header line of column names, which is skipped:"
                    + " ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: when one of the first line's first two"
                    + " fields is not a number, as in source,target). An edge list of text ids without a header"
                    + " needs --header no, or its first edge is taken for a header.")
    Header header = Header.AUTO;

    /** A graph read from its file, and the time the reading took. */
    record Read(GraphFile file, double ms) {
        /** The time as text: milliseconds below a second, else seconds. */
        String time() {
            return GraphInput.time(ms);
        }
    }

    /** {@code ms} as text: milliseconds below a second, else seconds. */
    static String time(double ms) {
        return ms < 1000 ? String.format(Locale.ROOT, "%.1f ms", ms) : String.format(Locale.ROOT, "%.1f s", ms / 1000);
    }

    /**
     * Reads {@code input}, showing the progress of a large file as {@code progress} says (standard
     * input shows none: its size is unknown until it ends); I/O failures name the file or
     * {@value Input#STANDARD_INPUT_NAME} (the JDK's messages do not always).
     */
    Read read(Input input, GraphFormat format, boolean keepIds, Arena arena, Progress.Options progress, Main top)
            throws IOException {
        if (maxVertices < 0) {
            throw new UsageException("--max-vertices must not be negative, got " + maxVertices);
        }
        if (header != Header.AUTO && format != GraphFormat.AUTO && format != GraphFormat.EDGES) {
            throw new UsageException("--header " + CliNames.of(header) + " applies to edge lists (--format edges or"
                    + " auto), not to --format " + format.formatName());
        }
        ReadOptions options = new ReadOptions(keepIds, maxVertices).withHeader(header.reader);
        try {
            long start = System.nanoTime();
            GraphFile graph;
            Path file = input.file();
            long bytes = file == null ? 0 : Files.size(file);
            if (file == null || progress.off || bytes < PROGRESS_BYTES || mapped(file, format)) {
                graph = GraphReader.read(input, format, options, arena);
            } else {
                try (Progress shown = progress.startReading(top, "read " + file.getFileName(), bytes);
                     ReadProgress _ = new ReadProgress(shown, file, bytes)) {
                    graph = GraphReader.read(input, format, options, arena);
                }
            }
            return new Read(graph, (System.nanoTime() - start) / 1e6);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (GraphFormatException e) {
            // the reader advises its API: here the options that do the same
            Matcher advice = MAX_VERTICES_ADVICE.matcher(e.getMessage());
            if (advice.find()) {
                throw new IllegalArgumentException(advice.replaceFirst("--max-vertices $1"), e);
            }
            if (e.getMessage().contains(FORMAT_ADVICE)) {
                throw new IllegalArgumentException(e.getMessage().replace(FORMAT_ADVICE, "(--format edges)"), e);
            }
            throw e;
        } catch (IOException e) {
            throw new IOException(input + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code file} is an .egr or .csr file, by {@code format} or its name: it is mapped, not read,
     * and has no reading to show (the reader tells the format of a file without an extension).
     */
    private static boolean mapped(Path file, GraphFormat format) {
        String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
        return format == GraphFormat.EGR || format == GraphFormat.CSR
                || (format == GraphFormat.AUTO && (name.endsWith(".egr") || name.endsWith(".csr")));
    }
}
