package org.ccl4j.engine.serial;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Labels of either width in a segment: ints, or longs when {@code wide} (int64 labels). */
public record LabelArray(MemorySegment segment, boolean wide) {
    /** Entry {@code i}. */
    public long get(long i) {
        return wide ? segment.getAtIndex(ValueLayout.JAVA_LONG, i) : segment.getAtIndex(ValueLayout.JAVA_INT, i);
    }

    /** Sets entry {@code i} to {@code label} (which fits an int when the labels are ints). */
    public void set(long i, long label) {
        if (wide) {
            segment.setAtIndex(ValueLayout.JAVA_LONG, i, label);
        } else {
            segment.setAtIndex(ValueLayout.JAVA_INT, i, (int) label);
        }
    }
}
