package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.engine.spi.EdgeData;
import org.ccl4j.internal.Segments;

/**
 * An undirected graph as a list of edges, held off-heap: edge {@code i} joins {@link #source(long)
 * source(i)} and {@link #target(long) target(i)}, vertices are {@code 0 .. vertexCount()-1}. Edges
 * may come in any order and direction, repeated, and as self loops; vertices without edges are
 * their own components. The ids are 32-bit, in two arrays ({@link #fromArrays}, {@link #wrap}) or
 * in one array of pairs {@code u0 v0 u1 v1 ...} ({@link #fromPairs}, {@link #wrapPairs}).
 *
 * <p>{@link ComponentLabeler#label(EdgeList)} labels it without building a graph: one union-find
 * over the edges, on every backend. {@link CsrGraph#fromEdges(Arena, EdgeList)} builds its
 * canonical graph, for the other algorithms and for neighbour queries.
 *
 * <p>Like {@link CsrGraph}, an {@code EdgeList} is a view over {@link MemorySegment}s owned by an
 * {@link Arena} that the caller controls: it is usable while that arena is alive; once it is
 * closed, every use throws {@link IllegalStateException}. The shape (sizes, alignment, native
 * memory) is checked when the list is made; the ids are checked as every labelling reads them,
 * each id once before it is used, so that ids out of range, even ones written into wrapped
 * segments by another thread during the call, fail the call with an
 * {@link IllegalArgumentException} naming the first bad edge, {@code "edge i (u, v): id x is
 * outside [0, n)"}, and never reach outside the labels. There is nothing else to check (no
 * symmetry, no offsets), so no {@link LabelOptions#withCheckInput} setting applies.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create()) {
 *     EdgeList edges = EdgeList.fromArrays(arena, 5, new int[] {0, 1, 3}, new int[] {1, 2, 4});
 *     Labels labels = labeler.label(edges);   // 0 0 0 3 3
 * }
 * }</pre>
 */
public final class EdgeList {
    private final int vertexCount;
    private final long edgeCount;
    /** Two arrays: the sources; pairs: all of them. Entry {@code i * stride} is edge i's. */
    private final MemorySegment sources;
    /** Two arrays: the targets; pairs: the pairs from the first target on. */
    private final MemorySegment targets;
    private final int stride;

    private EdgeList(int vertexCount, long edgeCount, MemorySegment sources, MemorySegment targets, int stride) {
        this.vertexCount = vertexCount;
        this.edgeCount = edgeCount;
        this.sources = sources;
        this.targets = targets;
        this.stride = stride;
    }

    /**
     * Copies two arrays of the same length into {@code arena}: edge {@code i} joins
     * {@code sources[i]} and {@code targets[i]}.
     *
     * @param arena where the ids are copied
     * @param vertexCount the number of vertices; ids are in {@code [0, vertexCount)}
     * @param sources one end of each edge
     * @param targets the other end of each edge
     * @return the edge list, in {@code arena}
     * @throws IllegalArgumentException when the lengths differ or {@code vertexCount} is negative
     */
    public static EdgeList fromArrays(Arena arena, int vertexCount, int[] sources, int[] targets) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(targets, "targets");
        requireSameLength(sources.length, targets.length);
        return wrap(vertexCount, arena.allocateFrom(ValueLayout.JAVA_INT, sources),
                arena.allocateFrom(ValueLayout.JAVA_INT, targets));
    }

    /**
     * Copies one array of pairs into {@code arena}: edge {@code i} joins {@code pairs[2i]} and
     * {@code pairs[2i+1]}.
     *
     * @param arena where the ids are copied
     * @param vertexCount the number of vertices; ids are in {@code [0, vertexCount)}
     * @param pairs the two ends of each edge, one after the other
     * @return the edge list, in {@code arena}
     * @throws IllegalArgumentException when the length is odd or {@code vertexCount} is negative
     */
    public static EdgeList fromPairs(Arena arena, int vertexCount, int[] pairs) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(pairs, "pairs");
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("pairs has " + pairs.length + " entries, an odd number: not whole pairs");
        }
        return wrapPairs(vertexCount, arena.allocateFrom(ValueLayout.JAVA_INT, pairs));
    }

    /**
     * Wraps two segments of native-order {@code int}s without copying: edge {@code i} joins the
     * {@code i}-th int of {@code sources} and of {@code targets}. They may be read-only.
     *
     * @param vertexCount the number of vertices; ids are in {@code [0, vertexCount)}
     * @param sources one end of each edge, native-order ints
     * @param targets the other end of each edge, native-order ints
     * @return an edge list over the segments
     * @throws IllegalArgumentException when a segment is on the Java heap, not aligned to 4 bytes
     *                                  or not a whole number of ints, when they hold different
     *                                  numbers of ints, or {@code vertexCount} is negative
     * @throws IllegalStateException    when a segment's arena is closed
     */
    public static EdgeList wrap(int vertexCount, MemorySegment sources, MemorySegment targets) {
        requireVertexCount(vertexCount);
        long count = ints(sources, "sources");
        long other = ints(targets, "targets");
        if (count != other) {
            throw new IllegalArgumentException("sources holds " + count + " ids but targets holds " + other);
        }
        return new EdgeList(vertexCount, count, sources, targets, 1);
    }

    /**
     * Wraps one segment of native-order {@code int} pairs {@code u0 v0 u1 v1 ...} without copying.
     * It may be read-only.
     *
     * @param vertexCount the number of vertices; ids are in {@code [0, vertexCount)}
     * @param pairs the two ends of each edge, one after the other, native-order ints
     * @return an edge list over the segment
     * @throws IllegalArgumentException when the segment is on the Java heap, not aligned to 4
     *                                  bytes or not a whole number of pairs of ints, or
     *                                  {@code vertexCount} is negative
     * @throws IllegalStateException    when the segment's arena is closed
     */
    public static EdgeList wrapPairs(int vertexCount, MemorySegment pairs) {
        requireVertexCount(vertexCount);
        long count = ints(pairs, "pairs");
        if (count % 2 != 0) {
            throw new IllegalArgumentException("pairs segment of " + pairs.byteSize()
                    + " bytes does not hold whole pairs of 32-bit ids");
        }
        // No edges: no target to start at; the empty segment serves as both.
        MemorySegment targets = count == 0 ? pairs : pairs.asSlice(Integer.BYTES);
        return new EdgeList(vertexCount, count / 2, pairs, targets, 2);
    }

    static void requireSameLength(int sources, int targets) {
        if (sources != targets) {
            throw new IllegalArgumentException("sources has " + sources + " entries but targets has " + targets);
        }
    }

    static void requireVertexCount(int vertexCount) {
        if (vertexCount < 0) {
            throw new IllegalArgumentException("vertex count must not be negative, got " + vertexCount);
        }
    }

    /** The number of ints in {@code segment}, checked to be a live, aligned native segment of whole ints. */
    private static long ints(MemorySegment segment, String what) {
        Objects.requireNonNull(segment, what);
        if (!segment.isNative()) {
            throw new IllegalArgumentException(what + " must be a native (off-heap) segment");
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the memory of " + what + " was freed (its arena is closed)");
        }
        if (segment.byteSize() % Integer.BYTES != 0) {
            throw new IllegalArgumentException(what + " segment of " + segment.byteSize()
                    + " bytes is not a whole number of 32-bit ids");
        }
        if (segment.address() % Integer.BYTES != 0) {
            throw new IllegalArgumentException(what + " segment at address 0x" + Long.toHexString(segment.address())
                    + " is not aligned to 4 bytes");
        }
        return segment.byteSize() / Integer.BYTES;
    }

    /**
     * The number of vertices {@code n}: ids are in {@code [0, n)}.
     *
     * @return the vertex count
     */
    public int vertexCount() {
        return vertexCount;
    }

    /**
     * The number of edges, self loops and repeats included.
     *
     * @return the edge count
     */
    public long edgeCount() {
        return edgeCount;
    }

    /**
     * One end of edge {@code edge}, as stored (not checked against the vertex count).
     *
     * @param edge an edge index, below {@link #edgeCount()}
     * @return its source id
     */
    public int source(long edge) {
        Objects.checkIndex(edge, edgeCount);
        return rawSource(edge);
    }

    /**
     * The other end of edge {@code edge}, as stored (not checked against the vertex count).
     *
     * @param edge an edge index, below {@link #edgeCount()}
     * @return its target id
     */
    public int target(long edge) {
        Objects.checkIndex(edge, edgeCount);
        return rawTarget(edge);
    }

    /**
     * Whether the ids are one array of pairs ({@link #fromPairs}, {@link #wrapPairs}) rather than two arrays.
     *
     * @return whether the edges are stored as pairs
     */
    public boolean isInterleaved() {
        return stride == 2;
    }

    /**
     * A read-only view of the sources: edge {@code i}'s is the int at index {@code i}, or, for
     * pairs ({@link #isInterleaved()}), at index {@code 2i} of this view of all the pairs.
     *
     * @return the sources, read-only
     */
    public MemorySegment sources() {
        return sources.asReadOnly();
    }

    /**
     * A read-only view of the targets: edge {@code i}'s is the int at index {@code i}, or, for
     * pairs, at index {@code 2i} of this view of the pairs from the first target on.
     *
     * @return the targets, read-only
     */
    public MemorySegment targets() {
        return targets.asReadOnly();
    }

    int rawSource(long edge) {
        return sources.getAtIndex(ValueLayout.JAVA_INT, edge * stride);
    }

    int rawTarget(long edge) {
        return targets.getAtIndex(ValueLayout.JAVA_INT, edge * stride);
    }

    /** Refuses an edge list whose memory was freed, before native code is handed its address. */
    void requireAlive() {
        if (!sources.scope().isAlive() || !targets.scope().isAlive()) {
            throw new IllegalStateException("the memory of the edge list was freed (its arena is closed)");
        }
    }

    /** Checks {@code labels} for this list's labels: room, writable, native, aligned, apart from the ids. */
    void checkLabels(MemorySegment labels) {
        long bytes = (long) vertexCount * Integer.BYTES;
        Segments.checkLabels(labels, vertexCount, Integer.BYTES, "the edge list has " + vertexCount + " vertices");
        Segments.checkDisjoint(labels, bytes, sources, "the edge list's sources");
        Segments.checkDisjoint(labels, bytes, targets, "the edge list's targets");
    }

    /** The edge list as the engines take it: its own segments, not read-only views. */
    EdgeData data() {
        return new EdgeData(vertexCount, edgeCount, stride, sources, targets);
    }

    @Override
    public String toString() {
        return "EdgeList[vertices=" + vertexCount + ", edges=" + edgeCount + (stride == 2 ? ", pairs" : "") + "]";
    }
}
