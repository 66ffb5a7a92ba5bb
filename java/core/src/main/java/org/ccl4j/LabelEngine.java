package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Where the book-keeping of a {@link Labels} runs: the native library (CPU backends or CUDA,
 * {@link NativeLabelEngine}) or pure Java ({@link JavaLabelEngine}). The methods mirror the
 * functions of ccl4j/labels.h: outputs go into native segments sized by the caller, and a
 * {@code MemorySegment.NULL} output with capacity 0 asks only for a count.
 */
interface LabelEngine {
    LabelSummary summary(Labels labels);

    /** Writes the first min(capacity, k) components in order; returns k. */
    long components(Labels labels, Labels.Order order, long capacity, MemorySegment componentLabels,
                    MemorySegment sizes);

    /** Writes the compacted labels ({@code labels.count()} entries); returns k. */
    long compact(Labels labels, Labels.Order order, MemorySegment out);

    /** Writes the first min(capacity, bins) bins; returns the number of bins. */
    long histogram(Labels labels, Histogram.Binning binning, long capacity, MemorySegment binSizes,
                   MemorySegment binCounts);

    /** Writes k + 1 offsets and the labelled entries' ids. */
    void members(Labels labels, Labels.Order order, MemorySegment offsets, MemorySegment members);

    /** Writes the first min(capacity, size) members of one component; returns its size. */
    long componentMembers(Labels labels, int label, long capacity, MemorySegment out);

    /** Writes the filtered labels; returns the number of components kept. */
    long filter(Labels labels, int minSize, int maxSize, MemorySegment out);

    /** The subgraph of {@code graph} induced by the ascending {@code vertices}, in {@code arena}. */
    CsrGraph inducedSubgraph(CsrGraph graph, MemorySegment vertices, int vertexCount, Arena arena);
}
