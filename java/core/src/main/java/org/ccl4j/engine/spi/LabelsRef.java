package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;

/**
 * Int32 labels for the book-keeping: {@code count} entries in {@code host} (native or on the Java
 * heap), or, with {@code host} null, the labels that the engine's device labelling number
 * {@code deviceRun} left on its GPU.
 */
public record LabelsRef(MemorySegment host, int count, long deviceRun) {
    public boolean onDevice() {
        return host == null;
    }

    /**
     * The host labels, checked to be alive: fails here, with a message, rather than handing a
     * freed address to native code.
     */
    public MemorySegment alive() {
        if (host == null) {
            throw new IllegalStateException("these labels are on the device; only statistics can be read from them");
        }
        if (!host.scope().isAlive()) {
            throw new IllegalStateException("the memory of these labels was freed (its arena is closed)");
        }
        return host;
    }

    /** The error of an entry outside {@code -1 .. count-1}. */
    public static IllegalArgumentException badLabel(long index, long value, long count) {
        return new IllegalArgumentException("label array: entry " + index + " has label " + value + ", outside -1 .. "
                + (count - 1));
    }
}
