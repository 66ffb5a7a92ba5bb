package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.testing.MeshTestSupport;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GridGeneratorsTest {

    @Test
    void spiralOfNineMatchesTheDrawing() {
        String[] rows = {
            "111111111",
            "222222221",
            "111111121",
            "122222121",
            "121112121",
            "121222121",
            "121111121",
            "122222221",
            "111111111"};
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridGenerators.spiral(arena, 9);
            for (int y = 0; y < 9; y++) {
                for (int x = 0; x < 9; x++) {
                    assertEquals(rows[y].charAt(x) - '0', g.get(x, y, 0), "cell " + x + "," + y);
                }
            }
        }
    }

    @Test
    void spiralsAreTwoOneCellWidePaths() {
        try (Arena arena = Arena.ofConfined()) {
            for (int n = 2; n <= 70; n++) {
                Grid g = GridGenerators.spiral(arena, n);
                assertEquals(Grid.CellType.U8, g.type());
                assertEquals(2, MeshTestSupport.clusterCount(g), "same-value clusters of spiral " + n);
                for (int y = 0; y < n; y++) {
                    for (int x = 0; x < n; x++) {
                        int v = g.get(x, y, 0);
                        assertTrue(v == 1 || v == 2);
                        if (x + 1 < n && y + 1 < n) {
                            boolean block = v == g.get(x + 1, y, 0) && v == g.get(x, y + 1, 0)
                                    && v == g.get(x + 1, y + 1, 0);
                            assertFalse(block, "spiral " + n + " has a 2x2 block of " + v + " at " + x + "," + y);
                        }
                        int same = 0;
                        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
                        for (int[] s : steps) {
                            int nx = x + s[0];
                            int ny = y + s[1];
                            if (nx >= 0 && ny >= 0 && nx < n && ny < n && g.get(nx, ny, 0) == v) {
                                same++;
                            }
                        }
                        assertTrue(same >= 1 && same <= 2, "spiral " + n + ": cell " + x + "," + y
                                + " has " + same + " neighbours of its value, a path cell has 1 or 2");
                    }
                }
            }
        }
    }

    @Test
    void spiralOfOneIsOneCell() {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridGenerators.spiral(arena, 1);
            assertEquals(1, g.cellCount());
            assertEquals(1, g.get(0));
        }
    }

    @Test
    void percolationIsTheSplittableRandomStream() {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridGenerators.percolation(arena, 1500, 1000, 0.4, 42);
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < g.cellCount(); i++) {
                assertEquals(random.nextDouble() < 0.4 ? 1 : 0, g.get(i), "cell " + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.1, 0.5, 0.5927, 0.9})
    void percolationDensityIsWithinFiveSigma(double p) {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridGenerators.percolation(arena, 300, 200, 10, p, 7);
            long ones = 0;
            for (int i = 0; i < g.cellCount(); i++) {
                ones += g.get(i);
            }
            double n = g.cellCount();
            double sigma = Math.sqrt(n * p * (1 - p));
            assertTrue(Math.abs(ones - n * p) < 5 * sigma, ones + " ones in " + n + " cells at p=" + p);
        }
    }

    @Test
    void percolationIsReproducibleAndSeedDependent() {
        try (Arena arena = Arena.ofConfined()) {
            int[] a = MeshTestSupport.values(GridGenerators.percolation(arena, 64, 64, 64, 0.3, 5));
            int[] b = MeshTestSupport.values(GridGenerators.percolation(arena, 64, 64, 64, 0.3, 5));
            int[] c = MeshTestSupport.values(GridGenerators.percolation(arena, 64, 64, 64, 0.3, 6));
            assertArrayEquals(a, b);
            assertFalse(java.util.Arrays.equals(a, c));
        }
    }

    @Test
    void percolationExtremes() {
        try (Arena arena = Arena.ofConfined()) {
            Grid empty = GridGenerators.percolation(arena, 50, 40, 0.0, 1);
            Grid full = GridGenerators.percolation(arena, 50, 40, 1.0, 1);
            for (int i = 0; i < empty.cellCount(); i++) {
                assertEquals(0, empty.get(i));
                assertEquals(1, full.get(i));
            }
            assertThrows(IllegalArgumentException.class, () -> GridGenerators.percolation(arena, 5, 5, 1.5, 1));
            assertThrows(IllegalArgumentException.class, () -> GridGenerators.percolation(arena, 5, 5, Double.NaN, 1));
            assertThrows(IllegalArgumentException.class, () -> GridGenerators.percolation(arena, -5, 5, 0.5, 1));
        }
    }

    @Test
    void alloyConservesCompositionAndCoarsens2d() {
        try (Arena arena = Arena.ofConfined()) {
            Grid start = GridGenerators.alloy(arena, Grid.CellType.U8, 96, 80, 1, 0, 11);
            Grid later = GridGenerators.alloy(arena, Grid.CellType.U8, 96, 80, 1, 20, 11);
            assertEquals(96 * 80 / 2, ones(start));
            assertEquals(96 * 80 / 2, ones(later));
            long before = MeshTestSupport.interfaces(start);
            long after = MeshTestSupport.interfaces(later);
            assertTrue(after < 0.7 * before, "interfaces " + before + " -> " + after);
            assertTrue(MeshTestSupport.clusterCount(later) < MeshTestSupport.clusterCount(start) / 3,
                    "clusters " + MeshTestSupport.clusterCount(start) + " -> " + MeshTestSupport.clusterCount(later));
        }
    }

    @Test
    void alloyConservesCompositionAndCoarsens3dWithOddExtents() {
        try (Arena arena = Arena.ofConfined()) {
            Grid start = GridGenerators.alloy(arena, Grid.CellType.I32, 21, 17, 15, 0, 3);
            Grid later = GridGenerators.alloy(arena, Grid.CellType.I32, 21, 17, 15, 8, 3);
            assertEquals(Grid.CellType.I32, later.type());
            assertEquals(21 * 17 * 15 / 2, ones(start));
            assertEquals(21 * 17 * 15 / 2, ones(later));
            long before = MeshTestSupport.interfaces(start);
            long after = MeshTestSupport.interfaces(later);
            assertTrue(after < 0.8 * before, "interfaces " + before + " -> " + after);
        }
    }

    @Test
    void alloyDoesNotDependOnTheThreadCount() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            int[] common = MeshTestSupport.values(GridGenerators.alloy(arena, Grid.CellType.U8, 40, 30, 6, 4, 9));
            ForkJoinPool single = new ForkJoinPool(1);
            try {
                int[] serial = single.submit(() -> MeshTestSupport.values(
                        GridGenerators.alloy(arena, Grid.CellType.U8, 40, 30, 6, 4, 9))).get();
                assertArrayEquals(common, serial);
            } finally {
                single.shutdown();
            }
        }
    }

    @Test
    void alloyValuesAreZeroAndOne() {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = GridGenerators.alloy(arena, Grid.CellType.U8, 9, 1, 1, 3, 1);
            for (int i = 0; i < g.cellCount(); i++) {
                assertTrue(g.get(i) == 0 || g.get(i) == 1);
            }
            assertEquals(4, ones(g));
        }
    }

    @Test
    void specsBuildTheGenerators() {
        try (Arena arena = Arena.ofConfined()) {
            Grid spiral = GridGenerators.fromSpec("spiral:16", arena);
            assertEquals(new GridDims(16, 16, 1), GridDims.of(spiral));
            assertArrayEquals(MeshTestSupport.values(GridGenerators.spiral(arena, 16)), MeshTestSupport.values(spiral));

            Grid percolation = GridGenerators.fromSpec("percolation:30x20x4:0.25:-3", arena);
            assertEquals(new GridDims(30, 20, 4), GridDims.of(percolation));
            assertArrayEquals(MeshTestSupport.values(GridGenerators.percolation(arena, 30, 20, 4, 0.25, -3)),
                    MeshTestSupport.values(percolation));

            Grid alloy = GridGenerators.fromSpec("alloy:24:2:5", arena);
            assertEquals(new GridDims(24, 24, 1), GridDims.of(alloy));
            assertArrayEquals(MeshTestSupport.values(GridGenerators.alloy(arena, Grid.CellType.U8, 24, 24, 1, 2, 5)),
                    MeshTestSupport.values(alloy));
            assertEquals(new GridDims(8, 6, 4), GridDims.of(GridGenerators.fromSpec("alloy:8x6x4:1:5", arena)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "spiral", "spiral:", "spiral:0", "spiral:-4", "spiral:ten", "spiral:4:5",
        "percolation:10x10:0.5", "percolation:10:0.5:1", "percolation:10x0:0.5:1", "percolation:10x10:1.5:1",
        "percolation:10x10:half:1", "percolation:10x10:0.5:x", "percolation:10x10x10x10:0.5:1",
        "alloy:10:1", "alloy:10:-1:1", "alloy:0:1:1", "alloy:10:1:1.5", "maze:10", "Spiral:10"})
    void malformedSpecsAreRejectedClearly(String spec) {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GridGenerators.fromSpec(spec, arena));
            assertTrue(e.getMessage().startsWith("bad generator spec '" + spec + "': "), e.getMessage());
            assertTrue(e.getMessage().contains("expected spiral:N"), e.getMessage());
        }
    }

    @Test
    void aParsedSpecKnowsItsSizeAndCostBeforeGenerating() {
        GridGenerators.Spec alloy = GridGenerators.Spec.parse("alloy:30x20x4:7:-2");
        assertEquals(new GridGenerators.Spec("alloy", new GridDims(30, 20, 4), 0, 7, -2), alloy);
        assertEquals(2400L * 7, alloy.cellSteps());
        assertEquals(2400, alloy.heapBytes(), "the spins, a byte per cell");
        // no work beyond filling the grid, and chunks of at most a mebibyte
        GridGenerators.Spec percolation = GridGenerators.Spec.parse("percolation:40000x40000:0.5:1");
        assertEquals(0, percolation.cellSteps());
        assertTrue(percolation.heapBytes() < 1600000000L / 10, String.valueOf(percolation.heapBytes()));
        assertEquals(new GridDims(9, 9, 1), GridGenerators.Spec.parse("spiral:9").dims());
        // a billion sweeps of 81 cells: known at once, nothing is run
        assertEquals(81_000_000_000L, GridGenerators.Spec.parse("alloy:9:1000000000:1").cellSteps());
    }

    @Test
    void anAlloyReportsEachSweepAndGivesTheSameGrid() {
        try (Arena arena = Arena.ofConfined()) {
            List<Integer> done = new ArrayList<>();
            Grid reported = GridGenerators.Spec.parse("alloy:16x12x3:5:8").generate(arena, done::add);
            assertEquals(List.of(1, 2, 3, 4, 5), done);
            assertArrayEquals(MeshTestSupport.values(GridGenerators.fromSpec("alloy:16x12x3:5:8", arena)),
                    MeshTestSupport.values(reported));
            GridGenerators.Spec.parse("percolation:16x16:0.5:1").generate(arena, done::add);
            assertEquals(5, done.size(), "only the alloy has sweeps");
        }
    }

    @Test
    void aCahnHilliardFieldIsItsDomainsAboveZero() {
        GridGenerators.Spec spec = GridGenerators.Spec.parse("cahn-hilliard:48x40:6000:5:-0.3");
        assertEquals(new GridGenerators.Spec("cahn-hilliard", new GridDims(48, 40, 1), 0, 6000, 5, -0.3), spec);
        assertEquals(48L * 40 * 6000, spec.cellSteps());
        assertEquals(GridGenerators.CAHN_HILLIARD_CONCENTRATION,
                GridGenerators.Spec.parse("cahn-hilliard:8x8x8:1:1").concentration());
        try (Arena arena = Arena.ofConfined();
                org.ccl4j.physics.CahnHilliard field = org.ccl4j.physics.CahnHilliard.create(48, 40, 1,
                        org.ccl4j.physics.CahnHilliard.Parameters.defaults(), org.ccl4j.Backend.CPU_SERIAL)) {
            List<Integer> done = new ArrayList<>();
            Grid grid = spec.generate(arena, done::add);
            assertEquals(6000, done.size());
            assertEquals(6000, done.getLast());
            // the same quench and steps by hand: c > 0 is the foreground
            field.init(-0.3, GridGenerators.CAHN_HILLIARD_NOISE, 5);
            field.step(6000);
            float[] c = field.field();
            long above = 0;
            for (int i = 0; i < c.length; i++) {
                assertEquals(c[i] > 0 ? 1 : 0, grid.get(i), "cell " + i);
                above += c[i] > 0 ? 1 : 0;
            }
            // phase separated: a minority of the cells, but more than the quench's noise puts above 0
            assertTrue(above > 100 && above < c.length / 2, String.valueOf(above));
            assertArrayEquals(MeshTestSupport.values(grid),
                    MeshTestSupport.values(GridGenerators.fromSpec("cahn-hilliard:48x40:6000:5:-0.3", arena)));
        }
    }

    @Test
    void badCahnHilliardSpecsAreRefused() {
        for (String spec : List.of("cahn-hilliard:8x8:10", "cahn-hilliard:8x8:10:1:2", "cahn-hilliard:8x8:10:1:x",
                "cahn-hilliard:8x8:-1:1", "cahn-hilliard:8x8:10:1:0.1:3")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GridGenerators.Spec.parse(spec));
            assertTrue(e.getMessage().contains("cahn-hilliard:WxH[xD]:steps:seed[:concentration]"), e.getMessage());
        }
    }

    @Test
    void specsThatCannotBeGeneratedCannotBeMade() {
        GridDims square = new GridDims(4, 4, 1);
        assertThrows(IllegalArgumentException.class, () -> new GridGenerators.Spec("maze", square, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new GridGenerators.Spec("spiral", new GridDims(4, 5, 1),
                0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new GridGenerators.Spec("percolation", square, 2, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new GridGenerators.Spec("alloy", square, 0, -1, 0));
    }

    private static long ones(Grid g) {
        long n = 0;
        for (int i = 0; i < g.cellCount(); i++) {
            n += g.get(i);
        }
        return n;
    }
}
