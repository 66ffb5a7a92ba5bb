package org.ccl4j.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.stream.IntStream;
import org.ccl4j.CsrGraph;

/**
 * Whether a CSR graph is canonical, as {@link GraphReader} returns every graph: each neighbour list
 * strictly increasing without self loops, and every arc's reverse present. The binary readers use
 * a canonical file in place ({@code .egr}, {@code .csr} without its canonical flag), and
 * {@link GraphWriter} sets the {@code .csr} flag only where this holds.
 *
 * <p>The test is exact and needs no sorting and no copy of the arcs, only a cursor per vertex (as
 * wide as the offsets). It runs in parallel, over ranges of vertices of about equal arc counts, when
 * the graph's memory may be read from any thread (a shared or global arena), and on the calling
 * thread otherwise.
 */
final class CanonicalCheck {
    /** Below this many arcs the test runs as one task. */
    private static final long PARALLEL_ARCS = 1 << 20;
    private static final int MAX_TASKS = 16;
    /** A thread that owns no arena: only memory that every thread may read is accessible by it. */
    private static final Thread NO_THREAD = Thread.ofPlatform().unstarted(() -> { });

    private CanonicalCheck() {
    }

    /**
     * True when every neighbour list is strictly increasing without self loops and every arc has its
     * reverse. The symmetry test: visiting sources {@code u} in increasing order, the arcs
     * {@code u -> t} with {@code u < t} must meet the entries below {@code t} of {@code t}'s sorted
     * list in that same order, one cursor per vertex. Each task owns a range of targets {@code t},
     * so the cursors need no synchronisation.
     */
    static boolean isCanonical(CsrGraph g) {
        int n = g.vertexCount();
        boolean wide = g.offsetBytes() == Long.BYTES;
        MemorySegment offsets = g.offsets();
        MemorySegment neighbors = g.neighbors();
        boolean parallel = g.arcCount() >= PARALLEL_ARCS && offsets.isAccessibleBy(NO_THREAD)
                && neighbors.isAccessibleBy(NO_THREAD);
        int[] bounds = arcBalancedRanges(g, parallel);
        IntStream tasks = IntStream.range(0, bounds.length - 1);
        boolean sorted = (parallel ? tasks.parallel() : tasks).allMatch(k -> {
            for (int v = bounds[k]; v < bounds[k + 1]; v++) {
                long end = offset(offsets, wide, v + 1);
                int previous = -1;
                for (long a = offset(offsets, wide, v); a < end; a++) {
                    int t = neighbors.getAtIndex(ValueLayout.JAVA_INT, a);
                    if (t <= previous || t == v) {
                        return false;
                    }
                    previous = t;
                }
            }
            return true;
        });
        if (!sorted) {
            return false;
        }
        try (Arena scratch = Arena.ofShared()) {
            MemorySegment cursors = scratch.allocate(Math.max(1, (long) n * g.offsetBytes()), g.offsetBytes());
            MemorySegment.copy(offsets, 0, cursors, 0, (long) n * g.offsetBytes());
            IntStream symmetry = IntStream.range(0, bounds.length - 1);
            return (parallel ? symmetry.parallel() : symmetry)
                    .allMatch(k -> reversesPresent(offsets, wide, neighbors, cursors, bounds[k], bounds[k + 1]));
        }
    }

    /** The symmetry test of {@link #isCanonical} for the arcs whose target lies in {@code lo .. hi-1}. */
    private static boolean reversesPresent(MemorySegment offsets, boolean wide, MemorySegment neighbors,
                                           MemorySegment cursors, int lo, int hi) {
        for (int u = 0; u < hi - 1; u++) {
            long end = offset(offsets, wide, u + 1);
            for (long a = offset(offsets, wide, u); a < end; a++) {
                int t = neighbors.getAtIndex(ValueLayout.JAVA_INT, a);
                if (t >= hi) {
                    break;
                }
                if (t <= u || t < lo) {
                    continue;
                }
                long c = offset(cursors, wide, t);
                if (c == offset(offsets, wide, t + 1) || neighbors.getAtIndex(ValueLayout.JAVA_INT, c) != u) {
                    return false;
                }
                setOffset(cursors, wide, t, c + 1);
            }
        }
        // Every entry below t in t's list must have been met: none is left before the cursor.
        for (int t = lo; t < hi; t++) {
            long c = offset(cursors, wide, t);
            if (c < offset(offsets, wide, t + 1) && neighbors.getAtIndex(ValueLayout.JAVA_INT, c) < t) {
                return false;
            }
        }
        return true;
    }

    /** Vertex ranges of about equal arc counts, as bounds {@code 0 = b[0] <= ... <= b[k] = n}; one range unless parallel. */
    private static int[] arcBalancedRanges(CsrGraph g, boolean parallel) {
        int n = g.vertexCount();
        long arcs = g.arcCount();
        int tasks = parallel ? Math.min(MAX_TASKS, Runtime.getRuntime().availableProcessors()) : 1;
        int[] bounds = new int[tasks + 1];
        bounds[tasks] = n;
        for (int k = 1; k < tasks; k++) {
            long target = arcs * k / tasks;
            int lo = bounds[k - 1];
            int hi = n;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (g.offset(mid) < target) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            bounds[k] = lo;
        }
        return bounds;
    }

    private static long offset(MemorySegment offsets, boolean wide, long v) {
        return wide ? offsets.getAtIndex(ValueLayout.JAVA_LONG, v) : offsets.getAtIndex(ValueLayout.JAVA_INT, v);
    }

    private static void setOffset(MemorySegment offsets, boolean wide, long v, long value) {
        if (wide) {
            offsets.setAtIndex(ValueLayout.JAVA_LONG, v, value);
        } else {
            offsets.setAtIndex(ValueLayout.JAVA_INT, v, (int) value);
        }
    }
}
