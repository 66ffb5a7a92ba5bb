package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

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
 * NaN intensities follow one rule: they take no part in MIN and MAX (NumPy's nanmin and nanmax;
 * NaN where every intensity of a component is NaN), and make SUM and MEAN NaN (np.sum, np.mean).
 * Every backend gives these tables, whole and in slabs, whatever order its threads visit the cells
 * in (CUDA when a device is present; otherwise a notice says it is skipped).
 */
class NanIntensityProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "NaN intensities on the GPU are skipped in NanIntensityProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Fields.Case> cases() {
        return Fields.cases();
    }

    /** The expected row of one component: extremes without NaN, and whether any intensity is NaN. */
    private static final class Expected {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        boolean anyNan;
        double sum;

        void add(float v) {
            if (Float.isNaN(v)) {
                anyNan = true;
                return;
            }
            min = Math.min(min, v);
            max = Math.max(max, v);
            sum += v;
        }
    }

    /** A budget of two planes of the grid's slowest axis (slabs join the parts of components). */
    private static long twoPlanes(ComponentLabeler labeler, Grid grid, MeshOptions options) {
        Grid slab = grid.is3d() ? grid.region(0, 0, 0, grid.width(), grid.height(), Math.min(2, grid.depth()))
                : grid.region(0, 0, grid.width(), Math.min(2, grid.height()));
        MemoryNeeds needs = labeler.memoryNeeds(slab, options);
        return labeler.backend() == Backend.CUDA ? needs.deviceBytes()
                : needs.hostBytes() + (Integer.BYTES + Long.BYTES) * slab.cellCount();
    }

    @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
    void nanTakesNoPartInTheExtremesAndMakesSumsNan(@ForAll("cases") Fields.Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            int cells = grid.width() * grid.height() * grid.depth();
            int[] canonical = Fields.bfsLabels(grid, c.options());
            Random random = new Random(c.seed());
            // a third of the cells NaN (both signs), and some components NaN throughout
            MemorySegment values = arena.allocate(ValueLayout.JAVA_FLOAT, Math.max(1, cells));
            for (int i = 0; i < cells; i++) {
                boolean nan = random.nextInt(3) == 0 || (canonical[i] >= 0 && canonical[i] % 5 == 0);
                float v = nan ? (random.nextBoolean() ? Float.NaN : Float.intBitsToFloat(0xffc00001))
                        : (float) random.nextGaussian() * 100;
                values.setAtIndex(ValueLayout.JAVA_FLOAT, i, v);
            }
            Map<Integer, Expected> expected = new HashMap<>();
            for (int i = 0; i < cells; i++) {
                if (canonical[i] >= 0) {
                    expected.computeIfAbsent(canonical[i], k -> new Expected())
                            .add(values.getAtIndex(ValueLayout.JAVA_FLOAT, i));
                }
            }
            Intensity intensity = Intensity.ofFloats(values, grid.width(), grid.height(), grid.depth());
            StatisticsOptions statistics = StatisticsOptions.defaults().withIntensity(intensity);
            for (Map.Entry<Backend, ComponentLabeler> entry : labelers.entrySet()) {
                Backend backend = entry.getKey();
                ComponentLabeler labeler = entry.getValue();
                for (MeshOptions options : List.of(c.options(), c.options().withMemoryBudget(twoPlanes(labeler, grid, c.options())))) {
                    try (MeshStatistics table = labeler.labelWithStatistics(grid, options, statistics)) {
                        String what = backend + (options.memoryBudget() > 0 ? " in slabs of two planes" : "") + " on " + c;
                        assertEquals(expected.size(), table.count(), what);
                        for (int row = 0; row < table.count(); row++) {
                            Expected e = expected.get((int) table.first(row));
                            boolean none = e.min > e.max;
                            assertEquals(none ? Double.NaN : e.min, table.min(row), what + ", row " + row + ": min");
                            assertEquals(none ? Double.NaN : e.max, table.max(row), what + ", row " + row + ": max");
                            assertEquals(e.anyNan, Double.isNaN(table.sum(row)), what + ", row " + row + ": sum");
                            assertEquals(e.anyNan, Double.isNaN(table.mean(row)), what + ", row " + row + ": mean");
                            if (!e.anyNan) {
                                assertTrue(Math.abs(table.sum(row) - e.sum) <= 1e-9 * Math.max(1, Math.abs(e.sum)),
                                        what + ", row " + row + ": sum " + table.sum(row) + ", expected " + e.sum);
                            }
                        }
                    }
                }
            }
        }
    }
}
