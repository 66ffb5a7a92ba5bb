package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A lock-free union-find over a segment of ints that is its own parent array, for any number of
 * threads at once: linking by index with compare-and-set as in ECL-CC (Jaiganesh &amp; Burtscher
 * 2018) and Jayanti &amp; Tarjan's concurrent union-find, with path halving. The {@link Backend#JAVA}
 * algorithms keep their parents in the labels segment, so they need no memory of their own.
 *
 * <p>An entry {@code i} holds itself (a root), a smaller index in the same set, or a negative value
 * (not an element, such as a mesh's background cell, which no call may name). Roots are hooked
 * only under smaller indices, with a compare-and-set that succeeds only while the entry is still a
 * root, so every parent is smaller than its child, no cycle can form, and the root of each set is
 * its smallest element: after {@link #flatten} the entries are canonical labels. A non-root never
 * becomes a root again, so the plain stores of path halving, which only ever replace a non-root's
 * parent by one of its ancestors, cannot undo a hook.
 *
 * <p>Plain reads may see stale parents; that is harmless, since a stale parent is still an
 * ancestor, and a stale root fails the compare-and-set, which returns the fresher value. The
 * methods are static and take the parent segment, which the JIT then keeps in a register (a field
 * would be read again after every compare-and-set).
 */
final class ConcurrentUnionFind {
    // coordinates (segment, byte offset); works on native segments and on int[]-backed heap ones
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private ConcurrentUnionFind() {
    }

    /** The root of {@code i}'s set (one that was a root during the call), halving the path to it. */
    static int find(MemorySegment parent, int i) {
        while (true) {
            int p = parent.getAtIndex(ValueLayout.JAVA_INT, i);
            if (p == i) {
                return i;
            }
            int grandparent = parent.getAtIndex(ValueLayout.JAVA_INT, p);
            if (grandparent == p) {
                return p;
            }
            parent.setAtIndex(ValueLayout.JAVA_INT, i, grandparent);
            i = grandparent;
        }
    }

    /**
     * Joins the sets of {@code a} and {@code b}; returns their joint root, or an element of the
     * joint set that was a root a moment ago, which is as good a start for the next find.
     */
    static int union(MemorySegment parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        while (ra != rb) {
            if (ra < rb) {
                int seen = hook(parent, rb, ra);
                if (seen == rb) {
                    return ra;
                }
                rb = find(parent, seen);  // rb was hooked meanwhile: go on from its new root
            } else {
                int seen = hook(parent, ra, rb);
                if (seen == ra) {
                    return rb;
                }
                ra = find(parent, seen);
            }
        }
        return ra;
    }

    /**
     * Sets the parent of {@code root} to {@code smaller} (an element of another set) if it is still
     * a root; returns what it held: {@code root} itself when it succeeded.
     */
    static int hook(MemorySegment parent, int root, int smaller) {
        return (int) INT.compareAndExchange(parent, (long) root * Integer.BYTES, root, smaller);
    }

    /**
     * Points every element of {@code from .. to-1} at its root: the canonical labels, once every
     * union has returned. Other threads may flatten other ranges at the same time.
     */
    static void flatten(MemorySegment parent, long from, long to) {
        for (long i = from; i < to; i++) {
            int p = parent.getAtIndex(ValueLayout.JAVA_INT, i);
            if (p >= 0 && p != i) {
                parent.setAtIndex(ValueLayout.JAVA_INT, i, find(parent, p));
            }
        }
    }
}
