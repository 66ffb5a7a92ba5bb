package org.ccl4j.engine.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.Grid;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshLabels;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.MeshUnionFind;
import org.ccl4j.testing.EngineData;
import org.ccl4j.testing.Fields;

/**
 * The JAVA backend's parallel mesh union-find ({@link MeshParallelUnionFind}) returns exactly the
 * labels of the single-threaded oracle {@link MeshUnionFind}, for every connectivity, boundary,
 * mode and cell type, dense and strided grids, native and heap labels, on one thread and on
 * several with chunks of a row or a few (so that the threads really race on small grids); and
 * through {@link ComponentLabeler} on the default grain, on large fields in confined arenas.
 */
class MeshParallelUnionFindProperties {
    /** How to run: threads (0 = all cores), rows per chunk (0 = the default), labels on the heap, a region view. */
    record Run(int threads, long grain, boolean heapLabels, boolean region) {
    }

    @Provide
    Arbitrary<Fields.Case> cases() {
        return Fields.cases();
    }

    @Provide
    Arbitrary<Run> runs() {
        return Combinators.combine(
                Arbitraries.of(new int[] {1, 0}, new int[] {0, 1}, new int[] {4, 1}, new int[] {3, 2}, new int[] {8, 5}),
                Arbitraries.of(false, true), Arbitraries.of(false, true))
                .as((split, heap, region) -> new Run(split[0], split[1], heap, region));
    }

    @Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
    void matchesTheOracle(@ForAll("cases") Fields.Case c, @ForAll("runs") Run run) {
        try (Arena arena = Arena.ofConfined()) {
            Grid dense = c.grid(arena);
            int[] expected = MeshUnionFind.label(dense, c.options()).toArray();
            Grid grid = run.region() ? Fields.inNoise(dense, arena, c.seed()) : dense;
            MemorySegment labels = run.heapLabels() ? MemorySegment.ofArray(new int[(int) grid.cellCount()])
                    : arena.allocate(ValueLayout.JAVA_INT, grid.cellCount());
            MeshOptions options = c.options().withCpuThreads(run.threads());
            MeshParallelUnionFind.label(EngineData.grid(grid), EngineData.settings(options, grid), Integer.BYTES, labels,
                    run.grain());
            assertArrayEquals(expected, labels.toArray(ValueLayout.JAVA_INT), run + " on " + c);
        }
    }

    /** The oracle and the parallel union-find, on threads that race for rows, write the same int64 labels. */
    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void writesTheOraclesInt64Labels(@ForAll("cases") Fields.Case c, @ForAll("runs") Run run) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            long[] expected = Arrays.stream(MeshUnionFind.label(grid, c.options()).toArray()).asLongStream().toArray();
            MeshOptions wide = c.options().withWideLabels(true).withCpuThreads(run.threads());
            assertArrayEquals(expected, MeshUnionFind.label(grid, wide).segment().toArray(ValueLayout.JAVA_LONG),
                    "the oracle, " + c);
            MemorySegment labels = run.heapLabels() ? MemorySegment.ofArray(new long[(int) grid.cellCount()])
                    : arena.allocate(ValueLayout.JAVA_LONG, grid.cellCount());
            MeshParallelUnionFind.label(EngineData.grid(grid), EngineData.settings(wide, grid), Long.BYTES, labels,
                    run.grain());
            assertArrayEquals(expected, labels.toArray(ValueLayout.JAVA_LONG), run + " on " + c);
        }
    }

    /** A random field: cells non-zero with probability {@code p}, values 1..{@code values}. */
    private static Grid field(Arena arena, Grid.CellType type, int w, int h, int d, double p, int values, long seed) {
        Random random = new Random(seed);
        Grid g = Grid.allocate(arena, type, w, h, d);
        for (int i = 0; i < g.cellCount(); i++) {
            g.set(i, random.nextDouble() < p ? 1 + random.nextInt(values) : 0);
        }
        return g;
    }

    /** Large fields near their percolation thresholds, one row per chunk on 4 threads and the defaults. */
    @Test
    void largeFieldsOfEveryConnectivityOnSeveralThreads() {
        MeshOptions faces = MeshOptions.defaults();
        List<Object[]> cases = List.of(
                new Object[] {400, 300, 1, 0.59, 1, faces},
                new Object[] {400, 300, 1, 0.41, 1, faces.withConnectivity(8).withPeriodic(true)},
                new Object[] {300, 200, 1, 0.9, 3, faces.withMode(MeshMode.SAME_VALUE).withPeriodic(true, false, false)},
                new Object[] {60, 50, 40, 0.31, 1, faces.withPeriodic(true)},
                new Object[] {60, 50, 40, 0.1, 1, faces.withConnectivity(26).withPeriodic(false, true, true)},
                new Object[] {50, 40, 30, 1.0, 2, faces.withConnectivity(26).withMode(MeshMode.SAME_VALUE)});
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA)) {
            for (Object[] k : cases) {
                Grid grid = field(arena, Grid.CellType.U8, (int) k[0], (int) k[1], (int) k[2], (double) k[3], (int) k[4],
                        42);
                MeshOptions options = (MeshOptions) k[5];
                String what = grid + " " + options;
                int[] expected = MeshUnionFind.label(grid, options).toArray();
                int[] labels = new int[(int) grid.cellCount()];
                MeshParallelUnionFind.label(EngineData.grid(grid), EngineData.settings(options.withCpuThreads(4), grid),
                        Integer.BYTES, MemorySegment.ofArray(labels), 1);
                assertArrayEquals(expected, labels, what + ", 4 threads, a row per chunk");
                MeshLabels backend = labeler.label(grid, options, arena);
                assertArrayEquals(expected, backend.toArray(), what + ", JAVA backend");
                assertEquals(List.of("init", "compute", "finalize"), List.copyOf(backend.timings().phasesMs().keySet()));
                assertEquals(MeshAlgorithm.JAVA, backend.timings().algorithm());
            }
        }
    }

    /** Cells on the Java heap (which only the JAVA backend takes), split among the threads. */
    @Test
    void heapCellsOnAllCores() {
        int w = 1000;
        int h = 600;
        byte[] cells = new byte[w * h];
        Random random = new Random(3);
        for (int i = 0; i < cells.length; i++) {
            cells[i] = (byte) (random.nextDouble() < 0.6 ? 1 : 0);
        }
        Grid grid = Grid.wrap(MemorySegment.ofArray(cells), Grid.CellType.U8, w, h);
        try (ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA)) {
            assertArrayEquals(MeshUnionFind.label(grid, MeshOptions.defaults()).toArray(),
                    labeler.label(grid, MeshOptions.defaults().withCpuThreads(2)).toArray());
        }
    }
}
