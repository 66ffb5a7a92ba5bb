package org.ccl4j;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.internal.ffi.ccl4j_label_array;
import org.ccl4j.internal.ffi.ccl4j_label_summary;

/** The book-keeping of labels in the native library, on a labeler's context (CPU or CUDA). */
final class NativeLabelEngine implements LabelEngine {
    private final ComponentLabeler labeler;

    NativeLabelEngine(ComponentLabeler labeler) {
        this.labeler = labeler;
    }

    /** A native call on a label array: its shape ({@code array}) and its labels (NULL on the device). */
    private interface Call {
        int run(MemorySegment context, MemorySegment array, MemorySegment labels, Arena arena);
    }

    /** Runs one native call on the labeler's context with the label array described. */
    private void call(Labels labels, Call call) {
        labeler.withContext(context -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment array = ccl4j_label_array.allocate(arena);
                ccl4j_label_array.count(array, labels.vertexCount());
                MemorySegment host = MemorySegment.NULL;
                if (labels.isOnDevice()) {
                    labels.checkResident();
                    ccl4j_label_array.location(array, CCL4J_LABELS_DEVICE());
                } else {
                    host = labels.hostSegment();
                    ccl4j_label_array.location(array, CCL4J_LABELS_HOST());
                }
                NativeCalls.check(call.run(context, array, host, arena), context);
            }
        });
    }

    private interface CountCall {
        int run(MemorySegment context, MemorySegment array, MemorySegment labels, MemorySegment count);
    }

    /** Runs one native call that reports a 64-bit count through {@code count}; returns the count. */
    private long callForCount(Labels labels, CountCall call) {
        long[] result = new long[1];
        call(labels, (context, array, host, arena) -> {
            MemorySegment count = arena.allocate(ValueLayout.JAVA_LONG);
            int status = call.run(context, array, host, count);
            result[0] = read(count);
            return status;
        });
        return result[0];
    }

    private static long read(MemorySegment out) {
        return out.get(ValueLayout.JAVA_LONG, 0);
    }

    @Override
    public LabelSummary summary(Labels labels) {
        LabelSummary[] result = new LabelSummary[1];
        call(labels, (context, array, host, arena) -> {
            MemorySegment s = ccl4j_label_summary.allocate(arena);
            int status = ccl4j_labels_summary(context, array, host, s);
            if (status == CCL4J_SUCCESS()) {
                result[0] = new LabelSummary(ccl4j_label_summary.count(s), ccl4j_label_summary.labelled(s),
                        ccl4j_label_summary.components(s), ccl4j_label_summary.largest_size(s),
                        ccl4j_label_summary.largest_label(s), ccl4j_label_summary.smallest_size(s));
            }
            return status;
        });
        return result[0];
    }

    @Override
    public long components(Labels labels, Labels.Order order, long capacity, MemorySegment componentLabels,
                           MemorySegment sizes) {
        return callForCount(labels, (context, array, host, count) -> ccl4j_labels_components(context, array, host,
                order.nativeCode(), capacity, componentLabels, sizes, count));
    }

    @Override
    public long compact(Labels labels, Labels.Order order, MemorySegment out) {
        return callForCount(labels, (context, array, host, count) -> ccl4j_labels_compact(context, array, host,
                order.nativeCode(), out, count));
    }

    @Override
    public long histogram(Labels labels, Histogram.Binning binning, long capacity, MemorySegment binSizes,
                          MemorySegment binCounts) {
        return callForCount(labels, (context, array, host, count) -> ccl4j_labels_histogram(context, array, host,
                binning.nativeCode(), capacity, binSizes, binCounts, count));
    }

    @Override
    public void members(Labels labels, Labels.Order order, MemorySegment offsets, MemorySegment members) {
        call(labels, (context, array, host, arena) -> ccl4j_labels_members(context, array, host, order.nativeCode(),
                offsets.byteSize() / Integer.BYTES, offsets, members.byteSize() / Integer.BYTES, members));
    }

    @Override
    public long componentMembers(Labels labels, int label, long capacity, MemorySegment out) {
        return callForCount(labels, (context, array, host, count) -> ccl4j_labels_component_members(context, array,
                host, label, capacity, out, count));
    }

    @Override
    public long filter(Labels labels, int minSize, int maxSize, MemorySegment out) {
        return callForCount(labels, (context, array, host, count) -> ccl4j_labels_filter(context, array, host,
                minSize, maxSize, out, count));
    }

    @Override
    public CsrGraph inducedSubgraph(CsrGraph graph, MemorySegment vertices, int vertexCount, Arena target) {
        CsrGraph[] result = new CsrGraph[1];
        labeler.withContext(context -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment csr = NativeCalls.csr(arena, graph);
                MemorySegment arcs = arena.allocate(ValueLayout.JAVA_LONG);
                MemorySegment graphOffsets = graph.offsetsSegment();
                MemorySegment graphNeighbors = graph.neighborsSegment();
                NativeCalls.check(ccl4j_induced_subgraph(context, csr, graphOffsets, graphNeighbors, vertices, vertexCount,
                        4, MemorySegment.NULL, MemorySegment.NULL, 0, arcs), context);
                long arcCount = read(arcs);
                int width = arcCount < Integer.MAX_VALUE ? Integer.BYTES : Long.BYTES;
                MemorySegment offsets = target.allocate((long) (vertexCount + 1) * width, width);
                MemorySegment neighbors = target.allocate(ValueLayout.JAVA_INT, Math.max(1, arcCount));
                NativeCalls.check(ccl4j_induced_subgraph(context, csr, graphOffsets, graphNeighbors, vertices, vertexCount,
                        width, offsets, neighbors, arcCount, arcs), context);
                // a checked graph's subgraph holds too
                result[0] = CsrGraph.owned(offsets, width, neighbors.asSlice(0, arcCount * Integer.BYTES),
                        graph.verified());
            }
        });
        return result[0];
    }
}
