package org.ccl4j;

import org.ccl4j.testing.Graphs;
import org.ccl4j.testing.Oracle;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

class ComponentLabelerTest {

    /** 0-1-2 path, 3 isolated, 4-5 edge. */
    private static CsrGraph small(Arena arena) {
        return CsrGraph.fromArrays(arena, new int[] {0, 1, 3, 4, 4, 5, 6}, new int[] {1, 0, 2, 1, 5, 4});
    }

    @Test
    void labelsAreCanonicalOnEveryCpuBackend() {
        try (Arena arena = Arena.ofConfined()) {
            for (Backend b : new Backend[] {Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL, Backend.AUTO}) {
                try (ComponentLabeler labeler = ComponentLabeler.create(b)) {
                    Labels labels = labeler.label(small(arena));
                    assertArrayEquals(new int[] {0, 0, 0, 3, 4, 4}, labels.toArray(), b.toString());
                    assertEquals(3, labels.count());
                    assertEquals(3, labels.largestComponentSize());
                    assertEquals(0, labels.largestComponentLabel());
                    assertEquals(2, labels.componentSize(5));
                    assertTrue(labels.timings().totalMs() >= 0);
                    assertFalse(labels.timings().phasesMs().isEmpty(), "phases of " + b);
                }
            }
        }
    }

    @Test
    void timingsNameEachPhase() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_SERIAL)) {
            CsrGraph graph = small(arena);
            // arrays copied by fromArrays are checked at their first labelling only
            Timings first = labeler.label(graph).timings();
            assertEquals(java.util.List.of("check", "init", "sample", "compress", "link", "finalize"),
                    java.util.List.copyOf(first.phasesMs().keySet()));
            Timings t = labeler.label(graph).timings();
            assertEquals(java.util.List.of("init", "sample", "compress", "link", "finalize"),
                    java.util.List.copyOf(t.phasesMs().keySet()));
            for (double ms : t.phasesMs().values()) {
                assertTrue(ms >= 0 && ms <= t.totalMs(), t.toString());
            }
            assertEquals(Algorithm.AFFOREST, t.algorithm());
        }
    }

    @Test
    void autoResolvesToCudaOnlyWhenADeviceIsPresent() {
        boolean cuda = ComponentLabeler.capabilities().backends().contains(Backend.CUDA);
        try (ComponentLabeler labeler = ComponentLabeler.create()) {
            assertEquals(cuda ? Backend.CUDA : Backend.CPU_PARALLEL, labeler.backend());
        }
    }

    @Test
    void cudaWithoutADeviceIsUnavailableWithAMessage() {
        if (ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            System.out.println("NOTICE: a CUDA device is present - the no-device error path is not exercised");
            return;
        }
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class,
                () -> ComponentLabeler.create(Backend.CUDA));
        assertFalse(e.getMessage().isBlank());
    }

    @Test
    void emptyGraphHasNoComponents() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
            Labels labels = labeler.label(CsrGraph.fromArrays(arena, new int[] {0}, new int[0]));
            assertEquals(0, labels.vertexCount());
            assertEquals(0, labels.count());
            assertEquals(0, labels.largestComponentSize());
            assertEquals(-1, labels.largestComponentLabel());
        }
    }

    @Test
    void inputChecksRejectAnAsymmetricGraphOnEveryBackend() {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph oneWay = CsrGraph.fromArrays(arena, new int[] {0, 1, 1}, new int[] {1});
            for (Backend b : new Backend[] {Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL}) {
                try (ComponentLabeler labeler = ComponentLabeler.create(b)) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> labeler.label(oneWay, LabelOptions.defaults().withCheckInput(true)));
                    assertTrue(e.getMessage().contains("symmetric") || e.getMessage().contains("arcs"), e.getMessage());
                }
            }
            assertThrows(IllegalArgumentException.class, oneWay::check);
        }
    }

    @Test
    void threadCountsBeyondTheMachineAreRefusedNotFatal() {
        // Every labelling thread keeps its worker threads alive: the library refuses counts far beyond the machine
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> labeler.label(small(arena), LabelOptions.defaults().withCpuThreads(100_000)));
            assertTrue(e.getMessage().contains("cpu_threads 100000"), e.getMessage());
            assertEquals(3, labeler.label(small(arena), LabelOptions.defaults().withCpuThreads(256)).count());
        }
    }

    @Test
    void labelsSharingMemoryWithTheInputAreRefusedOnEveryBackend() {
        try (Arena arena = Arena.ofConfined()) {
            int[] values = new int[300 * 300];
            for (int i = 0; i < values.length; i++) {
                values[i] = (i * 7919) % 3;  // a same-value field with many small clusters
            }
            Grid grid = Grid.ofInts(arena, values, 300, 300, 1);
            MemorySegment offsets = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 3, 4, 4, 5, 6);
            MemorySegment neighbors = arena.allocateFrom(ValueLayout.JAVA_INT, 1, 0, 2, 1, 5, 4);
            CsrGraph graph = CsrGraph.wrap(offsets, Integer.BYTES, neighbors);
            for (Backend b : new Backend[] {Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL}) {
                try (ComponentLabeler labeler = ComponentLabeler.create(b)) {
                    IllegalArgumentException cells = assertThrows(IllegalArgumentException.class, () -> labeler.label(
                            grid, MeshOptions.defaults().withMode(MeshMode.SAME_VALUE), grid.cells()));
                    assertTrue(cells.getMessage().contains("overlaps the cells"), cells.getMessage());
                    IllegalArgumentException arcs = assertThrows(IllegalArgumentException.class,
                            () -> labeler.label(graph, LabelOptions.defaults(), neighbors));
                    assertTrue(arcs.getMessage().contains("overlaps the graph's neighbours"), arcs.getMessage());
                }
            }
        }
    }

    @Test
    void unsupportedCombinationsAreRefused() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler java = ComponentLabeler.create(Backend.JAVA)) {
            assertThrows(UnsupportedOperationException.class,
                    () -> java.label(small(arena), LabelOptions.defaults().withAlgorithm(Algorithm.ECL_CC)));
            assertThrows(UnsupportedOperationException.class, () -> java.upload(small(arena)));
        }
    }

    @Test
    void aClosedLabelerRefusesWork() {
        try (Arena arena = Arena.ofConfined()) {
            ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_SERIAL);
            labeler.close();
            labeler.close();
            assertThrows(IllegalStateException.class, () -> labeler.label(small(arena)));
        }
    }

    @Test
    void optionsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> LabelOptions.defaults().withBlockSize(100));
        assertThrows(IllegalArgumentException.class, () -> LabelOptions.defaults().withCpuThreads(-1));
        assertThrows(IllegalArgumentException.class, () -> LabelOptions.defaults().withDegreeThresholds(400, 300));
        assertThrows(IllegalArgumentException.class, () -> ComponentLabeler.create(Backend.CPU_PARALLEL, -1));
    }

    @Test
    void pinnedMemoryIsUsableAndFreedWithItsArena() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = PinnedMemory.allocate(arena, 1 << 20);
            assertEquals(1 << 20, s.byteSize());
            assertEquals(0, s.address() % 64);
            s.setAtIndex(ValueLayout.JAVA_INT, (1 << 18) - 1, 42);
            assertEquals(42, s.getAtIndex(ValueLayout.JAVA_INT, (1 << 18) - 1));
        }
        assertThrows(IllegalArgumentException.class, () -> PinnedMemory.allocate(Arena.ofAuto(), -1));
    }

    @Test
    void capabilitiesDescribeTheLibrary() {
        Capabilities c = ComponentLabeler.capabilities();
        assertTrue(c.version().matches("\\d+\\.\\d+\\.\\d+"), c.version());
        assertTrue(c.backends().containsAll(java.util.Set.of(Backend.JAVA, Backend.CPU_PARALLEL, Backend.CPU_SERIAL)));
        assertTrue(c.cpuThreads() >= 1);
        assertEquals(c.backends().contains(Backend.CUDA), !c.devices().isEmpty());
    }

    @Test
    void residentGraphsLabelLikeHostGraphsOnCuda() {
        if (!ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            System.out.println("NOTICE: no CUDA device present - device-resident graphs are not exercised");
            return;
        }
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CUDA)) {
            Graphs.EdgeList edges = Graphs.make(8, 50_000, 7);
            CsrGraph g = edges.toCsr(arena);
            int[] expected = Oracle.labels(g);
            try (DeviceGraph resident = labeler.upload(g)) {
                assertEquals(g.vertexCount(), resident.vertexCount());
                assertTrue(resident.uploadMs() > 0);
                for (int run = 0; run < 3; run++) {
                    ComponentLabeler.LabelRun withLabels = labeler.label(resident, LabelOptions.defaults(), arena);
                    assertArrayEquals(expected, withLabels.labels().toArray());
                    ComponentLabeler.LabelRun kernelOnly = labeler.label(resident, LabelOptions.defaults(), null);
                    assertEquals(null, kernelOnly.labels());
                    assertFalse(kernelOnly.timings().phasesMs().containsKey("d2h"), kernelOnly.timings().toString());
                    assertTrue(kernelOnly.timings().phasesMs().containsKey("compute1"), kernelOnly.timings().toString());
                }
            }
            MemorySegment pinnedLabels = PinnedMemory.allocate(arena, (long) g.vertexCount() * Integer.BYTES);
            Labels labels = labeler.label(g, LabelOptions.defaults(), pinnedLabels);
            assertArrayEquals(expected, labels.toArray());
            assertTrue(labels.timings().phasesMs().keySet().containsAll(
                    java.util.List.of("h2d", "init", "compute1", "compute2", "compute3", "finalize", "d2h")),
                    labels.timings().toString());
        }
    }
}
