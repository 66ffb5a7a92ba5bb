package org.ccl4j.engine.jvm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;

import org.ccl4j.engine.spi.GraphAssembly;
import org.ccl4j.engine.spi.GraphData;

/**
 * The JVM's graph build (the API's {@code GraphBuilder}, and the JVM engine's build of an edge
 * list's canonical graph): edges accumulate off-heap, packed in chunks of the builder's own that
 * grow as edges arrive and are freed by {@link #build} (or {@link #close}), so the Java heap used
 * does not grow with the number of edges. Building needs, off-heap and besides the result, about 20
 * bytes per edge added plus 4 per vertex.
 *
 * <p>Building sorts the arcs in two cache-friendly steps rather than one scatter over all memory:
 * the arcs are first partitioned into buckets of {@value #BUCKET_VERTICES} consecutive source
 * vertices, then each bucket is sorted by source with a counting sort that stays in cache, each
 * list sorted and its repeats dropped. Both steps run in parallel on the common fork-join pool;
 * the result is written by the calling thread, so the arena passed to {@link #build} may be
 * confined to it. When the partitioned arcs would need much memory they are partitioned in a few
 * sweeps over the edges, one group of buckets at a time.
 */
final class ChunkedGraphBuilder implements GraphAssembly {
    /** Edges in the first chunk; later chunks double up to {@link #MAX_CHUNK_EDGES}. */
    private static final int FIRST_CHUNK_EDGES = 1 << 12;
    private static final int MAX_CHUNK_EDGES = 1 << 23;
    /** A bucket holds the arcs of this many consecutive sources: its counters fit in cache. */
    private static final int BUCKET_BITS = 15;
    private static final int BUCKET_VERTICES = 1 << BUCKET_BITS;
    /** Below this many edges the passes over the edges run as one task. */
    private static final long PARALLEL_EDGES = 1 << 16;
    /** The most tasks of the passes over the edges (each holds a counter per bucket). */
    private static final int MAX_EDGE_TASKS = 16;
    /** The partitioned arcs of one sweep take at most max(this, a quarter of all) bytes. */
    private static final long MIN_SWEEP_BYTES = 1L << 26;
    /** Lists up to this length are sorted on the heap with {@link Arrays#sort(int[], int, int)}. */
    private static final int HEAP_SORT_LIMIT = 1 << 20;
    private static final int INSERTION_SORT_LIMIT = 24;

    /** A block of edges, each packed in one {@code long} as {@code (u << 32) | v}, in its own arena. */
    private record Chunk(Arena arena, MemorySegment edges, long first) {
    }

    private final List<Chunk> chunks = new ArrayList<>();
    private MemorySegment current;
    private long currentCapacity;
    private long currentFill;
    /** Edges stored in chunks (self loops are not stored). */
    private long storedEdges;
    private long addedEdges;
    private int atLeast;
    private int maxId = -1;
    private boolean closed;

    @Override
    public void vertexCount(int atLeast) {
        ensureOpen();
        this.atLeast = atLeast;
    }

    @Override
    public void add(int u, int v) {
        ensureOpen();
        maxId = Math.max(maxId, Math.max(u, v));
        addedEdges++;
        if (u == v) {
            return;
        }
        if (currentFill == currentCapacity) {
            newChunk();
        }
        current.setAtIndex(ValueLayout.JAVA_LONG, currentFill++, ((long) u << 32) | v);
        storedEdges++;
    }

    @Override
    public long edgeCount() {
        return addedEdges;
    }

    @Override
    public GraphData build(Arena arena) {
        ensureOpen();
        int n = Math.max(atLeast, maxId + 1);
        // Shared: the parallel passes use it from the pool's threads.
        try (Arena work = Arena.ofShared()) {
            MemorySegment degrees = work.allocate(ValueLayout.JAVA_INT, Math.max(1, n));
            MemorySegment targets = work.allocate(ValueLayout.JAVA_INT, Math.max(1, 2 * storedEdges));
            long arcs = sortArcs(n, degrees, targets);
            return copyOut(arena, n, degrees, targets, arcs);
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        freeChunks();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this GraphBuilder has already been built or closed");
        }
    }

    private void newChunk() {
        long edges = chunks.isEmpty() ? FIRST_CHUNK_EDGES : Math.min(2 * currentCapacity, MAX_CHUNK_EDGES);
        // Shared, not confined: the parallel passes read it, and a builder may change threads.
        Arena chunkArena = Arena.ofShared();
        current = chunkArena.allocate(ValueLayout.JAVA_LONG, edges);
        chunks.add(new Chunk(chunkArena, current, storedEdges));
        currentCapacity = edges;
        currentFill = 0;
    }

    private void freeChunks() {
        for (Chunk chunk : chunks) {
            chunk.arena().close();
        }
        chunks.clear();
        current = null;
    }

    /**
     * Writes the distinct targets of every vertex, sorted, into {@code targets} in vertex order and
     * their number into {@code degrees}; returns the number of distinct arcs.
     */
    private long sortArcs(int n, MemorySegment degrees, MemorySegment targets) {
        int buckets = (int) (((long) n + BUCKET_VERTICES - 1) >>> BUCKET_BITS);
        int tasks = storedEdges < PARALLEL_EDGES ? 1
                : Math.min(MAX_EDGE_TASKS, Runtime.getRuntime().availableProcessors());
        // The arcs each task (a contiguous range of edges) sends to each bucket.
        long[][] perTask = new long[tasks][];
        IntStream.range(0, tasks).parallel().forEach(t -> {
            long[] counts = new long[buckets];
            forEachEdge(taskStart(t, tasks), taskStart(t + 1, tasks), e -> {
                counts[(int) (e >>> 32) >>> BUCKET_BITS]++;
                counts[(int) e >>> BUCKET_BITS]++;
            });
            perTask[t] = counts;
        });
        long[] bucketArcs = new long[buckets];
        for (long[] counts : perTask) {
            for (int b = 0; b < buckets; b++) {
                bucketArcs[b] += counts[b];
            }
        }
        long sweepBytes = Math.max(MIN_SWEEP_BYTES, 2 * storedEdges * Long.BYTES / 4);
        long written = 0;
        for (int first = 0; first < buckets; ) {
            int end = first + 1;
            long bytes = bucketArcs[first] * Long.BYTES;
            while (end < buckets && bytes + bucketArcs[end] * Long.BYTES <= sweepBytes) {
                bytes += bucketArcs[end++] * Long.BYTES;
            }
            written = sweep(n, first, end, bucketArcs, perTask, degrees, targets, written, end == buckets);
            first = end;
        }
        return written;
    }

    private long taskStart(int t, int tasks) {
        return storedEdges * t / tasks;
    }

    /**
     * Partitions the arcs whose sources lie in buckets {@code first .. end-1} by bucket, sorts each
     * bucket and appends its distinct targets to {@code targets} at {@code written}; returns the new
     * end of {@code targets}. The edges are freed after the last sweep's partition.
     */
    private long sweep(int n, int first, int end, long[] bucketArcs, long[][] perTask, MemorySegment degrees,
                       MemorySegment targets, long written, boolean last) {
        int count = end - first;
        long[] bucketStart = new long[count + 1];
        for (int b = 0; b < count; b++) {
            bucketStart[b + 1] = bucketStart[b] + bucketArcs[first + b];
        }
        try (Arena sweepArena = Arena.ofShared()) {
            MemorySegment arcs = sweepArena.allocate(ValueLayout.JAVA_LONG, Math.max(1, bucketStart[count]));
            // Each task writes its arcs of bucket b after those of the tasks before it: no atomics.
            int tasks = perTask.length;
            long[][] cursors = new long[tasks][count];
            for (int b = 0; b < count; b++) {
                long at = bucketStart[b];
                for (int t = 0; t < tasks; t++) {
                    cursors[t][b] = at;
                    at += perTask[t][first + b];
                }
            }
            IntStream.range(0, tasks).parallel().forEach(t -> {
                long[] cursor = cursors[t];
                forEachEdge(taskStart(t, tasks), taskStart(t + 1, tasks), e -> {
                    int u = (int) (e >>> 32);
                    int v = (int) e;
                    // one unsigned comparison tests first <= bucket < end
                    int bu = (u >>> BUCKET_BITS) - first;
                    if (Integer.compareUnsigned(bu, count) < 0) {
                        arcs.setAtIndex(ValueLayout.JAVA_LONG, cursor[bu]++, e);
                    }
                    int bv = (v >>> BUCKET_BITS) - first;
                    if (Integer.compareUnsigned(bv, count) < 0) {
                        arcs.setAtIndex(ValueLayout.JAVA_LONG, cursor[bv]++, ((long) v << 32) | u);
                    }
                });
            });
            if (last) {
                freeChunks();
            }
            long[] kept = new long[count];
            IntStream.range(0, count).parallel().forEach(b -> kept[b] = sortBucket(n, first + b, arcs,
                    bucketStart[b], bucketStart[b + 1], degrees));
            for (int b = 0; b < count; b++) {
                // sortBucket left the distinct targets as ints at the start of the bucket's region
                MemorySegment.copy(arcs, bucketStart[b] * Long.BYTES, targets, written * Integer.BYTES,
                        kept[b] * Integer.BYTES);
                written += kept[b];
            }
        }
        return written;
    }

    private void forEachEdge(long from, long to, LongConsumer action) {
        for (Chunk chunk : chunks) {
            long fill = chunk.edges() == current ? currentFill : chunk.edges().byteSize() / Long.BYTES;
            long begin = Math.max(from, chunk.first());
            long end = Math.min(to, chunk.first() + fill);
            MemorySegment edges = chunk.edges();
            for (long i = begin; i < end; i++) {
                action.accept(edges.getAtIndex(ValueLayout.JAVA_LONG, i - chunk.first()));
            }
        }
    }

    /**
     * Sorts bucket {@code b}, the packed arcs {@code arcs[from .. to)}, by source with a counting
     * sort into scratch memory, then sorts each list and drops its repeats, writing the distinct
     * targets as ints over the start of the bucket's own region and each source's count into
     * {@code degrees}. Returns the number of distinct targets.
     */
    private static long sortBucket(int n, int b, MemorySegment arcs, long from, long to, MemorySegment degrees) {
        if (from == to) {
            return 0;
        }
        int lo = b << BUCKET_BITS;
        int width = (int) Math.min(BUCKET_VERTICES, (long) n - lo);
        // ends[k]: after the scatter, the end of source lo+k's targets in scratch; its begin is ends[k-1].
        long[] ends = new long[width];
        for (long i = from; i < to; i++) {
            ends[(int) (arcs.getAtIndex(ValueLayout.JAVA_LONG, i) >>> 32) - lo]++;
        }
        long sum = 0;
        for (int k = 0; k < width; k++) {
            long d = ends[k];
            ends[k] = sum;
            sum += d;
        }
        try (Arena scratchArena = Arena.ofConfined()) {
            MemorySegment scratch = scratchArena.allocate(ValueLayout.JAVA_INT, to - from);
            for (long i = from; i < to; i++) {
                long e = arcs.getAtIndex(ValueLayout.JAVA_LONG, i);
                scratch.setAtIndex(ValueLayout.JAVA_INT, ends[(int) (e >>> 32) - lo]++, (int) e);
            }
            // The ints written never pass the longs still unread: the region is read in full above.
            long out = 2 * from;
            long begin = 0;
            int[] heap = new int[64];
            for (int k = 0; k < width; k++) {
                long end = ends[k];
                long length = end - begin;
                long before = out;
                if (length <= HEAP_SORT_LIMIT) {
                    int len = (int) length;
                    if (heap.length < len) {
                        heap = new int[Math.max(len, Math.min(2 * heap.length, HEAP_SORT_LIMIT))];
                    }
                    MemorySegment.copy(scratch, ValueLayout.JAVA_INT, begin * Integer.BYTES, heap, 0, len);
                    if (len <= INSERTION_SORT_LIMIT) {
                        insertionSort(heap, len);
                    } else {
                        Arrays.sort(heap, 0, len);
                    }
                    int previous = -1;
                    for (int i = 0; i < len; i++) {
                        int t = heap[i];
                        if (t != previous) {
                            arcs.setAtIndex(ValueLayout.JAVA_INT, out++, t);
                            previous = t;
                        }
                    }
                } else {
                    SegmentSort.sort(scratch, begin, end);
                    int previous = -1;
                    for (long a = begin; a < end; a++) {
                        int t = scratch.getAtIndex(ValueLayout.JAVA_INT, a);
                        if (t != previous) {
                            arcs.setAtIndex(ValueLayout.JAVA_INT, out++, t);
                            previous = t;
                        }
                    }
                }
                degrees.setAtIndex(ValueLayout.JAVA_INT, lo + k, (int) (out - before));
                begin = end;
            }
            return out - 2 * from;
        }
    }

    private static void insertionSort(int[] a, int length) {
        for (int i = 1; i < length; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }

    /** Copies the distinct arcs and the offsets that {@code degrees} give into {@code arena}. */
    private static GraphData copyOut(Arena arena, int n, MemorySegment degrees, MemorySegment targets, long arcs) {
        boolean narrow = arcs <= Integer.MAX_VALUE;
        int width = narrow ? Integer.BYTES : Long.BYTES;
        MemorySegment offsets = arena.allocate(((long) n + 1) * width, width);
        // offsets[0] is 0: arena memory starts zeroed.
        long sum = 0;
        for (int v = 0; v < n; v++) {
            sum += degrees.getAtIndex(ValueLayout.JAVA_INT, v);
            if (narrow) {
                offsets.setAtIndex(ValueLayout.JAVA_INT, v + 1L, (int) sum);
            } else {
                offsets.setAtIndex(ValueLayout.JAVA_LONG, v + 1L, sum);
            }
        }
        MemorySegment neighbors = arena.allocate(ValueLayout.JAVA_INT, arcs);
        MemorySegment.copy(targets, 0, neighbors, 0, arcs * Integer.BYTES);
        return new GraphData(n, arcs, width, offsets, neighbors);
    }

    /**
     * In-place introsort of {@code int}s in a segment, for neighbour lists too long to copy to the
     * heap (a hub of a star graph): quicksort with median-of-three pivots, heapsort when the
     * recursion gets too deep, insertion sort for short ranges.
     */
    private static final class SegmentSort {
        private SegmentSort() {
        }

        static void sort(MemorySegment a, long from, long to) {
            int depthLimit = 2 * (64 - Long.numberOfLeadingZeros(to - from));
            introsort(a, from, to - 1, depthLimit);
        }

        private static void introsort(MemorySegment a, long lo, long hi, int depth) {
            while (hi - lo > INSERTION_SORT_LIMIT) {
                if (depth-- == 0) {
                    heapsort(a, lo, hi);
                    return;
                }
                long mid = lo + (hi - lo) / 2;
                if (get(a, mid) < get(a, lo)) {
                    swap(a, mid, lo);
                }
                if (get(a, hi) < get(a, lo)) {
                    swap(a, hi, lo);
                }
                if (get(a, hi) < get(a, mid)) {
                    swap(a, hi, mid);
                }
                int pivot = get(a, mid);
                // Hoare partition: stops on equal keys, so runs of one value split evenly.
                long i = lo - 1;
                long j = hi + 1;
                while (true) {
                    do {
                        i++;
                    } while (get(a, i) < pivot);
                    do {
                        j--;
                    } while (get(a, j) > pivot);
                    if (i >= j) {
                        break;
                    }
                    swap(a, i, j);
                }
                // Recurse into the smaller part, loop on the larger: the stack stays logarithmic.
                if (j - lo < hi - j) {
                    introsort(a, lo, j, depth);
                    lo = j + 1;
                } else {
                    introsort(a, j + 1, hi, depth);
                    hi = j;
                }
            }
            for (long i = lo + 1; i <= hi; i++) {
                int x = get(a, i);
                long j = i - 1;
                while (j >= lo && get(a, j) > x) {
                    a.setAtIndex(ValueLayout.JAVA_INT, j + 1, get(a, j));
                    j--;
                }
                a.setAtIndex(ValueLayout.JAVA_INT, j + 1, x);
            }
        }

        private static void heapsort(MemorySegment a, long lo, long hi) {
            long size = hi - lo + 1;
            for (long i = size / 2 - 1; i >= 0; i--) {
                siftDown(a, lo, i, size);
            }
            for (long end = size - 1; end > 0; end--) {
                swap(a, lo, lo + end);
                siftDown(a, lo, 0, end);
            }
        }

        private static void siftDown(MemorySegment a, long base, long root, long size) {
            int x = get(a, base + root);
            while (true) {
                long child = 2 * root + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && get(a, base + child + 1) > get(a, base + child)) {
                    child++;
                }
                int c = get(a, base + child);
                if (c <= x) {
                    break;
                }
                a.setAtIndex(ValueLayout.JAVA_INT, base + root, c);
                root = child;
            }
            a.setAtIndex(ValueLayout.JAVA_INT, base + root, x);
        }

        private static int get(MemorySegment a, long i) {
            return a.getAtIndex(ValueLayout.JAVA_INT, i);
        }

        private static void swap(MemorySegment a, long i, long j) {
            int t = get(a, i);
            a.setAtIndex(ValueLayout.JAVA_INT, i, get(a, j));
            a.setAtIndex(ValueLayout.JAVA_INT, j, t);
        }
    }
}
