package org.ccl4j;

import org.ccl4j.physics.BondPercolation;
import org.ccl4j.physics.Lattice;
import org.ccl4j.physics.LatticeKind;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class BondPercolationTest {
    private static boolean cuda() {
        return ComponentLabeler.capabilities().backends().contains(Backend.CUDA);
    }

    /** Labels of the lattice with only the open bonds, by the Java union-find. */
    private static int[] bruteForce(Lattice lattice, byte[] open) {
        int[] offsets = lattice.offsets();
        int[] neighbors = lattice.neighbors();
        int[] bonds = lattice.arcBonds();
        int[] kept = new int[lattice.siteCount() + 1];
        int[] keptNeighbors = new int[neighbors.length];
        int arcs = 0;
        for (int v = 0; v < lattice.siteCount(); v++) {
            for (int a = offsets[v]; a < offsets[v + 1]; a++) {
                if (open[bonds[a]] != 0) {
                    keptNeighbors[arcs++] = neighbors[a];
                }
            }
            kept[v + 1] = arcs;
        }
        try (Arena arena = Arena.ofConfined()) {
            return UnionFind.labels(CsrGraph.fromArrays(arena, kept, Arrays.copyOf(keptNeighbors, arcs)));
        }
    }

    private static boolean spans(Lattice lattice, int[] labels) {
        java.util.Set<Integer> top = new java.util.HashSet<>();
        for (int s : lattice.side(0)) {
            top.add(labels[s]);
        }
        for (int s : lattice.side(1)) {
            if (top.contains(labels[s])) {
                return true;
            }
        }
        return false;
    }

    @Test
    void bondsAreReproducibleAndHaveTheirProbability() {
        byte[] a = BondPercolation.drawBonds(Backend.CPU_PARALLEL, 100_000, 17, 3, 0.3);
        byte[] b = BondPercolation.drawBonds(Backend.CPU_SERIAL, 100_000, 17, 3, 0.3);
        byte[] other = BondPercolation.drawBonds(Backend.CPU_PARALLEL, 100_000, 17, 4, 0.3);
        assertArrayEquals(a, b);
        assertFalse(Arrays.equals(a, other));
        int open = 0;
        for (byte x : a) {
            open += x;
        }
        assertEquals(0.3, open / 100_000.0, 0.005);
        if (!cuda()) {
            System.out.println("NOTICE: no CUDA device present - GPU bonds are not compared with the CPU's");
            return;
        }
        assertArrayEquals(a, BondPercolation.drawBonds(Backend.CUDA, 100_000, 17, 3, 0.3));
    }

    @Test
    void tinyLatticesMatchTheUnionFind() {
        Backend[] backends = cuda() ? new Backend[] {Backend.CPU_PARALLEL, Backend.CUDA} : new Backend[] {Backend.CPU_PARALLEL};
        Object[][] cases = {{LatticeKind.SQUARE, 7}, {LatticeKind.TRIANGULAR, 6}, {LatticeKind.HONEYCOMB, 8},
                {LatticeKind.SIMPLE_CUBIC, 4}, {LatticeKind.BCC, 3}, {LatticeKind.BETHE, 4}, {LatticeKind.BETHE_RANDOM, 4}};
        for (Backend backend : backends) {
            for (Object[] c : cases) {
                try (Lattice lattice = Lattice.create((LatticeKind) c[0], (int) c[1], false, 5);
                        BondPercolation run = BondPercolation.create(lattice, backend, Algorithm.AUTO)) {
                    for (double p : new double[] {0.3, 0.5, 0.7}) {
                        for (long r = 0; r < 4; r++) {
                            byte[] spanning = new byte[1];
                            int[] labels = new int[lattice.siteCount()];
                            run.run(p, 11, r, 1, spanning, labels);
                            int[] expected = bruteForce(lattice, BondPercolation.drawBonds(Backend.CPU_SERIAL,
                                    lattice.bondCount(), 11, r, p));
                            String what = lattice + " p " + p + " realisation " + r + " on " + backend;
                            assertArrayEquals(expected, labels, what);
                            assertEquals(spans(lattice, expected), spanning[0] == 1, what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void pZeroAndOneGiveTheTrivialAnswers() {
        try (Lattice lattice = Lattice.create(LatticeKind.HONEYCOMB, 20, false, 0);
                BondPercolation run = BondPercolation.create(lattice, Backend.CPU_PARALLEL, Algorithm.KOMURA)) {
            int[] labels = new int[lattice.siteCount()];
            assertEquals(0, run.run(0.0, 1, 0, 5, null, labels).spanning());
            for (int v = 0; v < labels.length; v++) {
                assertEquals(v, labels[v]);
            }
            BondPercolation.Result all = run.run(1.0, 1, 0, 5, null, labels);
            assertEquals(5, all.spanning());
            assertEquals(1.0, all.probability());
            assertEquals(0.0, all.error());
            assertTrue(Arrays.stream(labels).allMatch(l -> l == 0));
        }
    }

    @Test
    void everyAlgorithmLabelsTheSameRealisation() {
        try (Lattice lattice = Lattice.create(LatticeKind.TRIANGULAR, 30, false, 0)) {
            int[] reference = null;
            for (Algorithm algorithm : new Algorithm[] {Algorithm.KOMURA, Algorithm.ECL_CC, Algorithm.HAWICK_EDGE,
                    Algorithm.HAWICK_VERTEX, Algorithm.HAWICK_BFS}) {
                try (BondPercolation run = BondPercolation.create(lattice, Backend.CPU_PARALLEL, algorithm)) {
                    int[] labels = new int[lattice.siteCount()];
                    run.run(0.34, 2, 9, 1, null, labels);
                    if (reference == null) {
                        reference = labels;
                    }
                    assertArrayEquals(reference, labels, algorithm.name());
                }
            }
        }
    }
}
