package org.ccl4j.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.function.IntToLongFunction;

import org.ccl4j.Histogram;
import org.ccl4j.LabelSummary;
import org.ccl4j.Labels;
import org.ccl4j.MeshStatistics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Option;

/**
 * The component statistics of {@code --stats}, shared by the commands that label (graphs and
 * meshes): a summary of the sizes, the exact and log2 size histograms and the largest components,
 * as JSON fields or as text.
 *
 * <pre>
 * "sizes":{"components":4,"min":1,"max":4,"mean":2.2500,"median":2.0000},
 * "histogram":{"exact":[{"size":1,"count":2},...],"log2":[{"min":1,"max":1,"count":2},...]},
 * "top":[{"label":1,"size":4},...]
 * </pre>
 */
final class LabelStatistics {
    /** Components listed under "top" unless --top says otherwise. */
    static final int DEFAULT_TOP = 10;

    /** A histogram bin: components of {@code size} (exact) or of size {@code size .. 2 size - 1} (log2). */
    private record Bin(long size, long count) {
    }

    /** A component of the "top" list: its label and size. */
    private record Largest(long label, long size) {
    }

    private final long components;
    private final long labelled;
    private final long smallest;
    private final long largest;
    private final List<Bin> exact;
    private final List<Bin> log2;
    private final List<Largest> top;
    private final double median;

    private LabelStatistics(long components, long labelled, long smallest, long largest, List<Bin> exact,
                            List<Bin> log2, List<Largest> top) {
        this.components = components;
        this.labelled = labelled;
        this.smallest = smallest;
        this.largest = largest;
        this.exact = exact;
        this.log2 = log2;
        this.top = top;
        this.median = median(exact, components);
    }

    /**
     * The book-keeping options of {@code label} and {@code mesh}: {@code --stats}, {@code --top K}
     * (which implies {@code --stats}) and {@code --compact} (which needs {@code --out}).
     */
    static final class Options {
        @Option(names = "--compact", description = "With --out: write labels compacted to 0..k-1, by smallest member"
                + " (mesh: background cells stay -1).")
        boolean compact;

        @Option(names = "--stats", description = "Add component statistics: sizes (min, max, mean, median), the size"
                + " histogram (exact and in powers of two) and the " + DEFAULT_TOP + " largest components"
                + " (mesh: background cells are not counted).")
        boolean stats;

        @Option(names = "--top", paramLabel = "K", description = "List the K largest components (implies --stats);"
                + " with --regions and --json, list the table's rows when there are at most K (default: "
                + RegionsCsv.DEFAULT_JSON_ROWS + ").")
        Integer top;

        /** The most rows of a --regions table that --json lists: --top, else the default. */
        int jsonRows() {
            return top == null ? RegionsCsv.DEFAULT_JSON_ROWS : top;
        }

        /** Checks what the options say together; {@code out} is the --out file or null. */
        void check(Path out) {
            if (compact && out == null) {
                throw new UsageException("--compact changes the labels written with --out; give --out FILE");
            }
            if (top != null && top < 0) {
                throw new UsageException("--top must not be negative");
            }
        }

        /** Whether --stats or --top asks for statistics. */
        boolean wanted() {
            return stats || top != null;
        }

        /** The components --top lists. */
        int topCount() {
            return top == null ? DEFAULT_TOP : top;
        }

        /** The statistics of {@code labels}, or null when none were asked for. */
        LabelStatistics of(Labels labels) {
            return wanted() ? LabelStatistics.of(labels, topCount()) : null;
        }

        /** The statistics of the components of a mesh table, by canonical label, or null when none were asked for. */
        LabelStatistics of(MeshStatistics table) {
            return wanted() ? LabelStatistics.of(table.count(), table::size, table::first, topCount()) : null;
        }

        /**
         * The statistics of the {@code rows} of a --regions table, of sizes {@code size}, by the
         * table's labels 1..k, or null when none were asked for.
         */
        LabelStatistics ofRegions(int rows, IntToLongFunction size) {
            return wanted() ? LabelStatistics.of(rows, size, r -> r + 1L, topCount()) : null;
        }
    }

    /** Computes the statistics of {@code labels} (on their backend), listing the {@code top} largest. */
    static LabelStatistics of(Labels labels, int top) {
        LabelSummary summary = labels.summary();
        return new LabelStatistics(summary.components(), summary.labelled(), summary.smallestSize(),
                summary.largestSize(), bins(labels.histogram(Histogram.Binning.EXACT)),
                bins(labels.histogram(Histogram.Binning.LOG2)),
                labels.largest(top).stream().map(c -> new Largest(c.label(), c.size())).toList());
    }

    /**
     * The statistics of the {@code k} rows of a statistics table in raster order (int64 labels
     * too, whose sizes may pass an int), of sizes {@code sizeOf}, listing the {@code top} largest as
     * {@link Labels} does (equal sizes in raster order) under the labels {@code label} gives them.
     */
    static LabelStatistics of(int k, IntToLongFunction sizeOf, IntToLongFunction label, int top) {
        long[] sizes = new long[k];
        long labelled = 0;
        for (int r = 0; r < k; r++) {
            sizes[r] = sizeOf.applyAsLong(r);
            labelled += sizes[r];
        }
        // the top rows by size descending, equal sizes in raster order: a heap of the `top` best so
        // far, its worst first, rather than a sort of every row (k may be 10^8)
        Comparator<Integer> better = Comparator.comparingLong((Integer r) -> -sizes[r]).thenComparingInt(r -> r);
        PriorityQueue<Integer> best = new PriorityQueue<>(better.reversed());
        for (int r = 0; r < k && top > 0; r++) {
            if (best.size() < top) {
                best.add(r);
            } else if (better.compare(r, best.peek()) < 0) {
                best.poll();
                best.add(r);
            }
        }
        List<Integer> order = new ArrayList<>(best);
        order.sort(better);
        List<Largest> largest = order.stream().map(r -> new Largest(label.applyAsLong(r), sizes[r])).toList();
        long[] ascending = sizes.clone();
        Arrays.sort(ascending);
        List<Bin> exact = new ArrayList<>();
        for (long size : ascending) {
            addTo(exact, size);
        }
        // powers of two from 1 up to the largest size's, empty bins included, as Histogram.Binning.LOG2
        long[] counts = new long[k == 0 ? 0 : 64 - Long.numberOfLeadingZeros(ascending[k - 1])];
        for (long size : ascending) {
            counts[63 - Long.numberOfLeadingZeros(size)]++;
        }
        List<Bin> log2 = new ArrayList<>();
        for (int b = 0; b < counts.length; b++) {
            log2.add(new Bin(1L << b, counts[b]));
        }
        return new LabelStatistics(k, labelled, k == 0 ? 0 : ascending[0], k == 0 ? 0 : ascending[k - 1], exact, log2,
                largest);
    }

    /** Counts one component in the last bin when it is {@code size}'s, else in a new one (sizes ascending). */
    private static void addTo(List<Bin> bins, long size) {
        Bin last = bins.isEmpty() ? null : bins.getLast();
        if (last != null && last.size() == size) {
            bins.set(bins.size() - 1, new Bin(size, last.count() + 1));
        } else {
            bins.add(new Bin(size, 1));
        }
    }

    private static List<Bin> bins(Histogram h) {
        List<Bin> bins = new ArrayList<>();
        for (int b = 0; b < h.bins(); b++) {
            bins.add(new Bin(h.size(b), h.count(b)));
        }
        return bins;
    }

    /** The median component size: the middle size, or the mean of the two middle ones. */
    private static double median(List<Bin> exact, long components) {
        if (components == 0) {
            return 0;
        }
        long low = (components - 1) / 2;
        long high = components / 2;
        long seen = 0;
        double lowSize = 0;
        for (Bin b : exact) {
            long next = seen + b.count();
            if (low >= seen && low < next) {
                lowSize = b.size();
            }
            if (high >= seen && high < next) {
                return (lowSize + b.size()) / 2;
            }
            seen = next;
        }
        throw new IllegalStateException("histogram counts do not add up to " + components + " components");
    }

    double mean() {
        return components == 0 ? 0 : (double) labelled / components;
    }

    /** Adds "sizes", "histogram" and "top" to {@code json}. */
    ObjectNode addTo(ObjectNode json) {
        ObjectNode sizes = json.putObject("sizes").put("components", components).put("min", smallest)
                .put("max", largest);
        sizes.set("mean", Json.number(mean()));
        sizes.set("median", Json.number(median));
        ObjectNode histogram = json.putObject("histogram");
        ArrayNode exactBins = histogram.putArray("exact");
        for (Bin b : exact) {
            exactBins.addObject().put("size", b.size()).put("count", b.count());
        }
        ArrayNode logBins = histogram.putArray("log2");
        for (Bin b : log2) {
            logBins.addObject().put("min", b.size()).put("max", 2L * b.size() - 1).put("count", b.count());
        }
        ArrayNode list = json.putArray("top");
        for (Largest c : top) {
            list.addObject().put("label", c.label()).put("size", c.size());
        }
        return json;
    }

    /** The same, readable. */
    void print(PrintWriter out) {
        out.printf(Locale.ROOT, "component sizes: min %d, max %d, mean %.3f, median %s%n", smallest, largest, mean(),
                median % 1 == 0 ? Long.toString((long) median) : Double.toString(median));
        StringBuilder bins = new StringBuilder("size histogram (powers of two):");
        for (int b = 0; b < log2.size(); b++) {
            long low = log2.get(b).size();
            long high = 2 * low - 1;
            bins.append(b == 0 ? " " : ", ").append(low == high ? Long.toString(low) : low + "-" + high).append(": ")
                    .append(log2.get(b).count());
        }
        out.println(bins);
        StringBuilder list = new StringBuilder("largest components (label: size):");
        for (int i = 0; i < top.size(); i++) {
            list.append(i == 0 ? " " : ", ").append(top.get(i).label()).append(": ").append(top.get(i).size());
        }
        out.println(list);
    }
}
