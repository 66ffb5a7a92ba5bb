package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Graph labelling by lock-free union-find on several threads, in Java: {@link Algorithm#UNION_FIND},
 * the algorithm of the {@link Backend#JAVA} backend. {@link UnionFind}, single-threaded, stays the
 * test oracle.
 *
 * <p>The labels segment is the parent array ({@link ConcurrentUnionFind}). Three phases, each a
 * {@link ForkJoinLoop}: {@code init} makes every vertex its own root; {@code compute} joins the
 * ends of every edge once, from its smaller end; {@code finalize} points every vertex at its root,
 * which is the smallest vertex of its component. {@code compute} is split by arcs, not vertices,
 * so that a hub's neighbour list is shared among the threads like any other arcs.
 */
final class ParallelUnionFind {
    private ParallelUnionFind() {
    }

    /**
     * Writes the canonical labels of {@code graph} into {@code labels} (at least
     * {@code vertexCount} ints, native or int[]-backed) on {@code cpuThreads} threads (0 = all cores).
     */
    static Timings label(CsrGraph graph, MemorySegment labels, int cpuThreads) {
        return label(graph, labels, cpuThreads, 0);
    }

    /** As {@link #label(CsrGraph, MemorySegment, int)}, in leaves of {@code grain} units (0: the default). */
    static Timings label(CsrGraph graph, MemorySegment labels, int cpuThreads, long grain) {
        int n = graph.vertexCount();
        long start = System.nanoTime();
        try (ForkJoinLoop loop = new ForkJoinLoop(cpuThreads, grain, 1)) {
            CsrGraph g = graph.withSegments(loop::shared);
            MemorySegment parent = loop.shared(labels);
            loop.phase("init", n, (from, to) -> {
                for (long v = from; v < to; v++) {
                    parent.setAtIndex(ValueLayout.JAVA_INT, v, (int) v);
                }
            });
            // the offsets' last entry, which the input checks match with the arc count
            loop.phase("compute", n == 0 ? 0 : g.rawOffset(n), (from, to) -> joinArcs(g, parent, from, to));
            loop.phase("finalize", n, (from, to) -> ConcurrentUnionFind.flatten(parent, from, to));
            double total = (System.nanoTime() - start) / 1e6;
            return new Timings(total, loop.phases(), 0, Backend.JAVA, Algorithm.UNION_FIND);
        }
    }

    /** Joins the ends of the arcs {@code from .. to-1} that lead to a larger vertex: each edge once. */
    private static void joinArcs(CsrGraph graph, MemorySegment parent, long from, long to) {
        MemorySegment neighbors = graph.neighborsSegment();
        int u = source(graph, from);
        long a = from;
        while (a < to) {
            long end = Math.min(to, graph.rawOffset(u + 1));
            int root = ConcurrentUnionFind.find(parent, u);  // u's root, as far as known
            for (; a < end; a++) {
                int v = neighbors.getAtIndex(ValueLayout.JAVA_INT, a);
                if (v > u) {
                    int p = parent.getAtIndex(ValueLayout.JAVA_INT, v);
                    // the common cases without finds: v's parent is u's root (joined already), or
                    // v is a root, larger than u's, and hooked under it
                    if (p != root && (p != v || ConcurrentUnionFind.hook(parent, v, root) != v)) {
                        root = ConcurrentUnionFind.union(parent, root, v);
                    }
                }
            }
            u++;
        }
    }

    /** The vertex whose neighbour list holds {@code arc}: the last with {@code offset(u) <= arc}. */
    private static int source(CsrGraph graph, long arc) {
        int lo = 0;  // offset(lo) <= arc < offset(hi)
        int hi = graph.vertexCount();
        while (hi - lo > 1) {
            int middle = (lo + hi) >>> 1;
            if (graph.rawOffset(middle) <= arc) {
                lo = middle;
            } else {
                hi = middle;
            }
        }
        return lo;
    }
}
