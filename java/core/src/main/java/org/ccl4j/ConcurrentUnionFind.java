package org.ccl4j;

/**
 * A lock-free union-find over native memory that is its own parent array ({@link RawMemory}), ints
 * or longs ({@code wide}, for meshes past 2^31-1 cells and for int64 labels), for any number of
 * threads at once: the find with intermediate pointer jumping and the hook by compare-and-set of
 * ECL-CC (Jaiganesh &amp; Burtscher 2018, figures 5 and 6). The {@link Backend#JAVA} algorithms
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
 * <p>Indices and values are longs whatever the width: an int entry holds an index below 2^31,
 * which the caller's element count guarantees.
 */
final class ConcurrentUnionFind {
    /** Address of entry 0. */
    private final long parent;
    private final boolean wide;

    /** The parent array at {@code parent}: ints, or longs when {@code wide}. */
    ConcurrentUnionFind(long parent, boolean wide) {
        this.parent = parent;
        this.wide = wide;
    }

    long get(long i) {
        return wide ? RawMemory.getLong(parent, i) : RawMemory.getInt(parent, i);
    }

    void set(long i, long value) {
        if (wide) {
            RawMemory.setLong(parent, i, value);
        } else {
            RawMemory.setInt(parent, i, (int) value);
        }
    }

    /** Sets entry {@code i} to {@code value} if it holds {@code expected}; returns what it held. */
    private long compareAndExchange(long i, long expected, long value) {
        return wide ? RawMemory.compareAndExchangeLong(parent, i, expected, value)
                : RawMemory.compareAndExchangeInt(parent, i, (int) expected, (int) value);
    }

    /** The root of {@code i}'s set (one that was a root during the call), making every visited entry skip its parent. */
    long find(long i) {
        long p = get(i);
        if (p != i) {
            long previous = i;
            long next;
            while (p > (next = get(p))) {
                set(previous, next);
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
    long hook(long a, long b) {
        while (a != b) {
            if (a < b) {
                long seen = compareAndExchange(b, b, a);
                if (seen == b) {
                    return a;
                }
                b = seen;
            } else {
                long seen = compareAndExchange(a, a, b);
                if (seen == a) {
                    return b;
                }
                a = seen;
            }
        }
        return a;
    }

    /** Joins the sets of {@code a} and {@code b}; returns what {@link #hook} does. */
    long union(long a, long b) {
        return hook(find(a), find(b));
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
    void flatten(long from, long to) {
        for (long i = from; i < to; i++) {
            long p = get(i);
            if (p >= 0 && p != i) {
                set(i, p >= from ? get(p) : root(p));
            }
        }
    }

    /** The root of {@code i}, read without changing the tree. */
    private long root(long i) {
        for (long p; (p = get(i)) != i; ) {
            i = p;
        }
        return i;
    }
}
