package org.ccl4j;

import org.ccl4j.testing.Fields;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;


/**
 * For any grid laid out with its rows and layers apart in a larger buffer of random cells (padded
 * rows and layers, an offset; or a region of a larger grid), every mesh algorithm on every
 * backend returns exactly {@link MeshUnionFind}'s labels of a dense copy of the same cells, for
 * every connectivity, boundary, mode and cell type. Periodic boundaries of a region wrap at the
 * region's edges, as they do for the dense copy. The GPU algorithms take part when a CUDA device
 * is present; otherwise they are skipped with a printed notice.
 */
class StridedMeshProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        for (Backend b : List.of(Backend.JAVA, Backend.CPU_SERIAL, Backend.CPU_PARALLEL)) {
            labelers.put(b, ComponentLabeler.create(b));
        }
        if (ComponentLabeler.capabilities().backends().contains(Backend.CUDA)) {
            labelers.put(Backend.CUDA, ComponentLabeler.create(Backend.CUDA));
        } else {
            System.out.println("NOTICE: no CUDA device present - the GPU mesh algorithms are skipped in StridedMeshProperties");
        }
    }

    @AfterContainer
    static void closeLabelers() {
        labelers.values().forEach(ComponentLabeler::close);
        labelers.clear();
    }

    /**
     * Where the cells lie: {@code first} cells before the first one, rows {@code rowPad} and layers
     * {@code layerPad} cells further apart than dense, {@code tail} cells after the last one; in
     * page-locked memory or not.
     */
    record Layout(int first, int rowPad, int layerPad, int tail, boolean pinned, long noise) {
    }

    /** A region: margins of the larger grid before and after it along x, y and z. */
    record Margins(int left, int right, int top, int bottom, int front, int back, boolean pinned, long noise) {
    }

    @Provide
    Arbitrary<Fields.Case> cases() {
        return Fields.cases();
    }

    @Provide
    Arbitrary<Layout> layouts() {
        Arbitrary<Integer> small = Arbitraries.integers().between(0, 9);
        return Combinators.combine(small, Arbitraries.integers().between(0, 5), small, Arbitraries.of(0, 0, 3),
                Arbitraries.of(false, true), Arbitraries.longs()).as(Layout::new);
    }

    @Provide
    Arbitrary<Margins> margins() {
        Arbitrary<Integer> margin = Arbitraries.integers().between(0, 4);
        return Combinators.combine(margin, margin, margin, margin, Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 2), Arbitraries.of(false, true), Arbitraries.longs())
                .as(Margins::new);
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void stridedCellsAreLabelledAsTheirDenseCopy(@ForAll("cases") Fields.Case c, @ForAll("layouts") Layout l) {
        try (Arena arena = Arena.ofConfined()) {
            Grid dense = c.grid(arena);
            int w = c.width();
            int h = c.height();
            long rowStride = w + l.rowPad();
            long layerStride = rowStride * h + l.layerPad();
            long cells = l.first() + layerStride * (c.depth() - 1) + rowStride * (h - 1) + w + l.tail();
            MemorySegment buffer = noise(arena, c.type(), cells, l.pinned(), l.noise());
            for (int z = 0; z < c.depth(); z++) {
                for (int y = 0; y < h; y++) {
                    for (int x = 0; x < w; x++) {
                        put(buffer, c.type(), l.first() + x + rowStride * y + layerStride * z, dense.value(x, y, z));
                    }
                }
            }
            MemorySegment from = buffer.asSlice((long) l.first() * c.type().bytes());
            Grid strided = c.depth() == 1 && l.layerPad() % 2 == 0
                    ? Grid.wrapStrided(from, c.type(), w, h, rowStride)
                    : Grid.wrapStrided(from, c.type(), w, h, c.depth(), rowStride, layerStride);
            checkEveryRun(strided, dense, c.options(), c + " " + l);
        }
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void regionsAreLabelledAsTheirDenseCopy(@ForAll("cases") Fields.Case c, @ForAll("margins") Margins m) {
        try (Arena arena = Arena.ofConfined()) {
            Grid dense = c.grid(arena);
            int w = c.width() + m.left() + m.right();
            int h = c.height() + m.top() + m.bottom();
            int d = c.depth() + m.front() + m.back();
            Grid whole = Grid.wrap(noise(arena, c.type(), (long) w * h * d, m.pinned(), m.noise()), c.type(), w, h, d);
            for (int z = 0; z < c.depth(); z++) {
                for (int y = 0; y < c.height(); y++) {
                    for (int x = 0; x < c.width(); x++) {
                        whole.setValue(whole.index(m.left() + x, m.top() + y, m.front() + z), dense.value(x, y, z));
                    }
                }
            }
            Grid region = whole.region(m.left(), m.top(), m.front(), c.width(), c.height(), c.depth());
            checkEveryRun(region, dense, c.options(), c + " " + m);
        }
    }

    /** Every algorithm on every backend labels {@code view} as the oracle labels {@code dense}. */
    private static void checkEveryRun(Grid view, Grid dense, MeshOptions options, String what) {
        int[] expected = MeshUnionFind.label(dense, options).toArray();
        assertEquals(isContiguous(view), view.isDense(), what + ": isDense");
        for (Run run : runs()) {
            MeshLabels labels = labelers.get(run.backend()).label(view, options.withAlgorithm(run.algorithm()));
            assertArrayEquals(expected, labels.toArray(), run + " on " + view + ", " + what);
            boolean packed = labels.timings().phasesMs().containsKey("pack");
            if (run.backend() != Backend.CUDA && run.algorithm() != MeshAlgorithm.JAVA && run.backend() != Backend.JAVA) {
                assertEquals(!view.isDense(), packed, run + ": the CPU backends pack exactly the strided grids");
            } else {
                assertFalse(packed, run + ": no pack phase");
            }
        }
    }

    /** Whether every row lies where a dense grid has it. */
    private static boolean isContiguous(Grid g) {
        for (int z = 0; z < g.depth(); z++) {
            for (int y = 0; y < g.height(); y++) {
                if (g.rowStride() * y + g.layerStride() * z != (long) g.width() * (y + (long) g.height() * z)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** {@code cells} random non-zero cells, which would join clusters if a labelling read them. */
    private static MemorySegment noise(Arena arena, Grid.CellType type, long cells, boolean pinned, long seed) {
        long bytes = cells * type.bytes();
        MemorySegment s = pinned ? PinnedMemory.allocate(arena, bytes) : arena.allocate(bytes, Integer.BYTES);
        Random random = new Random(seed);
        for (long i = 0; i < cells; i++) {
            put(s, type, i, switch (type) {
                case U8 -> 1 + random.nextInt(255);
                case U16 -> 1 + random.nextInt(65535);
                default -> random.nextInt() | 1;
            });
        }
        return s;
    }

    private static void put(MemorySegment s, Grid.CellType type, long index, double value) {
        switch (type) {
            case U8 -> s.set(ValueLayout.JAVA_BYTE, index, (byte) value);
            case U16 -> s.setAtIndex(ValueLayout.JAVA_SHORT, index, (short) (int) value);
            case I32 -> s.setAtIndex(ValueLayout.JAVA_INT, index, (int) value);
            case F32 -> s.setAtIndex(ValueLayout.JAVA_FLOAT, index, (float) value);
        }
    }

    private record Run(Backend backend, MeshAlgorithm algorithm) {
    }

    private static List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        runs.add(new Run(Backend.JAVA, MeshAlgorithm.AUTO));
        for (Backend b : List.of(Backend.CPU_SERIAL, Backend.CPU_PARALLEL, Backend.CUDA)) {
            if (!labelers.containsKey(b)) {
                continue;
            }
            for (MeshAlgorithm a : MeshAlgorithm.values()) {
                if (a != MeshAlgorithm.AUTO && a.runsOn(b)) {
                    runs.add(new Run(b, a));
                }
            }
        }
        return runs;
    }
}
