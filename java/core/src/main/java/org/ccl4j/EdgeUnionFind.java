package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * Edge-list labelling in Java ({@link ComponentLabeler#label(EdgeList)} on the {@link Backend#JAVA}
 * backend, and with {@link Algorithm#UNION_FIND} on any): the lock-free union-find of
 * {@link ConcurrentUnionFind} in the labels, as the native library's edge-list union-find. Three
 * phases: {@code init} points every vertex at itself; {@code link} joins the ends of every edge,
 * each edge once, in chunks of consecutive edges on {@link ForkJoinLoop} threads; {@code finalize}
 * points every vertex at its root in one pass in increasing order on the calling thread (a
 * parent, being smaller, is final already), which leaves the canonical labels.
 *
 * <p>Each id is read once and checked before it is used, so that ids changed by another thread
 * during the call (in a segment of the global arena) fail the call but never lead outside the
 * labels. Where native access is denied to this module, {@link #labelSerially} labels on one
 * thread instead.
 */
final class EdgeUnionFind {
    private EdgeUnionFind() {
    }

    /**
     * Writes the canonical labels of {@code edges} into {@code labels} (at least
     * {@code vertexCount} ints, native or int[]-backed) on {@code cpuThreads} threads (0 = all cores).
     *
     * @throws IllegalArgumentException naming the first edge with an id out of range
     */
    static Timings label(EdgeList edges, MemorySegment labels, int cpuThreads) {
        return label(edges, labels, cpuThreads, 0);
    }

    /** As {@link #label(EdgeList, MemorySegment, int)}, in chunks of {@code grain} vertices and edges (0: the default). */
    static Timings label(EdgeList edges, MemorySegment labels, int cpuThreads, long grain) {
        if (!RawMemory.available()) {
            ForkJoinLoop.threads(cpuThreads);  // refused as on the other paths
            return labelSerially(edges, labels);
        }
        long start = System.nanoTime();
        int n = edges.vertexCount();
        long m = edges.edgeCount();
        int stride = edges.stride();
        try (RawMemory memory = new RawMemory(); ForkJoinLoop loop = new ForkJoinLoop(cpuThreads, grain, 1)) {
            long sources = memory.input(edges.sourcesSegment());
            // pairs: the sources segment holds the targets too, one int on
            long targets = stride == 2 ? sources + Integer.BYTES : memory.input(edges.targetsSegment());
            long parent = memory.output(labels);
            BadEdge bad = new BadEdge();
            loop.phase("init", n, (from, to) -> {
                for (long v = from; v < to; v++) {
                    RawMemory.setInt(parent, v, (int) v);
                }
            });
            loop.phase("link", m, (from, to) -> link(sources, targets, stride, n, parent, from, to, bad));
            bad.throwIfAny(n);
            loop.phase("finalize", () -> {
                for (int v = 0; v < n; v++) {
                    RawMemory.setInt(parent, v, RawMemory.getInt(parent, RawMemory.getInt(parent, v)));
                }
            });
            memory.commit();
            return new Timings((System.nanoTime() - start) / 1e6, loop.phases(), 0, Backend.JAVA, Algorithm.UNION_FIND);
        }
    }

    /** Joins the ends of edges {@code from .. to-1}; stops at the first with an id outside {@code [0, n)}, noting it. */
    private static void link(long sources, long targets, int stride, int n, long parent, long from, long to,
                             BadEdge bad) {
        for (long e = from; e < to; e++) {
            int u = RawMemory.getInt(sources, e * stride);
            int v = RawMemory.getInt(targets, e * stride);
            if (Integer.compareUnsigned(u, n) >= 0 || Integer.compareUnsigned(v, n) >= 0) {
                bad.note(e, u, v);
                return;  // the chunk's later edges come after this one
            }
            if (u != v) {
                ConcurrentUnionFind.union(parent, u, v);
            }
        }
    }

    /**
     * The union-find of {@link UnionFind} over the edges, on one thread, through the segments:
     * for when addresses cannot be used.
     */
    static Timings labelSerially(EdgeList edges, MemorySegment labels) {
        long start = System.nanoTime();
        int n = edges.vertexCount();
        int[] parent = new int[n];
        for (int v = 0; v < n; v++) {
            parent[v] = v;
        }
        for (long e = 0; e < edges.edgeCount(); e++) {
            int u = edges.rawSource(e);
            int v = edges.rawTarget(e);
            if (Integer.compareUnsigned(u, n) >= 0 || Integer.compareUnsigned(v, n) >= 0) {
                throw EdgeList.badEdge(e, u, v, n);
            }
            UnionFind.union(parent, u, v);
        }
        UnionFind.writeRoots(parent, labels);
        double ms = (System.nanoTime() - start) / 1e6;
        return new Timings(ms, Map.of("label", ms), 0, Backend.JAVA, Algorithm.UNION_FIND);
    }

    /** The first edge with an id out of range that any thread saw, and its ids as read then. */
    private static final class BadEdge {
        private long edge = Long.MAX_VALUE;
        private int u;
        private int v;

        synchronized void note(long e, int u, int v) {
            if (e < edge) {
                edge = e;
                this.u = u;
                this.v = v;
            }
        }

        /** Called once the threads are done (the loop joined them). */
        synchronized void throwIfAny(int n) {
            if (edge != Long.MAX_VALUE) {
                throw EdgeList.badEdge(edge, u, v, n);
            }
        }
    }
}
