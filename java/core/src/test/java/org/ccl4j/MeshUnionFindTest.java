package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The Java mesh union-find (the oracle) against labels worked out by hand. */
class MeshUnionFindTest {
    /** Linear indices: row 0 is 0..4, row 1 is 5..9, row 2 is 10..14, row 3 is 15..19. */
    static final byte[] CELLS = {
        1, 1, 0, 0, 1,
        0, 1, 0, 1, 1,
        1, 0, 0, 0, 0,
        1, 1, 0, 1, 0,
    };

    static int[] label(MeshOptions options) {
        try (Arena arena = Arena.ofConfined()) {
            return MeshUnionFind.label(Grid.ofBytes(arena, CELLS, 5, 4), options).toArray();
        }
    }

    @Test
    void faceNeighboursWithOpenBoundaries() {
        assertArrayEquals(new int[] {
            0, 0, -1, -1, 4,
            -1, 0, -1, 4, 4,
            10, -1, -1, -1, -1,
            10, 10, -1, 18, -1,
        }, label(MeshOptions.defaults()));
    }

    @Test
    void diagonalsJoinTheUpperLeftAndLowerLeftClusters() {
        assertArrayEquals(new int[] {
            0, 0, -1, -1, 4,
            -1, 0, -1, 4, 4,
            0, -1, -1, -1, -1,
            0, 0, -1, 18, -1,
        }, label(MeshOptions.defaults().withConnectivity(8)));
    }

    @Test
    void periodicXJoinsAcrossTheLeftAndRightEdgesOnly() {
        assertArrayEquals(new int[] {
            0, 0, -1, -1, 0,
            -1, 0, -1, 0, 0,
            10, -1, -1, -1, -1,
            10, 10, -1, 18, -1,
        }, label(MeshOptions.defaults().withPeriodic(true, false, false)));
    }

    @Test
    void periodicYJoinsAcrossTheTopAndBottomEdgesOnly() {
        assertArrayEquals(new int[] {
            0, 0, -1, -1, 4,
            -1, 0, -1, 4, 4,
            0, -1, -1, -1, -1,
            0, 0, -1, 18, -1,
        }, label(MeshOptions.defaults().withPeriodic(false, true, false)));
    }

    @Test
    void sameValueModeLabelsTheZeroDomainsToo() {
        assertArrayEquals(new int[] {
            0, 0, 2, 2, 4,
            5, 0, 2, 4, 4,
            10, 2, 2, 2, 2,
            10, 10, 2, 18, 2,
        }, label(MeshOptions.defaults().withMode(MeshMode.SAME_VALUE)));
    }

    @Test
    void statisticsAndTimings() {
        try (Arena arena = Arena.ofConfined()) {
            MeshLabels labels = MeshUnionFind.label(Grid.ofBytes(arena, CELLS, 5, 4), MeshOptions.defaults());
            assertEquals(4, labels.count());
            assertEquals(3, labels.largestComponentSize());
            assertEquals(0, labels.largestComponentLabel());
            assertEquals(1, labels.componentSize(3, 3, 0));
            assertEquals(0, labels.componentSize(2, 0, 0));
            assertEquals(10, labels.get(1, 3, 0));
            assertEquals(Backend.JAVA, labels.timings().backend());
            assertEquals(MeshAlgorithm.JAVA, labels.timings().algorithm());
        }
    }

    @Test
    void periodicAxesOfLengthOneAndTwo() {
        try (Arena arena = Arena.ofConfined()) {
            // A single column, periodic in x: each cell is its own x-neighbour, which joins nothing.
            Grid column = Grid.ofBytes(arena, new byte[] {1, 0, 1, 1}, 1, 4);
            assertArrayEquals(new int[] {0, -1, 2, 2},
                    MeshUnionFind.label(column, MeshOptions.defaults().withPeriodic(true, false, false)).toArray());
            // Periodic in y as well: the last cell's neighbour below is the first.
            assertArrayEquals(new int[] {0, -1, 0, 0},
                    MeshUnionFind.label(column, MeshOptions.defaults().withPeriodic(true, true, false)).toArray());
            // Width 2: both x-neighbours of a cell are the same cell.
            Grid pair = Grid.ofBytes(arena, new byte[] {1, 1, 0, 1}, 2, 2);
            assertArrayEquals(new int[] {0, 0, -1, 0},
                    MeshUnionFind.label(pair, MeshOptions.defaults().withPeriodic(true)).toArray());
        }
    }

    @Test
    void allBackgroundAndAllForeground() {
        try (Arena arena = Arena.ofConfined()) {
            Grid empty = Grid.allocate(arena, Grid.CellType.I32, 6, 5, 4);
            int[] none = new int[120];
            Arrays.fill(none, -1);
            MeshLabels labels = MeshUnionFind.label(empty, MeshOptions.defaults().withConnectivity(26));
            assertArrayEquals(none, labels.toArray());
            assertEquals(0, labels.count());
            assertEquals(0, labels.largestComponentSize());
            assertArrayEquals(new int[120], MeshUnionFind.label(empty,
                    MeshOptions.defaults().withMode(MeshMode.SAME_VALUE)).toArray());
            for (int i = 0; i < 120; i++) {
                empty.set(i, -5);
            }
            assertArrayEquals(new int[120], MeshUnionFind.label(empty, MeshOptions.defaults()).toArray());
        }
    }

    @Test
    void optionsMustFitTheGrid() {
        try (Arena arena = Arena.ofConfined()) {
            Grid volume = Grid.allocate(arena, Grid.CellType.U8, 5, 4, 2);
            var e = assertThrows(IllegalArgumentException.class,
                    () -> MeshUnionFind.label(volume, MeshOptions.defaults().withConnectivity(4)));
            assertEquals("connectivity 4 does not fit Grid[5x4x2, U8]: expected 6, 18 or 26, or 0 for face neighbours",
                    e.getMessage());
        }
    }

    /** A single layer takes the 3D stencils, as scikit-image and cc3d do: 6 labels as 4, 26 as 8. */
    @Test
    void aSingleLayerTakes6And26() {
        assertArrayEquals(label(MeshOptions.defaults()), label(MeshOptions.defaults().withConnectivity(6)));
        assertArrayEquals(label(MeshOptions.defaults().withConnectivity(8)),
                label(MeshOptions.defaults().withConnectivity(26)));
        // periodic z on one layer joins a cell to itself only
        assertArrayEquals(label(MeshOptions.defaults().withConnectivity(8)),
                label(MeshOptions.defaults().withConnectivity(26).withPeriodic(false, false, true)));
        assertArrayEquals(label(MeshOptions.defaults().withConnectivity(8).withPeriodic(true, true, false)),
                label(MeshOptions.defaults().withConnectivity(26).withPeriodic(true)));
        // and 6 is not 26: the corner joining the two left clusters stays apart
        assertEquals(10, label(MeshOptions.defaults().withConnectivity(6).withPeriodic(false, false, true))[10]);
        assertEquals(0, label(MeshOptions.defaults().withConnectivity(26))[10]);
        try (Arena arena = Arena.ofConfined()) {
            Grid flat = Grid.ofBytes(arena, CELLS, 5, 4);
            assertEquals(4, MeshOptions.defaults().withConnectivity(6).connectivityFor(flat));
            assertEquals(8, MeshOptions.defaults().withConnectivity(26).connectivityFor(flat));
            assertEquals(4, MeshOptions.defaults().connectivityFor(flat));
        }
    }
}
