package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Fields;

/**
 * A grid labelled in slabs, under a memory budget of a few planes, gets exactly the labels and the
 * statistics of the grid labelled whole (which the other properties check against their oracles):
 * on every backend, for any grid, connectivity, boundaries (the joins across periodic axes and
 * the wrapping components are the slab run's own) and mode, dense and strided cells, int32 and
 * int64 labels, in every numbering. CUDA takes part when a device is present; otherwise it is skipped with a notice.
 */
class SlabLabelingProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "labelling in slabs on the GPU is skipped in SlabLabelingProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Fields.Case> cases() {
        return Fields.cases();
    }

    @Provide
    Arbitrary<Numbering> numberings() {
        return Arbitraries.of(Numbering.class);
    }

    @Property(tries = 250, edgeCases = EdgeCasesMode.NONE)
    void slabbedLabelsAreTheWholeGridsLabels(@ForAll("cases") Fields.Case c, @ForAll @IntRange(min = 1, max = 4) int planes,
                                             @ForAll boolean wide, @ForAll boolean strided) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = strided ? Fields.inNoise(c.grid(arena), arena, c.seed()) : c.grid(arena);
            for (Map.Entry<Backend, ComponentLabeler> e : labelers.entrySet()) {
                ComponentLabeler labeler = e.getValue();
                MeshOptions whole = c.options().withWideLabels(wide);
                MeshLabels expected = labeler.label(grid, whole, arena);
                MeshLabels slabbed = labeler.label(grid, whole.withMemoryBudget(budget(labeler, grid, whole, planes)),
                        arena);
                String what = e.getKey() + " " + planes + " planes " + (wide ? "int64 " : "") + (strided ? "strided " : "") + c;
                assertSlabbed(grid, planes, slabbed.timings(), what);
                assertEquals(-1, expected.segment().mismatch(slabbed.segment()), what);
            }
        }
    }

    @Property(tries = 150, edgeCases = EdgeCasesMode.NONE)
    void slabbedStatisticsAreTheWholeGridsStatistics(@ForAll("cases") Fields.Case c,
                                                     @ForAll @IntRange(min = 1, max = 3) int planes,
                                                     @ForAll("numberings") Numbering numbering, @ForAll boolean wide) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            // with measurements: the slabs' borders and faces must not show in them
            StatisticsOptions statistics = StatisticsOptions.defaults().withNumbering(numbering).withMeasurements();
            for (Map.Entry<Backend, ComponentLabeler> e : labelers.entrySet()) {
                ComponentLabeler labeler = e.getValue();
                MeshOptions whole = c.options().withWideLabels(wide);
                String what = e.getKey() + " " + planes + " planes " + numbering + (wide ? " int64 " : " ") + c;
                try (MeshStatistics expected = labeler.labelWithStatistics(grid, whole, statistics);
                     MeshStatistics slabbed = labeler.labelWithStatistics(grid,
                             whole.withMemoryBudget(budget(labeler, grid, whole, planes)), statistics)) {
                    assertSlabbed(grid, planes, slabbed.timings(), what);
                    assertEquals(expected.count(), slabbed.count(), what);
                    for (StatisticsColumn column : StatisticsColumn.values()) {
                        if (column.inMeshTables()) {
                            assertEquals(-1, expected.column(column).mismatch(slabbed.column(column)),
                                    column + " of " + what);
                        }
                    }
                    assertEquals(-1, expected.labels().mismatch(slabbed.labels()), "labels of " + what);
                }
            }
        }
    }

    /** The budget of a slab of {@code planes} planes of {@code grid}, as the engines weigh a slab. */
    private static long budget(ComponentLabeler labeler, Grid grid, MeshOptions options, int planes) {
        Grid slab = grid.is3d() ? grid.region(0, 0, 0, grid.width(), grid.height(), Math.min(planes, grid.depth()))
                : grid.region(0, 0, grid.width(), Math.min(planes, grid.height()));
        MemoryNeeds needs = labeler.memoryNeeds(slab, options.withWideLabels(false));
        return labeler.backend() == Backend.CUDA ? needs.deviceBytes()
                : needs.hostBytes() + (Integer.BYTES + Long.BYTES) * slab.cellCount();
    }

    @Example
    void theProgressListenerHearsBothPassesOverEverySlabAndEndsTheRunWhenItThrows() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = new Fields.Case(9, 7, 12, Grid.CellType.U8, MeshMode.FOREGROUND, 26, false, false, false, 0.4, 2,
                    3).grid(arena);
            for (var e : labelers.entrySet()) {
                ComponentLabeler labeler = e.getValue();
                List<String> heard = new ArrayList<>();
                MeshOptions options = MeshOptions.defaults().withMemoryBudget(budget(labeler, grid, MeshOptions.defaults(), 5))
                        .withProgress((stage, done, total) -> heard.add(stage + " " + done + "/" + total));
                labeler.label(grid, options, arena);
                // 12 planes in slabs of 5: 3 slabs, labelled and joined, then labelled again and written
                assertEquals(List.of("label slabs 1/6", "label slabs 2/6", "label slabs 3/6", "write 4/6", "write 5/6",
                        "write 6/6"), heard, e.getKey().toString());
                heard.clear();
                labeler.label(grid, options.withMemoryBudget(0), arena);
                assertEquals(List.of(), heard, e.getKey() + ": the whole grid at once");
                MeshOptions failing = options.withProgress((stage, done, total) -> {
                    throw new IllegalStateException("stopped at " + done);
                });
                IllegalStateException stopped = assertThrows(IllegalStateException.class,
                        () -> labeler.label(grid, failing, arena));
                assertEquals("stopped at 1", stopped.getMessage());
            }
        }
    }

    /**
     * Slabs of more cells than the slab run's chunks (2^20): its chunk loops run in parallel over
     * the run's own buffers (a volume of 2048^3 failed so before they were shared).
     */
    @Example
    void slabsLargerThanAChunkAreLabelledInParallel() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = new Fields.Case(3000, 3000, 1, Grid.CellType.U8, MeshMode.FOREGROUND, 8, false, false, false,
                    0.59, 2, 5).grid(arena);
            for (var e : labelers.entrySet()) {
                ComponentLabeler labeler = e.getValue();
                MeshOptions slabs = MeshOptions.defaults().withMemoryBudget(budget(labeler, grid, MeshOptions.defaults(),
                        1500));
                MeshLabels expected = labeler.label(grid, MeshOptions.defaults(), arena);
                MeshLabels slabbed = labeler.label(grid, slabs, arena);
                assertSlabbed(grid, 1500, slabbed.timings(), e.getKey().toString());
                assertEquals(-1, expected.segment().mismatch(slabbed.segment()), e.getKey().toString());
                StatisticsOptions raster = StatisticsOptions.defaults().withNumbering(Numbering.RASTER);
                try (MeshStatistics whole = labeler.labelWithStatistics(grid, MeshOptions.defaults(), raster);
                     MeshStatistics inSlabs = labeler.labelWithStatistics(grid, slabs, raster)) {
                    assertEquals(whole.count(), inSlabs.count(), e.getKey().toString());
                    assertEquals(-1, whole.labels().mismatch(inSlabs.labels()), e.getKey() + " raster labels");
                }
            }
        }
    }

    /** A grid of more planes than the budget allows was labelled in slabs. */
    private static void assertSlabbed(Grid grid, int planes, Timings timings, String what) {
        int extent = grid.is3d() ? grid.depth() : grid.height();
        assertEquals(planes < extent, timings.phasesMs().containsKey("label slabs"), what + ": " + timings);
        if (planes < extent) {
            assertTrue(timings.iterations() >= 2, what + ": " + timings.iterations() + " slabs");
        }
    }
}
