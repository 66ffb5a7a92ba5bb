package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.ccl4j.internal.HostMemory;
import org.ccl4j.testing.BackendLabelers;

/**
 * Grids past 2^31 cells without their memory: long cell counts and indices, the label width they
 * get, and the memory a labelling needs stated (and refused) before anything is allocated or read.
 * The huge grids here lie over {@code MemorySegment.NULL} reinterpreted to their size, so that a
 * labelling that read a cell would crash the JVM: passing means nothing was read.
 */
class LargeGridTest {
    /** 8192^3 cells: 550 GB of cells, 4.4 TB of int64 labels, more than any machine has. */
    private static final int N = 8192;
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeAll
    static void openLabelers() {
        BackendLabelers.open(labelers, "the memory check of CUDA is skipped in LargeGridTest");
    }

    @AfterAll
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    /** A grid over no memory: its cells must never be read. */
    private static Grid unreadable(int width, int height, int depth) {
        return Grid.wrap(MemorySegment.NULL.reinterpret((long) width * height * depth), Grid.CellType.U8, width, height,
                depth);
    }

    @Test
    void cellCountsAndIndicesAreLong() {
        Grid grid = unreadable(2048, 2048, 2048);
        assertEquals(8_589_934_592L, grid.cellCount());
        assertEquals(8_589_934_591L, grid.index(2047, 2047, 2047));
        assertEquals(2048L * 2048 * 1024 + 2048 * 3 + 5, grid.index(5, 3, 1024));
        assertEquals(8_589_934_592L, GridDims.of(grid).cellCount());
        assertEquals(Long.BYTES, MeshOptions.defaults().labelBytesFor(grid));
        assertThrows(IndexOutOfBoundsException.class, () -> grid.index(2048, 0, 0));
        // the index is checked against the long cell count before anything is read
        assertThrows(IndexOutOfBoundsException.class, () -> grid.get(8_589_934_592L));
        assertThrows(IndexOutOfBoundsException.class, () -> grid.set(-1L, 0));
        assertThrows(IllegalArgumentException.class, () -> new GridDims(Integer.MAX_VALUE, Integer.MAX_VALUE, 4));
    }

    @Test
    void gridsOfAtMost2To31CellsHaveInt32LabelsUnlessAskedForInt64() {
        Grid limit = unreadable(Integer.MAX_VALUE, 1, 1);
        Grid past = unreadable(1 << 16, 1 << 15, 1);
        assertEquals(Integer.BYTES, MeshOptions.defaults().labelBytesFor(limit));
        assertEquals(Long.BYTES, MeshOptions.defaults().labelBytesFor(past));
        assertEquals(Long.BYTES, MeshOptions.defaults().withWideLabels(true).labelBytesFor(limit));
        assertTrue(MeshOptions.defaults().withWideLabels(true).withConnectivity(8).wideLabels(),
                "the other withers keep wideLabels");
    }

    @Test
    void linearIndicesPastIntRangeReachTheRightCell() {
        // a strided 3D view whose linear indices and cell offsets differ: both long
        try (Arena arena = Arena.ofConfined()) {
            Grid whole = Grid.allocate(arena, Grid.CellType.I32, 7, 5, 4);
            Grid region = whole.region(2, 1, 1, 4, 3, 2);
            for (int z = 0; z < 2; z++) {
                for (int y = 0; y < 3; y++) {
                    for (int x = 0; x < 4; x++) {
                        long i = region.index(x, y, z);
                        region.set(i, 100 * z + 10 * y + x);
                        assertEquals(100 * z + 10 * y + x, whole.get(x + 2, y + 1, z + 1));
                        assertEquals(100 * z + 10 * y + x, region.get(i));
                    }
                }
            }
        }
    }

    @Test
    void labellingTooLargeForTheHostFailsBeforeAllocatingOrReading() {
        long available = HostMemory.available();
        long labels = (long) N * N * N * Long.BYTES;
        assumeTrue(available >= 0, "MemAvailable is unknown here: no memory check to test");
        assumeTrue(available < labels, "this host has more than 4.4 TB available");
        Grid grid = unreadable(N, N, N);
        for (Map.Entry<Backend, ComponentLabeler> e : labelers.entrySet()) {
            ComponentLabeler labeler = e.getValue();
            MemoryNeeds needs = labeler.memoryNeeds(grid, MeshOptions.defaults());
            assertEquals(Long.BYTES, needs.labelBytes(), e.getKey().toString());
            assertEquals(labels, needs.labelsBytes(), e.getKey() + ": labels");
            // too large for the host: labelled in slabs, whose working arrays fit (a dense grid is read in place)
            assertTrue(needs.hostBytes() > 0 && needs.hostBytes() < needs.hostAvailable(), e.getKey() + ": " + needs);
            assertTrue(needs.hostAvailable() >= 0 && needs.hostAvailable() < labels, e.getKey() + ": " + needs);
            Ccl4jException refused = assertThrows(Ccl4jException.class, () -> labeler.label(grid,
                    MeshOptions.defaults().withConnectivity(26), Arena.ofAuto()), e.getKey().toString());
            assertEquals(Ccl4jException.Status.OUT_OF_MEMORY, refused.status());
            String message = refused.getMessage();
            String expected = "labelling a 8192x8192x8192 grid with int64 labels needs 4.4 TB (4.4 TB for the labels, ";
            assertTrue(message.startsWith(expected) && message.endsWith(" available"), e.getKey() + ": " + message);
            assertThrows(Ccl4jException.class, () -> labeler.label(grid), e.getKey() + ": labels on the heap");
        }
    }

    @Test
    void allocatingAGridTooLargeForTheHostFailsFirst() {
        assumeTrue(HostMemory.available() >= 0, "MemAvailable is unknown here: no memory check to test");
        try (Arena arena = Arena.ofConfined()) {
            Ccl4jException e = assertThrows(Ccl4jException.class,
                    () -> Grid.allocate(arena, Grid.CellType.I32, N, N, N));
            assertEquals(Ccl4jException.Status.OUT_OF_MEMORY, e.status());
            assertTrue(e.getMessage().startsWith("allocating a 8192x8192x8192 grid of I32 cells needs 2.2 TB; the host"
                    + " has "), e.getMessage());
        }
    }

    @Test
    void algorithmsThatWriteInt32LabelsOnlyAreRefusedForInt64() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.ofBytes(arena, new byte[] {1, 0, 1, 1}, 2, 2);
            MeshOptions wide = MeshOptions.defaults().withWideLabels(true);
            for (MeshAlgorithm a : MeshAlgorithm.values()) {
                for (Map.Entry<Backend, ComponentLabeler> e : labelers.entrySet()) {
                    if (a == MeshAlgorithm.AUTO || !a.runsOn(e.getKey())) {
                        continue;
                    }
                    boolean writesInt64 = a == MeshAlgorithm.UNION_FIND || a == MeshAlgorithm.CPU_PARALLEL
                            || a == MeshAlgorithm.JAVA;
                    ComponentLabeler labeler = e.getValue();
                    if (writesInt64) {
                        assertEquals(1, labeler.label(grid, wide.withAlgorithm(a), arena).count(), a + " on " + e.getKey());
                    } else {
                        UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
                                () -> labeler.label(grid, wide.withAlgorithm(a), arena), a + " on " + e.getKey());
                        assertTrue(refused.getMessage().contains("int64 labels") && refused.getMessage().contains(
                                "not by " + a), refused.getMessage());
                    }
                }
            }
        }
    }

    @Test
    void int64LabelsNeedRoomForLongs() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
            Grid grid = Grid.ofBytes(arena, new byte[] {1, 0, 1, 1}, 2, 2);
            MeshOptions wide = MeshOptions.defaults().withWideLabels(true);
            IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                    () -> labeler.label(grid, wide, arena.allocate(ValueLayout.JAVA_INT, 4)));
            assertTrue(small.getMessage().contains("2 longs (int64 labels)"), small.getMessage());
            MemorySegment misaligned = arena.allocate(40, 8).asSlice(4, 32);
            assertThrows(IllegalArgumentException.class, () -> labeler.label(grid, wide, misaligned));
            MeshLabels labels = labeler.label(grid, wide, arena.allocate(ValueLayout.JAVA_LONG, 4));
            assertEquals(3, labels.largestComponentSize());  // cells 0, 2 and 3
            assertEquals(0, labels.largestComponentLabel());
            assertEquals(0, labels.componentSize(1));
            assertEquals(-1, labels.get(1, 0, 0));
        }
    }

    @Test
    void int64LabelsHaveNoInt32ViewsButHaveTables() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA)) {
            Grid grid = Grid.ofBytes(arena, new byte[] {1, 0, 1, 1}, 2, 2);
            MeshOptions wide = MeshOptions.defaults().withWideLabels(true);
            MeshLabels labels = labeler.label(grid, wide);
            assertTrue(labels.segment().isNative(), "int64 labels without an arena are in an automatic arena");
            assertTrue(labels.isWide());
            IllegalStateException view = assertThrows(IllegalStateException.class, labels::labels);
            assertTrue(view.getMessage().contains("statistics(grid)"), view.getMessage());
            assertTrue(labels.toString().contains("int64"), labels.toString());
            // one cluster of cells 0, 2 and 3 (x 0..1, y 0..1), raster label 1 in int64 labels
            try (MeshStatistics table = labels.statistics(grid);
                 MeshStatistics fused = labeler.labelWithStatistics(grid, wide, StatisticsOptions.defaults())) {
                for (MeshStatistics t : List.of(table, fused)) {
                    assertTrue(t.isWide());
                    assertEquals(1, t.count());
                    assertEquals(new Region(1, 0, 3, 0, 0, 0, 1, 1, 0, 1.0 / 3, 2.0 / 3, 0, 15, 3, 1, 1, 1, 0),
                            t.region(0));
                    assertArrayEquals(new long[] {1, 0, 1, 1}, t.labels().toArray(ValueLayout.JAVA_LONG));
                }
            }
        }
    }

    /** Equal largest clusters in different chunks of the parallel book-keeping: the smallest label wins. */
    @Test
    void theLargestOfTiedClustersIsTheOneWithTheSmallestLabel() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA)) {
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, 64, 64, 8);  // 4096 cells a layer: a chunk
            for (int z : new int[] {1, 3, 5, 7}) {
                for (int x = 0; x < 10; x++) {
                    grid.set(x, 5, z, 1);
                }
            }
            MeshLabels wide = labeler.label(grid, MeshOptions.defaults().withWideLabels(true), arena);
            assertEquals(4, wide.count());
            assertEquals(10, wide.largestComponentSize());
            assertEquals(grid.index(0, 5, 1), wide.largestComponentLabel());
            assertEquals(10, wide.componentSize(grid.index(9, 5, 7)));
            // 8192 single cells: the clusters' sizes are scanned in chunks on several threads
            Grid dots = Grid.allocate(arena, Grid.CellType.U8, 64, 64, 16);
            for (int z = 1; z < 16; z += 2) {
                for (int y = 1; y < 64; y += 2) {
                    for (int x = 1; x < 64; x += 2) {
                        dots.set(x, y, z, 1);
                    }
                }
            }
            MeshLabels singles = labeler.label(dots, MeshOptions.defaults().withWideLabels(true), arena);
            assertEquals(8192, singles.count());
            assertEquals(1, singles.largestComponentSize());
            assertEquals(dots.index(1, 1, 1), singles.largestComponentLabel());
        }
    }

    @Test
    void int32MeshLabelsOfMoreThan2To31CellsAreRefused() {
        MemorySegment huge = MemorySegment.NULL.reinterpret(1L << 36);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MeshLabels(1 << 16, 1 << 16, 1, huge, null));
        assertTrue(e.getMessage().contains("int64"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MeshLabels(2, 2, 1, 6, huge, null));
    }

    @Test
    void int64BookkeepingChecksTheLabelsAreCanonical() {
        long[][] wrong = {
            {0, 0, 3, 3},    // cell 2 labelled 3, above its own index
            {0, 0, 1, -1},   // cell 2 labelled 1, a cell whose own label is not itself
            {0, -2, -1, -1}, // below -1
        };
        for (long[] labels : wrong) {
            MeshLabels wide = new MeshLabels(2, 2, 1, Long.BYTES, MemorySegment.ofArray(labels), null);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, wide::count,
                    java.util.Arrays.toString(labels));
            assertTrue(e.getMessage().startsWith("the labels are not canonical: cell "), e.getMessage());
        }
        MeshLabels empty = new MeshLabels(3, 1, 1, Long.BYTES, MemorySegment.ofArray(new long[] {-1, -1, -1}), null);
        assertEquals(0, empty.count());
        assertEquals(0, empty.largestComponentSize());
        assertEquals(-1, empty.largestComponentLabel());
        assertFalse(empty.toString().isEmpty());
    }
}
