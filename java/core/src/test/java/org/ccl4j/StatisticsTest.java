package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * What a caller of the statistics can get wrong is refused with a message naming it, on every
 * backend: labels that are not canonical, an intensity of other extents, a column that the table
 * does not have, a table read after it was closed.
 */
class StatisticsTest {
    private static final List<Backend> BACKENDS = List.of(Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL);

    /** 4x3: rows 1100, 0001, 1011; three components, a pair, a triple and a single cell. */
    private static Grid grid(Arena arena) {
        return Grid.ofBytes(arena, new byte[] {1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1}, 4, 3);
    }

    @Test
    void labelsThatAreNotCanonicalAreNamed() {
        try (Arena arena = Arena.ofConfined()) {
            Grid g = grid(arena);
            for (Backend b : BACKENDS) {
                try (ComponentLabeler labeler = ComponentLabeler.create(b)) {
                    // cell 7 is labelled 8, above its own index
                    int[] wrong = {0, 0, -1, -1, -1, -1, -1, 8, 8, -1, 8, 8};
                    MeshLabels labels = new MeshLabels(4, 3, 1, Integer.BYTES, arena.allocateFrom(ValueLayout.JAVA_INT, wrong), null,
                            labeler.engine());
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> labels.statistics(g).close(), b.toString());
                    assertTrue(e.getMessage().contains("not canonical: entry 7 has label 8"), b + ": " + e.getMessage());
                }
            }
        }
    }

    @Test
    void anIntensityOfOtherExtentsIsRefused() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
            Intensity values = Intensity.ofFloats(arena.allocate(ValueLayout.JAVA_FLOAT, 12), 3, 4, 1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> labeler.labelWithStatistics(grid(arena), MeshOptions.defaults(),
                            StatisticsOptions.defaults().withIntensity(values)));
            assertTrue(e.getMessage().contains("intensity grid is 3x4x1, the labelled grid 4x3x1"), e.getMessage());
        }
    }

    @Test
    void theTableSaysWhichColumnsItHasAndFreesItsMemoryWhenClosed() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
            MeshStatistics table = labeler.labelWithStatistics(grid(arena), MeshOptions.defaults().withConnectivity(8),
                    StatisticsOptions.defaults());
            assertEquals(3, table.count());
            assertEquals(Set.of(Face.X_MIN, Face.Y_MIN), table.region(0).faces());
            assertEquals("x+y+", Face.symbols(table.touches(1)));
            assertEquals("x-y+", Face.symbols(table.touches(2)));
            assertThrows(IllegalArgumentException.class, () -> table.column(StatisticsColumn.EDGES));
            assertThrows(IndexOutOfBoundsException.class, () -> table.size(3));
            MemorySegment sizes = table.column(StatisticsColumn.SIZE);
            table.close();
            assertThrows(IllegalStateException.class, () -> table.size(0));
            assertThrows(IllegalStateException.class, () -> sizes.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    @Test
    void aTableInTheCallersArenaLivesAsLongAsTheArena() {
        for (Backend b : BACKENDS) {
            try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(b)) {
                MeshStatistics table = labeler.labelWithStatistics(grid(arena), MeshOptions.defaults(),
                        StatisticsOptions.defaults().withNumbering(Numbering.SIZE), arena);
                table.close();  // not its memory: nothing is freed
                assertEquals(3, table.count(), b.toString());
                assertEquals(List.of(3L, 2L, 1L), table.regions().map(Region::size).toList(), b.toString());
                assertEquals(-1, table.labels().getAtIndex(ValueLayout.JAVA_INT, 2), b + ": background");
                assertThrows(IllegalStateException.class, table::canonicalLabels, b.toString());
                MeshLabels canonical = labeler.labelWithStatistics(grid(arena), MeshOptions.defaults(),
                        StatisticsOptions.defaults().withNumbering(Numbering.CANONICAL), arena).canonicalLabels();
                assertEquals(3, canonical.count(), b.toString());
                assertEquals(List.of(3, 2, 1), canonical.labels().largest(3).stream().map(Component::size).toList(),
                        b.toString());
            }
        }
    }

    @Test
    void theJavaBackendReadsTheCallersConfinedMemoryOnEveryThread() {
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler java = ComponentLabeler.create(Backend.JAVA);
             ComponentLabeler cpu = ComponentLabeler.create(Backend.CPU_PARALLEL)) {
            // large enough to be split across the threads of the loop
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, 700, 600, 1);
            java.util.Random random = new java.util.Random(3);
            for (int i = 0; i < grid.cellCount(); i++) {
                grid.set(i, random.nextInt(10) < 6 ? 1 + random.nextInt(200) : 0);
            }
            MeshOptions options = MeshOptions.defaults().withCpuThreads(4);
            MeshStatistics got = java.labelWithStatistics(grid, options, StatisticsOptions.defaults(), arena);
            MeshStatistics expected = cpu.labelWithStatistics(grid, options, StatisticsOptions.defaults(), arena);
            assertEquals(expected.regions().toList(), got.regions().toList());
            int n = 200_000;
            int[] from = new int[n];
            int[] to = new int[n];
            for (int e = 0; e < n; e++) {
                from[e] = random.nextInt(n);
                to[e] = random.nextInt(4) == 0 ? from[e] : Math.min(n - 1, from[e] + 1 + random.nextInt(3));
            }
            CsrGraph graph = CsrGraph.fromEdges(arena, n, from, to);
            GraphStatistics javaTable = java.label(graph, LabelOptions.defaults(), arena).statistics(graph,
                    Numbering.SIZE, arena);
            GraphStatistics cpuTable = cpu.label(graph, LabelOptions.defaults(), arena).statistics(graph,
                    Numbering.SIZE, arena);
            assertEquals(cpuTable.components().toList(), javaTable.components().toList());
        }
    }
}
