package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The CSV of a sweep of {@code ising} or {@code percolation} ({@code --csv}): a header, then a
 * line per point, sizes one after the other over the same grid of the swept parameter, each line
 * ending with the backend and the algorithm that ran; read back by {@code --from-csv} for a new
 * analysis or plot without running again.
 */
final class SweepCsv {
    private SweepCsv() {
    }

    /** The points of a CSV, the backend and algorithm of its last line, and how many sizes it holds. */
    record Sweep<R>(List<R> rows, String backend, String algorithm, int sizeCount) {
    }

    /**
     * Writes {@code header}, whose last columns are backend and algorithm, then a line per row, to
     * {@code file}, one of the run's {@code outputs}.
     */
    static <R> void write(OutputFile.Group outputs, Path file, String header, List<R> rows,
            Function<R, String> values, String backend, String algorithm) throws IOException {
        OutputFile.createParents(file);
        outputs.write(file, temporary -> {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(temporary))) {
                w.println(header);
                for (R r : rows) {
                    w.println(values.apply(r) + "," + backend + "," + algorithm);
                }
                if (w.checkError()) { // a PrintWriter keeps its IOExceptions to itself
                    throw new IOException("the CSV could not be written");
                }
            }
        });
    }

    /**
     * Reads what {@link #write} wrote for {@code command} with this {@code header}: each line's
     * fields become a row by {@code parse}; {@code size} tells the rows' sizes apart, and every
     * size must have as many points of the {@code swept} parameter.
     *
     * @throws IllegalArgumentException naming the file (and line) when it is not such a CSV
     */
    static <R> Sweep<R> read(Path file, String command, String header, Function<String[], R> parse,
            Function<R, Object> size, String swept) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.size() < 2 || !lines.get(0).startsWith(header)) {
            throw new IllegalArgumentException(file + ": not a CSV written by ccl4j " + command + " --csv");
        }
        int columns = header.split(",").length;
        List<R> rows = new ArrayList<>();
        Set<Object> sizes = new LinkedHashSet<>();
        String[] f = null;
        for (int i = 1; i < lines.size(); i++) {
            f = lines.get(i).split(",");
            try {
                if (f.length < columns) {
                    throw new IllegalArgumentException("too few columns");
                }
                rows.add(parse.apply(f));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(file + ": line " + (i + 1) + " is malformed: '" + lines.get(i)
                        + "'");
            }
            sizes.add(size.apply(rows.getLast()));
        }
        if (rows.size() % sizes.size() != 0) {
            throw new IllegalArgumentException(file + ": the sizes do not share one grid of " + swept);
        }
        return new Sweep<>(rows, f[columns - 2], f[columns - 1], sizes.size());
    }
}
