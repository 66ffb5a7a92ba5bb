package org.ccl4j.engine.jvm;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A parallel loop over {@code 0..n} for the JVM engine's algorithms: chunks of consecutive
 * units, handed out in order from a shared counter to the calling thread and its helpers on
 * ForkJoin threads, so that a thread done with a chunk takes the next (the native CPU_PARALLEL's
 * dynamic schedule). One loop serves one labelling call, whose phases it runs one after the
 * other; whatever a phase wrote is visible to the next (its tasks were joined).
 *
 * <p>All cores ({@code cpuThreads} 0, or the number of processors) run with helpers from the
 * common pool, which is sized to leave a core to the caller; any other count on a pool of its
 * own, started at the first loop that needs it and shut down by {@link #close()}. A loop of at
 * most a chunk runs in the calling thread, without tasks: small inputs pay nothing for the
 * threads. Each thread runs its chunks in a loop of its own, not from recursive tasks, whose
 * inlining would leave the JIT no room to inline the chunk's work.
 *
 * <p>A loop returns only when all its threads have finished, even when a chunk threw: then it
 * rethrows the first exception, and the chunks not yet begun are skipped. No thread of a loop is
 * still at work when the caller goes on, which may free the memory that the loop's threads reach
 * by address ({@link RawMemory}).
 */
final class ForkJoinLoop implements AutoCloseable {
    /** A loop body: runs the units {@code from .. to-1}. */
    @FunctionalInterface
    interface Body {
        void run(long from, long to);
    }

    /**
     * Work of a chunk (vertices, cells), unless a grain is forced: small enough to even out uneven
     * chunks (hubs, dense rows), large enough to keep most of a thread's accesses in its own
     * chunks. The native CPU_PARALLEL measured 4096 vertices best on 2 cores.
     */
    static final long CHUNK_WORK = 1 << 12;

    private final int threads;
    private final long forcedGrain;
    private final long unitWork;
    private final Map<String, Double> phases = new LinkedHashMap<>();
    private ForkJoinPool pool;

    /**
     * @param cpuThreads threads; 0 = all cores. At most max(256, 4 x the processors), the native
     *                   backends' limit
     * @param grain      units per chunk; 0 = {@link #CHUNK_WORK} work (tests force small grains, so
     *                   that small inputs run on several threads)
     * @param unitWork   the work of a unit: 1 for a vertex, the width for a row of cells
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

    /** Runs {@code work} in the calling thread, recording its time (ms) as the phase {@code name}. */
    void phase(String name, Runnable work) {
        long start = System.nanoTime();
        work.run();
        phases.put(name, (System.nanoTime() - start) / 1e6);
    }

    /** The phases run so far and their times (ms), in order. */
    Map<String, Double> phases() {
        return phases;
    }

    /** Runs {@code body} over {@code 0 .. n-1}, split across the threads, and waits for it. */
    void run(long n, Body body) {
        long chunk = forcedGrain > 0 ? forcedGrain : Math.ceilDiv(CHUNK_WORK, unitWork);
        if (threads == 1 || n <= chunk) {
            body.run(0, n);
            return;
        }
        Chunks chunks = new Chunks(body, n, chunk);
        ForkJoinPool helpers = threads == Runtime.getRuntime().availableProcessors() ? ForkJoinPool.commonPool()
                : ownPool();
        ForkJoinTask<?>[] tasks = new ForkJoinTask<?>[(int) Math.min(threads - 1, Math.ceilDiv(n, chunk) - 1)];
        for (int t = 0; t < tasks.length; t++) {
            tasks[t] = helpers.submit(chunks);
        }
        chunks.run();
        for (ForkJoinTask<?> task : tasks) {
            task.join();
        }
        Throwable failure = chunks.failure.get();
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException("a loop of the JAVA backend failed", failure);
        }
    }

    /** This loop's pool: {@code threads - 1} helpers, the caller being the last thread. */
    private ForkJoinPool ownPool() {
        if (pool == null) {
            pool = new ForkJoinPool(threads - 1);
        }
        return pool;
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
        }
    }

    /**
     * The chunks of one loop, for every thread to run until none is left. A chunk does not throw:
     * it records the first failure of the loop, after which no chunk begins.
     */
    private static final class Chunks implements Runnable {
        private final Body body;
        private final long n;
        private final long chunk;
        private final AtomicLong next = new AtomicLong();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Chunks(Body body, long n, long chunk) {
            this.body = body;
            this.n = n;
            this.chunk = chunk;
        }

        @Override
        public void run() {
            long from;
            while (failure.get() == null && (from = next.getAndAdd(chunk)) < n) {
                try {
                    body.run(from, Math.min(n, from + chunk));
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }
        }
    }
}
