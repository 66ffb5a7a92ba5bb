package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * A parallel loop over {@code 0..n} for the {@link Backend#JAVA} algorithms: the range is cut in
 * halves, recursively, down to leaves of a grain, on ForkJoin threads, so that idle threads steal
 * the halves of busy ones. One loop serves one labelling call, whose phases it runs one after the
 * other; whatever a phase wrote is visible to the next (its tasks were joined).
 *
 * <p>All cores ({@code cpuThreads} 0, or the number of processors) run on the common pool, with
 * the calling thread as one of them; any other count on a pool of its own, started at the first
 * loop that needs it and shut down by {@link #close()}. A loop of at most a grain runs in the
 * calling thread, without tasks: small inputs pay nothing for the threads.
 *
 * <p>The loops' threads reach the caller's segments through {@link #shared}: a segment of a
 * confined arena (the usual {@code Arena.ofConfined()}) is accessible from its owner thread only,
 * so they get an alias of its memory instead.
 */
final class ForkJoinLoop implements AutoCloseable {
    /** A loop body: runs the units {@code from .. to-1}. */
    @FunctionalInterface
    interface Body {
        void run(long from, long to);
    }

    /** Work per leaf at least (arcs, vertices, cells), unless a grain is forced: a leaf must outweigh its fork. */
    static final long MIN_LEAF_WORK = 1 << 14;
    /** Leaves per thread: enough for stealing to even out uneven leaves (hubs, dense rows). */
    private static final int LEAVES_PER_THREAD = 8;
    /** A thread that never runs: a segment it may access is not confined to a thread. */
    private static final Thread NO_THREAD = Thread.ofVirtual().unstarted(() -> { });

    private final int threads;
    private final long forcedGrain;
    private final long unitWork;
    private final Map<String, Double> phases = new LinkedHashMap<>();
    private ForkJoinPool pool;

    /**
     * @param cpuThreads threads; 0 = all cores. At most max(256, 4 x the processors), the native
     *                   backends' limit
     * @param grain      units per leaf; 0 = about {@value #LEAVES_PER_THREAD} leaves per thread, each
     *                   of at least {@link #MIN_LEAF_WORK} work (tests force small grains, so that
     *                   small inputs run on several threads)
     * @param unitWork   the work of a unit: 1 for a vertex or an arc, the width for a row of cells
     */
    ForkJoinLoop(int cpuThreads, long grain, long unitWork) {
        this.threads = threads(cpuThreads);
        this.forcedGrain = grain;
        this.unitWork = unitWork;
    }

    /** The thread count {@code cpuThreads} asks for: the processors when 0. */
    static int threads(int cpuThreads) {
        int processors = Runtime.getRuntime().availableProcessors();
        int limit = Math.max(256, 4 * processors);
        if (cpuThreads < 0 || cpuThreads > limit) {
            throw new IllegalArgumentException("cpuThreads " + cpuThreads + " is outside 0.." + limit
                    + ", the most this machine is given (max(256, 4 x " + processors + " processors))");
        }
        return cpuThreads == 0 ? processors : cpuThreads;
    }

    /** Runs {@code body} as {@link #run} does, recording its time (ms) as the phase {@code name}. */
    void phase(String name, long n, Body body) {
        long start = System.nanoTime();
        run(n, body);
        phases.put(name, (System.nanoTime() - start) / 1e6);
    }

    /** The phases run so far and their times (ms), in order. */
    Map<String, Double> phases() {
        return phases;
    }

    /** Runs {@code body} over {@code 0 .. n-1}, split across the threads, and waits for it. */
    void run(long n, Body body) {
        long grain = forcedGrain > 0 ? forcedGrain : Math.max(Math.ceilDiv(MIN_LEAF_WORK, unitWork),
                Math.ceilDiv(n, (long) threads * LEAVES_PER_THREAD));
        if (threads == 1 || n <= grain) {
            body.run(0, n);
            return;
        }
        Split task = new Split(body, 0, n, grain);
        if (threads == Runtime.getRuntime().availableProcessors()) {
            // Forks go to the common pool (or the pool the caller runs in), which is sized to
            // leave a core to the caller: the caller works too, rather than wait.
            task.invoke();
        } else {
            if (pool == null) {
                pool = new ForkJoinPool(threads);
            }
            pool.invoke(task);
        }
    }

    /**
     * {@code segment}, or an alias of its memory when it is confined to the calling thread, so that
     * the loop's threads may access it. The alias is safe for this labelling call: only the caller
     * can close a confined arena, and it is inside the call until every task has finished. Segments
     * of other arenas and on the heap are accessible from any thread already (and a shared arena
     * may be closed by another thread, which its own segments notice and an alias would not).
     */
    MemorySegment shared(MemorySegment segment) {
        if (threads == 1 || !segment.isNative() || isShared(segment)
                || !segment.isAccessibleBy(Thread.currentThread())) {
            return segment;
        }
        return MemorySegment.ofAddress(segment.address()).reinterpret(segment.byteSize());
    }

    /** Whether every thread may access {@code segment}: it is on the heap or of an arena that is not confined. */
    static boolean isShared(MemorySegment segment) {
        return segment.isAccessibleBy(NO_THREAD);
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
        }
    }

    /** Halves its range until it is a grain, running the halves in parallel. */
    private static final class Split extends RecursiveAction {
        private final Body body;
        private final long from;
        private final long to;
        private final long grain;

        Split(Body body, long from, long to, long grain) {
            this.body = body;
            this.from = from;
            this.to = to;
            this.grain = grain;
        }

        @Override
        protected void compute() {
            if (to - from <= grain) {
                body.run(from, to);
                return;
            }
            long middle = from + (to - from) / 2;
            invokeAll(new Split(body, from, middle, grain), new Split(body, middle, to, grain));
        }
    }
}
