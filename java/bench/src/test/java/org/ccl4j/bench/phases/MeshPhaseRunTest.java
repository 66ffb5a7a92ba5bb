package org.ccl4j.bench.phases;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.Grid;
import org.ccl4j.io.grid.GridGenerators;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.MeshUnionFind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-phase runs over meshes from Java: for every native mesh algorithm, the phases in order and
 * from a reset to each phase label the mesh as the Java {@link MeshUnionFind} does, under several
 * connectivities, periodic axes and both modes, dense grids and regions of larger ones; bad
 * arguments give clear exceptions. The GPU algorithms take part when a CUDA device is present;
 * otherwise they are skipped with a notice.
 */
class MeshPhaseRunTest {
    private static final Map<MeshAlgorithm, List<String>> CPU_PHASES = Map.of(
            MeshAlgorithm.CPU_RASTER, List.of("init", "scan"),
            MeshAlgorithm.CPU_EQUIVALENCE, List.of("init", "iterate"),
            MeshAlgorithm.CPU_PARALLEL, List.of("local", "merge", "flatten"));
    private static final Map<MeshAlgorithm, List<String>> GPU_PHASES = Map.of(
            MeshAlgorithm.NEIGHBOR, List.of("init", "propagate"),
            MeshAlgorithm.LOCAL, List.of("init", "propagate"),
            MeshAlgorithm.DIRECTIONAL, List.of("init", "propagate"),
            MeshAlgorithm.EQUIVALENCE, List.of("init", "iterate"),
            MeshAlgorithm.KOMURA, List.of("init", "analysis1", "reduction", "analysis2"),
            MeshAlgorithm.UNION_FIND, List.of("local", "merge", "finalize"));

    private static Arena arena;
    private static Map<String, Grid> grids;
    private static Map<String, MeshOptions> options;

    @BeforeAll
    static void meshes() {
        arena = Arena.ofShared();
        grids = new LinkedHashMap<>();
        options = new LinkedHashMap<>();
        add("2D 97x61 p0.59, 4", GridGenerators.percolation(arena, 97, 61, 0.59, 1), MeshOptions.defaults());
        add("2D 80x50 p0.45, 8, periodic", GridGenerators.percolation(arena, 80, 50, 0.45, 2),
                MeshOptions.defaults().withConnectivity(8).withPeriodic(true));
        add("3D 17x13x11 p0.3, 6", GridGenerators.percolation(arena, 17, 13, 11, 0.3, 3), MeshOptions.defaults());
        add("3D 12x12x12 p0.2, 26, periodic", GridGenerators.percolation(arena, 12, 12, 12, 0.2, 4),
                MeshOptions.defaults().withConnectivity(26).withPeriodic(true));
        Random r = new Random(5);
        int[] values = new int[40 * 30];
        for (int i = 0; i < values.length; i++) {
            values[i] = r.nextInt(3);
        }
        add("2D 40x30 int32, 3 values, same-value", Grid.ofInts(arena, values, 40, 30, 1),
                MeshOptions.defaults().withMode(MeshMode.SAME_VALUE));
        // views: the run gathers or packs the strided cells
        add("region 50x40 of 2D 97x61 p0.59, 8, periodic",
                GridGenerators.percolation(arena, 97, 61, 0.59, 6).region(20, 10, 50, 40),
                MeshOptions.defaults().withConnectivity(8).withPeriodic(true));
        add("region 9x7x5 of 3D 17x13x11 p0.3, 26", GridGenerators.percolation(arena, 17, 13, 11, 0.3, 7)
                .region(3, 2, 4, 9, 7, 5), MeshOptions.defaults().withConnectivity(26));
    }

    private static void add(String name, Grid grid, MeshOptions o) {
        grids.put(name, grid);
        options.put(name, o);
    }

    @AfterAll
    static void close() {
        arena.close();
    }

    private static int[] oracle(Grid grid, MeshOptions o) {
        return MeshUnionFind.label(grid, o).segment().toArray(ValueLayout.JAVA_INT);
    }

    /** In order, then from a reset to every phase. */
    private static void checkSequences(PhaseRun run, int[] expected, String what) {
        int count = run.phases().size();
        for (int i = 0; i < count; i++) {
            assertTrue(run.run(i) >= 0, what + ": time of " + run.phases().get(i));
        }
        assertArrayEquals(expected, run.labels(), what + ": phases in order");
        for (int start = 0; start < count; start++) {
            run.reset(start);
            for (int i = start; i < count; i++) {
                run.run(i);
            }
            assertArrayEquals(expected, run.labels(), what + ": after a reset to " + run.phases().get(start));
        }
    }

    private static void checkAll(Backend backend, Map<MeshAlgorithm, List<String>> phases) {
        for (Map.Entry<MeshAlgorithm, List<String>> a : phases.entrySet()) {
            for (String name : grids.keySet()) {
                MeshOptions o = options.get(name).withAlgorithm(a.getKey());
                String what = backend + " " + a.getKey() + " on " + name;
                try (PhaseRun run = PhaseRun.openMesh(backend, 0, grids.get(name), o)) {
                    assertEquals(a.getValue(), run.phases(), what);
                    checkSequences(run, oracle(grids.get(name), o), what);
                }
            }
        }
    }

    @Test
    void cpuPhasesOfEveryCpuMeshAlgorithmReproduceTheOracle() {
        for (Backend backend : List.of(Backend.CPU_PARALLEL, Backend.CPU_SERIAL)) {
            checkAll(backend, CPU_PHASES);
        }
    }

    @Test
    void cudaPhasesOfEveryGpuMeshAlgorithmReproduceTheOracle() {
        if (!ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            System.out.println("SKIPPED MeshPhaseRunTest CUDA: no CUDA device here");
            return;
        }
        checkAll(Backend.CUDA, GPU_PHASES);
    }

    @Test
    void badArgumentsAreRejectedClearly() {
        Grid grid = grids.values().iterator().next();
        IllegalArgumentException java = assertThrows(IllegalArgumentException.class,
                () -> PhaseRun.openMesh(Backend.CPU_PARALLEL, 0, grid, MeshOptions.defaults().withAlgorithm(MeshAlgorithm.JAVA)));
        assertTrue(java.getMessage().contains("no native phases"), java.getMessage());
        UnsupportedOperationException gpu = assertThrows(UnsupportedOperationException.class,
                () -> PhaseRun.openMesh(Backend.CPU_PARALLEL, 0, grid,
                        MeshOptions.defaults().withAlgorithm(MeshAlgorithm.UNION_FIND)));
        assertTrue(gpu.getMessage().contains("needs a CUDA context"), gpu.getMessage());
        IllegalArgumentException connectivity = assertThrows(IllegalArgumentException.class,
                () -> PhaseRun.openMesh(Backend.CPU_PARALLEL, 0, grids.get("3D 17x13x11 p0.3, 6"),
                        MeshOptions.defaults().withConnectivity(8)));
        assertTrue(connectivity.getMessage().contains("connectivity"), connectivity.getMessage());
        try (PhaseRun run = PhaseRun.openMesh(Backend.CPU_SERIAL, 0, grid, MeshOptions.defaults())) {
            assertEquals(List.of("local", "merge", "flatten"), run.phases());
            IllegalArgumentException order = assertThrows(IllegalArgumentException.class, () -> run.run(2));
            assertTrue(order.getMessage().contains("ccl4j_phase_run_reset"), order.getMessage());
            assertThrows(IllegalArgumentException.class, () -> run.phase("scan"));
        }
    }
}
