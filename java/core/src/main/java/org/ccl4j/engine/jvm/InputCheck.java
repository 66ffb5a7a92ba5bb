package org.ccl4j.engine.jvm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.stream.IntStream;

import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.internal.Segments;

/**
 * The input checks of a CSR graph ({@link GraphData}) in Java, as the native library runs them: offsets start
 * at 0, never decrease and end at the arc count; neighbour ids are in range; every arc has its
 * reverse as often (symmetry).
 *
 * <p>Symmetry is tested in one pass (parallel unless the segments are confined to one thread) with
 * a multiset hash: each arc {@code u -> v} adds {@code h({u, v})} when {@code u < v} and subtracts
 * it when {@code u > v}, modulo the prime {@code p = 2^61 - 1}. The sum is zero when every arc has
 * its reverse as often; otherwise some pair has a count difference {@code c}, {@code 0 < |c| < p},
 * and for a keyed {@code h} that acts as a random function the sum is zero with probability
 * {@code 1/p}. Only a failure pays for the exact test (a transpose and a sort), which names the
 * arcs at fault. The native library runs the same test (native/src/common/arc_hash.hpp).
 */
final class InputCheck {
    private static final long PRIME = (1L << 61) - 1;
    /** Vertices per task of the parallel pass. */
    private static final int CHUNK = 1 << 14;

    private InputCheck() {
    }

    /** Drawn once, so that no input is built to defeat the test. */
    private static final class Key {
        static final long VALUE = new SecureRandom().nextLong();
    }

    /** Offsets and ids: what must hold before anything reads the arcs. */
    static void structure(GraphData g) {
        long first = g.offset(0);
        if (first != 0) {
            throw new IllegalArgumentException("offsets[0] must be 0, got " + first);
        }
        int n = g.vertexCount();
        long decrease = chunks(g).mapToLong(c -> firstDecrease(g, c)).filter(v -> v >= 0).min().orElse(-1);
        if (decrease >= 0) {
            int v = (int) decrease;
            throw new IllegalArgumentException("offsets decrease at vertex " + (v - 1) + ": offsets["
                    + (v - 1) + "] = " + g.offset(v - 1) + " > offsets[" + v + "] = " + g.offset(v));
        }
        long last = g.offset(n);
        if (last != g.arcCount()) {
            throw new IllegalArgumentException("offsets[" + n + "] = " + last
                    + " but the neighbours segment holds " + g.arcCount() + " arcs");
        }
        long bad = chunks(g).mapToLong(c -> firstIdOutOfRange(g, c)).filter(a -> a >= 0).min().orElse(-1);
        if (bad >= 0) {
            throw new IllegalArgumentException("neighbour id " + g.neighbor(bad) + " at arc " + bad
                    + " is outside 0.." + (n - 1));
        }
    }

    /** Symmetry of a graph whose structure holds. */
    static void symmetry(GraphData g) {
        long difference = chunks(g).mapToLong(c -> hashDifference(g, c)).reduce(0, InputCheck::addMod);
        if (difference != 0) {
            failOnAsymmetry(g);
        }
    }

    /** The chunks of vertices: in parallel, unless the segments are confined to this thread. */
    private static IntStream chunks(GraphData g) {
        IntStream chunks = IntStream.range(0, (int) ((g.vertexCount() + (long) CHUNK - 1) / CHUNK));
        boolean shared = Segments.isShared(g.offsets()) && Segments.isShared(g.neighbors());
        return shared ? chunks.parallel() : chunks;
    }

    /** The first v of the chunk's vertices and the one past them with offsets[v] below offsets[v - 1], or -1. */
    private static long firstDecrease(GraphData g, int chunk) {
        int last = (int) Math.min(g.vertexCount(), (long) (chunk + 1) * CHUNK);
        long previous = g.offset(Math.max(0, chunk * CHUNK));
        for (int v = Math.max(1, chunk * CHUNK + 1); v <= last; v++) {
            long o = g.offset(v);
            if (o < previous) {
                return v;
            }
            previous = o;
        }
        return -1;
    }

    private static long firstIdOutOfRange(GraphData g, int chunk) {
        int n = g.vertexCount();
        long begin = g.offset(chunk * CHUNK);
        long end = g.offset((int) Math.min(n, (long) (chunk + 1) * CHUNK));
        for (long a = begin; a < end; a++) {
            int v = g.neighbor(a);
            if (v < 0 || v >= n) {
                return a;
            }
        }
        return -1;
    }

    private static long hashDifference(GraphData g, int chunk) {
        long key = Key.VALUE;
        long sum = 0;
        int last = (int) Math.min(g.vertexCount(), (long) (chunk + 1) * CHUNK);
        for (int u = chunk * CHUNK; u < last; u++) {
            long end = g.offset(u + 1);
            for (long a = g.offset(u); a < end; a++) {
                int v = g.neighbor(a);
                if (u < v) {
                    sum = addMod(sum, pairHash(key, u, v));
                } else if (u > v) {
                    sum = addMod(sum, PRIME - pairHash(key, v, u));
                }
            }
        }
        return sum;
    }

    private static long addMod(long a, long b) {
        long s = a + b;
        return s >= PRIME ? s - PRIME : s;
    }

    /** A keyed mix of the pair (low, high) (the splitmix64 finaliser), reduced modulo the prime. */
    private static long pairHash(long key, int low, int high) {
        long x = key ^ ((long) low << 32 | (high & 0xffffffffL));
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        x ^= x >>> 31;
        x = (x & PRIME) + (x >>> 61);
        return x >= PRIME ? x - PRIME : x;
    }

    /**
     * The exact test, which names what is wrong: the transpose built by counting sort has each
     * in-list sorted by source, so it must equal the sorted out-list of every vertex.
     */
    private static void failOnAsymmetry(GraphData g) {
        int n = g.vertexCount();
        long[] inStart = new long[n + 1];
        for (long a = 0; a < g.arcCount(); a++) {
            inStart[g.neighbor(a) + 1]++;
        }
        for (int v = 0; v < n; v++) {
            inStart[v + 1] += inStart[v];
        }
        for (int v = 0; v < n; v++) {
            long in = inStart[v + 1] - inStart[v];
            long out = g.offset(v + 1) - g.offset(v);
            if (in != out) {
                throw new IllegalArgumentException("graph is not symmetric: vertex " + v + " has " + out
                        + " outgoing arcs but " + in + " incoming arcs");
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment inSources = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, g.arcCount()));
            long[] fill = inStart.clone();
            for (int u = 0; u < n; u++) {
                long end = g.offset(u + 1);
                for (long a = g.offset(u); a < end; a++) {
                    inSources.setAtIndex(ValueLayout.JAVA_INT, fill[g.neighbor(a)]++, u);
                }
            }
            for (int v = 0; v < n; v++) {
                long begin = g.offset(v);
                int[] out = new int[(int) (g.offset(v + 1) - begin)];
                for (int i = 0; i < out.length; i++) {
                    out[i] = g.neighbor(begin + i);
                }
                Arrays.sort(out);
                for (int i = 0; i < out.length; i++) {
                    int in = inSources.getAtIndex(ValueLayout.JAVA_INT, inStart[v] + i);
                    if (in != out[i]) {
                        int w = Math.min(in, out[i]);
                        throw new IllegalArgumentException("graph is not symmetric: arcs " + v + " -> " + w + " and "
                                + w + " -> " + v + " occur a different number of times");
                    }
                }
            }
        }
    }
}
