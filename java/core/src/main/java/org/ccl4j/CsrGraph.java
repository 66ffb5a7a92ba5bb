package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * An undirected graph in compressed sparse rows, held off-heap.
 *
 * <p>Vertices are {@code 0 .. vertexCount()-1}; the neighbours of {@code v} are
 * {@code neighbor(offset(v)) .. neighbor(offset(v+1)-1)}. Every edge is stored as two arcs, one in
 * each direction, as in ECL's {@code .egr} format. Offsets are 32-bit when the arc count allows
 * (the GPU's fast path) and 64-bit otherwise; vertex ids are 32-bit.
 *
 * <p>A {@code CsrGraph} is a view over {@link MemorySegment}s owned by an {@link Arena} that the
 * caller controls: it is usable while that arena is alive. The segments are checked once, when
 * the view is made (offsets start at 0, never decrease and end at the arc count; neighbour ids are
 * in range), so native code never reads outside them. Segments passed to {@link #wrap} must not be
 * modified afterwards. Symmetry is not checked here (it costs a sort); ask for it with
 * {@link #checkSymmetric()} or {@link LabelOptions#checkInput()}.
 */
public final class CsrGraph {
    private final int vertexCount;
    private final long arcCount;
    private final MemorySegment offsets;
    private final boolean wideOffsets;
    private final MemorySegment neighbors;

    private CsrGraph(int vertexCount, long arcCount, MemorySegment offsets, boolean wideOffsets,
                     MemorySegment neighbors) {
        this.vertexCount = vertexCount;
        this.arcCount = arcCount;
        this.offsets = offsets;
        this.wideOffsets = wideOffsets;
        this.neighbors = neighbors;
    }

    /**
     * Wraps existing segments without copying: {@code offsets} holds {@code n+1} native-order
     * {@code int} or {@code long} values ({@code offsetBytes} 4 or 8) and {@code neighbors} holds
     * the arcs' target ids as native-order {@code int}s.
     *
     * @throws IllegalArgumentException when sizes disagree, offsets are not monotone or a
     *                                  neighbour id is out of range, naming the first offender
     */
    public static CsrGraph wrap(MemorySegment offsets, int offsetBytes, MemorySegment neighbors) {
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(neighbors, "neighbors");
        if (offsetBytes != Integer.BYTES && offsetBytes != Long.BYTES) {
            throw new IllegalArgumentException("offset width must be 4 or 8 bytes, got " + offsetBytes);
        }
        if (offsets.byteSize() % offsetBytes != 0 || offsets.byteSize() < offsetBytes) {
            throw new IllegalArgumentException("offsets segment of " + offsets.byteSize()
                    + " bytes does not hold n+1 >= 1 offsets of " + offsetBytes + " bytes");
        }
        long n = offsets.byteSize() / offsetBytes - 1;
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("vertex count " + n + " exceeds the 32-bit id range");
        }
        if (neighbors.byteSize() % Integer.BYTES != 0) {
            throw new IllegalArgumentException("neighbours segment of " + neighbors.byteSize()
                    + " bytes is not a whole number of 32-bit ids");
        }
        long arcs = neighbors.byteSize() / Integer.BYTES;
        if (!offsets.isNative() || !neighbors.isNative()) {
            throw new IllegalArgumentException("offsets and neighbours must be native (off-heap) segments");
        }
        checkAligned(offsets, offsetBytes, "offsets");
        checkAligned(neighbors, Integer.BYTES, "neighbours");
        CsrGraph g = new CsrGraph((int) n, arcs, offsets, offsetBytes == Long.BYTES, neighbors);
        g.checkStructure();
        return g;
    }

    /** Copies arrays into {@code arena}: 64-bit offsets given, 32-bit kept when the arcs fit. */
    public static CsrGraph fromArrays(Arena arena, long[] offsets, int[] neighbors) {
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(neighbors, "neighbors");
        if (neighbors.length < Integer.MAX_VALUE) {
            int[] narrow = new int[offsets.length];
            for (int i = 0; i < offsets.length; i++) {
                if (offsets[i] < 0 || offsets[i] > neighbors.length) {
                    throw new IllegalArgumentException("offsets[" + i + "] = " + offsets[i]
                            + " is outside 0.." + neighbors.length);
                }
                narrow[i] = (int) offsets[i];
            }
            return fromArrays(arena, narrow, neighbors);
        }
        return wrap(arena.allocateFrom(ValueLayout.JAVA_LONG, offsets), Long.BYTES,
                arena.allocateFrom(ValueLayout.JAVA_INT, neighbors));
    }

    /** Copies arrays into {@code arena}, with 32-bit offsets. */
    public static CsrGraph fromArrays(Arena arena, int[] offsets, int[] neighbors) {
        Objects.requireNonNull(arena, "arena");
        return wrap(arena.allocateFrom(ValueLayout.JAVA_INT, offsets), Integer.BYTES,
                arena.allocateFrom(ValueLayout.JAVA_INT, neighbors));
    }

    /**
     * Builds a graph from an edge list ({@code sources[i]}–{@code targets[i]}): edges are
     * symmetrised, self loops and duplicates dropped, neighbour lists sorted.
     */
    public static CsrGraph fromEdges(Arena arena, int vertexCount, int[] sources, int[] targets) {
        if (sources.length != targets.length) {
            throw new IllegalArgumentException("sources has " + sources.length + " entries but targets has "
                    + targets.length);
        }
        try (GraphBuilder builder = new GraphBuilder().vertexCount(vertexCount)) {
            for (int i = 0; i < sources.length; i++) {
                builder.addEdge(sources[i], targets[i]);
            }
            return builder.build(arena);
        }
    }

    /** The number of vertices {@code n}. */
    public int vertexCount() {
        return vertexCount;
    }

    /** The number of arcs (twice the number of distinct edges for a symmetric graph). */
    public long arcCount() {
        return arcCount;
    }

    /** 4 or 8: the width of each offset in bytes. */
    public int offsetBytes() {
        return wideOffsets ? Long.BYTES : Integer.BYTES;
    }

    /** The index of {@code v}'s first arc; {@code offset(n)} is the arc count. */
    public long offset(int v) {
        Objects.checkIndex(v, (long) vertexCount + 1);
        return rawOffset(v);
    }

    /** The number of neighbours of {@code v}. */
    public long degree(int v) {
        Objects.checkIndex(v, vertexCount);
        return rawOffset(v + 1) - rawOffset(v);
    }

    /** The target of arc {@code arc}. */
    public int neighbor(long arc) {
        Objects.checkIndex(arc, arcCount);
        return neighbors.getAtIndex(ValueLayout.JAVA_INT, arc);
    }

    /** A read-only view of the offsets ({@code n+1} values of {@link #offsetBytes()} bytes). */
    public MemorySegment offsets() {
        return offsets.asReadOnly();
    }

    /** A read-only view of the neighbour ids ({@link #arcCount()} ints). */
    public MemorySegment neighbors() {
        return neighbors.asReadOnly();
    }

    /**
     * Checks that every arc {@code (u, v)} has its reverse {@code (v, u)} as often, which every
     * algorithm assumes.
     *
     * @throws IllegalArgumentException naming the first arc whose reverse is missing
     */
    public void checkSymmetric() {
        // Transpose by counting sort: the in-arcs of each vertex come out sorted by source. The
        // graph is symmetric when every vertex's sorted out-list equals its in-list.
        long[] inStart = new long[vertexCount + 1];
        for (long a = 0; a < arcCount; a++) {
            inStart[rawNeighbor(a) + 1]++;
        }
        for (int v = 0; v < vertexCount; v++) {
            inStart[v + 1] += inStart[v];
        }
        for (int v = 0; v < vertexCount; v++) {
            long in = inStart[v + 1] - inStart[v];
            if (in != rawOffset(v + 1) - rawOffset(v)) {
                throw new IllegalArgumentException("vertex " + v + " has " + (rawOffset(v + 1) - rawOffset(v))
                        + " outgoing arcs but " + in + " incoming arcs");
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment inSources = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, arcCount));
            long[] fill = inStart.clone();
            for (int u = 0; u < vertexCount; u++) {
                long end = rawOffset(u + 1);
                for (long a = rawOffset(u); a < end; a++) {
                    inSources.setAtIndex(ValueLayout.JAVA_INT, fill[rawNeighbor(a)]++, u);
                }
            }
            for (int v = 0; v < vertexCount; v++) {
                long begin = rawOffset(v);
                int[] out = neighbors.asSlice(begin * Integer.BYTES, (rawOffset(v + 1) - begin) * Integer.BYTES)
                        .toArray(ValueLayout.JAVA_INT);
                java.util.Arrays.sort(out);
                for (int i = 0; i < out.length; i++) {
                    int in = inSources.getAtIndex(ValueLayout.JAVA_INT, inStart[v] + i);
                    if (in != out[i]) {
                        int missing = Math.min(in, out[i]);
                        throw new IllegalArgumentException("arcs between vertex " + v + " and vertex " + missing
                                + " are not symmetric: " + v + " -> " + missing + " and " + missing + " -> " + v
                                + " occur a different number of times");
                    }
                }
            }
        }
    }

    /** The offsets segment itself, for the native binding (never handed to users writable). */
    MemorySegment offsetsSegment() {
        return offsets;
    }

    MemorySegment neighborsSegment() {
        return neighbors;
    }

    long rawOffset(int v) {
        return wideOffsets ? offsets.getAtIndex(ValueLayout.JAVA_LONG, v)
                : offsets.getAtIndex(ValueLayout.JAVA_INT, v);
    }

    int rawNeighbor(long arc) {
        return neighbors.getAtIndex(ValueLayout.JAVA_INT, arc);
    }

    private void checkStructure() {
        long first = rawOffset(0);
        if (first != 0) {
            throw new IllegalArgumentException("offsets[0] must be 0, got " + first);
        }
        long previous = 0;
        for (int v = 1; v <= vertexCount; v++) {
            long o = rawOffset(v);
            if (o < previous) {
                throw new IllegalArgumentException("offsets decrease at vertex " + (v - 1) + ": offsets["
                        + (v - 1) + "] = " + previous + " > offsets[" + v + "] = " + o);
            }
            previous = o;
        }
        if (previous != arcCount) {
            throw new IllegalArgumentException("offsets[" + vertexCount + "] = " + previous
                    + " but the neighbours segment holds " + arcCount + " arcs");
        }
        for (long a = 0; a < arcCount; a++) {
            int v = neighbors.getAtIndex(ValueLayout.JAVA_INT, a);
            if (v < 0 || v >= vertexCount) {
                throw new IllegalArgumentException("neighbour id " + v + " at arc " + a
                        + " is outside 0.." + (vertexCount - 1));
            }
        }
    }

    private static void checkAligned(MemorySegment segment, int bytes, String what) {
        if (segment.address() % bytes == 0) {
            return;
        }
        throw new IllegalArgumentException(what + " segment at address 0x" + Long.toHexString(segment.address())
                + " is not aligned to " + bytes + " bytes");
    }

    @Override
    public String toString() {
        return "CsrGraph[vertices=" + vertexCount + ", arcs=" + arcCount + ", offsetBytes=" + offsetBytes() + "]";
    }
}
