package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Canonical component labels, off-heap: vertex {@code v}'s label is the smallest vertex id of its
 * component. Component statistics are computed on first use.
 */
public final class Labels {
    private final MemorySegment labels;
    private final int vertexCount;
    private final Timings timings;
    private MemorySegment sizes;
    private long componentCount;
    private int largestLabel = -1;

    Labels(MemorySegment labels, int vertexCount, Timings timings) {
        this.labels = labels;
        this.vertexCount = vertexCount;
        this.timings = timings;
    }

    /** The number of labelled vertices. */
    public int vertexCount() {
        return vertexCount;
    }

    /** The label of vertex {@code v}: the smallest vertex id of its component. */
    public int get(int v) {
        java.util.Objects.checkIndex(v, vertexCount);
        return labels.getAtIndex(ValueLayout.JAVA_INT, v);
    }

    /** A read-only view of the labels ({@link #vertexCount()} native-order ints). */
    public MemorySegment segment() {
        return labels.asReadOnly();
    }

    /** The labels copied into a Java array. */
    public int[] toArray() {
        return labels.asSlice(0, (long) vertexCount * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
    }

    /** What the labelling call measured. */
    public Timings timings() {
        return timings;
    }

    /** The number of components (a vertex is the label of its component exactly when it is the smallest). */
    public long componentCount() {
        computeSizes();
        return componentCount;
    }

    /** The size of the component containing vertex {@code v}. */
    public int componentSize(int v) {
        computeSizes();
        return sizes.getAtIndex(ValueLayout.JAVA_INT, get(v));
    }

    /**
     * Component sizes indexed by label, read-only: entry {@code l} is the size of the component
     * labelled {@code l}, and 0 when {@code l} is not a label.
     */
    public MemorySegment sizesByLabel() {
        computeSizes();
        return sizes.asReadOnly();
    }

    /** The size of the largest component, 0 for an empty graph. */
    public int largestComponentSize() {
        computeSizes();
        return largestLabel < 0 ? 0 : sizes.getAtIndex(ValueLayout.JAVA_INT, largestLabel);
    }

    /** The label of the largest component (the smallest such label on ties), or -1 for an empty graph. */
    public int largestComponentLabel() {
        computeSizes();
        return largestLabel;
    }

    private synchronized void computeSizes() {
        if (sizes != null) {
            return;
        }
        MemorySegment counts = Arena.ofAuto().allocate(ValueLayout.JAVA_INT, Math.max(1, vertexCount));
        for (int v = 0; v < vertexCount; v++) {
            int l = labels.getAtIndex(ValueLayout.JAVA_INT, v);
            counts.setAtIndex(ValueLayout.JAVA_INT, l, counts.getAtIndex(ValueLayout.JAVA_INT, l) + 1);
        }
        long components = 0;
        int best = -1;
        int bestSize = 0;
        for (int l = 0; l < vertexCount; l++) {
            int size = counts.getAtIndex(ValueLayout.JAVA_INT, l);
            if (size > 0) {
                components++;
                if (size > bestSize) {
                    bestSize = size;
                    best = l;
                }
            }
        }
        componentCount = components;
        largestLabel = best;
        sizes = counts;
    }

    @Override
    public String toString() {
        return "Labels[vertices=" + vertexCount + ", components=" + componentCount() + ", largest="
                + largestComponentSize() + "]";
    }
}
