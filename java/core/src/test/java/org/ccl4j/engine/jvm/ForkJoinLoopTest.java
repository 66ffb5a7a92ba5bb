package org.ccl4j.engine.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

/** The parallel loop of the JAVA backend: coverage, threads, small inputs, thread counts, failures. */
class ForkJoinLoopTest {
    /**
     * Runs a loop of {@code n} units, counting how often each unit runs; returns the threads that
     * ran them. Each chunk waits (up to 10 s) until {@code meet} threads have run one, so that a
     * loop meant for several threads cannot pass on one.
     */
    private static Set<Thread> runCounting(int cpuThreads, long grain, int n, int meet, AtomicIntegerArray counts) {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch met = new CountDownLatch(meet);
        try (ForkJoinLoop loop = new ForkJoinLoop(cpuThreads, grain, 1)) {
            loop.run(n, (from, to) -> {
                if (threads.add(Thread.currentThread())) {
                    met.countDown();
                }
                try {
                    met.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (long i = from; i < to; i++) {
                    counts.incrementAndGet((int) i);
                }
            });
        }
        return threads;
    }

    @Test
    void everyUnitRunsOnceOnSeveralThreads() {
        for (int cpuThreads : new int[] {0, 4}) {
            AtomicIntegerArray counts = new AtomicIntegerArray(1_001);
            int expected = Math.min(2, ForkJoinLoop.threads(cpuThreads));
            Set<Thread> threads = runCounting(cpuThreads, 3, 1_001, expected, counts);
            for (int i = 0; i < counts.length(); i++) {
                assertEquals(1, counts.get(i), "unit " + i + " with cpuThreads " + cpuThreads);
            }
            assertTrue(threads.size() >= expected, threads.size() + " threads ran with cpuThreads " + cpuThreads);
        }
    }

    @Test
    void aLoopOfAtMostAGrainRunsInTheCallerAsOneRange() {
        List<long[]> ranges = new CopyOnWriteArrayList<>();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        try (ForkJoinLoop loop = new ForkJoinLoop(4, 0, 1)) {
            loop.run(ForkJoinLoop.CHUNK_WORK, (from, to) -> {
                ranges.add(new long[] {from, to});
                threads.add(Thread.currentThread());
            });
            loop.run(0, (from, to) -> ranges.add(new long[] {from, to}));
        }
        assertEquals(2, ranges.size());
        assertEquals(List.of(0L, ForkJoinLoop.CHUNK_WORK), List.of(ranges.get(0)[0], ranges.get(0)[1]));
        assertEquals(List.of(0L, 0L), List.of(ranges.get(1)[0], ranges.get(1)[1]));
        assertEquals(Set.of(Thread.currentThread()), threads);
    }

    @Test
    void oneThreadRunsEverythingInTheCaller() {
        AtomicIntegerArray counts = new AtomicIntegerArray(100);
        assertEquals(Set.of(Thread.currentThread()), runCounting(1, 1, 100, 1, counts));
    }

    @Test
    void threadCountsBeyondTheLimitAreRefused() {
        int processors = Runtime.getRuntime().availableProcessors();
        assertEquals(processors, ForkJoinLoop.threads(0));
        assertEquals(3, ForkJoinLoop.threads(3));
        int limit = Math.max(256, 4 * processors);
        assertEquals(limit, ForkJoinLoop.threads(limit));
        var e = assertThrows(IllegalArgumentException.class, () -> ForkJoinLoop.threads(limit + 1));
        assertTrue(e.getMessage().startsWith("cpuThreads " + (limit + 1) + " is outside 0.." + limit), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ForkJoinLoop.threads(-1));
    }

    /**
     * A chunk that throws does not end the loop early: the loop returns (rethrowing the failure)
     * only after the chunk running on the other thread has finished, and skips the chunks not yet
     * begun. Chunks 0 and 1, one on each thread, meet before 0 fails; 1 finishes well after, so
     * the test cannot pass by luck.
     */
    @Test
    void aFailingChunkWaitsForTheOthersAndIsRethrown() {
        CountDownLatch met = new CountDownLatch(2);
        CountDownLatch failed = new CountDownLatch(1);
        AtomicIntegerArray begun = new AtomicIntegerArray(64);
        AtomicIntegerArray finished = new AtomicIntegerArray(1);
        try (ForkJoinLoop loop = new ForkJoinLoop(2, 1, 1)) {
            var e = assertThrows(IllegalStateException.class, () -> loop.run(64, (from, to) -> {
                begun.incrementAndGet((int) from);
                try {
                    if (from == 0) {
                        met.countDown();
                        assertTrue(met.await(10, TimeUnit.SECONDS), "chunk 1 never began");
                        failed.countDown();
                        throw new IllegalStateException("chunk 0 fails");
                    }
                    if (from == 1) {
                        met.countDown();
                        assertTrue(failed.await(10, TimeUnit.SECONDS), "chunk 0 never failed");
                        Thread.sleep(200);
                        finished.set(0, 1);
                    }
                } catch (InterruptedException interrupted) {
                    throw new AssertionError(interrupted);
                }
            }));
            assertEquals("chunk 0 fails", e.getMessage());
            assertEquals(1, finished.get(0), "the loop returned while chunk 1 was still running");
            int ran = 0;
            for (int i = 0; i < 64; i++) {
                ran += begun.get(i);
            }
            assertTrue(ran < 64, "every chunk ran although one had failed");
        }
    }
}
