package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;

/**
 * The book-keeping of int64 mesh labels, made once from the labels: the number of clusters, their
 * sizes and the largest, in memory of a bit a cell and 8 bytes a cluster.
 */
public interface WideCounts {
    long components();

    long largestSize();

    /** The largest cluster's label (the smallest on ties), -1 when none. */
    long largestLabel();

    /** The size of the cluster labelled {@code label}. */
    long size(long label);

    /** Writes the labels compacted to 0..k-1 in raster order (-1 stays -1) into {@code out}, longs. */
    void compact(MemorySegment labels, long cells, MemorySegment out);
}
