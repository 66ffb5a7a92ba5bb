package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.internal.Segments;

/**
 * An undirected graph in compressed sparse rows, held off-heap.
 *
 * <p>Vertices are {@code 0 .. vertexCount()-1}; the neighbours of {@code v} are
 * {@code neighbor(offset(v)) .. neighbor(offset(v+1)-1)}. Every edge is stored as two arcs, one in
 * each direction, as in ECL's {@code .egr} format. Offsets are 32-bit when the arc count allows
 * (the GPU's fast path) and 64-bit otherwise; vertex ids are 32-bit.
 *
 * <p>A {@code CsrGraph} is a view over {@link MemorySegment}s owned by an {@link Arena} that the
 * caller controls: it is usable while that arena is alive; once it is closed, every use throws
 * {@link IllegalStateException}.
 *
 * <p><b>Input checks.</b> Every algorithm assumes offsets that start at 0, never decrease and end
 * at the arc count, neighbour ids in range, and symmetry (every arc's reverse present as often);
 * asymmetric arrays would give different answers from different algorithms. Such graphs are
 * refused, never symmetrised. Graphs the library builds ({@link GraphBuilder}, {@link #fromEdges},
 * subgraphs) hold by construction; those copied from arrays ({@link #fromArrays}) are checked at
 * their first labelling, and never again, since nothing can change them. A wrapped graph
 * ({@link #wrap}) stays in segments its caller can write, so it is checked when wrapped
 * (offsets and ids) and again, in full, before every labelling and upload, unless
 * {@link LabelOptions#withCheckInput} turns that off. The check is one pass over the
 * arrays (a multiset hash tests symmetry; see {@link #check()}).
 *
 * <p><b>Unchecked graphs.</b> With {@code withCheckInput(false)}, a wrapped graph is labelled as it
 * is: ids written out of range after {@link #wrap} make native code read outside the arrays (which
 * may crash the JVM), and asymmetric arrays give algorithm-dependent labels. Turn the checks off
 * only for arrays you have checked yourself and do not change.
 */
public final class CsrGraph {
    private final int vertexCount;
    private final long arcCount;
    private final MemorySegment offsets;
    private final boolean wideOffsets;
    private final MemorySegment neighbors;
    /** Wrapped: the caller holds the segments writable and may change them at any time. */
    private final boolean callerOwned;
    /** The input checks held and nothing can have changed the arrays since. */
    private volatile boolean verified;

    private CsrGraph(int vertexCount, long arcCount, MemorySegment offsets, boolean wideOffsets,
                     MemorySegment neighbors, boolean callerOwned, boolean verified) {
        this.vertexCount = vertexCount;
        this.arcCount = arcCount;
        this.offsets = offsets;
        this.wideOffsets = wideOffsets;
        this.neighbors = neighbors;
        this.callerOwned = callerOwned;
        this.verified = verified;
    }

    /**
     * Wraps existing segments without copying: {@code offsets} holds {@code n+1} native-order
     * {@code int} or {@code long} values ({@code offsetBytes} 4 or 8) and {@code neighbors} holds
     * the arcs' target ids as native-order {@code int}s. The offsets and ids are checked now;
     * labelling checks them again, with symmetry, unless told not to (see the class comment).
     *
     * @param offsets {@code n+1} offsets, the last one the arc count
     * @param offsetBytes the width of each offset: 4 or 8
     * @param neighbors the arcs' target ids, {@code offsets[n]} ints
     * @return a graph over the segments
     * @throws IllegalArgumentException when sizes disagree, offsets are not monotone or a
     *                                  neighbour id is out of range, naming the first offender
     */
    public static CsrGraph wrap(MemorySegment offsets, int offsetBytes, MemorySegment neighbors) {
        CsrGraph g = view(offsets, offsetBytes, neighbors, true, false);
        g.checkStructure();
        return g;
    }

    /**
     * A graph over segments only the library can write (it allocated them and hands out read-only
     * views): checked now for offsets and ids unless {@code verified}, i.e. built well-formed and
     * symmetric.
     */
    static CsrGraph owned(MemorySegment offsets, int offsetBytes, MemorySegment neighbors, boolean verified) {
        CsrGraph g = view(offsets, offsetBytes, neighbors, false, verified);
        if (!verified) {
            g.checkStructure();
        }
        return g;
    }

    /** A graph an engine built or derived in memory only the library can write. */
    static CsrGraph owned(GraphData data, boolean verified) {
        return owned(data.offsets(), data.offsetBytes(), data.neighbors(), verified);
    }

    private static CsrGraph view(MemorySegment offsets, int offsetBytes, MemorySegment neighbors, boolean callerOwned,
                                 boolean verified) {
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
        return new CsrGraph((int) n, arcs, offsets, offsetBytes == Long.BYTES, neighbors, callerOwned, verified);
    }

    /**
     * Copies arrays into {@code arena}: 64-bit offsets given, 32-bit kept when the arcs fit.
     * Offsets and ids are checked now, symmetry at the first labelling.
     *
     * @param arena where the arrays are copied
     * @param offsets {@code n+1} offsets, the last one the arc count
     * @param neighbors the arcs' target ids
     * @return the graph, in {@code arena}
     */
    public static CsrGraph fromArrays(Arena arena, long[] offsets, int[] neighbors) {
        return copyOf(arena, offsets, neighbors, false);
    }

    /** {@link #fromArrays(Arena, long[], int[])}, {@code verified} when the arrays are known to be well-formed. */
    static CsrGraph copyOf(Arena arena, long[] offsets, int[] neighbors, boolean verified) {
        Objects.requireNonNull(arena, "arena");
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
            return owned(arena.allocateFrom(ValueLayout.JAVA_INT, narrow), Integer.BYTES,
                    arena.allocateFrom(ValueLayout.JAVA_INT, neighbors), verified);
        }
        return owned(arena.allocateFrom(ValueLayout.JAVA_LONG, offsets), Long.BYTES,
                arena.allocateFrom(ValueLayout.JAVA_INT, neighbors), verified);
    }

    /**
     * Copies arrays into {@code arena}, with 32-bit offsets. Offsets and ids are checked now,
     * symmetry at the first labelling.
     *
     * @param arena where the arrays are copied
     * @param offsets {@code n+1} offsets, the last one the arc count
     * @param neighbors the arcs' target ids
     * @return the graph, in {@code arena}
     */
    public static CsrGraph fromArrays(Arena arena, int[] offsets, int[] neighbors) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(neighbors, "neighbors");
        return owned(arena.allocateFrom(ValueLayout.JAVA_INT, offsets), Integer.BYTES,
                arena.allocateFrom(ValueLayout.JAVA_INT, neighbors), false);
    }

    /**
     * Builds the canonical graph of the edges {@code sources[i]}–{@code targets[i]}: edges are
     * symmetrised, self loops and repeats dropped, neighbour lists sorted, exactly as
     * {@link GraphBuilder} builds them. The graph has {@code max(vertexCount, largest id + 1)}
     * vertices. With the native library, the build runs in parallel there (the ids copied
     * off-heap first, into memory freed before this returns); without it, in {@link GraphBuilder}.
     *
     * @param arena where the graph is allocated
     * @param vertexCount the least number of vertices
     * @param sources one end of each edge
     * @param targets the other end of each edge, as many as {@code sources}
     * @return the canonical graph, in {@code arena}
     * @throws IllegalArgumentException when the arrays' lengths differ, {@code vertexCount} is
     *                                  negative, or an id is negative or {@link Integer#MAX_VALUE}
     */
    public static CsrGraph fromEdges(Arena arena, int vertexCount, int[] sources, int[] targets) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(targets, "targets");
        EdgeList.requireSameLength(sources.length, targets.length);
        if (vertexCount < 0) {
            throw new IllegalArgumentException("vertex count must not be negative, got " + vertexCount);
        }
        int largest = -1;
        int signs = 0;
        for (int i = 0; i < sources.length; i++) {
            largest = Math.max(largest, Math.max(sources[i], targets[i]));
            signs |= sources[i] | targets[i];
        }
        if (signs < 0 || largest == Integer.MAX_VALUE) {
            for (int i = 0; i < sources.length; i++) {
                GraphBuilder.checkIds(sources[i], targets[i]);
            }
        }
        int n = Math.max(vertexCount, largest + 1);
        try (Arena copies = Arena.ofConfined()) {
            return fromEdges(arena, EdgeList.fromArrays(copies, n, sources, targets));
        }
    }

    /**
     * Builds the canonical graph of {@code edges}, with its vertex count: edges symmetrised, self
     * loops and repeats dropped, neighbour lists sorted, exactly as {@link GraphBuilder} builds
     * them. With the native library the build runs in parallel there, reading the edges where
     * they are; without it, in {@link GraphBuilder}.
     *
     * @param arena where the graph is allocated
     * @param edges the edges, off-heap
     * @return the canonical graph, in {@code arena}
     * @throws IllegalArgumentException naming the first edge with an id outside
     *                                  {@code [0, edges.vertexCount())}
     * @throws IllegalStateException    when the memory of the edges was freed
     */
    public static CsrGraph fromEdges(Arena arena, EdgeList edges) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(edges, "edges");
        edges.requireAlive();
        try (Engine host = Engines.host(Ccl4jException.FAILURES)) {
            return owned(host.buildGraph(edges.data(), arena), true);  // canonical by construction
        }
    }

    /**
     * The number of vertices {@code n}.
     *
     * @return the vertex count
     */
    public int vertexCount() {
        return vertexCount;
    }

    /**
     * The number of arcs (twice the number of distinct edges for a symmetric graph).
     *
     * @return the arc count
     */
    public long arcCount() {
        return arcCount;
    }

    /**
     * 4 or 8: the width of each offset in bytes.
     *
     * @return 4 or 8
     */
    public int offsetBytes() {
        return wideOffsets ? Long.BYTES : Integer.BYTES;
    }

    /**
     * The index of {@code v}'s first arc; {@code offset(n)} is the arc count.
     *
     * @param v a vertex id, or {@code n}
     * @return the index of its first arc
     */
    public long offset(int v) {
        Objects.checkIndex(v, (long) vertexCount + 1);
        return rawOffset(v);
    }

    /**
     * The number of neighbours of {@code v}.
     *
     * @param v a vertex id
     * @return its number of arcs
     */
    public long degree(int v) {
        Objects.checkIndex(v, vertexCount);
        return rawOffset(v + 1) - rawOffset(v);
    }

    /**
     * The target of arc {@code arc}.
     *
     * @param arc an arc index, below {@link #arcCount()}
     * @return the vertex it points to
     */
    public int neighbor(long arc) {
        Objects.checkIndex(arc, arcCount);
        return neighbors.getAtIndex(ValueLayout.JAVA_INT, arc);
    }

    /**
     * A read-only view of the offsets ({@code n+1} values of {@link #offsetBytes()} bytes).
     *
     * @return the offsets, read-only
     */
    public MemorySegment offsets() {
        return offsets.asReadOnly();
    }

    /**
     * A read-only view of the neighbour ids ({@link #arcCount()} ints).
     *
     * @return the neighbour ids, read-only
     */
    public MemorySegment neighbors() {
        return neighbors.asReadOnly();
    }

    /**
     * Runs the input checks now: offsets start at 0, never decrease and end at the arc count;
     * neighbour ids are in range; every arc {@code (u, v)} has its reverse {@code (v, u)} as often.
     * Symmetry is tested in one pass with a randomly keyed multiset hash, which misses an
     * asymmetric graph with probability about 2^-61; a failure is explained exactly.
     *
     * @throws IllegalArgumentException naming the first offset, id or pair of arcs at fault
     */
    public void check() {
        try (Engine jvm = Engines.jvm(Ccl4jException.FAILURES)) {
            jvm.checkGraph(data(), true);
        }
        checked();
    }

    /** Offsets and ids: what must hold before anything reads the arcs. */
    private void checkStructure() {
        try (Engine jvm = Engines.jvm(Ccl4jException.FAILURES)) {
            jvm.checkGraph(data(), false);
        }
    }

    /** The graph as the engines take it: its own segments, not read-only views. */
    GraphData data() {
        return new GraphData(vertexCount, arcCount, offsetBytes(), offsets, neighbors);
    }

    /** Whether labelling with {@code options} must check this graph first. */
    boolean needsCheck(LabelOptions options) {
        return options.checkInput() && !verified;
    }

    /** Records that the checks held: for good, unless the caller can change the arrays. */
    void checked() {
        if (!callerOwned) {
            verified = true;
        }
    }

    /** Whether the checks hold for good (a library-built graph, or one checked since). */
    boolean verified() {
        return verified;
    }

    /**
     * Re-checks offsets and ids where the caller may have changed them since {@link #wrap}, for
     * code that indexes by them.
     */
    void requireWellFormed() {
        if (callerOwned) {
            checkStructure();
        }
    }

    /** Checks {@code labels} for this graph's labels: room, writable, native, aligned, apart from the arrays. */
    void checkLabels(MemorySegment labels) {
        long bytes = (long) vertexCount * Integer.BYTES;
        Segments.checkLabels(labels, vertexCount, Integer.BYTES, "the graph has " + vertexCount + " vertices");
        Segments.checkDisjoint(labels, bytes, offsets, "the graph's offsets");
        Segments.checkDisjoint(labels, bytes, neighbors, "the graph's neighbours");
    }

    long rawOffset(int v) {
        return wideOffsets ? offsets.getAtIndex(ValueLayout.JAVA_LONG, v)
                : offsets.getAtIndex(ValueLayout.JAVA_INT, v);
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
