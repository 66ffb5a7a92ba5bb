package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.ComponentOrder;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.LabelsRef;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.internal.OwnedArena;
import org.ccl4j.internal.UninitializedMemory;

/**
 * Component labels: entry {@code i}'s label names its component, or is -1 when the entry
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
 * being copied.
 *
 * <p>Where the memory is: labels from an overload that takes an {@link Arena} (or a segment of
 * the caller's) live in that memory, native, and are usable until it is freed; those from the
 * overloads without one ({@link ComponentLabeler#label(CsrGraph)}, {@link #compact(Order)},
 * {@link #filter}) are on the Java heap, as are the other large results ({@link #sizes},
 * {@link #componentLabels}, {@link #members}, {@link #componentMembers}, {@link #sizesByLabel}):
 * segments over Java {@code int} arrays, read-only where so documented, that the garbage
 * collector frees like any array. Native scratch memory (outputs of the native backends, and a
 * copy of labels on the Java heap for them to read) is freed before each call returns. Once the
 * memory of labels is freed (their arena closed), every method that reads them, and every view of
 * them, throws {@link IllegalStateException}.
 */
public final class Labels {
    /** The order of components in the results. */
    public enum Order {
        /** By smallest member (for canonical labels: by label). */
        SMALLEST_MEMBER,
        /** Largest first; equal sizes by label, ascending. */
        SIZE_DESCENDING;

        /** The engines' order of the same name. */
        ComponentOrder order() {
            return ComponentOrder.valueOf(name());
        }
    }

    private final MemorySegment labels;  // null when the labels are on the device
    private final int vertexCount;
    private final Timings timings;
    private final Engine engine;  // whose backend made the labels; null: none in particular
    private final long deviceRun;  // the device labelling that left them there
    // Kept reachable while these labels are: the table whose memory holds them, if any, which
    // the garbage collector would otherwise free under them.
    private final Object memoryOwner;
    private int[] sizes;  // by label; computed on demand
    private int largestLabel = -1;
    private LabelSummary summary;

    Labels(MemorySegment labels, int vertexCount, Timings timings) {
        this(labels, vertexCount, timings, null);
    }

    Labels(MemorySegment labels, int vertexCount, Timings timings, Engine engine) {
        this(labels, vertexCount, timings, engine, -1, null);
    }

    /** Labels in memory that {@code memoryOwner} frees once it is unreachable. */
    Labels(MemorySegment labels, int vertexCount, Timings timings, Engine engine, Object memoryOwner) {
        this(labels, vertexCount, timings, engine, -1, memoryOwner);
    }

    private Labels(MemorySegment labels, int vertexCount, Timings timings, Engine engine, long deviceRun,
                   Object memoryOwner) {
        this.labels = labels;
        this.vertexCount = vertexCount;
        this.timings = timings;
        this.engine = engine;
        this.deviceRun = deviceRun;
        this.memoryOwner = memoryOwner;
    }

    static Labels onDevice(LabelsRef ref, Engine engine) {
        return new Labels(null, ref.count(), null, engine, ref.deviceRun(), null);
    }

    /**
     * Wraps {@code count} native-order ints of {@code labels} (not copied; they must not change
     * while in use): each a label in {@code [0, count)} or -1. Mesh labels are of this kind.
     * Labels out of range are reported by the first operation that reads them.
     *
     * @param labels native memory holding the labels, 4-byte aligned
     * @param count the number of entries (vertices or cells)
     * @return the labels over {@code labels}
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

    /**
     * The same labels, with the book-keeping run by {@code labeler} (its backend, CPU or CUDA).
     * Labels on the Java heap are copied into native scratch memory for each call to a native
     * backend, and that memory is freed when the call returns.
     *
     * @param labeler the open labeler whose backend runs the book-keeping
     * @return the same labels, analysed by {@code labeler}
     */
    public Labels using(ComponentLabeler labeler) {
        Objects.requireNonNull(labeler, "labeler");
        if (labels == null) {
            throw new IllegalStateException("labels on the device stay with the labeler that made them");
        }
        return new Labels(labels, vertexCount, timings, labeler.engine(), memoryOwner);
    }

    /**
     * The number of entries (vertices or cells).
     *
     * @return the number of entries
     */
    public int vertexCount() {
        return vertexCount;
    }

    /**
     * The number of components (distinct labels; -1 entries are not counted), computed by the backend.
     *
     * @return the number of components
     */
    public long count() {
        return summary().components();
    }

    /**
     * Whether these labels are on the GPU (see {@link ComponentLabeler#deviceLabels()}).
     *
     * @return whether the labels are on the GPU
     */
    public boolean isOnDevice() {
        return labels == null;
    }

    /**
     * The label of entry {@code v}: the smallest vertex id of its component, or -1 when unlabelled.
     *
     * @param v the entry: a vertex id or a linear cell index
     * @return its label, or -1
     */
    public int get(int v) {
        Objects.checkIndex(v, vertexCount);
        return hostSegment().getAtIndex(ValueLayout.JAVA_INT, v);
    }

    /**
     * A read-only view of the labels ({@link #vertexCount()} native-order ints).
     *
     * @return the labels, read-only
     */
    public MemorySegment segment() {
        return hostSegment().asReadOnly();
    }

    /**
     * The labels copied into a Java array.
     *
     * @return the labels, {@link #vertexCount()} ints
     */
    public int[] toArray() {
        return hostSegment().asSlice(0, (long) vertexCount * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
    }

    /**
     * What the labelling call measured; null for labels wrapped with {@link #of}.
     *
     * @return what the labelling measured, or null
     */
    public Timings timings() {
        return timings;
    }

    MemorySegment hostSegment() {
        return ref().alive();
    }

    /** The labels as the engines take them. */
    private LabelsRef ref() {
        return new LabelsRef(labels, vertexCount, deviceRun);
    }

    /** The same labels, copied onto the Java heap. */
    Labels copyToHeap() {
        return new Labels(MemorySegment.ofArray(toArray()), vertexCount, timings, engine);
    }

    /**
     * One book-keeping call: the engine that made the labels while it is open (or one made for the
     * call, {@link Engines#lease}), the labels as it reads them ({@link #input}) and outputs it can
     * write ({@link #output}), in scratch memory that {@link #close} frees.
     */
    private final class Call implements AutoCloseable {
        private final Engines.Lease lease = Engines.lease(Labels.this.engine, labels == null, Ccl4jException.FAILURES);
        private final Arena scratch = Arena.ofConfined();
        final Engine engine = lease.engine();
        final LabelsRef input = ref();

        /** Room for {@code n} ints of output. */
        MemorySegment output(long n) {
            return engine.scratchInts(scratch, n);
        }

        /** The first {@code n} ints of an output, on the Java heap (copied out of native scratch). */
        static MemorySegment result(MemorySegment output, long n) {
            MemorySegment ints = output.asSlice(0, n * Integer.BYTES);
            return ints.isNative() ? MemorySegment.ofArray(ints.toArray(ValueLayout.JAVA_INT)) : ints;
        }

        @Override
        public void close() {
            try (lease) {
                scratch.close();
            }
        }
    }

    // ---- the book-keeping -----------------------------------------------------------------------

    /**
     * The counts: entries, labelled entries, components, the largest and smallest component.
     *
     * @return the summary
     */
    public synchronized LabelSummary summary() {
        if (summary == null) {
            try (Call call = new Call()) {
                summary = LabelSummary.of(call.engine.summary(call.input));
            }
        }
        return summary;
    }

    /**
     * The component sizes in smallest-member order, on the Java heap (read-only native-order ints).
     *
     * @return one size per component
     */
    public MemorySegment sizes() {
        return sizes(Order.SMALLEST_MEMBER);
    }

    /**
     * The component sizes in {@code order}, on the Java heap (read-only native-order ints).
     *
     * @param order the order of the components
     * @return one size per component, in {@code order}
     */
    public MemorySegment sizes(Order order) {
        return table(order, Long.MAX_VALUE)[1];
    }

    /**
     * The component labels in {@code order}, on the Java heap (read-only native-order ints).
     *
     * @param order the order of the components
     * @return one label per component, in {@code order}
     */
    public MemorySegment componentLabels(Order order) {
        return table(order, Long.MAX_VALUE)[0];
    }

    /** Labels and sizes of the first min(limit, k) components in order, read-only on the Java heap. */
    private MemorySegment[] table(Order order, long limit) {
        Objects.requireNonNull(order, "order");
        long k = Math.min(limit, summary().components());
        try (Call call = new Call()) {
            MemorySegment ls = call.output(k);
            MemorySegment ss = call.output(k);
            call.engine.components(call.input, order.order(), k, k == 0 ? MemorySegment.NULL : ls,
                    k == 0 ? MemorySegment.NULL : ss);
            return new MemorySegment[] {Call.result(ls, k).asReadOnly(), Call.result(ss, k).asReadOnly()};
        }
    }

    /**
     * The {@code k} largest components (fewer when there are fewer), size descending, ties by label.
     *
     * @param k the number of components wanted
     * @return at most {@code k} components with their label and size, no members
     */
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

    /**
     * The components (label and size, no members) in smallest-member order.
     *
     * @return one component per label, with its size
     */
    public Stream<Component> components() {
        return components(Order.SMALLEST_MEMBER);
    }

    /**
     * The components (label and size, no members) in {@code order}.
     *
     * @param order the order of the components
     * @return one component per label, with its size, in {@code order}
     */
    public Stream<Component> components(Order order) {
        MemorySegment[] t = table(order, Long.MAX_VALUE);
        return LongStream.range(0, t[0].byteSize() / Integer.BYTES).mapToObj(c -> new Component(
                t[0].getAtIndex(ValueLayout.JAVA_INT, c), t[1].getAtIndex(ValueLayout.JAVA_INT, c), null));
    }

    /**
     * The labels compacted to {@code 0 .. k-1}: each component's position in {@code order}; -1
     * entries stay -1. The result is new, on the Java heap, analysed by the same backend.
     *
     * @param order the order that numbers the components
     * @return the compacted labels
     */
    public Labels compact(Order order) {
        Objects.requireNonNull(order, "order");
        try (Call call = new Call()) {
            MemorySegment out = call.output(vertexCount);
            call.engine.compact(call.input, order.order(), out);
            return new Labels(Call.result(out, vertexCount), vertexCount, null, engine);
        }
    }

    /**
     * The compacted labels written into {@code out} (at least {@link #vertexCount()} ints); returns k.
     *
     * @param order the order that numbers the components
     * @param out where the compacted labels are written
     * @return the number of components k
     */
    public long compact(Order order, MemorySegment out) {
        Objects.requireNonNull(order, "order");
        checkOutput(out);
        try (Call call = new Call()) {
            return call.engine.compact(call.input, order.order(), out);
        }
    }

    /**
     * The statistics of these canonical labels of {@code graph}: one row per component in
     * {@code numbering}, and the vertices' labels in it, computed on the labels' backend (as the
     * rest of the book-keeping). The table owns its memory: close it to free it.
     *
     * @param graph the graph these labels belong to
     * @param numbering the order of the rows and the labels that come with the table
     * @return the table; close it to free its memory
     * @throws IllegalArgumentException when the labels are not canonical (naming the first entry
     *                                  that is not) or the graph has another vertex count
     */
    public GraphStatistics statistics(CsrGraph graph, Numbering numbering) {
        return OwnedArena.make(owned -> statistics(graph, numbering, owned.arena(), owned));
    }

    /**
     * As {@link #statistics(CsrGraph, Numbering)}, with the table and its labels in {@code arena}.
     *
     * @param graph the graph these labels belong to
     * @param numbering the order of the rows and the labels that come with the table
     * @param arena where the table and its labels are allocated
     * @return the table
     */
    public GraphStatistics statistics(CsrGraph graph, Numbering numbering, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        return statistics(graph, numbering, arena, null);
    }

    GraphStatistics statistics(CsrGraph graph, Numbering numbering, Arena arena, OwnedArena owned) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(numbering, "numbering");
        if (graph.vertexCount() != vertexCount) {
            throw new IllegalArgumentException("the graph has " + graph.vertexCount() + " vertices, the labels "
                    + vertexCount);
        }
        if (labels == null) {
            throw new IllegalStateException("graph statistics are made from host labels; these are on the device"
                    + " (label the graph with ComponentLabeler.labelWithStatistics, or into host memory)");
        }
        MemorySegment out = copyInto(arena);
        try (Engines.Lease lease = Engines.lease(engine, false, Ccl4jException.FAILURES)) {
            StatisticsTable columns = lease.engine().graphStatistics(graph.data(), out, numbering.rows(), out, arena);
            return new GraphStatistics(numbering, out, columns, null, owned);
        }
    }

    /** A native copy of the labels in {@code arena}, which the statistics then renumber in place. */
    MemorySegment copyInto(Arena arena) {
        MemorySegment out = UninitializedMemory.allocate(arena, Math.max(1, vertexCount) * 4L, Integer.BYTES);
        MemorySegment.copy(hostSegment(), 0, out, 0, (long) vertexCount * Integer.BYTES);
        return out.asSlice(0, (long) vertexCount * Integer.BYTES);
    }

    /**
     * The exact size histogram: one bin per component size that occurs.
     *
     * @return the histogram, one bin per size that occurs
     */
    public Histogram histogram() {
        return histogram(Histogram.Binning.EXACT);
    }

    /**
     * The size histogram, exact or in powers of two.
     *
     * @param binning exact sizes, or powers of two
     * @return the histogram
     */
    public Histogram histogram(Histogram.Binning binning) {
        Objects.requireNonNull(binning, "binning");
        try (Call call = new Call()) {
            long bins = call.engine.histogram(call.input, binning.bins(), 0, MemorySegment.NULL, MemorySegment.NULL);
            MemorySegment s = call.output(bins);
            MemorySegment c = call.output(bins);
            long written = call.engine.histogram(call.input, binning.bins(), bins, s, c);
            if (written != bins) {
                throw new IllegalStateException("the labels changed between two calls");
            }
            return new Histogram(binning, Call.result(s, bins).toArray(ValueLayout.JAVA_INT),
                    Call.result(c, bins).toArray(ValueLayout.JAVA_INT));
        }
    }

    /**
     * The members of every component, in smallest-member order, on the Java heap.
     *
     * @return the member lists, as CSR
     */
    public MemberLists members() {
        return members(Order.SMALLEST_MEMBER);
    }

    /**
     * The members of every component, components in {@code order}, members ascending, on the Java heap.
     *
     * @param order the order of the components
     * @return the member lists, as CSR
     */
    public MemberLists members(Order order) {
        Objects.requireNonNull(order, "order");
        LabelSummary s = summary();
        MemorySegment componentLabels = componentLabels(order);
        try (Call call = new Call()) {
            MemorySegment offsets = call.output(s.components() + 1);
            MemorySegment members = call.output(s.labelled());
            call.engine.members(call.input, order.order(), offsets, members.asSlice(0, s.labelled() * Integer.BYTES));
            return new MemberLists(order, Call.result(offsets, s.components() + 1), Call.result(members, s.labelled()),
                    componentLabels, s.components());
        }
    }

    /**
     * Keeps the components with {@code minSize <= size <= maxSize}; the others' entries become -1.
     * The result is new, on the Java heap, analysed by the same backend.
     *
     * @param minSize the smallest size kept
     * @param maxSize the largest size kept
     * @return the filtered labels
     */
    public Labels filter(int minSize, int maxSize) {
        if (minSize < 0 || maxSize < 0) {
            throw new IllegalArgumentException("size bounds must not be negative: " + minSize + " .. " + maxSize);
        }
        try (Call call = new Call()) {
            MemorySegment out = call.output(vertexCount);
            call.engine.filter(call.input, minSize, maxSize, out);
            return new Labels(Call.result(out, vertexCount), vertexCount, null, engine);
        }
    }

    /**
     * The members of the component labelled {@code label}, ascending, read-only on the Java heap
     * (empty when none).
     *
     * @param label a label
     * @return the members of its component, ascending
     */
    public MemorySegment componentMembers(int label) {
        Objects.checkIndex(label, Math.max(vertexCount, 1));
        try (Call call = new Call()) {
            MemorySegment members = componentMembers(call, label);
            return Call.result(members, members.byteSize() / Integer.BYTES).asReadOnly();
        }
    }

    /** The members of one component, in an output of {@code call} exactly as long. */
    private static MemorySegment componentMembers(Call call, int label) {
        long size = call.engine.componentMembers(call.input, label, 0, MemorySegment.NULL);
        MemorySegment out = call.output(size);
        call.engine.componentMembers(call.input, label, size, size == 0 ? MemorySegment.NULL : out);
        return out.asSlice(0, size * Integer.BYTES);
    }

    /**
     * The vertices of the largest component (the smallest label on ties), ascending, read-only on
     * the Java heap; empty when none.
     *
     * @return the vertices of the largest component, ascending
     */
    public MemorySegment largestComponent() {
        LabelSummary s = summary();
        return s.largestLabel() < 0 ? MemorySegment.ofArray(new int[0]).asReadOnly()
                : componentMembers(s.largestLabel());
    }

    /**
     * The subgraph of {@code graph} (the graph these labels belong to) induced by the largest
     * component, in {@code arena}: vertex {@code i} is the {@code i}-th vertex of
     * {@link #largestComponent()}.
     *
     * @param graph the graph these labels belong to
     * @param arena where the subgraph is allocated
     * @return the induced subgraph of the largest component
     */
    public CsrGraph largestComponentGraph(CsrGraph graph, Arena arena) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(arena, "arena");
        if (graph.vertexCount() != vertexCount) {
            throw new IllegalArgumentException("the graph has " + graph.vertexCount() + " vertices, the labels "
                    + vertexCount + " entries");
        }
        graph.requireWellFormed();
        int largest = summary().largestLabel();
        try (Call call = new Call()) {
            // the vertices stay in the call's memory: native scratch when the engine is native
            MemorySegment vertices = largest < 0 ? call.output(0).asSlice(0, 0) : componentMembers(call, largest);
            // a checked graph's subgraph holds too
            return CsrGraph.owned(call.engine.inducedSubgraph(graph.data(), vertices,
                    (int) (vertices.byteSize() / Integer.BYTES), arena), graph.verified());
        }
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

    /**
     * The size of the component containing entry {@code v}; 0 when {@code v} is unlabelled.
     *
     * @param v the entry: a vertex id or a linear cell index
     * @return the size of its component, or 0
     */
    public int componentSize(int v) {
        computeSizes();
        int l = get(v);
        return l < 0 ? 0 : sizes[l];
    }

    /**
     * Component sizes indexed by label, read-only on the Java heap ({@link #vertexCount()} ints, at
     * least one): entry {@code l} is the size of the component labelled {@code l}, and 0 when
     * {@code l} is not a label.
     *
     * @return the sizes, indexed by label
     */
    public MemorySegment sizesByLabel() {
        computeSizes();
        return MemorySegment.ofArray(sizes).asReadOnly();
    }

    /**
     * The size of the largest component, 0 when there is none.
     *
     * @return the size of the largest component
     */
    public int largestComponentSize() {
        if (labels == null) {
            return summary().largestSize();
        }
        computeSizes();
        return largestLabel < 0 ? 0 : sizes[largestLabel];
    }

    /**
     * The label of the largest component (the smallest such label on ties), or -1 when there is none.
     *
     * @return the label of the largest component, or -1
     */
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
        int[] counts = new int[Math.max(1, vertexCount)];
        for (int v = 0; v < vertexCount; v++) {
            int l = host.getAtIndex(ValueLayout.JAVA_INT, v);
            if (l == -1) {
                continue;  // unlabelled
            }
            if (l < -1 || l >= vertexCount) {
                throw LabelsRef.badLabel(v, l, vertexCount);  // as every other operation refuses it
            }
            counts[l]++;
        }
        int best = -1;
        int bestSize = 0;
        for (int l = 0; l < vertexCount; l++) {
            int size = counts[l];
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
