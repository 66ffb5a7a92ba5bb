package org.ccl4j.internal;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** The checks of the segments a caller hands in for outputs, before any engine writes them. */
public final class Segments {
    /** A thread that never runs: a segment it may access is shared. */
    private static final Thread NO_THREAD = Thread.ofVirtual().unstarted(() -> { });

    private Segments() {
    }

    /**
     * Whether every thread may access {@code segment}: it is on the heap or of an arena that is not
     * confined, so that parallel loops may read and write it.
     */
    public static boolean isShared(MemorySegment segment) {
        return segment.isAccessibleBy(NO_THREAD);
    }

    /** Refuses freed memory: native code must never be handed its address. */
    public static void requireAlive(MemorySegment segment, String what) {
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the memory of " + what + " was freed (its arena is closed)");
        }
    }

    /**
     * Checks that {@code labels} holds {@code count} labels of {@code labelBytes} (4: ints, 8:
     * longs), writable, native and aligned; {@code needed} says why so many.
     */
    public static void checkLabels(MemorySegment labels, long count, int labelBytes, String needed) {
        Objects.requireNonNull(labels, "labels");
        if (!labels.isNative() || labels.isReadOnly()) {
            throw new IllegalArgumentException("labels must be a writable native (off-heap) segment");
        }
        if (labels.byteSize() / labelBytes < count) {
            throw new IllegalArgumentException("labels segment holds " + labels.byteSize() / labelBytes + " "
                    + (labelBytes == Long.BYTES ? "longs (int64 labels)" : "ints") + " but " + needed);
        }
        if (labels.address() % labelBytes != 0) {
            throw new IllegalArgumentException("labels segment is not aligned to " + labelBytes + " bytes");
        }
    }

    /**
     * Labels written over the input they are computed from would change it under the algorithm,
     * which would then answer wrongly: an output sharing memory with an input is refused.
     */
    public static void checkDisjoint(MemorySegment labels, long bytes, MemorySegment input, String what) {
        // freed memory first: a new segment may lie where a freed one was
        requireAlive(labels, "the labels segment");
        requireAlive(input, what);
        if (labels.asSlice(0, bytes).asOverlappingSlice(input).isPresent()) {
            throw new IllegalArgumentException("the labels segment overlaps " + what
                    + ": labels must not share memory with the input");
        }
    }
}
