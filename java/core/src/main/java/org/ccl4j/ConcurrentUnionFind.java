package org.ccl4j;

/**
 * A lock-free union-find over ints of native memory that are their own parent array
 * ({@link RawMemory}), for any number of threads at once: the find with intermediate pointer
 * jumping and the hook by compare-and-set of ECL-CC (Jaiganesh &amp; Burtscher 2018, figures 5
 * and 6). The {@link Backend#JAVA} algorithms keep their parents in the labels, so they need no
 * memory of their own.
 *
 * <p>An entry {@code i} holds itself (a root), a smaller index in the same set, or a negative
 * value (not an element, such as a mesh's background cell, which no call may name). Roots are
 * hooked only under smaller indices, with a compare-and-set that succeeds only while the entry is
 * still a root, so every parent is smaller than its child, no cycle can form, and the root of each
 * set is its smallest element: after {@link #flatten} the entries are canonical labels. A
 * non-root never becomes a root again, so the plain stores of pointer jumping, which only ever
 * replace a non-root's parent by one of its ancestors, cannot undo a hook; a stale parent read is
 * still an ancestor, and a stale root fails the compare-and-set, which returns the fresher value.
 */
final class ConcurrentUnionFind {
    private ConcurrentUnionFind() {
    }

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

    /**
     * Points every element of {@code from .. to-1} at its root: the canonical labels, once every
     * union has returned. Other threads may flatten other ranges at the same time. In increasing
     * order, a parent within the range is done already, so it holds its root: one read instead of
     * a find, which on a path (where every parent is the element before) keeps this linear. A
     * parent outside the range is followed to its root without writing on the way: a write there
     * could put back an ancestor over the root that the range's own thread has just written, which
     * that thread then reads as done.
     */
    static void flatten(long parent, long from, long to) {
        for (long i = from; i < to; i++) {
            int p = RawMemory.getInt(parent, i);
            if (p >= 0 && p != i) {
                RawMemory.setInt(parent, i, p >= from ? RawMemory.getInt(parent, p) : root(parent, p));
            }
        }
    }

    /** The root of {@code i}, read without changing the tree. */
    private static int root(long parent, int i) {
        for (int p; (p = RawMemory.getInt(parent, i)) != i; ) {
            i = p;
        }
        return i;
    }
}
