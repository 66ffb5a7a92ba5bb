package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The book-keeping of labels in plain Java, for {@link Backend#JAVA} and without the native library.
 * It reads and writes segments through the FFM API, so labels and outputs may be native or on the
 * Java heap; {@link Labels} gives it Java arrays for its outputs, which then need no copy.
 */
final class JavaLabelEngine implements LabelEngine {
    static final JavaLabelEngine INSTANCE = new JavaLabelEngine();

    private JavaLabelEngine() {
    }

    /** The components in smallest-member order and each label's component index (-1: unused). */
    private record Table(int count, long labelled, int k, int[] label, int[] size, int[] id) {
    }

    private static Table analyze(Labels labels) {
        MemorySegment s = labels.hostSegment();
        int n = labels.vertexCount();
        int[] id = new int[n];
        Arrays.fill(id, -1);
        int[] label = new int[16];
        int[] size = new int[16];
        int k = 0;
        long labelled = 0;
        for (int i = 0; i < n; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            if (l == -1) {
                continue;
            }
            if (l < -1 || l >= n) {
                throw Labels.badLabel(i, l, n);
            }
            if (id[l] < 0) {
                if (k == label.length) {
                    label = Arrays.copyOf(label, 2 * k);
                    size = Arrays.copyOf(size, 2 * k);
                }
                id[l] = k;
                label[k++] = l;
            }
            size[id[l]]++;
            labelled++;
        }
        return new Table(n, labelled, k, label, size, id);
    }

    /** position[c] = where component c stands in {@code order}. */
    private static int[] positions(Table t, Labels.Order order) {
        int[] position = new int[t.k];
        if (order == Labels.Order.SMALLEST_MEMBER) {
            for (int c = 0; c < t.k; c++) {
                position[c] = c;
            }
            return position;
        }
        // Size descending, ties by label: the components in label order, sorted stably by size.
        Integer[] byLabel = new Integer[t.k];
        int next = 0;
        for (int l = 0; l < t.count; l++) {
            if (t.id[l] >= 0) {
                byLabel[next++] = t.id[l];
            }
        }
        Arrays.sort(byLabel, (a, b) -> Integer.compare(t.size[b], t.size[a]));
        for (int p = 0; p < t.k; p++) {
            position[byLabel[p]] = p;
        }
        return position;
    }

    @Override
    public LabelSummary summary(Labels labels) {
        Table t = analyze(labels);
        int largest = 0;
        int largestLabel = -1;
        int smallest = 0;
        for (int c = 0; c < t.k; c++) {
            int s = t.size[c];
            if (s > largest || (s == largest && t.label[c] < largestLabel)) {
                largest = s;
                largestLabel = t.label[c];
            }
            smallest = smallest == 0 ? s : Math.min(smallest, s);
        }
        return new LabelSummary(t.count, t.labelled, t.k, largest, largestLabel, smallest);
    }

    @Override
    public long components(Labels labels, Labels.Order order, long capacity, MemorySegment componentLabels,
                           MemorySegment sizes) {
        Table t = analyze(labels);
        int[] position = positions(t, order);
        for (int c = 0; c < t.k; c++) {
            if (position[c] < capacity) {
                componentLabels.setAtIndex(ValueLayout.JAVA_INT, position[c], t.label[c]);
                sizes.setAtIndex(ValueLayout.JAVA_INT, position[c], t.size[c]);
            }
        }
        return t.k;
    }

    @Override
    public long compact(Labels labels, Labels.Order order, MemorySegment out) {
        Table t = analyze(labels);
        int[] position = positions(t, order);
        MemorySegment s = labels.hostSegment();
        for (int i = 0; i < t.count; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            out.setAtIndex(ValueLayout.JAVA_INT, i, l < 0 ? -1 : position[t.id[l]]);
        }
        return t.k;
    }

    @Override
    public long histogram(Labels labels, Histogram.Binning binning, long capacity, MemorySegment binSizes,
                          MemorySegment binCounts) {
        Table t = analyze(labels);
        int largest = 0;
        for (int c = 0; c < t.k; c++) {
            largest = Math.max(largest, t.size[c]);
        }
        if (largest == 0) {
            return 0;
        }
        int[] sizes;
        int[] counts;
        if (binning == Histogram.Binning.LOG2) {
            int bins = 32 - Integer.numberOfLeadingZeros(largest);
            sizes = new int[bins];
            counts = new int[bins];
            for (int b = 0; b < bins; b++) {
                sizes[b] = 1 << b;
            }
            for (int c = 0; c < t.k; c++) {
                counts[31 - Integer.numberOfLeadingZeros(t.size[c])]++;
            }
        } else {
            int[] perSize = new int[largest + 1];
            for (int c = 0; c < t.k; c++) {
                perSize[t.size[c]]++;
            }
            int bins = 0;
            for (int s = 1; s <= largest; s++) {
                bins += perSize[s] > 0 ? 1 : 0;
            }
            sizes = new int[bins];
            counts = new int[bins];
            int b = 0;
            for (int s = 1; s <= largest; s++) {
                if (perSize[s] > 0) {
                    sizes[b] = s;
                    counts[b++] = perSize[s];
                }
            }
        }
        for (int b = 0; b < Math.min(capacity, sizes.length); b++) {
            binSizes.setAtIndex(ValueLayout.JAVA_INT, b, sizes[b]);
            binCounts.setAtIndex(ValueLayout.JAVA_INT, b, counts[b]);
        }
        return sizes.length;
    }

    @Override
    public void members(Labels labels, Labels.Order order, MemorySegment offsets, MemorySegment members) {
        Table t = analyze(labels);
        int[] position = positions(t, order);
        int[] cursor = new int[t.k + 1];
        for (int c = 0; c < t.k; c++) {
            cursor[position[c] + 1] = t.size[c];
        }
        for (int p = 0; p < t.k; p++) {
            cursor[p + 1] += cursor[p];
        }
        for (int p = 0; p <= t.k; p++) {
            offsets.setAtIndex(ValueLayout.JAVA_INT, p, cursor[p]);
        }
        MemorySegment s = labels.hostSegment();
        for (int i = 0; i < t.count; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            if (l >= 0) {
                members.setAtIndex(ValueLayout.JAVA_INT, cursor[position[t.id[l]]]++, i);
            }
        }
    }

    @Override
    public long componentMembers(Labels labels, int label, long capacity, MemorySegment out) {
        MemorySegment s = labels.hostSegment();
        int n = labels.vertexCount();
        long size = 0;
        for (int i = 0; i < n; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            if (l < -1 || l >= n) {
                throw Labels.badLabel(i, l, n);
            }
            if (l == label) {
                if (size < capacity) {
                    out.setAtIndex(ValueLayout.JAVA_INT, size, i);
                }
                size++;
            }
        }
        return size;
    }

    @Override
    public long filter(Labels labels, int minSize, int maxSize, MemorySegment out) {
        Table t = analyze(labels);
        boolean[] keep = new boolean[t.k];
        long kept = 0;
        for (int c = 0; c < t.k; c++) {
            keep[c] = t.size[c] >= minSize && t.size[c] <= maxSize;
            kept += keep[c] ? 1 : 0;
        }
        MemorySegment s = labels.hostSegment();
        for (int i = 0; i < t.count; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            out.setAtIndex(ValueLayout.JAVA_INT, i, l >= 0 && keep[t.id[l]] ? l : -1);
        }
        return kept;
    }

    @Override
    public CsrGraph inducedSubgraph(CsrGraph graph, MemorySegment vertices, int vertexCount, Arena arena) {
        int[] renumbered = new int[graph.vertexCount()];
        Arrays.fill(renumbered, -1);
        for (int i = 0; i < vertexCount; i++) {
            int v = vertices.getAtIndex(ValueLayout.JAVA_INT, i);
            if (v < 0 || v >= graph.vertexCount() || (i > 0 && v <= vertices.getAtIndex(ValueLayout.JAVA_INT, i - 1))) {
                throw new IllegalArgumentException("vertex list: entry " + i + " (" + v
                        + ") is out of range or does not ascend");
            }
            renumbered[v] = i;
        }
        long[] offsets = new long[vertexCount + 1];
        long arcs = 0;
        for (int i = 0; i < vertexCount; i++) {
            int v = vertices.getAtIndex(ValueLayout.JAVA_INT, i);
            for (long a = graph.offset(v); a < graph.offset(v + 1); a++) {
                arcs += renumbered[graph.neighbor(a)] >= 0 ? 1 : 0;
            }
            offsets[i + 1] = arcs;
        }
        if (arcs >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the subgraph has " + arcs + " arcs, too many for an int array");
        }
        int[] neighbors = new int[(int) arcs];
        int next = 0;
        for (int i = 0; i < vertexCount; i++) {
            int v = vertices.getAtIndex(ValueLayout.JAVA_INT, i);
            for (long a = graph.offset(v); a < graph.offset(v + 1); a++) {
                int w = renumbered[graph.neighbor(a)];
                if (w >= 0) {
                    neighbors[next++] = w;
                }
            }
        }
        return CsrGraph.copyOf(arena, offsets, neighbors, graph.verified()); // a checked graph's subgraph holds too
    }
}
