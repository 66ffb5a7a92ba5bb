package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

/** The parallel loop of the JAVA backend: coverage, threads, small inputs, thread counts, segments. */
class ForkJoinLoopTest {
    /**
     * Runs a loop of {@code n} units, counting how often each unit runs; returns the threads that
     * ran them. Each leaf waits (up to 10 s) until {@code meet} threads have run one, so that a
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
            loop.run(ForkJoinLoop.MIN_LEAF_WORK, (from, to) -> {
                ranges.add(new long[] {from, to});
                threads.add(Thread.currentThread());
            });
            loop.run(0, (from, to) -> ranges.add(new long[] {from, to}));
        }
        assertEquals(2, ranges.size());
        assertEquals(List.of(0L, ForkJoinLoop.MIN_LEAF_WORK), List.of(ranges.get(0)[0], ranges.get(0)[1]));
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

    @Test
    void confinedSegmentsAreSharedThroughAnAliasOthersAsTheyAre() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared();
             ForkJoinLoop loop = new ForkJoinLoop(2, 0, 1)) {
            MemorySegment mine = confined.allocateFrom(ValueLayout.JAVA_INT, 7, 8, 9);
            MemorySegment alias = loop.shared(mine);
            assertEquals(mine.address(), alias.address());
            assertEquals(mine.byteSize(), alias.byteSize());
            assertEquals(9, other.submit(() -> alias.getAtIndex(ValueLayout.JAVA_INT, 2)).get());
            MemorySegment everybody = shared.allocate(16);
            assertSame(everybody, loop.shared(everybody));
            MemorySegment heap = MemorySegment.ofArray(new int[4]);
            assertSame(heap, loop.shared(heap));
            try (ForkJoinLoop serial = new ForkJoinLoop(1, 0, 1)) {
                assertSame(mine, serial.shared(mine), "one thread needs no alias");
            }
        } finally {
            other.shutdown();
        }
    }
}
