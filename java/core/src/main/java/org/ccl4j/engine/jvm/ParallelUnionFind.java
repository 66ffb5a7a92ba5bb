package org.ccl4j.engine.jvm;

import java.lang.foreign.MemorySegment;
import java.util.Map;

import org.ccl4j.engine.serial.SerialUnionFind;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.engine.spi.RunTimings;

/**
 * Graph labelling by ECL-CC (Jaiganesh &amp; Burtscher 2018, section 3) on several threads, in
 * Java: the algorithm {@code UNION_FIND}, the JAVA backend's. {@link SerialUnionFind}, single-threaded,
 * stays the test oracle.
 *
 * <p>The labels are the parent array ({@link ConcurrentUnionFind}), reached by address
 * ({@link RawMemory}). Three phases, as in the native CPU_PARALLEL ECL-CC: {@code init} (a
 * {@link ForkJoinLoop} over the vertices) points every vertex at its first smaller neighbour, or
 * itself, which leaves most of a mesh-like graph joined already; {@code compute} (another) hooks
 * the representatives of the ends of every other edge, from its larger end; {@code finalize}, in
 * one pass in increasing order on the calling thread, points every vertex at its representative,
 * which is then final: its parent is smaller and already done. (In parallel, with finds where a
 * parent lies in another chunk, it measured slower on 2 cores, on paths most.) The labels come
 * out canonical, every root being the smallest vertex of its tree.
 *
 * <p>Every offset and neighbour id is checked before it is followed: a malformed graph that was
 * not checked (the API's {@code LabelOptions.withCheckInput}) gets an {@link IllegalArgumentException}.
 * Where native access is denied to this module, the oracle labels on one thread instead.
 */
final class ParallelUnionFind {
    private ParallelUnionFind() {
    }

    /**
     * Writes the canonical labels of {@code graph} into {@code labels} (at least
     * {@code vertexCount} ints, native or int[]-backed) on {@code cpuThreads} threads (0 = all cores).
     */
    static RunTimings label(GraphData graph, MemorySegment labels, int cpuThreads) {
        return label(graph, labels, cpuThreads, 0);
    }

    /** As {@link #label(GraphData, MemorySegment, int)}, in leaves of {@code grain} vertices (0: the default). */
    static RunTimings label(GraphData graph, MemorySegment labels, int cpuThreads, long grain) {
        long start = System.nanoTime();
        if (!RawMemory.available()) {
            SerialUnionFind.label(graph, labels);
            double ms = (System.nanoTime() - start) / 1e6;
            return new RunTimings(ms, Map.of("label", ms), 0, "JAVA", "UNION_FIND");
        }
        int n = graph.vertexCount();
        try (RawMemory memory = new RawMemory(); ForkJoinLoop loop = new ForkJoinLoop(cpuThreads, grain, 1)) {
            Csr g = new Csr(n, graph.arcCount(), memory.input(graph.offsets()), graph.offsetBytes() == Long.BYTES,
                    memory.input(graph.neighbors()));
            long parent = memory.output(labels);
            loop.phase("init", n, (from, to) -> init(g, parent, (int) from, (int) to));
            loop.phase("compute", n, (from, to) -> compute(g, parent, (int) from, (int) to));
            loop.phase("finalize", () -> {
                for (int v = 0; v < n; v++) {
                    RawMemory.setInt(parent, v, RawMemory.getInt(parent, RawMemory.getInt(parent, v)));
                }
            });
            memory.commit();
            double total = (System.nanoTime() - start) / 1e6;
            return new RunTimings(total, loop.phases(), 0, "JAVA", "UNION_FIND");
        }
    }

    /** A graph by address: {@code vertexCount + 1} offsets of 4 or 8 bytes, {@code arcCount} neighbour ids. */
    private record Csr(int vertexCount, long arcCount, long offsets, boolean wide, long neighbors) {
        /** Offset {@code v}, which {@link #checkRange} must vouch for before an arc is read by it. */
        long offset(int v) {
            return wide ? RawMemory.getLong(offsets, v) : RawMemory.getInt(offsets, v);
        }

        void checkRange(int v, long begin, long end) {
            if (begin < 0 || begin > end || end > arcCount) {
                throw badOffsets(v, begin, end);
            }
        }

        /** Neighbour id {@code arc}, checked to be a vertex. */
        int neighbor(long arc) {
            int u = RawMemory.getInt(neighbors, arc);
            if (Integer.compareUnsigned(u, vertexCount) >= 0) {
                throw badNeighbor(u, arc);
            }
            return u;
        }

        // The messages are built out of line: inlined, they would keep the finds out of the hot loops.
        private IllegalArgumentException badOffsets(int v, long begin, long end) {
            return new IllegalArgumentException("the neighbours of vertex " + v + " would be arcs " + begin + " .. "
                    + (end - 1) + ", not within 0 .. " + (arcCount - 1) + " in order (offsets " + v + " and " + (v + 1)
                    + ")");
        }

        private IllegalArgumentException badNeighbor(int u, long arc) {
            return new IllegalArgumentException("neighbour id " + u + " at arc " + arc + " is outside 0 .. "
                    + (vertexCount - 1));
        }
    }

    /** Points each vertex of {@code from .. to-1} at its first smaller neighbour, or itself. */
    private static void init(Csr g, long parent, int from, int to) {
        long end = g.offset(from);
        for (int v = from; v < to; v++) {
            long arc = end;
            end = g.offset(v + 1);
            g.checkRange(v, arc, end);
            int first = v;
            for (; arc < end; arc++) {
                int u = g.neighbor(arc);
                if (u < v) {
                    first = u;
                    break;
                }
            }
            RawMemory.setInt(parent, v, first);
        }
    }

    /**
     * Hooks, for each vertex {@code v} of {@code from .. to-1}, the representatives of every edge
     * {@code {v, u}} with {@code u < v} but the first, which init followed. {@code v}'s
     * representative is looked up once an edge needs it, and then carried along.
     */
    private static void compute(Csr g, long parent, int from, int to) {
        long end = g.offset(from);
        for (int v = from; v < to; v++) {
            long arc = end;
            end = g.offset(v + 1);
            g.checkRange(v, arc, end);
            while (arc < end && g.neighbor(arc) >= v) {
                arc++;
            }
            int representative = -1;
            for (arc++; arc < end; arc++) {
                int u = g.neighbor(arc);
                if (u >= v) {
                    continue;
                }
                if (representative < 0) {
                    representative = ConcurrentUnionFind.find(parent, v);
                }
                int other = ConcurrentUnionFind.find(parent, u);
                if (other != representative) {
                    representative = ConcurrentUnionFind.hook(parent, representative, other);
                }
            }
        }
    }
}
