package org.ccl4j.engine.jvm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import org.ccl4j.engine.spi.WideCounts;
import org.ccl4j.internal.Failures;
import org.ccl4j.internal.HostMemory;
import org.ccl4j.internal.Segments;

/**
 * The book-keeping of int64 mesh labels (grids of more than 2^31-1 cells, or labelled with the
 * API's {@code MeshOptions.wideLabels()}): the number of clusters, their sizes and the largest, in memory
 * of a bit a cell and 8 bytes a cluster, not of 4 or 8 bytes a cell (which the int32 book-keeping
 * of the API's {@code Labels} takes, and which a 2048³ volume beside its 68.7 GB of labels leaves no room for).
 *
 * <p>Canonical labels give each cluster's root r, its smallest cell, {@code labels[r] == r}, and no
 * other cell that property. A bitmap of the roots, one bit per cell, and the count of roots before
 * each block of 512 cells (a rank directory) number the clusters 0..k-1 in raster order of their
 * roots, which is the order of their labels: a cluster's row is the number of roots before its
 * label. The sizes are then k longs, filled in one parallel pass that adds each run of cells of a
 * cluster at once, and the largest cluster is the first row of the largest size (the smallest label
 * on ties). The passes check that the labels are canonical, naming the first cell that is not.
 *
 * <p>The passes run on all cores, reading the labels by address where {@link RawMemory} allows
 * (labels of the calling thread's confined arena), through the segment where every thread may read
 * it, and on the calling thread alone otherwise. Their own memory is off-heap, freed with this
 * object by the garbage collector.
 */
final class WideLabels implements WideCounts {
    /** 64 cells a word of the bitmap. */
    private static final int WORD_SHIFT = 6;
    /** 512 cells (8 words) a block of the rank directory: 1/8 of the bitmap's size again. */
    private static final int BLOCK_SHIFT = 9;
    private static final int BLOCK = 1 << BLOCK_SHIFT;
    /** Adds to a size from several threads; coordinates (segment, byte offset). */
    private static final VarHandle LONG_AT = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment roots;
    private final MemorySegment before;
    private final MemorySegment sizes;
    private final long components;
    private final long largestSize;
    private final long largestLabel;

    /** Reads label {@code i}. */
    @FunctionalInterface
    private interface Reader {
        long get(long i);
    }

    private WideLabels(MemorySegment labels, long cells, Failures failures) {
        long blocks = Math.ceilDiv(cells, BLOCK);
        Arena arena = Arena.ofAuto();
        roots = arena.allocate(ValueLayout.JAVA_LONG, Math.max(1, Math.ceilDiv(cells, Long.SIZE)));
        before = arena.allocate(ValueLayout.JAVA_LONG, Math.max(1, blocks));
        RawMemory memory = RawMemory.available() ? new RawMemory() : null;
        boolean inPlace = memory != null && memory.readsInPlace(labels);
        long address = labels.address();
        Reader read = inPlace ? i -> RawMemory.getLong(address, i) : i -> labels.getAtIndex(ValueLayout.JAVA_LONG, i);
        try (memory; ForkJoinLoop loop = new ForkJoinLoop(inPlace || Segments.isShared(labels) ? 0 : 1, 0, BLOCK)) {
            loop.run(blocks, (from, to) -> markRoots(read, cells, from, to));
            long k = 0;
            for (long b = 0; b < blocks; b++) {
                long count = before.getAtIndex(ValueLayout.JAVA_LONG, b);
                before.setAtIndex(ValueLayout.JAVA_LONG, b, k);
                k += count;
            }
            long rows = k;
            components = rows;
            HostMemory.require("counting the sizes of " + rows + " clusters", rows * Long.BYTES, failures);
            sizes = arena.allocate(ValueLayout.JAVA_LONG, Math.max(1, rows));
            loop.run(blocks, (from, to) -> addSizes(read, cells, from, to));
            long[] largest = {0, -1};  // size, row
            loop.run(Math.ceilDiv(rows, BLOCK), (from, to) -> {
                long size = 0;
                long row = -1;
                for (long r = from * BLOCK; r < Math.min(rows, to * BLOCK); r++) {
                    long s = sizes.getAtIndex(ValueLayout.JAVA_LONG, r);
                    if (s > size) {
                        size = s;
                        row = r;
                    }
                }
                synchronized (largest) {
                    // rows in label order: the smaller row wins a tie
                    if (size > largest[0] || (size == largest[0] && size > 0 && row < largest[1])) {
                        largest[0] = size;
                        largest[1] = row;
                    }
                }
            });
            largestSize = largest[0];
            largestLabel = largest[1] < 0 ? -1 : select(largest[1]);
        }
    }

    /**
     * The book-keeping of {@code cells} int64 canonical labels in {@code labels} (alive, at least
     * {@code cells} longs).
     *
     * @throws IllegalArgumentException naming the first cell whose label is not canonical
     */
    static WideLabels of(MemorySegment labels, long cells, Failures failures) {
        return new WideLabels(labels, cells, failures);
    }

    /** The number of clusters. */
    @Override
    public long components() {
        return components;
    }

    /** The size of the largest cluster; 0 when there is none. */
    @Override
    public long largestSize() {
        return largestSize;
    }

    /** The label of the largest cluster, the smallest on ties; -1 when there is none. */
    @Override
    public long largestLabel() {
        return largestLabel;
    }

    /**
     * The size of the cluster labelled {@code label}, a root.
     *
     * @throws IllegalArgumentException when no cluster has that label
     */
    @Override
    public long size(long label) {
        long word = roots.getAtIndex(ValueLayout.JAVA_LONG, label >>> WORD_SHIFT);
        if ((word >>> (label & 63) & 1) == 0) {
            throw new IllegalArgumentException("no cluster has the label " + label);
        }
        return sizes.getAtIndex(ValueLayout.JAVA_LONG, rank(label));
    }

    /** Sets the root bits of the blocks {@code from .. to-1}, and puts each block's count of roots in {@code before}. */
    private void markRoots(Reader read, long cells, long from, long to) {
        for (long b = from; b < to; b++) {
            long count = 0;
            long end = Math.min(cells, (b + 1) << BLOCK_SHIFT);
            for (long w = b << BLOCK_SHIFT; w < end; w += Long.SIZE) {
                long bits = 0;
                for (long i = w; i < Math.min(end, w + Long.SIZE); i++) {
                    long l = read.get(i);
                    if (l == i) {
                        bits |= 1L << (i & 63);
                    } else if (l < -1 || l > i) {
                        throw notCanonical(i, l, l < -1 ? "below -1" : "larger than the cell's own index");
                    }
                }
                roots.setAtIndex(ValueLayout.JAVA_LONG, w >>> WORD_SHIFT, bits);
                count += Long.bitCount(bits);
            }
            before.setAtIndex(ValueLayout.JAVA_LONG, b, count);
        }
    }

    /** Adds the cells of the blocks {@code from .. to-1} to their clusters' sizes, a run of one cluster at a time. */
    private void addSizes(Reader read, long cells, long from, long to) {
        long runLabel = -1;
        long runRow = -1;
        long run = 0;
        for (long i = from << BLOCK_SHIFT; i < Math.min(cells, to << BLOCK_SHIFT); i++) {
            long l = read.get(i);
            if (l < 0 || l == runLabel) {
                run += l < 0 ? 0 : 1;
                continue;
            }
            if (run > 0) {
                LONG_AT.getAndAdd(sizes, runRow * Long.BYTES, run);
            }
            long word = roots.getAtIndex(ValueLayout.JAVA_LONG, l >>> WORD_SHIFT);
            if ((word >>> (l & 63) & 1) == 0) {
                throw notCanonical(i, l, "a cell whose own label is not itself");
            }
            runLabel = l;
            runRow = rank(l);
            run = 1;
        }
        if (run > 0) {
            LONG_AT.getAndAdd(sizes, runRow * Long.BYTES, run);
        }
    }

    /**
     * Writes into {@code out} ({@code cells} longs) the row of each cell's cluster, -1 for the
     * background: {@code labels} compacted to 0..k-1 in the clusters' raster order. On all cores
     * where {@link RawMemory} reaches both by address, else on the calling thread.
     */
    @Override
    public void compact(MemorySegment labels, long cells, MemorySegment out) {
        try (RawMemory memory = RawMemory.available() ? new RawMemory() : null) {
            if (memory == null || !memory.readsInPlace(labels)) {
                compactBlocks(i -> labels.getAtIndex(ValueLayout.JAVA_LONG, i),
                        (i, row) -> out.setAtIndex(ValueLayout.JAVA_LONG, i, row), cells, 0, Math.ceilDiv(cells, BLOCK));
                return;
            }
            long from = labels.address();
            long to = memory.output(out);
            try (ForkJoinLoop loop = new ForkJoinLoop(0, 0, BLOCK)) {
                loop.run(Math.ceilDiv(cells, BLOCK), (first, last) -> compactBlocks(i -> RawMemory.getLong(from, i),
                        (i, row) -> RawMemory.setLong(to, i, row), cells, first, last));
            }
            memory.commit();
        }
    }

    /** Writes a label. */
    @FunctionalInterface
    private interface Writer {
        void set(long i, long label);
    }

    /** {@link #compact} of the blocks {@code from .. to-1}, a run of one cluster at a time. */
    private void compactBlocks(Reader read, Writer write, long cells, long from, long to) {
        long runLabel = -1;
        long runRow = -1;
        for (long i = from << BLOCK_SHIFT; i < Math.min(cells, to << BLOCK_SHIFT); i++) {
            long l = read.get(i);
            if (l >= 0 && l != runLabel) {
                runLabel = l;
                runRow = rank(l);
            }
            write.set(i, l < 0 ? -1 : runRow);
        }
    }

    /** The number of roots before cell {@code l}: its cluster's row when it is a root. */
    private long rank(long l) {
        long word = l >>> WORD_SHIFT;
        long rank = before.getAtIndex(ValueLayout.JAVA_LONG, l >>> BLOCK_SHIFT);
        for (long w = (l >>> BLOCK_SHIFT) << (BLOCK_SHIFT - WORD_SHIFT); w < word; w++) {
            rank += Long.bitCount(roots.getAtIndex(ValueLayout.JAVA_LONG, w));
        }
        return rank + Long.bitCount(roots.getAtIndex(ValueLayout.JAVA_LONG, word) & ((1L << (l & 63)) - 1));
    }

    /** The root of row {@code row}: the cell with {@code row} roots before it. */
    private long select(long row) {
        long lo = 0;
        long hi = before.byteSize() / Long.BYTES - 1;
        while (lo < hi) {  // the last block with at most `row` roots before it
            long mid = (lo + hi + 1) >>> 1;
            if (before.getAtIndex(ValueLayout.JAVA_LONG, mid) <= row) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        long left = row - before.getAtIndex(ValueLayout.JAVA_LONG, lo);
        for (long w = lo << (BLOCK_SHIFT - WORD_SHIFT); ; w++) {
            long bits = roots.getAtIndex(ValueLayout.JAVA_LONG, w);
            int count = Long.bitCount(bits);
            if (left < count) {
                for (; left > 0; left--) {
                    bits &= bits - 1;  // drops the lowest root
                }
                return (w << WORD_SHIFT) + Long.numberOfTrailingZeros(bits);
            }
            left -= count;
        }
    }

    private static IllegalArgumentException notCanonical(long cell, long label, String why) {
        return new IllegalArgumentException("the labels are not canonical: cell " + cell + " has the label " + label
                + ", " + why);
    }
}
