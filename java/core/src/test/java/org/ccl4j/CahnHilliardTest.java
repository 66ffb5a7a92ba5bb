package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.ccl4j.physics.CahnHilliard;
import org.junit.jupiter.api.Test;

class CahnHilliardTest {
    private static double sum(float[] c) {
        double s = 0;
        for (float v : c) {
            s += v;
        }
        return s;
    }

    @Test
    void conservesMassWhileTheDomainsCoarsen() {
        for (CahnHilliard.Boundary boundary : CahnHilliard.Boundary.values()) {
            try (CahnHilliard field = CahnHilliard.create(64, 64, 1,
                    CahnHilliard.Parameters.defaults().withBoundary(boundary).withDt(0.02), Backend.CPU_PARALLEL)) {
                field.init(-0.3, 0.05, 9);
                double before = sum(field.field());
                field.step(3000);
                CahnHilliard.Domains early = field.label(0);
                field.step(6000);
                CahnHilliard.Domains late = field.label(0);
                assertEquals(9000, field.steps());
                assertEquals(180.0, field.time(), 1e-9);
                assertEquals(before, sum(field.field()), 1e-6 * Math.abs(before), boundary + ": mass");
                assertTrue(early.count() > late.count() && late.count() > 0, boundary + ": " + early + " -> " + late);
                assertTrue(late.meanSize() > early.meanSize(), boundary + ": mean size");
                assertEquals(Math.sqrt(late.meanSize()), late.length(), 1e-12);
                assertEquals((double) late.foreground() / late.count(), late.meanSize(), 1e-9);
            }
        }
    }

    @Test
    void domainsAreTheLabellersClustersOfTheThresholdedField() {
        try (CahnHilliard field = CahnHilliard.create(24, 20, 12, CahnHilliard.Parameters.defaults(),
                Backend.CPU_PARALLEL);
                ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL);
                Arena arena = Arena.ofConfined()) {
            field.init(-0.3, 0.05, 4);
            field.step(3000);
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, 24, 20, 12);
            field.threshold(0.0, grid.cells());
            float[] c = field.field();
            for (int i = 0; i < c.length; i++) {
                assertEquals(c[i] > 0 ? 1 : 0, grid.cells().get(ValueLayout.JAVA_BYTE, i));
            }
            MeshLabels expected = labeler.label(grid, MeshOptions.defaults().withPeriodic(true));
            MemorySegment labels = arena.allocate(ValueLayout.JAVA_INT, field.cellCount());
            CahnHilliard.Domains d = field.label(0.0, MeshOptions.defaults().withPeriodic(true), labels);
            assertEquals(expected.count(), d.count());
            assertEquals(Math.cbrt(d.meanSize()), d.length(), 1e-12);
            assertTrue(d.count() > 1);
            for (int i = 0; i < c.length; i++) {
                assertEquals(expected.segment().getAtIndex(ValueLayout.JAVA_INT, i),
                        labels.getAtIndex(ValueLayout.JAVA_INT, i), "cell " + i);
            }
            assertEquals(d.count(), field.label(0.0).count());  // the defaults: periodic like the field
        }
    }

    @Test
    void everyBackendComputesTheSameField() {
        CahnHilliard.Parameters p = CahnHilliard.Parameters.defaults().withBoundary(CahnHilliard.Boundary.NO_FLUX)
                .withDt(0.02);
        try (CahnHilliard a = CahnHilliard.create(40, 30, 1, p, Backend.CPU_PARALLEL);
                CahnHilliard b = CahnHilliard.create(40, 30, 1, p, Backend.CPU_SERIAL)) {
            a.init(0.1, 0.1, 5);
            b.init(0.1, 0.1, 5);
            a.step(200);
            b.step(200);
            float[] expected = a.field();
            assertArrayEquals(expected, b.field());
            if (!ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
                System.out.println("NOTICE: no CUDA device present - the GPU Cahn-Hilliard field is not compared with"
                        + " the CPU's");
                return;
            }
            for (CahnHilliard.Kernel kernel : CahnHilliard.Kernel.values()) {
                try (CahnHilliard g = CahnHilliard.create(40, 30, 1, p.withKernel(kernel), Backend.CUDA)) {
                    g.init(0.1, 0.1, 5);
                    g.step(200);
                    assertArrayEquals(expected, g.field(), 1e-5f, kernel.name());
                    assertEquals(a.label(0).count(), g.label(0).count(), kernel.name());
                }
            }
        }
    }

    @Test
    void aDivergingFieldFailsNamingItsFirstCellThatIsNotFinite() {
        List<Backend> backends = new ArrayList<>(List.of(Backend.CPU_SERIAL, Backend.CPU_PARALLEL));
        if (ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            backends.add(Backend.CUDA);
        } else {
            System.out.println("NOTICE: no CUDA device present - a diverging GPU Cahn-Hilliard field is not checked");
        }
        for (Backend backend : backends) {
            try (CahnHilliard field = CahnHilliard.create(6, 5, 1, CahnHilliard.Parameters.defaults(), backend)) {
                float[] values = new float[30];
                values[13] = 1e15f;  // finite, but its cube is not: cell 13 is (1, 2)
                field.setField(values);
                Ccl4jException e = assertThrows(Ccl4jException.class, () -> field.step(2), backend.name());
                assertEquals(Ccl4jException.Status.NOT_CONVERGED, e.status(), backend.name());
                assertTrue(e.getMessage().contains("diverged") && e.getMessage().contains("after step 2"),
                        e.getMessage());
                assertEquals(2, field.steps(), backend.name());
                field.init(0.1, 0.1, 1);
                field.step(5);  // a field set again runs on
                for (float v : field.field()) {
                    assertTrue(Float.isFinite(v), backend.name());
                }
            }
        }
    }

    @Test
    void setFieldRoundTripsAndResetsTheSteps() {
        try (CahnHilliard field = CahnHilliard.create(5, 3, 2, CahnHilliard.Parameters.defaults(),
                Backend.CPU_SERIAL)) {
            float[] values = new float[30];
            for (int i = 0; i < values.length; i++) {
                values[i] = (i % 7) / 7f - 0.5f;
            }
            field.step(3);
            field.setField(values);
            assertEquals(0, field.steps());
            assertArrayEquals(values, field.field());
            assertEquals(0.01, field.parameters().dt());
            assertEquals(1.0, field.parameters().gradient());
        }
    }

    @Test
    void refusesBadArgumentsBeforeNativeCode() {
        CahnHilliard.Parameters defaults = CahnHilliard.Parameters.defaults();
        assertThrows(IllegalArgumentException.class, () -> defaults.withDt(-1));
        assertThrows(IllegalArgumentException.class, () -> defaults.withGradient(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> defaults.withCpuThreads(-2));
        assertThrows(NullPointerException.class, () -> defaults.withBoundary(null));
        IllegalArgumentException unstable = assertThrows(IllegalArgumentException.class,
                () -> CahnHilliard.create(16, 16, 1, defaults.withDt(0.05), Backend.CPU_PARALLEL));
        assertTrue(unstable.getMessage().contains("stability"), unstable.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CahnHilliard.create(0, 16, 1, defaults, Backend.CPU_PARALLEL));
        assertThrows(UnsupportedOperationException.class, () -> CahnHilliard.create(8, 8, 1, defaults, Backend.JAVA));
        CahnHilliard field = CahnHilliard.create(8, 8, 1, defaults, Backend.CPU_PARALLEL);
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> field.init(2, 0.1, 1));
            assertThrows(IllegalArgumentException.class, () -> field.step(-1));
            assertThrows(IllegalArgumentException.class, () -> field.setField(new float[63]));
            float[] nan = new float[64];
            nan[3] = Float.NaN;
            assertThrows(IllegalArgumentException.class, () -> field.setField(nan));
            assertThrows(IllegalArgumentException.class, () -> field.threshold(0, arena.allocate(63)));
            assertThrows(IllegalArgumentException.class,
                    () -> field.threshold(0, MemorySegment.ofArray(new byte[64])));
            assertThrows(IllegalArgumentException.class,
                    () -> field.threshold(0, arena.allocate(64).asReadOnly()));
            assertThrows(IllegalArgumentException.class, () -> field.label(Double.NaN));
            assertThrows(IllegalArgumentException.class,
                    () -> field.label(0, MeshOptions.defaults(), arena.allocate(ValueLayout.JAVA_INT, 10)));
            assertThrows(IllegalArgumentException.class,
                    () -> field.label(0, MeshOptions.defaults().withConnectivity(26).withConnectivity(7), null));
            assertThrows(UnsupportedOperationException.class,
                    () -> field.label(0, MeshOptions.defaults().withAlgorithm(MeshAlgorithm.JAVA), null));
            assertThrows(UnsupportedOperationException.class,
                    () -> field.label(0, MeshOptions.defaults().withAlgorithm(MeshAlgorithm.UNION_FIND), null));
            MemorySegment freed;
            try (Arena gone = Arena.ofConfined()) {
                freed = gone.allocate(64);
            }
            MemorySegment dead = freed;
            assertThrows(IllegalStateException.class, () -> field.threshold(0, dead));
        } finally {
            field.close();
        }
        field.close();
        assertThrows(IllegalStateException.class, () -> field.step(1));
        assertThrows(IllegalStateException.class, field::field);
    }
}
