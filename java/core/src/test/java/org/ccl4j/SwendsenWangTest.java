package org.ccl4j;

import org.ccl4j.physics.Lattice;
import org.ccl4j.physics.LatticeKind;
import org.ccl4j.physics.SwendsenWang;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SwendsenWangTest {
    private static double meanAbs(double[] values, int from) {
        double sum = 0;
        for (int i = from; i < values.length; i++) {
            sum += Math.abs(values[i]);
        }
        return sum / (values.length - from);
    }

    @Test
    void orderedAtLowTemperatureAndDisorderedAtHigh() {
        for (LatticeKind kind : new LatticeKind[] {LatticeKind.SQUARE, LatticeKind.SIMPLE_CUBIC}) {
            int length = kind == LatticeKind.SQUARE ? 24 : 8;
            try (Lattice lattice = Lattice.create(kind, length, true, 0);
                    SwendsenWang cold = SwendsenWang.create(lattice, Backend.CPU_PARALLEL, Algorithm.AUTO, 1);
                    SwendsenWang hot = SwendsenWang.create(lattice, Backend.CPU_PARALLEL, Algorithm.AUTO, 1)) {
                SwendsenWang.Sweeps c = cold.sweep(1.0, 60);
                SwendsenWang.Sweeps h = hot.sweep(30.0, 60);
                assertTrue(meanAbs(c.magnetisation(), 20) > 0.99, kind + " cold |m|");
                assertTrue(meanAbs(h.magnetisation(), 20) < 0.15, kind + " hot |m|");
                // the ground state has energy -z/2 per spin
                assertEquals(kind == LatticeKind.SQUARE ? -2.0 : -3.0, c.energy()[59], 0.1);
            }
        }
    }

    @Test
    void theChainIsTheSameOnEveryBackend() {
        try (Lattice lattice = Lattice.create(LatticeKind.SQUARE, 16, true, 0);
                SwendsenWang a = SwendsenWang.create(lattice, Backend.CPU_PARALLEL, Algorithm.KOMURA, 4);
                SwendsenWang b = SwendsenWang.create(lattice, Backend.CPU_SERIAL, Algorithm.ECL_CC, 4)) {
            SwendsenWang.Sweeps x = a.sweep(2.27, 30);
            SwendsenWang.Sweeps y = b.sweep(2.27, 30);
            assertArrayEquals(x.magnetisation(), y.magnetisation());
            assertArrayEquals(x.energy(), y.energy());
            if (!ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
                System.out.println("NOTICE: no CUDA device present - the GPU chain is not compared with the CPU's");
                return;
            }
            try (SwendsenWang g = SwendsenWang.create(lattice, Backend.CUDA, Algorithm.KOMURA, 4)) {
                SwendsenWang.Sweeps z = g.sweep(2.27, 30);
                assertArrayEquals(x.magnetisation(), z.magnetisation());
                assertArrayEquals(x.energy(), z.energy());
            }
        }
    }
}
