package org.ccl4j.engine.slab;

import java.util.Arrays;

/**
 * A union-find over the clusters of the slabs that have a bond leaving their slab (to the next
 * slab, or across a periodic boundary), each named by its global canonical label: the smallest
 * linear index of its cells. The root of a set is always its smallest label, which makes it the
 * canonical label of the whole cluster, and the first of its clusters in raster order.
 *
 * <p>Each node also keeps its offset from its parent in the unrolled periodic lattice (in periods
 * per axis), so that joining two nodes that are already in one set finds whether the loop it
 * closes goes round a periodic axis: the cluster then wraps around that axis (percolates).
 */
final class BoundaryUnionFind {
    private static final int NONE = -1;

    private long[] keys = new long[1024];   // open addressing: label -> node; EMPTY marks a free slot
    private int[] slots = new int[1024];
    private static final long EMPTY = Long.MIN_VALUE;

    private long[] label = new long[256];
    private int[] parent = new int[256];
    private int[] offset = new int[3 * 256];  // x, y, z periods from the parent
    private int[] wraps = new int[256];       // CCL4J_WRAP_* bits, valid at roots
    private int size;
    private boolean resolved;
    private final int[] fromRootA = new int[3];  // scratch of join (the union-find is used by one thread)
    private final int[] fromRootB = new int[3];

    BoundaryUnionFind() {
        Arrays.fill(keys, EMPTY);
    }

    /** The number of nodes. */
    int size() {
        return size;
    }

    /** The node of cluster {@code cluster}, or -1 when it has none. */
    int nodeOf(long cluster) {
        int mask = keys.length - 1;
        for (int at = hash(cluster) & mask; ; at = (at + 1) & mask) {
            if (keys[at] == cluster) {
                return slots[at];
            }
            if (keys[at] == EMPTY) {
                return NONE;
            }
        }
    }

    /** The label of node {@code node}. */
    long label(int node) {
        return label[node];
    }

    /**
     * Joins the clusters {@code a} and {@code b}, where b's cell lies {@code (sx, sy, sz)} periods
     * from a's (a bond across periodic boundaries; 0, 0, 0 for a bond between slabs).
     */
    void join(long a, long b, int sx, int sy, int sz) {
        if (resolved) {
            throw new IllegalStateException("joins after resolve");
        }
        int na = node(a);
        int nb = node(b);
        int[] oa = fromRootA;
        int[] ob = fromRootB;
        int ra = root(na, oa);
        int rb = root(nb, ob);
        int lx = oa[0] + sx - ob[0];
        int ly = oa[1] + sy - ob[1];
        int lz = oa[2] + sz - ob[2];
        if (ra == rb) {
            wraps[ra] |= (lx != 0 ? 1 : 0) | (ly != 0 ? 2 : 0) | (lz != 0 ? 4 : 0);
            return;
        }
        // rb lies at (lx, ly, lz) from ra: the smaller label stays the root
        if (label[ra] < label[rb]) {
            link(rb, ra, lx, ly, lz);
        } else {
            link(ra, rb, -lx, -ly, -lz);
        }
    }

    /** Points every node at its root; after this only the queries below are allowed. */
    void resolve() {
        int[] ignored = new int[3];
        for (int v = 0; v < size; v++) {
            parent[v] = root(v, ignored);
        }
        resolved = true;
    }

    /** The root of {@code node} (after {@link #resolve()}). */
    int rootOf(int node) {
        return parent[node];
    }

    /** Whether {@code node} is the first cluster of its set, the one that names it (after {@link #resolve()}). */
    boolean isRoot(int node) {
        return parent[node] == node;
    }

    /** The CCL4J_WRAP_* bits of the set of root {@code root}. */
    int wraps(int root) {
        return wraps[root];
    }

    private void link(int child, int root, int ox, int oy, int oz) {
        parent[child] = root;
        offset[3 * child] = ox;
        offset[3 * child + 1] = oy;
        offset[3 * child + 2] = oz;
        wraps[root] |= wraps[child];
    }

    /** The root of v and v's offset from it; halves the path on the way (offsets summed with it). */
    private int root(int v, int[] fromRoot) {
        fromRoot[0] = 0;
        fromRoot[1] = 0;
        fromRoot[2] = 0;
        while (parent[v] != v) {
            int p = parent[v];
            if (parent[p] != p) {
                for (int k = 0; k < 3; k++) {
                    offset[3 * v + k] += offset[3 * p + k];
                }
                parent[v] = parent[p];
                continue;
            }
            for (int k = 0; k < 3; k++) {
                fromRoot[k] += offset[3 * v + k];
            }
            v = p;
        }
        return v;
    }

    /** The node of {@code cluster}, made on first use. */
    private int node(long cluster) {
        int mask = keys.length - 1;
        int at = hash(cluster) & mask;
        while (keys[at] != EMPTY) {
            if (keys[at] == cluster) {
                return slots[at];
            }
            at = (at + 1) & mask;
        }
        int v = size++;
        if (v == label.length) {
            int grown = Math.multiplyExact(label.length, 2);
            label = Arrays.copyOf(label, grown);
            parent = Arrays.copyOf(parent, grown);
            offset = Arrays.copyOf(offset, 3 * grown);
            wraps = Arrays.copyOf(wraps, grown);
        }
        label[v] = cluster;
        parent[v] = v;
        keys[at] = cluster;
        slots[at] = v;
        if (2L * size > keys.length) {
            rehash();
        }
        return v;
    }

    private void rehash() {
        long[] oldKeys = keys;
        int[] oldSlots = slots;
        keys = new long[Math.multiplyExact(oldKeys.length, 2)];
        slots = new int[keys.length];
        Arrays.fill(keys, EMPTY);
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                int at = hash(oldKeys[i]) & mask;
                while (keys[at] != EMPTY) {
                    at = (at + 1) & mask;
                }
                keys[at] = oldKeys[i];
                slots[at] = oldSlots[i];
            }
        }
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;  // Fibonacci hashing: labels of one plane are close together
        return (int) (h ^ (h >>> 32));
    }
}
