package org.ccl4j;

import org.ccl4j.testing.MeshTestSupport;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.List;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Grids with strides: views over parts of a buffer, their validation, and their readers and writers. */
class GridStridesTest {
    private static void rejects(Executable e, String... needles) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        for (String needle : needles) {
            assertTrue(x.getMessage().contains(needle), x.getMessage() + " should contain '" + needle + "'");
        }
    }

    /** Byte and int cells from arrays, in 2D and in 3D alike. */
    @Test
    void bytesAndIntsMakeGridsOfEitherDimension() {
        try (Arena arena = Arena.ofConfined()) {
            Grid bytes = Grid.ofBytes(arena, new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) 200}, 2, 2, 2);
            assertEquals(2, bytes.depth());
            assertEquals(7, bytes.get(0, 1, 1));
            assertEquals(200, bytes.get(1, 1, 1));
            Grid ints = Grid.ofInts(arena, new int[] {-1, 5, 9, 11, 13, 17}, 3, 2);
            assertEquals(1, ints.depth());
            assertEquals(Grid.CellType.I32, ints.type());
            assertEquals(13, ints.get(1, 1, 0));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Grid.ofBytes(arena, new byte[7], 2, 2, 2));
            assertEquals("7 cells given for a 2x2x2 grid", e.getMessage());
        }
    }

    /** A grid allocated whole has the strides of its extents. */
    @Test
    void denseGridsHaveDenseStrides() {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = Grid.allocate(arena, Grid.CellType.U8, 7, 5, 3);
            assertTrue(g.isDense());
            assertEquals(7, g.rowStride());
            assertEquals(35, g.layerStride());
            assertEquals(105, g.cells().byteSize());
            assertEquals("Grid[7x5x3, U8]", g.toString());
        }
    }

    @Test
    void regionsAreViewsOfTheSameCells() {
        try (Arena arena = Arena.ofConfined()) {
            Grid whole = MeshTestSupport.numbered(arena, 8, 6, 5);
            Grid r = whole.region(2, 1, 3, 4, 3, 2);
            assertEquals(4, r.width());
            assertEquals(3, r.height());
            assertEquals(2, r.depth());
            assertEquals(8, r.rowStride());
            assertEquals(48, r.layerStride());
            assertFalse(r.isDense());
            assertEquals("Grid[4x3x2, I32, row stride 8, layer stride 48]", r.toString());
            assertEquals(24, r.cellCount());
            for (int z = 0; z < 2; z++) {
                for (int y = 0; y < 3; y++) {
                    for (int x = 0; x < 4; x++) {
                        int expected = 100 * (z + 3) + 10 * (y + 1) + x + 2;
                        assertEquals(expected, r.get(x, y, z));
                        assertEquals(expected, r.get(r.index(x, y, z)));
                    }
                }
            }
            // from the first cell of the region to its last, no further
            assertEquals(((2 - 1) * 48 + (3 - 1) * 8 + 4) * 4, r.cells().byteSize());
            // writes go to the viewed cells
            r.set(1, 2, 1, -5);
            assertEquals(-5, whole.get(3, 3, 4));
            r.set(r.index(0, 0, 0), -6);
            assertEquals(-6, whole.get(2, 1, 3));
            // rows are back to back
            MemorySegment row = r.row(1, 0);
            assertEquals(16, row.byteSize());
            assertEquals(100 * 3 + 10 * 2 + 2, row.getAtIndex(ValueLayout.JAVA_INT, 0));
            assertEquals(100 * 3 + 10 * 2 + 5, row.getAtIndex(ValueLayout.JAVA_INT, 3));
            // a region of a region
            Grid inner = r.region(1, 1, 1, 2, 1, 1);
            assertEquals(100 * 4 + 10 * 2 + 3, inner.get(0, 0, 0));
            assertEquals(100 * 4 + 10 * 2 + 4, inner.get(1, 0, 0));
            assertTrue(inner.isDense(), "a single row is dense");
            // a 2D region of a 2D grid, and a whole grid as its own region
            Grid flat = MeshTestSupport.numbered(arena, 9, 4, 1);
            Grid r2 = flat.region(3, 2, 5, 2);
            assertEquals(9, r2.rowStride());
            assertEquals(18, r2.layerStride());
            assertEquals(10 * 3 + 7, r2.get(4, 1, 0));
            assertTrue(flat.region(0, 0, 9, 4).isDense());
            // a region that keeps whole rows is dense
            assertTrue(whole.region(0, 0, 1, 8, 6, 3).isDense());
            assertTrue(whole.region(0, 2, 1, 8, 3, 1).isDense());
            assertFalse(whole.region(0, 2, 1, 8, 3, 2).isDense());
        }
    }

    @Test
    void badRegionsAreRejected() {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = MeshTestSupport.numbered(arena, 8, 6, 5);
            rejects(() -> g.region(5, 0, 0, 4, 1, 1), "region 5,0,0:4x1x1", "8x6x5 grid", "x 5..8 is outside 0..7");
            rejects(() -> g.region(0, -1, 0, 2, 2, 1), "y -1..0 is outside 0..5");
            rejects(() -> g.region(0, 0, 4, 2, 2, 2), "z 4..5 is outside 0..4");
            rejects(() -> g.region(0, 0, 0, 0, 2, 2), "is empty", "width is 0");
            rejects(() -> g.region(0, 0, 0, 2, 2, -1), "depth is -1");
            rejects(() -> g.region(Integer.MAX_VALUE, 0, 0, 2, 1, 1), "is outside 0..7");
            Grid flat = MeshTestSupport.numbered(arena, 8, 6, 1);
            rejects(() -> flat.region(7, 5, 2, 2), "x 7..8 is outside 0..7");
        }
    }

    @Test
    void stridedWrapsAreValidatedAgainstTheSegment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(1000, 4);
            Grid g = Grid.wrapStrided(s, Grid.CellType.U8, 10, 5, 3, 12, 70);
            assertEquals(12, g.rowStride());
            assertEquals(70, g.layerStride());
            assertEquals(2 * 70 + 4 * 12 + 10, g.cells().byteSize());
            Grid flat = Grid.wrapStrided(s, Grid.CellType.I32, 10, 5, 16);
            assertEquals(16, flat.rowStride());
            assertEquals(80, flat.layerStride());
            assertEquals((4 * 16 + 10) * 4, flat.cells().byteSize());

            rejects(() -> Grid.wrapStrided(s, Grid.CellType.U8, 10, 5, 9), "row stride 9 is less than the width 10");
            rejects(() -> Grid.wrapStrided(s, Grid.CellType.U8, 10, 5, 3, 12, 59),
                    "layer stride 59 is less than row stride 12 * height 5 = 60");
            rejects(() -> Grid.wrapStrided(s, Grid.CellType.U8, 10, 5, 3, -4, 60), "row stride -4");
            // the last cell is at 2 * 400 + 4 * 12 + 9 = 857, the segment holds 1000 bytes, 250 ints
            Grid.wrapStrided(s, Grid.CellType.U8, 10, 5, 3, 12, 400);
            rejects(() -> Grid.wrapStrided(s, Grid.CellType.U8, 10, 5, 3, 12, 496), "holds 1000 bytes", "needs 1050");
            rejects(() -> Grid.wrapStrided(s, Grid.CellType.I32, 10, 5, 3, 12, 100), "needs 1032");
            rejects(() -> Grid.wrapStrided(s, Grid.CellType.U8, 10, 5, 3, Long.MAX_VALUE / 4, Long.MAX_VALUE),
                    "times the height 5 does not fit a long");
            rejects(() -> Grid.wrapStrided(s, Grid.CellType.U8, 10, 5, 3, 12, Long.MAX_VALUE / 2),
                    "spans more than 2^63 cells");
            rejects(() -> Grid.wrapStrided(s, Grid.CellType.I32, 10, 5, 3, 12, Long.MAX_VALUE / 4),
                    "spans more than 2^63 bytes");
            rejects(() -> Grid.wrapStrided(s.asSlice(1), Grid.CellType.I32, 2, 2, 3), "4-byte aligned");
        }
    }

    @Test
    void periodicBoundariesOfARegionWrapAtItsEdges() {
        // Row 1 of the region (columns 1..3 of the whole) has foreground at its two ends only: they
        // touch across the region's periodic x boundary. The whole grid's cells beside the region
        // are foreground too, so a labelling that wrapped at the whole grid's edges, or read past
        // the region, would join them with others.
        byte[] cells = {
                1, 0, 0, 0, 1,
                1, 1, 0, 1, 1,
                1, 0, 0, 0, 1,
        };
        try (Arena arena = Arena.ofConfined()) {
            Grid whole = Grid.ofBytes(arena, cells, 5, 3);
            Grid region = whole.region(1, 0, 3, 3);
            MeshOptions open = MeshOptions.defaults().withConnectivity(4);
            MeshOptions periodic = open.withPeriodic(true, false, false);
            int[] separate = {-1, -1, -1, 3, -1, 5, -1, -1, -1};
            int[] joined = {-1, -1, -1, 3, -1, 3, -1, -1, -1};
            List<Backend> backends = List.of(Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL);
            for (Backend b : backends) {
                try (ComponentLabeler labeler = ComponentLabeler.create(b)) {
                    assertArrayEquals(separate, labeler.label(region, open).toArray(), b + " open");
                    assertArrayEquals(joined, labeler.label(region, periodic).toArray(), b + " periodic x");
                    // periodic y joins nothing: rows 0 and 2 of the region are background
                    assertArrayEquals(separate, labeler.label(region, open.withPeriodic(false, true, false)).toArray(),
                            b + " periodic y");
                }
            }
        }
    }

}
