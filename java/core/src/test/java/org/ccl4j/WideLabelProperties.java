package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Fields;

/**
 * Int64 labels ({@link MeshOptions#wideLabels()}, which grids past 2^31-1 cells get anyway) are the
 * int32 labels as longs, written by every algorithm that writes them on every backend, for every
 * connectivity, boundary, mode and cell type, on dense grids and on regions of larger ones; and
 * their book-keeping (the int64 book-keeping: count, sizes, the largest cluster) is the book-keeping of
 * the int32 labels, wherever the labels are (Java heap, a confined, shared or automatic arena), and
 * so are their statistics tables.
 * The GPU takes part when a CUDA device is present; otherwise it is skipped with a printed notice.
 */
class WideLabelProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "int64 labels on the GPU are skipped in WideLabelProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Fields.Case> cases() {
        return Fields.cases();
    }

    /** A backend and an algorithm that writes int64 labels (AUTO: the backend's choice). */
    private record Run(Backend backend, MeshAlgorithm algorithm) {
    }

    private static List<Run> runs() {
        List<Run> runs = new ArrayList<>(List.of(new Run(Backend.JAVA, MeshAlgorithm.AUTO),
                new Run(Backend.CPU_PARALLEL, MeshAlgorithm.JAVA)));
        for (Backend b : List.of(Backend.CPU_SERIAL, Backend.CPU_PARALLEL)) {
            runs.add(new Run(b, MeshAlgorithm.AUTO));
            runs.add(new Run(b, MeshAlgorithm.CPU_PARALLEL));
        }
        if (labelers.containsKey(Backend.CUDA)) {
            runs.add(new Run(Backend.CUDA, MeshAlgorithm.AUTO));
            runs.add(new Run(Backend.CUDA, MeshAlgorithm.UNION_FIND));
        }
        return runs;
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void int64LabelsAreTheInt32LabelsOnEveryBackend(@ForAll("cases") Fields.Case c, @ForAll boolean region) {
        try (Arena arena = Arena.ofConfined()) {
            Grid dense = c.grid(arena);
            long[] expected = longs(MeshUnionFind.label(dense, c.options()).toArray());
            Grid grid = region ? Fields.inNoise(dense, arena, c.seed()) : dense;
            for (Run run : runs()) {
                MeshOptions options = c.options().withWideLabels(true).withAlgorithm(run.algorithm());
                MeshLabels labels = labelers.get(run.backend()).label(grid, options, arena);
                String what = run + " on " + c + (region ? " (a region)" : "");
                assertEquals(Long.BYTES, labels.labelBytes(), what);
                assertArrayEquals(expected, labels.segment().toArray(ValueLayout.JAVA_LONG), what);
                int last = expected.length - 1;
                assertEquals(expected[last], labels.get(c.width() - 1, c.height() - 1, c.depth() - 1), what);
            }
        }
    }

    /**
     * The statistics of int64 labels are those of the int32 labels on every backend: every column,
     * and the labels in the numbering, labelled with the table ({@code labelWithStatistics}) or from
     * labels made before ({@link MeshLabels#statistics}).
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.NONE)
    void int64StatisticsAreThoseOfTheInt32Labels(@ForAll("cases") Fields.Case c, @ForAll Numbering numbering,
                                                 @ForAll boolean region) {
        try (Arena arena = Arena.ofConfined()) {
            Grid dense = c.grid(arena);
            Grid grid = region ? Fields.inNoise(dense, arena, c.seed()) : dense;
            StatisticsOptions statistics = new StatisticsOptions(numbering, null, true);  // measurements bit for bit too
            try (MeshStatistics expected = labelers.get(Backend.JAVA).labelWithStatistics(grid, c.options(), statistics)) {
                long[] expectedLabels = longs(expected.labels().toArray(ValueLayout.JAVA_INT));
                for (Run run : runs()) {
                    ComponentLabeler labeler = labelers.get(run.backend());
                    MeshOptions options = c.options().withWideLabels(true).withAlgorithm(run.algorithm());
                    String what = run + " on " + c + ", " + numbering + (region ? " (a region)" : "");
                    try (MeshStatistics fused = labeler.labelWithStatistics(grid, options, statistics);
                         MeshStatistics later = labeler.label(grid, options, arena).statistics(grid, options, statistics)) {
                        for (MeshStatistics got : List.of(fused, later)) {
                            assertTrue(got.isWide(), what);
                            assertArrayEquals(expectedLabels, got.labels().toArray(ValueLayout.JAVA_LONG), what);
                            assertEquals(expected.count(), got.count(), what);
                            for (StatisticsColumn column : StatisticsColumn.values()) {
                                if (column.inMeshTables()) {
                                    assertArrayEquals(expected.column(column).toArray(ValueLayout.JAVA_BYTE),
                                            got.column(column).toArray(ValueLayout.JAVA_BYTE), what + ": " + column);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /** Where int64 labels live, which decides how the int64 book-keeping reads them. */
    enum Place {
        /** A long[]: every thread reads the segment. */
        HEAP,
        /** A confined arena of the calling thread: read by address. */
        CONFINED,
        /** A shared arena: every thread reads the segment. */
        SHARED,
        /** {@link ComponentLabeler#label(Grid, MeshOptions)}: an automatic arena. */
        AUTOMATIC
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void int64BookkeepingIsThatOfTheInt32Labels(@ForAll("cases") Fields.Case c, @ForAll Place place) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            compareBookkeeping(grid, c.options(), place, c.toString());
        }
    }

    /** Fields of some thousands of cells: several chunks of blocks, so that the book-keeping runs on all cores. */
    @Property(tries = 30, edgeCases = EdgeCasesMode.NONE)
    void int64BookkeepingOnSeveralThreads(@ForAll("largeFields") long seed, @ForAll Place place) {
        Random random = new Random(seed);
        int w = 40 + random.nextInt(120);
        int h = 20 + random.nextInt(80);
        int d = 1 + random.nextInt(6);
        double p = List.of(0.0, 0.2, 0.3, 0.6, 1.0).get(random.nextInt(5));
        MeshOptions options = MeshOptions.defaults().withConnectivity(d > 1 ? (random.nextBoolean() ? 6 : 26)
                : (random.nextBoolean() ? 4 : 8)).withPeriodic(random.nextBoolean());
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, w, h, d);
            for (long i = 0; i < grid.cellCount(); i++) {
                grid.set(i, random.nextDouble() < p ? 1 : 0);
            }
            compareBookkeeping(grid, options, place, grid + " p=" + p + " " + options);
        }
    }

    @Provide
    Arbitrary<Long> largeFields() {
        return Arbitraries.longs();
    }

    private static void compareBookkeeping(Grid grid, MeshOptions options, Place place, String what) {
        MeshLabels narrow = MeshUnionFind.label(grid, options);
        long[] expected = longs(narrow.toArray());
        MeshLabels wide;
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            MemorySegment labels = switch (place) {
                case HEAP -> MemorySegment.ofArray(expected.clone());
                case CONFINED -> confined.allocateFrom(ValueLayout.JAVA_LONG, expected);
                case SHARED -> shared.allocateFrom(ValueLayout.JAVA_LONG, expected);
                case AUTOMATIC -> null;
            };
            wide = labels == null ? labelers.get(Backend.CPU_PARALLEL).label(grid, options.withWideLabels(true))
                    : new MeshLabels(grid.width(), grid.height(), grid.depth(), Long.BYTES, labels, null);
            String at = what + ", labels " + place;
            assertEquals(Long.BYTES, wide.labelBytes(), at);
            assertEquals(narrow.count(), wide.count(), at + ": count");
            assertEquals(narrow.largestComponentSize(), wide.largestComponentSize(), at + ": largest size");
            assertEquals(narrow.largestComponentLabel(), wide.largestComponentLabel(), at + ": largest label");
            for (long i = 0; i < grid.cellCount(); i++) {
                assertEquals(narrow.componentSize(i), wide.componentSize(i), at + ": size of cell " + i);
                assertEquals(expected[(int) i], wide.get(i), at + ": label of cell " + i);
            }
            long[] compact = longs(narrow.labels().compact(Labels.Order.SMALLEST_MEMBER).segment()
                    .toArray(ValueLayout.JAVA_INT));
            assertArrayEquals(compact, wide.compact(confined).toArray(ValueLayout.JAVA_LONG), at + ": compact");
            IllegalStateException noLabels = assertThrows(IllegalStateException.class, wide::labels, at);
            assertTrue(noLabels.getMessage().contains("int64"), noLabels.getMessage());
            assertThrows(IllegalStateException.class, wide::toArray, at);
        }
        if (place == Place.SHARED) {
            IllegalStateException freed = assertThrows(IllegalStateException.class, () -> wide.get(0), what);
            assertTrue(freed.getMessage().contains("freed"), freed.getMessage());
        }
    }

    private static long[] longs(int[] labels) {
        long[] out = new long[labels.length];
        for (int i = 0; i < labels.length; i++) {
            out[i] = labels[i];
        }
        return out;
    }
}
