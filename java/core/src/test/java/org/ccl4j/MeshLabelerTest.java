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

import org.junit.jupiter.api.Test;

/**
 * Mesh labelling through {@link ComponentLabeler}: explicit cases (wrap-around, single rows and
 * columns, all background, all foreground, volumes) on every CPU algorithm and backend, the three
 * entry points, timings, and bad input (clear exceptions, never a crash).
 */
class MeshLabelerTest {
    private record Run(Backend backend, MeshAlgorithm algorithm) {
    }

    private static List<Run> cpuRuns() {
        List<Run> runs = new ArrayList<>();
        runs.add(new Run(Backend.JAVA, MeshAlgorithm.AUTO));
        for (Backend b : List.of(Backend.CPU_SERIAL, Backend.CPU_PARALLEL)) {
            for (MeshAlgorithm a : List.of(MeshAlgorithm.AUTO, MeshAlgorithm.CPU_RASTER, MeshAlgorithm.CPU_EQUIVALENCE,
                    MeshAlgorithm.CPU_PARALLEL, MeshAlgorithm.JAVA)) {
                runs.add(new Run(b, a));
            }
        }
        return runs;
    }

    /** Labels grid on every CPU run and checks each result against expected. */
    private static void expect(int[] expected, Grid grid, MeshOptions options) {
        for (Run run : cpuRuns()) {
            try (ComponentLabeler labeler = ComponentLabeler.create(run.backend())) {
                MeshLabels labels = labeler.label(grid, options.withAlgorithm(run.algorithm()));
                assertArrayEquals(expected, labels.toArray(), run + " on " + grid + " with " + options);
            }
        }
    }

    @Test
    void theHandCheckedGridOnEveryCpuRun() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.ofBytes(arena, MeshUnionFindTest.CELLS, 5, 4);
            for (MeshOptions o : List.of(MeshOptions.defaults(), MeshOptions.defaults().withConnectivity(8),
                    MeshOptions.defaults().withPeriodic(true, false, false),
                    MeshOptions.defaults().withPeriodic(false, true, false),
                    MeshOptions.defaults().withMode(MeshMode.SAME_VALUE))) {
                expect(MeshUnionFindTest.label(o), grid, o);
            }
        }
    }

    @Test
    void wrapAroundInThreeDimensions() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.allocate(arena, Grid.CellType.I32, 3, 3, 3);
            grid.set(1, 1, 0, 7);
            grid.set(1, 1, 2, 7);
            int a = (int) grid.index(1, 1, 0);
            int b = (int) grid.index(1, 1, 2);
            int[] open = new int[27];
            java.util.Arrays.fill(open, -1);
            open[a] = a;
            open[b] = b;
            expect(open, grid, MeshOptions.defaults());
            int[] wrapped = open.clone();
            wrapped[b] = a;
            expect(wrapped, grid, MeshOptions.defaults().withPeriodic(false, false, true));
            expect(open, grid, MeshOptions.defaults().withPeriodic(true, true, false));

            Grid corners = Grid.allocate(arena, Grid.CellType.U8, 3, 3, 3);
            corners.set(0, 0, 0, 1);
            corners.set(2, 2, 2, 1);
            int[] apart = new int[27];
            java.util.Arrays.fill(apart, -1);
            apart[0] = 0;
            apart[26] = 26;
            expect(apart, corners, MeshOptions.defaults().withConnectivity(26));
            expect(apart, corners, MeshOptions.defaults().withPeriodic(true));
            apart[26] = 0;
            expect(apart, corners, MeshOptions.defaults().withConnectivity(26).withPeriodic(true));
        }
    }

    /** A W×H×1 volume with 6 or 26, periodic z or not, on every CPU run: as 4 or 8 (scikit-image and cc3d agree). */
    @Test
    void aSingleLayerTakesTheThreeDimensionalStencils() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.ofBytes(arena, MeshUnionFindTest.CELLS, 5, 4);
            for (boolean periodicZ : new boolean[] {false, true}) {
                for (MeshMode mode : MeshMode.values()) {
                    MeshOptions planar = MeshOptions.defaults().withMode(mode).withPeriodic(true, false, periodicZ);
                    expect(MeshUnionFindTest.label(planar.withConnectivity(4)), grid, planar.withConnectivity(6));
                    expect(MeshUnionFindTest.label(planar.withConnectivity(8)), grid, planar.withConnectivity(26));
                }
            }
            // by hand: (0,2) and (1,1) touch at a corner only
            Grid corner = Grid.ofBytes(arena, new byte[] {0, 1, 1, 0}, 2, 2);
            expect(new int[] {-1, 1, 1, -1}, corner, MeshOptions.defaults().withConnectivity(26).withPeriodic(false,
                    false, true));
            expect(new int[] {-1, 1, 2, -1}, corner, MeshOptions.defaults().withConnectivity(6).withPeriodic(false,
                    false, true));
        }
    }

    @Test
    void singleRowsAndColumns() {
        try (Arena arena = Arena.ofConfined()) {
            byte[] cells = {1, 1, 0, 1, 0, 0, 1, 1, 1};
            int[] expected = {0, 0, -1, 3, -1, -1, 6, 6, 6};
            for (Grid g : List.of(Grid.ofBytes(arena, cells, 9, 1), Grid.ofBytes(arena, cells, 1, 9))) {
                expect(expected, g, MeshOptions.defaults());
                expect(expected, g, MeshOptions.defaults().withConnectivity(8));
                int[] wrapped = expected.clone();
                wrapped[6] = wrapped[7] = wrapped[8] = 0;
                expect(wrapped, g, MeshOptions.defaults().withPeriodic(true));
            }
            Grid single = Grid.ofBytes(arena, new byte[] {3}, 1, 1);
            expect(new int[] {0}, single, MeshOptions.defaults().withConnectivity(8).withPeriodic(true));
        }
    }

    @Test
    void allBackgroundAndAllForeground() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, 17, 9, 1);
            int[] background = new int[(int) grid.cellCount()];
            java.util.Arrays.fill(background, -1);
            expect(background, grid, MeshOptions.defaults().withConnectivity(8).withPeriodic(true));
            expect(new int[(int) grid.cellCount()], grid, MeshOptions.defaults().withMode(MeshMode.SAME_VALUE));
            for (int i = 0; i < grid.cellCount(); i++) {
                grid.set(i, 200);
            }
            expect(new int[(int) grid.cellCount()], grid, MeshOptions.defaults());
            try (ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
                MeshLabels labels = labeler.label(grid);
                assertEquals(1, labels.count());
                assertEquals(grid.cellCount(), labels.largestComponentSize());
            }
        }
    }

    @Test
    void theThreeEntryPointsAndTheTimings() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
            Grid grid = Grid.ofBytes(arena, MeshUnionFindTest.CELLS, 5, 4);
            int[] expected = MeshUnionFindTest.label(MeshOptions.defaults());
            MemorySegment mine = arena.allocate(ValueLayout.JAVA_INT, 20);
            MeshLabels intoMine = labeler.label(grid, MeshOptions.defaults(), mine);
            assertArrayEquals(expected, mine.toArray(ValueLayout.JAVA_INT));
            assertEquals(mine.address(), intoMine.segment().address());
            assertArrayEquals(expected, labeler.label(grid, MeshOptions.defaults(), arena).toArray());
            MeshLabels labels = labeler.label(grid);
            assertArrayEquals(expected, labels.toArray());
            Timings t = labels.timings();
            assertEquals(Backend.CPU_PARALLEL, t.backend());
            assertEquals(MeshAlgorithm.CPU_PARALLEL, t.algorithm());
            assertEquals(List.of("local", "merge", "flatten"), List.copyOf(t.phasesMs().keySet()));
            assertTrue(t.totalMs() >= 0);

            Timings raster = labeler.label(grid, MeshOptions.defaults().withAlgorithm(MeshAlgorithm.CPU_RASTER))
                    .timings();
            assertEquals(List.of("init", "scan"), List.copyOf(raster.phasesMs().keySet()));
            assertTrue(raster.iterations() >= 2, "scans: " + raster.iterations());
            Timings equivalence = labeler.label(grid,
                    MeshOptions.defaults().withAlgorithm(MeshAlgorithm.CPU_EQUIVALENCE)).timings();
            assertEquals(List.of("init", "scan", "analysis", "labelling"), List.copyOf(equivalence.phasesMs().keySet()));
        }
    }

    @Test
    void theIterationLimitStopsTheIterativeAlgorithms() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_SERIAL)) {
            // A U-shaped cluster whose lower-right arm needs a backward scan.
            Grid grid = Grid.ofBytes(arena, new byte[] {1, 0, 1, 1, 0, 1, 1, 1, 1}, 3, 3);
            for (MeshAlgorithm a : List.of(MeshAlgorithm.CPU_RASTER, MeshAlgorithm.CPU_EQUIVALENCE)) {
                var e = assertThrows(Ccl4jException.class,
                        () -> labeler.label(grid, MeshOptions.defaults().withAlgorithm(a).withMaxIterations(1)));
                assertTrue(e.getMessage().contains("did not converge within 1"), e.getMessage());
            }
        }
    }

    @Test
    void badInputIsRefusedWithAClearMessage() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler cpu = ComponentLabeler.create(Backend.CPU_PARALLEL);
             ComponentLabeler java = ComponentLabeler.create(Backend.JAVA)) {
            Grid flat = Grid.ofBytes(arena, MeshUnionFindTest.CELLS, 5, 4);
            Grid volume = Grid.allocate(arena, Grid.CellType.U8, 3, 3, 2);
            assertMessage("connectivity 4 does not fit Grid[3x3x2, U8]", IllegalArgumentException.class,
                    () -> java.label(volume, MeshOptions.defaults().withConnectivity(4)));
            assertMessage("connectivity 8 does not fit Grid[3x3x2, U8]", IllegalArgumentException.class,
                    () -> cpu.label(volume, MeshOptions.defaults().withConnectivity(8)));
            assertMessage("connectivity must be 4 or 8 (2D), 6, 18 or 26 (3D), or 0 for face neighbours, got 5",
                    IllegalArgumentException.class, () -> MeshOptions.defaults().withConnectivity(5));
            assertMessage("tileSize must not be negative", IllegalArgumentException.class,
                    () -> MeshOptions.defaults().withTileSize(-1));
            assertMessage("maxIterations must not be negative", IllegalArgumentException.class,
                    () -> MeshOptions.defaults().withMaxIterations(-1));
            assertMessage("blockSize must be 0 or a multiple of 32", IllegalArgumentException.class,
                    () -> MeshOptions.defaults().withBlockSize(33));
            assertMessage("the mesh algorithm KOMURA runs on [CUDA], not on CPU_PARALLEL",
                    UnsupportedOperationException.class,
                    () -> cpu.label(flat, MeshOptions.defaults().withAlgorithm(MeshAlgorithm.KOMURA)));
            assertMessage("the mesh algorithm CPU_RASTER runs on [CPU_PARALLEL, CPU_SERIAL], not on JAVA",
                    UnsupportedOperationException.class,
                    () -> java.label(flat, MeshOptions.defaults().withAlgorithm(MeshAlgorithm.CPU_RASTER)));
            assertMessage("labels segment holds 19 ints but Grid[5x4, U8] has 20 cells", IllegalArgumentException.class,
                    () -> cpu.label(flat, MeshOptions.defaults(), arena.allocate(ValueLayout.JAVA_INT, 19)));
            assertMessage("labels must be a writable native (off-heap) segment", IllegalArgumentException.class,
                    () -> cpu.label(flat, MeshOptions.defaults(), MemorySegment.ofArray(new int[20])));
            assertMessage("labels must be a writable native (off-heap) segment", IllegalArgumentException.class,
                    () -> cpu.label(flat, MeshOptions.defaults(), arena.allocate(80).asReadOnly()));
            assertMessage("labels segment is not aligned to 4 bytes", IllegalArgumentException.class,
                    () -> cpu.label(flat, MeshOptions.defaults(), arena.allocate(88, 8).asSlice(2, 80)));
            Grid onHeap = Grid.wrap(MemorySegment.ofArray(MeshUnionFindTest.CELLS.clone()), Grid.CellType.U8, 5, 4);
            assertMessage("are on the Java heap; the CPU_PARALLEL backend needs them off-heap",
                    IllegalArgumentException.class, () -> cpu.label(onHeap, MeshOptions.defaults()));
            // The Java backend labels heap grids.
            assertArrayEquals(MeshUnionFindTest.label(MeshOptions.defaults()), java.label(onHeap).toArray());
            assertThrows(NullPointerException.class, () -> cpu.label((Grid) null, MeshOptions.defaults()));
            assertThrows(NullPointerException.class, () -> cpu.label(flat, (MeshOptions) null));
            cpu.close();
            assertMessage("this ComponentLabeler is closed", IllegalStateException.class, () -> cpu.label(flat));
        }
    }

    @Test
    void labelsInAJavaArrayAreCountedInJava() {
        // two components in a 3x2 mesh: {0, 1, 3} and {5}; cells 2 and 4 are background
        int[] cells = {0, 0, -1, 0, -1, 5};
        MeshLabels labels = new MeshLabels(3, 2, 1, java.lang.foreign.MemorySegment.ofArray(cells), null);
        assertEquals(2, labels.count());
        assertEquals(3, labels.largestComponentSize());
        assertEquals(0, labels.largestComponentLabel());
        assertEquals(1, labels.componentSize(2, 1, 0));
        assertEquals(2, labels.labels().sizes().byteSize() / Integer.BYTES);
    }

    @Test
    void meshAlgorithmsKnowTheirBackends() {
        assertTrue(MeshAlgorithm.UNION_FIND.runsOn(Backend.CUDA) && !MeshAlgorithm.UNION_FIND.runsOn(Backend.CPU_SERIAL));
        assertTrue(MeshAlgorithm.CPU_PARALLEL.runsOn(Backend.CPU_SERIAL) && !MeshAlgorithm.CPU_PARALLEL.runsOn(Backend.CUDA));
        assertTrue(MeshAlgorithm.JAVA.runsOn(Backend.CUDA) && MeshAlgorithm.JAVA.runsOn(Backend.JAVA));
    }

    private static void assertMessage(String fragment, Class<? extends Throwable> type,
                                      org.junit.jupiter.api.function.Executable call) {
        Throwable e = assertThrows(type, call);
        assertTrue(e.getMessage() != null && e.getMessage().contains(fragment),
                "expected a message containing '" + fragment + "', got '" + e.getMessage() + "'");
    }
}
