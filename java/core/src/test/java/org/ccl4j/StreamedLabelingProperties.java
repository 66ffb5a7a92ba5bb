package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Graphs;
import org.ccl4j.testing.Oracle;

/**
 * Graphs streamed through the GPU ({@link Algorithm#STREAMED}) get the oracle's labels under device
 * memory budgets from the free memory down to two staging buffers of a few hundred bytes, with both
 * offset widths; AUTO streams what does not fit a budget and an in-memory algorithm is refused under
 * it; edge lists past a budget are streamed from ordinary memory and read in place from page-locked
 * memory. CUDA only: without a device the properties print a notice and check nothing.
 */
class StreamedLabelingProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        // One device: its budgets and the in-place path are one device's (SeveralDevicesProperties
        // has the labelers of several).
        BackendLabelers.open(labelers, "streamed graphs are not labelled in StreamedLabelingProperties", Devices.of(0));
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Graphs.EdgeList> graphs() {
        return Graphs.any();
    }

    /** The device bytes of the parent array and bitmap, as the streamed engine counts them, plus {@code spare}. */
    private static long budget(int n, long spare) {
        return 4L * n + (n / 32 + 1) * 4L + 512 + spare;
    }

    @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
    void edgeListsPastTheBudgetAreStreamed(@ForAll("graphs") Graphs.EdgeList edges) {
        ComponentLabeler cuda = labelers.get(Backend.CUDA);
        if (cuda == null) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            int n = edges.vertexCount();
            int[] expected = Oracle.labels(edges.toCsr(arena));
            int[] pairs = new int[2 * edges.sources().length];
            for (int i = 0; i < edges.sources().length; i++) {
                pairs[2 * i] = edges.sources()[i];
                pairs[2 * i + 1] = edges.targets()[i];
            }
            MemorySegment pinned = PinnedMemory.allocate(arena, Math.max(1, 4L * pairs.length));
            MemorySegment.copy(pairs, 0, pinned, ValueLayout.JAVA_INT, 0, pairs.length);
            List<EdgeList> lists = List.of(EdgeList.fromArrays(arena, n, edges.sources(), edges.targets()),
                    EdgeList.fromPairs(arena, n, pairs), EdgeList.wrapPairs(n, pinned.asSlice(0, 4L * pairs.length)));
            // the parent array (and the edge check's word) and two staging buffers of a few hundred bytes
            for (long budget : new long[] {0, 4L * n + 8 + (1 << 16), 4L * n + 8 + 700}) {
                for (EdgeList list : lists) {
                    Labels labels = cuda.label(list, LabelOptions.defaults().withDeviceMemory(budget));
                    assertArrayEquals(expected, labels.toArray(), edges + ", budget " + budget);
                }
            }
        }
    }

    @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
    void streamedLabelsAreTheOraclesUnderAnyBudget(@ForAll("graphs") Graphs.EdgeList edges) {
        ComponentLabeler cuda = labelers.get(Backend.CUDA);
        if (cuda == null) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph narrow = edges.toCsr(arena);
            int[] expected = Oracle.labels(narrow);
            int n = narrow.vertexCount();
            for (CsrGraph g : List.of(narrow, Graphs.withWideOffsets(narrow, arena))) {
                for (long budget : new long[] {0, budget(n, 1 << 16), budget(n, 700)}) {
                    for (int threads : new int[] {1, 0}) {
                        LabelOptions options = LabelOptions.defaults().withAlgorithm(Algorithm.STREAMED)
                                .withDeviceMemory(budget).withCpuThreads(threads);
                        Labels labels = cuda.label(g, options);
                        assertArrayEquals(expected, labels.toArray(), "STREAMED on " + edges + ", budget " + budget
                                + ", " + g.offsetBytes() + "-byte offsets, threads " + threads);
                        assertEquals(Algorithm.STREAMED, labels.timings().algorithm());
                    }
                }
                // From page-locked memory the GPU reads the neighbours in place, the offsets copied first.
                MemorySegment offsets = PinnedMemory.allocate(arena, g.offsets().byteSize());
                MemorySegment neighbors = PinnedMemory.allocate(arena, Math.max(4, g.neighbors().byteSize()))
                        .asSlice(0, g.neighbors().byteSize());
                offsets.copyFrom(g.offsets());
                neighbors.copyFrom(g.neighbors());
                Labels pinned = cuda.label(CsrGraph.wrap(offsets, g.offsetBytes(), neighbors),
                        LabelOptions.defaults().withAlgorithm(Algorithm.STREAMED));
                assertArrayEquals(expected, pinned.toArray(), "STREAMED from page-locked memory on " + edges);
                // The copy of any graph takes more than this (4 KiB of working arrays alone).
                Labels auto = cuda.label(g, LabelOptions.defaults().withDeviceMemory(budget(n, 700)));
                assertArrayEquals(expected, auto.toArray(), "AUTO under a budget on " + edges);
                assertEquals(n == 0 ? auto.timings().algorithm() : Algorithm.STREAMED, auto.timings().algorithm(),
                        "AUTO under a budget the copy does not fit streams");
            }
        }
    }

    @Example
    void aBudgetBelowTheParentArrayOrAnInMemoryAlgorithmThatDoesNotFitIsRefused() {
        ComponentLabeler cuda = labelers.get(Backend.CUDA);
        if (cuda == null) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = Graphs.make(2, 20_000, 7).toCsr(arena);
            long tooSmall = 4L * g.vertexCount() - 1;
            Ccl4jException streamed = assertThrows(Ccl4jException.class, () -> cuda.label(g,
                    LabelOptions.defaults().withAlgorithm(Algorithm.STREAMED).withDeviceMemory(tooSmall)));
            assertTrue(streamed.getMessage().contains("parent array") && streamed.getMessage().contains("budget"),
                    streamed.getMessage());
            Ccl4jException inMemory = assertThrows(Ccl4jException.class, () -> cuda.label(g,
                    LabelOptions.defaults().withAlgorithm(Algorithm.ECL_CC).withDeviceMemory(budget(g.vertexCount(), 4096))));
            assertTrue(inMemory.getMessage().contains("STREAMED"), inMemory.getMessage());
            // A device-resident graph is labelled in place, never streamed.
            try (DeviceGraph resident = cuda.upload(g)) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> cuda.label(resident, LabelOptions.defaults().withAlgorithm(Algorithm.STREAMED), null));
                assertTrue(e.getMessage().contains("in place"), e.getMessage());
            }
        }
    }
}
