package org.ccl4j.engine.spi;

/** The counts of a labelling (the API's {@code LabelSummary}); -1 and 0 where there is no component. */
public record LabelCounts(long count, long labelled, long components, long largestSize, long largestLabel,
                          long smallestSize) {
}
