package org.ccl4j.engine.jvm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A lock-free union-find over native memory that is its own parent array ({@link RawMemory}), ints
 * or longs ({@code wide}, for meshes past 2^31-1 cells and for int64 labels), for any number of
 * threads at once: the find with intermediate pointer jumping and the hook by compare-and-set of
 * ECL-CC (Jaiganesh &amp; Burtscher 2018, figures 5 and 6). The JVM engine's algorithms
 * keep their parents in the labels, so they need no memory of their own.
 *
 * <p>An entry {@code i} holds itself (a root), a smaller index in the same set, or a negative
 * value (not an element, such as a mesh's background cell, which no call may name). Roots are
 * hooked only under smaller indices, with a compare-and-set that succeeds only while the entry is
 * still a root, so every parent is smaller than its child, no cycle can form, and the root of each
 * set is its smallest element: after {@link #flatten} the entries are canonical labels. A
 * non-root never becomes a root again, so the plain stores of pointer jumping, which only ever
 * replace a non-root's parent by one of its ancestors, cannot undo a hook; a stale parent read is
 * still an ancestor, and a stale root fails the compare-and-set, which returns the fresher value.
 *
 * <p>{@link #find}, {@link #hook} and {@link #union} work on ints, {@link #findWide} and
 * {@link #hookWide} the same way on longs; {@link #union(long, boolean, long, long)} and
 * {@link #flatten} take the width as a parameter. {@link #find(int[], int)}, {@link #hook(int[],
 * int, int)} and {@link #union(int[], int, int)} do the same in a Java array (with a
 * compare-and-set through an array element {@link VarHandle}).
 */
final class ConcurrentUnionFind {
    private ConcurrentUnionFind() {
    }

    // The finds and hooks are written once per width: long-typed ones measured about 10% slower on
    // int parents than int-typed ones (the JAVA backend's mesh labelling at 26 neighbours), and
    // int32 labels are the common case.

    /** The root of {@code i}'s set (one that was a root during the call), making every visited entry skip its parent. */
    static int find(long parent, int i) {
        int p = RawMemory.getInt(parent, i);
        if (p != i) {
            int previous = i;
            int next;
            while (p > (next = RawMemory.getInt(parent, p))) {
                RawMemory.setInt(parent, previous, next);
                previous = p;
                p = next;
            }
        }
        return p;
    }

    /**
     * Joins the sets of the roots {@code a} and {@code b} by hooking the larger under the smaller;
     * when that root was hooked meanwhile, climbs on from its new parent. Returns the element both
     * now lead to, which is as good a start for the next find as a root.
     */
    static int hook(long parent, int a, int b) {
        while (a != b) {
            if (a < b) {
                int seen = RawMemory.compareAndExchangeInt(parent, b, b, a);
                if (seen == b) {
                    return a;
                }
                b = seen;
            } else {
                int seen = RawMemory.compareAndExchangeInt(parent, a, a, b);
                if (seen == a) {
                    return b;
                }
                a = seen;
            }
        }
        return a;
    }

    /** Joins the sets of {@code a} and {@code b}; returns what {@link #hook} does. */
    static int union(long parent, int a, int b) {
        return hook(parent, find(parent, a), find(parent, b));
    }

    // The edge-list union-find keeps its parents in a Java array: on 10 M random edges these finds and
    // hooks ran 1.5x faster on an int[] than by address (random reads alone ran as fast either way).

    private static final VarHandle ARRAY = MethodHandles.arrayElementVarHandle(int[].class);

    /** {@link #find} on a Java array. */
    static int find(int[] parent, int i) {
        int p = parent[i];
        if (p != i) {
            int previous = i;
            int next;
            while (p > (next = parent[p])) {
                parent[previous] = next;
                previous = p;
                p = next;
            }
        }
        return p;
    }

    /** {@link #hook} on a Java array. */
    static int hook(int[] parent, int a, int b) {
        while (a != b) {
            if (a < b) {
                int seen = (int) ARRAY.compareAndExchange(parent, b, b, a);
                if (seen == b) {
                    return a;
                }
                b = seen;
            } else {
                int seen = (int) ARRAY.compareAndExchange(parent, a, a, b);
                if (seen == a) {
                    return b;
                }
                a = seen;
            }
        }
        return a;
    }

    /** {@link #union} on a Java array. */
    static int union(int[] parent, int a, int b) {
        return hook(parent, find(parent, a), find(parent, b));
    }

    /** {@link #find} on longs. */
    static long findWide(long parent, long i) {
        long p = RawMemory.getLong(parent, i);
        if (p != i) {
            long previous = i;
            long next;
            while (p > (next = RawMemory.getLong(parent, p))) {
                RawMemory.setLong(parent, previous, next);
                previous = p;
                p = next;
            }
        }
        return p;
    }

    /** {@link #hook} on longs. */
    static long hookWide(long parent, long a, long b) {
        while (a != b) {
            if (a < b) {
                long seen = RawMemory.compareAndExchangeLong(parent, b, b, a);
                if (seen == b) {
                    return a;
                }
                b = seen;
            } else {
                long seen = RawMemory.compareAndExchangeLong(parent, a, a, b);
                if (seen == a) {
                    return b;
                }
                a = seen;
            }
        }
        return a;
    }

    /** Joins the sets of {@code a} and {@code b} in a parent array of longs ({@code wide}) or ints. */
    static void union(long parent, boolean wide, long a, long b) {
        if (wide) {
            hookWide(parent, findWide(parent, a), findWide(parent, b));
        } else {
            union(parent, (int) a, (int) b);
        }
    }

    /** Entry {@code i} of the parent array at {@code parent} (longs when {@code wide}, else ints). */
    static long get(long parent, boolean wide, long i) {
        return wide ? RawMemory.getLong(parent, i) : RawMemory.getInt(parent, i);
    }

    static void set(long parent, boolean wide, long i, long value) {
        if (wide) {
            RawMemory.setLong(parent, i, value);
        } else {
            RawMemory.setInt(parent, i, (int) value);
        }
    }

    /**
     * Points every element of {@code from .. to-1} at its root: the canonical labels, once every
     * union has returned. Other threads may flatten other ranges at the same time. In increasing
     * order, a parent within the range is done already, so it holds its root: one read instead of
     * a find, which on a path (where every parent is the element before) keeps this linear. A
     * parent outside the range is followed to its root without writing on the way: a write there
     * could put back an ancestor over the root that the range's own thread has just written, which
     * that thread then reads as done.
     */
    static void flatten(long parent, boolean wide, long from, long to) {
        for (long i = from; i < to; i++) {
            long p = get(parent, wide, i);
            if (p >= 0 && p != i) {
                set(parent, wide, i, p >= from ? get(parent, wide, p) : root(parent, wide, p));
            }
        }
    }

    /** The root of {@code i}, read without changing the tree. */
    private static long root(long parent, boolean wide, long i) {
        for (long p; (p = get(parent, wide, i)) != i; ) {
            i = p;
        }
        return i;
    }
}
