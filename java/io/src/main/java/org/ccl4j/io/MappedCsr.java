package org.ccl4j.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;
import org.ccl4j.io.internal.Source;

/**
 * The CSR arrays of a binary graph file, {@code .egr} or {@code .csr}, memory-mapped: used in place
 * where the file is canonical, without a copy (zero copy, and larger than RAM: the page cache serves
 * the pages), else rebuilt. Whatever the bytes, the arrays are checked before anything indexes by
 * them ({@link CsrGraph#wrap}: offsets that start at 0, never decrease and end at the arc count,
 * neighbour ids in range), and a failure names the byte offset and the value at fault.
 */
final class MappedCsr {
    /**
     * Where a file holds its arrays: {@code n+1} little-endian offsets of {@code offsetBytes} bytes
     * from byte {@code offsetsAt}, {@code m} little-endian int32 neighbour ids from byte
     * {@code neighborsAt}. Both positions are multiples of the arrays' widths, so that the arrays of
     * a mapping (which starts on a page) are aligned.
     */
    record Layout(int vertexCount, long arcCount, int offsetBytes, long offsetsAt, long neighborsAt) {
        /** The byte after the last neighbour. */
        long end() {
            return neighborsAt + (long) Integer.BYTES * arcCount;
        }

        /** Where offset {@code v} lies. */
        long offsetAt(long v) {
            return offsetsAt + offsetBytes * v;
        }

        /** Offset {@code v} of {@code file}, the file's bytes from byte 0 in native order. */
        long offset(MemorySegment file, long v) {
            return offsetBytes == Long.BYTES ? file.get(ValueLayout.JAVA_LONG, offsetAt(v))
                    : file.get(ValueLayout.JAVA_INT, offsetAt(v));
        }
    }

    private MappedCsr() {
    }

    /**
     * The graph of the arrays that {@code layout} places in {@code channel}, the content of
     * {@code source}: mapped into {@code arena} when canonical, or copied there when the content is
     * a temporary file (a stream's copy, decompressed data: deleted once read); otherwise rebuilt
     * through {@link GraphBuilder}, as the other readers build theirs.
     *
     * @param declaredCanonical whether the file says that it is canonical (the {@code .csr} flag):
     *                          the canonical test is then skipped, the file mapped once and its
     *                          arrays checked by {@link CsrGraph#wrap} only
     */
    static CsrGraph read(Source source, FileChannel channel, Layout layout, boolean declaredCanonical, Arena arena)
            throws IOException {
        Path file = source.name();
        if (declaredCanonical && !source.contentIsTemporary()) {
            return map(file, channel, layout, arena);
        }
        // Shared: the canonical test runs in parallel.
        try (Arena check = Arena.ofShared()) {
            CsrGraph mapped = map(file, channel, layout, check);
            if (declaredCanonical || CanonicalCheck.isCanonical(mapped)) {
                return source.contentIsTemporary() ? copy(mapped, arena) : map(file, channel, layout, arena);
            }
            return rebuild(mapped, arena);
        }
    }

    /** Maps the arrays and checks their structure; copies them into native order on big-endian machines. */
    private static CsrGraph map(Path file, FileChannel channel, Layout layout, Arena arena) throws IOException {
        MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, layout.end(), arena);
        long offsetsBytes = layout.offsetAt(layout.vertexCount() + 1L) - layout.offsetsAt();
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            ValueLayout offset = layout.offsetBytes() == Long.BYTES ? ValueLayout.JAVA_LONG : ValueLayout.JAVA_INT;
            MemorySegment copy = arena.allocate(layout.end(), Long.BYTES);
            MemorySegment.copy(mapped, offset.withOrder(ByteOrder.LITTLE_ENDIAN), layout.offsetsAt(), copy, offset,
                    layout.offsetsAt(), layout.vertexCount() + 1L);
            MemorySegment.copy(mapped, ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN), layout.neighborsAt(),
                    copy, ValueLayout.JAVA_INT, layout.neighborsAt(), layout.arcCount());
            mapped = copy;
        }
        try {
            return CsrGraph.wrap(mapped.asSlice(layout.offsetsAt(), offsetsBytes), layout.offsetBytes(),
                    mapped.asSlice(layout.neighborsAt(), layout.end() - layout.neighborsAt()));
        } catch (IllegalArgumentException e) {
            throw structureError(file, mapped, layout, e);
        }
    }

    /** A copy in {@code arena} of the checked arrays of {@code mapped}. */
    private static CsrGraph copy(CsrGraph mapped, Arena arena) {
        long offsetsBytes = mapped.offsets().byteSize();
        MemorySegment offsets = arena.allocate(offsetsBytes, mapped.offsetBytes());
        MemorySegment.copy(mapped.offsets(), 0, offsets, 0, offsetsBytes);
        long neighborBytes = mapped.neighbors().byteSize();
        MemorySegment neighbors = arena.allocate(Math.max(Integer.BYTES, neighborBytes), Integer.BYTES)
                .asSlice(0, neighborBytes);
        MemorySegment.copy(mapped.neighbors(), 0, neighbors, 0, neighborBytes);
        return CsrGraph.wrap(offsets, mapped.offsetBytes(), neighbors);
    }

    /** The canonical graph of the arcs of {@code mapped}: symmetrised, self loops and repeats dropped, sorted. */
    private static CsrGraph rebuild(CsrGraph mapped, Arena arena) {
        int n = mapped.vertexCount();
        GraphBuilder builder = new GraphBuilder().vertexCount(n);
        for (int u = 0; u < n; u++) {
            long end = mapped.offset(u + 1);
            for (long a = mapped.offset(u); a < end; a++) {
                builder.addEdge(u, mapped.neighbor(a));
            }
        }
        return builder.build(arena);
    }

    /**
     * The error of a file whose arrays {@link CsrGraph#wrap} refused: finds the first offending entry
     * and names its byte offset and value (wrap knows array indices only).
     *
     * @param csr the file's bytes from byte 0, in native order
     */
    private static GraphFormatException structureError(Path file, MemorySegment csr, Layout layout,
                                                       IllegalArgumentException refusal) {
        int n = layout.vertexCount();
        long m = layout.arcCount();
        long first = layout.offset(csr, 0);
        if (first != 0) {
            return new GraphFormatException(file, -1, layout.offsetsAt(), "invalid CSR structure: offsets[0] is "
                    + first + ", must be 0", refusal);
        }
        long previous = 0;
        for (int v = 1; v <= n; v++) {
            long at = layout.offsetAt(v);
            long value = layout.offset(csr, v);
            if (value < previous) {
                return new GraphFormatException(file, -1, at, "invalid CSR structure: offsets[" + v + "] is "
                        + value + ", less than offsets[" + (v - 1) + "] = " + previous
                        + ": offsets must not decrease", refusal);
            }
            if (value > m) {
                return new GraphFormatException(file, -1, at, "invalid CSR structure: offsets[" + v + "] is "
                        + value + ", past the " + m + " arcs that the header declares", refusal);
            }
            previous = value;
        }
        if (previous != m) {
            return new GraphFormatException(file, -1, layout.offsetAt(n),
                    "invalid CSR structure: offsets[" + n + "] is " + previous + ", but the header declares " + m
                            + " arcs", refusal);
        }
        for (long a = 0; a < m; a++) {
            long at = layout.neighborsAt() + (long) Integer.BYTES * a;
            int t = csr.get(ValueLayout.JAVA_INT, at);
            if (t < 0 || t >= n) {
                return new GraphFormatException(file, -1, at, "invalid CSR structure: neighbour id " + t
                        + " of arc " + a + " is outside 0.." + (n - 1), refusal);
            }
        }
        return new GraphFormatException(file, -1, -1, "invalid CSR structure: " + refusal.getMessage(), refusal);
    }
}
