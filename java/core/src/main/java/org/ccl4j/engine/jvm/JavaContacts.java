package org.ccl4j.engine.jvm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.ccl4j.engine.spi.ContactRows;
import org.ccl4j.engine.spi.ContactSettings;
import org.ccl4j.engine.spi.LabelsRef;
import org.ccl4j.internal.Segments;

/**
 * Contacts in Java, for labels of either width: each cell against the lower half of its stencil
 * (the offsets before it in x-fastest order, wrapped across periodic boundaries), so that each
 * pair of neighbouring cells is seen once, counted per pair of labels. Rows of the grid go to the
 * threads in chunks ({@link ForkJoinLoop}; labels of a confined arena stay with the calling thread),
 * each chunk counting into a map of its own that it then adds to the whole; the rows are sorted at
 * the end. A bad label is named by its first cell.
 */
final class JavaContacts {
    private JavaContacts() {
    }

    /** A pair of labels, {@code a < b}. */
    private record Pair(long a, long b) {
    }

    static ContactRows of(MemorySegment labels, int labelBytes, ContactSettings s) {
        int[][] offsets = lowerHalf(s.connectivity());
        long cells = s.cellCount();
        Map<Pair, long[]> counts = new HashMap<>();  // contacts, x, y and z faces; guarded by itself
        AtomicLong bad = new AtomicLong(Long.MAX_VALUE);
        // labels of a confined arena are read by their own thread alone
        try (ForkJoinLoop loop = new ForkJoinLoop(Segments.isShared(labels) ? 0 : 1, 0, s.width())) {
            loop.run((long) s.height() * s.depth(), (from, to) -> {
                Map<Pair, long[]> chunk = new HashMap<>();
                for (long r = from; r < to; r++) {
                    long firstBad = countRow(labels, labelBytes, s, offsets, r, chunk);
                    if (firstBad >= 0) {
                        bad.accumulateAndGet(firstBad, Math::min);
                        break;
                    }
                }
                synchronized (counts) {
                    chunk.forEach((pair, c) -> counts.merge(pair, c, (x, y) -> {
                        for (int i = 0; i < x.length; i++) {
                            x[i] += y[i];
                        }
                        return x;
                    }));
                }
            });
        }
        if (bad.get() != Long.MAX_VALUE) {
            throw LabelsRef.badLabel(bad.get(), label(labels, labelBytes, bad.get()), cells);
        }
        List<Pair> pairs = new ArrayList<>(counts.keySet());
        pairs.sort((p, q) -> p.a() != q.a() ? Long.compare(p.a(), q.a()) : Long.compare(p.b(), q.b()));
        int n = pairs.size();
        ContactRows rows = new ContactRows(new long[n], new long[n], new long[n], new long[n], new long[n], new long[n]);
        for (int r = 0; r < n; r++) {
            Pair p = pairs.get(r);
            long[] c = counts.get(p);
            rows.first()[r] = p.a();
            rows.second()[r] = p.b();
            rows.contacts()[r] = c[0];
            rows.xFaces()[r] = c[1];
            rows.yFaces()[r] = c[2];
            rows.zFaces()[r] = c[3];
        }
        return rows;
    }

    /** Counts the contacts of row {@code r}'s cells into {@code counts}; returns its first bad cell, or -1. */
    private static long countRow(MemorySegment labels, int labelBytes, ContactSettings s, int[][] offsets, long r,
                                 Map<Pair, long[]> counts) {
        long cells = s.cellCount();
        int y = (int) (r % s.height());
        int z = (int) (r / s.height());
        int[] extent = {s.width(), s.height(), s.depth()};
        boolean[] periodic = {s.periodicX(), s.periodicY(), s.periodicZ()};
        int[] at = new int[3];
        for (int x = 0; x < s.width(); x++) {
            long i = x + r * s.width();
            long a = label(labels, labelBytes, i);
            if (a < -1 || a >= cells) {
                return i;
            }
            if (a < 0) {
                continue;
            }
            next:
            for (int[] d : offsets) {
                int[] cell = {x, y, z};
                for (int axis = 0; axis < 3; axis++) {
                    int c = cell[axis] + d[axis];
                    if (c < 0 || c >= extent[axis]) {
                        if (!periodic[axis]) {
                            continue next;
                        }
                        c = Math.floorMod(c, extent[axis]);
                    }
                    at[axis] = c;
                }
                long b = label(labels, labelBytes, at[0] + (long) s.width() * (at[1] + (long) s.height() * at[2]));
                if (b < 0 || b == a) {
                    continue;
                }
                long[] row = counts.computeIfAbsent(new Pair(Math.min(a, b), Math.max(a, b)), p -> new long[4]);
                row[0]++;
                int face = faceAxis(d);
                if (face >= 0) {
                    row[1 + face]++;
                }
            }
        }
        return -1;
    }

    private static long label(MemorySegment labels, int labelBytes, long i) {
        return labelBytes == Long.BYTES ? labels.getAtIndex(ValueLayout.JAVA_LONG, i)
                : labels.getAtIndex(ValueLayout.JAVA_INT, i);
    }

    /** The axis across which offset {dx, dy, dz} is a face neighbour, or -1 for an edge or corner. */
    private static int faceAxis(int[] d) {
        int nonzero = (d[0] != 0 ? 1 : 0) + (d[1] != 0 ? 1 : 0) + (d[2] != 0 ? 1 : 0);
        return nonzero != 1 ? -1 : d[0] != 0 ? 0 : d[1] != 0 ? 1 : 2;
    }

    /**
     * The offsets {dx, dy, dz} of a connectivity before a cell in x-fastest order: 4 and 8 in the
     * plane, 6 the faces, 18 faces and edges, 26 the whole cube.
     */
    private static int[][] lowerHalf(int connectivity) {
        List<int[]> offsets = new ArrayList<>();
        for (int dz = -1; dz <= 0; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    boolean before = dz < 0 || dy < 0 || (dy == 0 && dx < 0);
                    int nonzero = (dx != 0 ? 1 : 0) + (dy != 0 ? 1 : 0) + (dz != 0 ? 1 : 0);
                    boolean inStencil = switch (connectivity) {
                        case 4 -> dz == 0 && nonzero == 1;
                        case 8 -> dz == 0;
                        case 6 -> nonzero == 1;
                        case 18 -> nonzero <= 2;
                        default -> true;
                    };
                    if (before && inStencil) {
                        offsets.add(new int[] {dx, dy, dz});
                    }
                }
            }
        }
        return offsets.toArray(int[][]::new);
    }
}
