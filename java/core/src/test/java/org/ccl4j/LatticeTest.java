package org.ccl4j;

import org.ccl4j.physics.Lattice;
import org.ccl4j.physics.LatticeKind;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatticeTest {
    /** Every bond index is carried by exactly two arcs, u -> v and v -> u. */
    private static void assertBondsPaired(Lattice lattice) {
        int[] offsets = lattice.offsets();
        int[] neighbors = lattice.neighbors();
        int[] bonds = lattice.arcBonds();
        long[] ends = new long[(int) lattice.bondCount()];
        int[] seen = new int[(int) lattice.bondCount()];
        for (int v = 0; v < lattice.siteCount(); v++) {
            for (int a = offsets[v]; a < offsets[v + 1]; a++) {
                seen[bonds[a]]++;
                ends[bonds[a]] += Math.min(v, neighbors[a]) * 1_000_003L + Math.max(v, neighbors[a]);
                assertTrue(neighbors[a] != v, "no self-loops");
            }
        }
        for (int b = 0; b < seen.length; b++) {
            assertEquals(2, seen[b], "bond " + b);
            assertEquals(0, ends[b] % 2, "bond " + b + " joins one pair");
        }
        assertEquals(2 * lattice.bondCount(), lattice.arcCount());
    }

    @Test
    void periodicLatticesAreRegular() {
        Object[][] cases = {{LatticeKind.SQUARE, 8, 4}, {LatticeKind.TRIANGULAR, 7, 6}, {LatticeKind.HONEYCOMB, 8, 3},
                {LatticeKind.SIMPLE_CUBIC, 5, 6}, {LatticeKind.BCC, 4, 8}};
        for (Object[] c : cases) {
            LatticeKind kind = (LatticeKind) c[0];
            int length = (int) c[1];
            int z = (int) c[2];
            try (Lattice lattice = Lattice.create(kind, length, true, 0)) {
                assertEquals(kind.sites(length), lattice.siteCount(), lattice.toString());
                int[] offsets = lattice.offsets();
                for (int v = 0; v < lattice.siteCount(); v++) {
                    assertEquals(z, offsets[v + 1] - offsets[v], lattice + ": degree of " + v);
                }
                assertEquals((long) z * lattice.siteCount() / 2, lattice.bondCount(), lattice.toString());
                assertEquals(0, lattice.sideCount(0));
                assertBondsPaired(lattice);
            }
        }
    }

    @Test
    void openLatticesHaveTheirBondCountsAndSides() {
        long l = 6;
        Object[][] cases = {{LatticeKind.SQUARE, 2 * l * (l - 1), l}, {LatticeKind.TRIANGULAR, 2 * l * (l - 1) + (l - 1) * (l - 1), l},
                {LatticeKind.HONEYCOMB, l * (l - 1) + l * (l - 1) / 2, l}, {LatticeKind.SIMPLE_CUBIC, 3 * l * l * (l - 1), l * l},
                {LatticeKind.BCC, (2 * l - 1) * (2 * l - 1) * (2 * l - 1), 2 * l * l}};
        for (Object[] c : cases) {
            try (Lattice lattice = Lattice.create((LatticeKind) c[0], (int) l, false, 0)) {
                assertEquals((long) c[1], lattice.bondCount(), lattice.toString());
                assertEquals((long) c[2], lattice.sideCount(0), lattice.toString());
                assertEquals((long) c[2], lattice.side(1).length, lattice.toString());
                assertBondsPaired(lattice);
            }
        }
        // a honeycomb lattice in the bulk has coordination 3: every inner site of an open one too
        try (Lattice honeycomb = Lattice.create(LatticeKind.HONEYCOMB, 10, false, 0)) {
            int[] offsets = honeycomb.offsets();
            for (int y = 1; y < 9; y++) {
                for (int x = 1; x < 9; x++) {
                    int v = y * 10 + x;
                    assertEquals(3, offsets[v + 1] - offsets[v]);
                }
            }
        }
    }

    @Test
    void betheLatticesAreTreesInBothNumberings() {
        for (LatticeKind kind : new LatticeKind[] {LatticeKind.BETHE, LatticeKind.BETHE_RANDOM}) {
            try (Lattice lattice = Lattice.create(kind, 5, false, 3)) {
                assertEquals(3 * 32 - 2, lattice.siteCount());
                assertEquals(lattice.siteCount() - 1, lattice.bondCount());
                int[] offsets = lattice.offsets();
                int leaves = 0;
                for (int v = 0; v < lattice.siteCount(); v++) {
                    int d = offsets[v + 1] - offsets[v];
                    assertTrue(d == 1 || d == 3, "degree " + d);
                    leaves += d == 1 ? 1 : 0;
                }
                assertEquals(48, leaves);
                assertEquals(48, lattice.sideCount(1));
                assertEquals(1, lattice.sideCount(0));
                assertBondsPaired(lattice);
                // the numbering from the centre gives the tree a connected labelling at p = 1
                assertEquals(kind == LatticeKind.BETHE, lattice.side(0)[0] == 0);
            }
        }
        try (Lattice a = Lattice.create(LatticeKind.BETHE_RANDOM, 6, false, 9);
                Lattice b = Lattice.create(LatticeKind.BETHE_RANDOM, 6, false, 9)) {
            assertArrayEquals(a.neighbors(), b.neighbors(), "the random numbering follows the seed");
        }
    }

    @Test
    void sitesRoundTripThroughLengths() {
        assertEquals(512, LatticeKind.HONEYCOMB.lengthFor(1L << 18));
        assertEquals(22, LatticeKind.BETHE_RANDOM.lengthFor(12_582_910));
        assertEquals(12_582_910, LatticeKind.BETHE_RANDOM.sites(22));
        assertEquals(64, LatticeKind.BCC.lengthFor(2L * 64 * 64 * 64));
    }

    @Test
    void badSizesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Lattice.create(LatticeKind.HONEYCOMB, 7, true, 0));
        assertThrows(IllegalArgumentException.class, () -> Lattice.create(LatticeKind.BETHE, 4, true, 0));
        assertThrows(IllegalArgumentException.class, () -> Lattice.create(LatticeKind.SQUARE, 0, false, 0));
        assertThrows(IllegalArgumentException.class, () -> Lattice.create(LatticeKind.SIMPLE_CUBIC, 100_000, false, 0));
    }
}
