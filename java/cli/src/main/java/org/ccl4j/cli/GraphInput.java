package org.ccl4j.cli;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.ccl4j.io.GraphFile;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphFormatException;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.ReadOptions;

import picocli.CommandLine.Option;

/**
 * How {@code label} and {@code distances} read their graph: {@code --max-vertices}, and failures
 * that name the file and, where the reader advises its API, the option that does the same.
 */
final class GraphInput {
    /** The reader's advice for a vertex count past the bound by the file's size: {@code ReadOptions.withMaxVertices(N)}. */
    private static final Pattern MAX_VERTICES_ADVICE = Pattern.compile("ReadOptions\\.withMaxVertices\\((\\d+)\\)");

    @Option(names = "--max-vertices", paramLabel = "N", description = "Accept vertex counts up to N whatever the"
            + " file's size, for files that genuinely declare many isolated vertices (default: 0; without it a file"
            + " may declare 2^20 vertices plus 16 per byte of it, so that a few bytes cannot ask for gigabytes).")
    long maxVertices;

    /** Reads {@code file}; I/O failures name the file (the JDK's messages do not always). */
    GraphFile read(Path file, GraphFormat format, boolean keepIds, Arena arena) throws IOException {
        if (maxVertices < 0) {
            throw new UsageException("--max-vertices must not be negative, got " + maxVertices);
        }
        try {
            return GraphReader.read(file, format, new ReadOptions(keepIds, maxVertices), arena);
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
}
