package org.ccl4j.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.ccl4j.Component;
import org.ccl4j.Histogram;
import org.ccl4j.LabelSummary;
import org.ccl4j.Labels;

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

    private final LabelSummary summary;
    private final Histogram exact;
    private final Histogram log2;
    private final List<Component> top;
    private final double median;

    private LabelStatistics(LabelSummary summary, Histogram exact, Histogram log2, List<Component> top) {
        this.summary = summary;
        this.exact = exact;
        this.log2 = log2;
        this.top = top;
        this.median = median(exact, summary.components());
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

        /** The statistics of {@code labels}, or null when none were asked for. */
        LabelStatistics of(Labels labels) {
            return stats || top != null ? LabelStatistics.of(labels, top == null ? DEFAULT_TOP : top) : null;
        }
    }

    /** Computes the statistics of {@code labels} (on their backend), listing the {@code top} largest. */
    static LabelStatistics of(Labels labels, int top) {
        return new LabelStatistics(labels.summary(), labels.histogram(Histogram.Binning.EXACT),
                labels.histogram(Histogram.Binning.LOG2), labels.largest(top));
    }

    /** The median component size: the middle size, or the mean of the two middle ones. */
    private static double median(Histogram exact, long components) {
        if (components == 0) {
            return 0;
        }
        long low = (components - 1) / 2;
        long high = components / 2;
        long seen = 0;
        double lowSize = 0;
        for (int b = 0; b < exact.bins(); b++) {
            long next = seen + exact.count(b);
            if (low >= seen && low < next) {
                lowSize = exact.size(b);
            }
            if (high >= seen && high < next) {
                return (lowSize + exact.size(b)) / 2;
            }
            seen = next;
        }
        throw new IllegalStateException("histogram counts do not add up to " + components + " components");
    }

    double mean() {
        return summary.components() == 0 ? 0 : (double) summary.labelled() / summary.components();
    }

    /** Adds "sizes", "histogram" and "top" to {@code json}. */
    ObjectNode addTo(ObjectNode json) {
        ObjectNode sizes = json.putObject("sizes").put("components", summary.components())
                .put("min", summary.smallestSize()).put("max", summary.largestSize());
        sizes.set("mean", Json.number(mean()));
        sizes.set("median", Json.number(median));
        ObjectNode histogram = json.putObject("histogram");
        ArrayNode exactBins = histogram.putArray("exact");
        for (int b = 0; b < exact.bins(); b++) {
            exactBins.addObject().put("size", exact.size(b)).put("count", exact.count(b));
        }
        ArrayNode logBins = histogram.putArray("log2");
        for (int b = 0; b < log2.bins(); b++) {
            logBins.addObject().put("min", log2.size(b)).put("max", 2L * log2.size(b) - 1).put("count", log2.count(b));
        }
        ArrayNode largest = json.putArray("top");
        for (Component c : top) {
            largest.addObject().put("label", c.label()).put("size", c.size());
        }
        return json;
    }

    /** The same, readable. */
    void print(PrintWriter out) {
        out.printf(Locale.ROOT, "component sizes: min %d, max %d, mean %.3f, median %s%n", summary.smallestSize(),
                summary.largestSize(), mean(), median % 1 == 0 ? Long.toString((long) median) : Double.toString(median));
        StringBuilder bins = new StringBuilder("size histogram (powers of two):");
        for (int b = 0; b < log2.bins(); b++) {
            long low = log2.size(b);
            long high = 2 * low - 1;
            bins.append(b == 0 ? " " : ", ").append(low == high ? Long.toString(low) : low + "-" + high).append(": ")
                    .append(log2.count(b));
        }
        out.println(bins);
        StringBuilder largest = new StringBuilder("largest components (label: size):");
        for (int i = 0; i < top.size(); i++) {
            largest.append(i == 0 ? " " : ", ").append(top.get(i).label()).append(": ").append(top.get(i).size());
        }
        out.println(largest);
    }
}
