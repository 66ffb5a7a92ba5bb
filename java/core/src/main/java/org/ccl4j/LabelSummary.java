package org.ccl4j;

import org.ccl4j.engine.spi.LabelCounts;

/**
 * The counts of a labelling.
 *
 * @param count         entries (vertices or cells)
 * @param labelled      entries that carry a label (not -1)
 * @param components    distinct labels
 * @param largestSize   the size of the largest component; 0 when there is none
 * @param largestLabel  the label of the largest component (the smallest label on ties); -1 when none
 * @param smallestSize  the size of the smallest component; 0 when there is none
 */
public record LabelSummary(long count, long labelled, long components, int largestSize, int largestLabel,
                           int smallestSize) {
    /** The counts the engines report (sizes and labels of int32 labels fit an int). */
    static LabelSummary of(LabelCounts c) {
        return new LabelSummary(c.count(), c.labelled(), c.components(), (int) c.largestSize(), (int) c.largestLabel(),
                (int) c.smallestSize());
    }
}
