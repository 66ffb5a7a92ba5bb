package org.ccl4j.engine.jvm;

import java.lang.foreign.MemorySegment;
import java.util.Map;

import org.ccl4j.engine.serial.SerialUnionFind;
import org.ccl4j.engine.spi.EdgeData;
import org.ccl4j.engine.spi.RunTimings;

/**
 * Edge-list labelling in Java (on the JAVA backend, and with {@code UNION_FIND} on any): the
 * lock-free union-find of
 * {@link ConcurrentUnionFind}, as the native library's edge-list union-find. Three phases:
 * {@code init} points every vertex at itself; {@code link} joins the ends of every edge, each edge
 * once, in chunks of consecutive edges on {@link ForkJoinLoop} threads; {@code finalize} points
 * every vertex at its root in one pass in increasing order on the calling thread (a parent, being
 * smaller, is final already), which leaves the canonical labels, and copies them into the
 * caller's segment when there is one.
 *
 * <p>The parents are a Java {@code int[]} (4 bytes a vertex of the Java heap), which the finds and
 * hooks reach faster than memory by address ({@link ConcurrentUnionFind}), and which is the
 * result of the API's {@code ComponentLabeler.labelEdges} as it is. The edges are read where they are: Java
 * arrays directly, segments by address ({@link RawMemory}, copied first unless the calling
 * thread's own or of the global arena). Each id is read once and checked before it is used, so
 * that ids changed by another thread during the call fail it but never lead outside the parents.
 * Where native access is denied to this module, segments are read on one thread
 * ({@link #labelSerially}).
 */
final class EdgeUnionFind {
    private EdgeUnionFind() {
    }

    /** The labels, in the array the union-find ran in, and what the call measured. */
    record Run(int[] labels, RunTimings timings) {
    }

    /**
     * Labels the edges {@code sources[i]}–{@code targets[i]} over {@code n} vertices on
     * {@code cpuThreads} threads (0 = all cores), in chunks of {@code grain} vertices and edges (0:
     * the default); copies the labels into {@code out} too unless it is null.
     *
     * @throws IllegalArgumentException naming the first edge with an id out of range
     */
    static Run label(int n, int[] sources, int[] targets, int cpuThreads, long grain, MemorySegment out) {
        long start = System.nanoTime();
        try (ForkJoinLoop loop = new ForkJoinLoop(cpuThreads, grain, 1)) {
            int[] parent = init(loop, n);
            BadEdge bad = new BadEdge();
            loop.phase("link", sources.length, (from, to) -> link(sources, targets, n, parent, (int) from, (int) to,
                    bad));
            bad.throwIfAny(n);
            return finish(loop, parent, out, start);
        }
    }

    /** As {@link #label(int, int[], int[], int, long, MemorySegment)}, over the segments of {@code edges}. */
    static Run label(EdgeData edges, int cpuThreads, long grain, MemorySegment out) {
        if (!RawMemory.available()) {
            ForkJoinLoop.threads(cpuThreads);  // refused as on the other paths
            return labelSerially(edges, out);
        }
        long start = System.nanoTime();
        int n = edges.vertexCount();
        int stride = edges.stride();
        try (RawMemory memory = new RawMemory(); ForkJoinLoop loop = new ForkJoinLoop(cpuThreads, grain, 1)) {
            long sources = memory.input(edges.sources());
            // pairs: the sources segment holds the targets too, one int on
            long targets = stride == 2 ? sources + Integer.BYTES : memory.input(edges.targets());
            int[] parent = init(loop, n);
            BadEdge bad = new BadEdge();
            loop.phase("link", edges.edgeCount(), (from, to) -> link(sources, targets, stride, n, parent, from, to,
                    bad));
            bad.throwIfAny(n);
            return finish(loop, parent, out, start);
        }
    }

    /** Every vertex its own root; allocated outside the phase, which times the pass. */
    private static int[] init(ForkJoinLoop loop, int n) {
        int[] parent = new int[n];
        loop.phase("init", n, (from, to) -> {
            for (int v = (int) from; v < to; v++) {
                parent[v] = v;
            }
        });
        return parent;
    }

    private static Run finish(ForkJoinLoop loop, int[] parent, MemorySegment out, long start) {
        loop.phase("finalize", () -> SerialUnionFind.pointAtRoots(parent, out));
        return new Run(parent, new RunTimings((System.nanoTime() - start) / 1e6, loop.phases(), 0, "JAVA",
                "UNION_FIND"));
    }

    // The two links differ only in where the ids come from; written twice, each loop stays
    // monomorphic for the JIT.

    /** Joins the ends of edges {@code from .. to-1}; stops at the first with an id outside {@code [0, n)}, noting it. */
    private static void link(int[] sources, int[] targets, int n, int[] parent, int from, int to, BadEdge bad) {
        for (int e = from; e < to; e++) {
            int u = sources[e];
            int v = targets[e];
            if (Integer.compareUnsigned(u, n) >= 0 || Integer.compareUnsigned(v, n) >= 0) {
                bad.note(e, u, v);
                return;  // the chunk's later edges come after this one
            }
            if (u != v) {
                ConcurrentUnionFind.union(parent, u, v);
            }
        }
    }

    /** {@link #link(int[], int[], int, int[], int, int, BadEdge)} over ids by address, {@code stride} ints apart. */
    private static void link(long sources, long targets, int stride, int n, int[] parent, long from, long to,
                             BadEdge bad) {
        for (long e = from; e < to; e++) {
            int u = RawMemory.getInt(sources, e * stride);
            int v = RawMemory.getInt(targets, e * stride);
            if (Integer.compareUnsigned(u, n) >= 0 || Integer.compareUnsigned(v, n) >= 0) {
                bad.note(e, u, v);
                return;
            }
            if (u != v) {
                ConcurrentUnionFind.union(parent, u, v);
            }
        }
    }

    /** {@link SerialUnionFind} over the edges: for when addresses cannot be used. */
    static Run labelSerially(EdgeData edges, MemorySegment out) {
        long start = System.nanoTime();
        int[] parent = SerialUnionFind.label(edges, out);
        double ms = (System.nanoTime() - start) / 1e6;
        return new Run(parent, new RunTimings(ms, Map.of("label", ms), 0, "JAVA", "UNION_FIND"));
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
                throw EdgeData.badEdge(edge, u, v, n);
            }
        }
    }
}
