package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Component labels, off-heap: entry {@code i}'s label names its component, or is -1 when the entry
 * is unlabelled (background cells of a mesh, entries removed by {@link #filter}). Labels from a
 * {@link ComponentLabeler} are canonical: vertex {@code v}'s label is the smallest vertex id of its
 * component; mesh labels are the smallest linear cell index of each cluster. Any int32 labelling
 * with labels in {@code [0, count)} and -1 entries can be wrapped with {@link #of}.
 *
 * <p>The book-keeping of Hawick et al. (count, sizes, compaction, histograms, the largest
 * components, member lists, filters) runs where the labels came from: on the labeler's backend
 * (CPU or CUDA) while it is open, in Java for {@link Backend#JAVA}, and otherwise on the CPU
 * backend (or in Java when the native library is unavailable); {@link #using} picks a labeler.
 * Labels left on the GPU ({@link ComponentLabeler#deviceLabels()}) are analysed there without
 * being copied. Large results are off-heap segments, small ones Java objects.
 */
public final class Labels {
    /** The order of components in the results. */
    public enum Order {
        /** By smallest member (for canonical labels: by label). */
        SMALLEST_MEMBER(0),
        /** Largest first; equal sizes by label, ascending. */
        SIZE_DESCENDING(1);

        private final int nativeCode;

        Order(int nativeCode) {
            this.nativeCode = nativeCode;
        }

        int nativeCode() {
            return nativeCode;
        }
    }

    private final MemorySegment labels;  // null when the labels are on the device
    private final int vertexCount;
    private final Timings timings;
    private final ComponentLabeler owner;  // null: the shared CPU labeler (or Java)
    private final long deviceLabelling;
    private MemorySegment sizes;
    private int largestLabel = -1;
    private LabelSummary summary;

    Labels(MemorySegment labels, int vertexCount, Timings timings) {
        this(labels, vertexCount, timings, null);
    }

    Labels(MemorySegment labels, int vertexCount, Timings timings, ComponentLabeler owner) {
        this(labels, vertexCount, timings, owner, -1);
    }

    private Labels(MemorySegment labels, int vertexCount, Timings timings, ComponentLabeler owner,
                   long deviceLabelling) {
        this.labels = labels;
        this.vertexCount = vertexCount;
        this.timings = timings;
        this.owner = owner;
        this.deviceLabelling = deviceLabelling;
    }

    static Labels onDevice(ComponentLabeler owner, int count, long labelling) {
        return new Labels(null, count, null, owner, labelling);
    }

    /**
     * Wraps {@code count} native-order ints of {@code labels} (not copied; they must not change
     * while in use): each a label in {@code [0, count)} or -1. Mesh labels are of this kind.
     * Labels out of range are reported by the first operation that reads them.
     */
    public static Labels of(MemorySegment labels, int count) {
        Objects.requireNonNull(labels, "labels");
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, got " + count);
        }
        if (!labels.isNative()) {
            throw new IllegalArgumentException("labels must be a native (off-heap) segment");
        }
        if (labels.byteSize() < (long) count * Integer.BYTES) {
            throw new IllegalArgumentException("labels segment holds " + labels.byteSize() / Integer.BYTES
                    + " ints, fewer than " + count);
        }
        if (labels.address() % Integer.BYTES != 0) {
            throw new IllegalArgumentException("labels segment is not aligned to 4 bytes");
        }
        return new Labels(labels, count, null);
    }

    /** The same labels, with the book-keeping run by {@code labeler} (its backend, CPU or CUDA). */
    public Labels using(ComponentLabeler labeler) {
        Objects.requireNonNull(labeler, "labeler");
        if (labels == null) {
            throw new IllegalStateException("labels on the device stay with the labeler that made them");
        }
        return new Labels(labels, vertexCount, timings, labeler);
    }

    /** The number of entries (vertices or cells). */
    public int vertexCount() {
        return vertexCount;
    }

    /** The number of components (distinct labels; -1 entries are not counted), computed by the backend. */
    public long count() {
        return summary().components();
    }

    /** Whether these labels are on the GPU (see {@link ComponentLabeler#deviceLabels()}). */
    public boolean isOnDevice() {
        return labels == null;
    }

    /** The label of entry {@code v}: the smallest vertex id of its component, or -1 when unlabelled. */
    public int get(int v) {
        Objects.checkIndex(v, vertexCount);
        return hostSegment().getAtIndex(ValueLayout.JAVA_INT, v);
    }

    /** A read-only view of the labels ({@link #vertexCount()} native-order ints). */
    public MemorySegment segment() {
        return hostSegment().asReadOnly();
    }

    /** The labels copied into a Java array. */
    public int[] toArray() {
        return hostSegment().asSlice(0, (long) vertexCount * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
    }

    /** What the labelling call measured; null for labels wrapped with {@link #of}. */
    public Timings timings() {
        return timings;
    }

    MemorySegment hostSegment() {
        if (labels == null) {
            throw new IllegalStateException("these labels are on the device; only statistics can be read from them");
        }
        return labels;
    }

    void checkResident() {
        if (!owner.deviceLabelsCurrent(deviceLabelling)) {
            throw new IllegalStateException("the labels on the device were replaced by a later labelling, "
                    + "or their labeler was closed");
        }
    }

    static IllegalArgumentException badLabel(long index, int value, long count) {
        return new IllegalArgumentException("label array: entry " + index + " has label " + value + ", outside -1 .. "
                + (count - 1));
    }

    private LabelEngine engine() {
        // Java arrays (MeshLabels may wrap one) cannot be passed to native code
        if (owner != null && owner.backend() == Backend.JAVA || labels != null && !labels.isNative()) {
            return JavaLabelEngine.INSTANCE;
        }
        if (owner != null && (labels == null || !owner.isClosed())) {
            return new NativeLabelEngine(owner);
        }
        if (!org.ccl4j.internal.NativeLibrary.load()) {
            return JavaLabelEngine.INSTANCE;
        }
        return new NativeLabelEngine(ComponentLabeler.statisticsLabeler());
    }

    // ---- the book-keeping -----------------------------------------------------------------------

    /** The counts: entries, labelled entries, components, the largest and smallest component. */
    public synchronized LabelSummary summary() {
        if (summary == null) {
            summary = engine().summary(this);
        }
        return summary;
    }

    /** The component sizes in smallest-member order, off-heap (read-only native ints). */
    public MemorySegment sizes() {
        return sizes(Order.SMALLEST_MEMBER);
    }

    /** The component sizes in {@code order}, off-heap (read-only native ints). */
    public MemorySegment sizes(Order order) {
        return table(order, Long.MAX_VALUE)[1];
    }

    /** The component labels in {@code order}, off-heap (read-only native ints). */
    public MemorySegment componentLabels(Order order) {
        return table(order, Long.MAX_VALUE)[0];
    }

    /** Labels and sizes of the first min(limit, k) components in order. */
    private MemorySegment[] table(Order order, long limit) {
        Objects.requireNonNull(order, "order");
        long k = Math.min(limit, summary().components());
        Arena arena = Arena.ofAuto();
        MemorySegment ls = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, k));
        MemorySegment ss = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, k));
        engine().components(this, order, k, k == 0 ? MemorySegment.NULL : ls, k == 0 ? MemorySegment.NULL : ss);
        long bytes = k * Integer.BYTES;
        return new MemorySegment[] {ls.asSlice(0, bytes).asReadOnly(), ss.asSlice(0, bytes).asReadOnly()};
    }

    /** The {@code k} largest components (fewer when there are fewer), size descending, ties by label. */
    public List<Component> largest(int k) {
        if (k < 0) {
            throw new IllegalArgumentException("k must not be negative, got " + k);
        }
        MemorySegment[] t = table(Order.SIZE_DESCENDING, k);
        List<Component> result = new ArrayList<>();
        for (long c = 0; c < t[0].byteSize() / Integer.BYTES; c++) {
            result.add(new Component(t[0].getAtIndex(ValueLayout.JAVA_INT, c), t[1].getAtIndex(ValueLayout.JAVA_INT, c),
                    null));
        }
        return result;
    }

    /** The components (label and size, no members) in smallest-member order. */
    public Stream<Component> components() {
        return components(Order.SMALLEST_MEMBER);
    }

    /** The components (label and size, no members) in {@code order}. */
    public Stream<Component> components(Order order) {
        MemorySegment[] t = table(order, Long.MAX_VALUE);
        return LongStream.range(0, t[0].byteSize() / Integer.BYTES).mapToObj(c -> new Component(
                t[0].getAtIndex(ValueLayout.JAVA_INT, c), t[1].getAtIndex(ValueLayout.JAVA_INT, c), null));
    }

    /**
     * The labels compacted to {@code 0 .. k-1}: each component's position in {@code order}; -1
     * entries stay -1. The result is new off-heap memory, analysed by the same backend.
     */
    public Labels compact(Order order) {
        MemorySegment out = Arena.ofAuto().allocate(ValueLayout.JAVA_INT, Math.max(1, vertexCount));
        compact(order, out);
        return new Labels(out, vertexCount, null, owner);
    }

    /** The compacted labels written into {@code out} (at least {@link #vertexCount()} ints); returns k. */
    public long compact(Order order, MemorySegment out) {
        Objects.requireNonNull(order, "order");
        checkOutput(out);
        return engine().compact(this, order, out);
    }

    /** The exact size histogram: one bin per component size that occurs. */
    public Histogram histogram() {
        return histogram(Histogram.Binning.EXACT);
    }

    /** The size histogram, exact or in powers of two. */
    public Histogram histogram(Histogram.Binning binning) {
        Objects.requireNonNull(binning, "binning");
        LabelEngine engine = engine();
        long bins = engine.histogram(this, binning, 0, MemorySegment.NULL, MemorySegment.NULL);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, bins));
            MemorySegment c = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, bins));
            long written = engine.histogram(this, binning, bins, s, c);
            if (written != bins) {
                throw new IllegalStateException("the labels changed between two calls");
            }
            long bytes = bins * Integer.BYTES;
            return new Histogram(binning, s.asSlice(0, bytes).toArray(ValueLayout.JAVA_INT),
                    c.asSlice(0, bytes).toArray(ValueLayout.JAVA_INT));
        }
    }

    /** The members of every component, in smallest-member order, off-heap. */
    public MemberLists members() {
        return members(Order.SMALLEST_MEMBER);
    }

    /** The members of every component, components in {@code order}, members ascending, off-heap. */
    public MemberLists members(Order order) {
        Objects.requireNonNull(order, "order");
        LabelSummary s = summary();
        MemorySegment componentLabels = componentLabels(order);
        Arena arena = Arena.ofAuto();
        MemorySegment offsets = arena.allocate(ValueLayout.JAVA_INT, s.components() + 1);
        MemorySegment members = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, s.labelled()));
        engine().members(this, order, offsets, members.asSlice(0, s.labelled() * Integer.BYTES));
        return new MemberLists(order, offsets, members.asSlice(0, s.labelled() * Integer.BYTES), componentLabels,
                s.components());
    }

    /**
     * Keeps the components with {@code minSize <= size <= maxSize}; the others' entries become -1.
     * The result is new off-heap memory, analysed by the same backend.
     */
    public Labels filter(int minSize, int maxSize) {
        if (minSize < 0 || maxSize < 0) {
            throw new IllegalArgumentException("size bounds must not be negative: " + minSize + " .. " + maxSize);
        }
        MemorySegment out = Arena.ofAuto().allocate(ValueLayout.JAVA_INT, Math.max(1, vertexCount));
        engine().filter(this, minSize, maxSize, out);
        return new Labels(out, vertexCount, null, owner);
    }

    /** The members of the component labelled {@code label}, ascending, off-heap (empty when none). */
    public MemorySegment componentMembers(int label) {
        Objects.checkIndex(label, Math.max(vertexCount, 1));
        LabelEngine engine = engine();
        long size = engine.componentMembers(this, label, 0, MemorySegment.NULL);
        MemorySegment out = Arena.ofAuto().allocate(ValueLayout.JAVA_INT, Math.max(1, size));
        engine.componentMembers(this, label, size, size == 0 ? MemorySegment.NULL : out);
        return out.asSlice(0, size * Integer.BYTES).asReadOnly();
    }

    /** The vertices of the largest component (the smallest label on ties), ascending; empty when none. */
    public MemorySegment largestComponent() {
        LabelSummary s = summary();
        return s.largestLabel() < 0 ? MemorySegment.NULL.reinterpret(0) : componentMembers(s.largestLabel());
    }

    /**
     * The subgraph of {@code graph} (the graph these labels belong to) induced by the largest
     * component, in {@code arena}: vertex {@code i} is the {@code i}-th vertex of
     * {@link #largestComponent()}.
     */
    public CsrGraph largestComponentGraph(CsrGraph graph, Arena arena) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(arena, "arena");
        if (graph.vertexCount() != vertexCount) {
            throw new IllegalArgumentException("the graph has " + graph.vertexCount() + " vertices, the labels "
                    + vertexCount + " entries");
        }
        MemorySegment vertices = largestComponent();
        return engine().inducedSubgraph(graph, vertices, (int) (vertices.byteSize() / Integer.BYTES), arena);
    }

    private void checkOutput(MemorySegment out) {
        Objects.requireNonNull(out, "out");
        if (!out.isNative() || out.isReadOnly() || out.byteSize() < (long) vertexCount * Integer.BYTES
                || out.address() % Integer.BYTES != 0) {
            throw new IllegalArgumentException("out must be a writable, aligned native segment of at least "
                    + vertexCount + " ints");
        }
    }

    // ---- per-label sizes, in Java (host labels only) -----------------------------------------------

    /** The size of the component containing entry {@code v}; 0 when {@code v} is unlabelled. */
    public int componentSize(int v) {
        computeSizes();
        int l = get(v);
        return l < 0 ? 0 : sizes.getAtIndex(ValueLayout.JAVA_INT, l);
    }

    /**
     * Component sizes indexed by label, read-only: entry {@code l} is the size of the component
     * labelled {@code l}, and 0 when {@code l} is not a label.
     */
    public MemorySegment sizesByLabel() {
        computeSizes();
        return sizes.asReadOnly();
    }

    /** The size of the largest component, 0 when there is none. */
    public int largestComponentSize() {
        if (labels == null) {
            return summary().largestSize();
        }
        computeSizes();
        return largestLabel < 0 ? 0 : sizes.getAtIndex(ValueLayout.JAVA_INT, largestLabel);
    }

    /** The label of the largest component (the smallest such label on ties), or -1 when there is none. */
    public int largestComponentLabel() {
        if (labels == null) {
            return summary().largestLabel();
        }
        computeSizes();
        return largestLabel;
    }

    private synchronized void computeSizes() {
        if (sizes != null) {
            return;
        }
        MemorySegment host = hostSegment();
        MemorySegment counts = Arena.ofAuto().allocate(ValueLayout.JAVA_INT, Math.max(1, vertexCount));
        for (int v = 0; v < vertexCount; v++) {
            int l = host.getAtIndex(ValueLayout.JAVA_INT, v);
            if (l < 0) {
                continue;  // unlabelled
            }
            if (l >= vertexCount) {
                throw badLabel(v, l, vertexCount);
            }
            counts.setAtIndex(ValueLayout.JAVA_INT, l, counts.getAtIndex(ValueLayout.JAVA_INT, l) + 1);
        }
        int best = -1;
        int bestSize = 0;
        for (int l = 0; l < vertexCount; l++) {
            int size = counts.getAtIndex(ValueLayout.JAVA_INT, l);
            if (size > bestSize) {
                bestSize = size;
                best = l;
            }
        }
        largestLabel = best;
        sizes = counts;
    }

    @Override
    public String toString() {
        return "Labels[vertices=" + vertexCount + ", components=" + count() + ", largest="
                + largestComponentSize() + (labels == null ? ", on the device]" : "]");
    }
}
