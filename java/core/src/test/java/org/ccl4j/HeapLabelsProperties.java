package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

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

/**
 * Labels on the Java heap (from the overloads without an arena, and the results derived from
 * them) answer every book-keeping question exactly as native labels do: on the JAVA backend
 * through the Java engine, on the native backends through a copy in native scratch memory.
 */
class HeapLabelsProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the CUDA backend is skipped in HeapLabelsProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Graphs.EdgeList> graphs() {
        return Graphs.any();
    }

    @Property(tries = 40, edgeCases = EdgeCasesMode.NONE)
    void heapLabelsAnswerAsNativeOnes(@ForAll("graphs") Graphs.EdgeList edges) {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = edges.toCsr(arena);
            Labels reference = labelers.get(Backend.CPU_SERIAL).label(g, LabelOptions.defaults(), arena);
            for (var entry : labelers.entrySet()) {
                String what = entry.getKey() + " on " + edges;
                ComponentLabeler labeler = entry.getValue();
                Labels heap = labeler.label(g);
                Labels offHeap = labeler.label(g, LabelOptions.defaults(), arena);
                assertFalse(heap.segment().isNative(), what + ": labels without an arena are on the heap");
                assertTrue(offHeap.segment().isNative(), what + ": labels in an arena are native");
                sameBookkeeping(offHeap, heap, what + ", heap against native");
                // JAVA: the Java engine on the heap against the native engine on native memory
                sameBookkeeping(reference, heap, what + ", heap against the CPU_SERIAL reference");
                // -1 entries: filtered heap labels against the same labels copied into native memory
                Labels filtered = heap.filter(2, 10);
                sameBookkeeping(nativeCopy(filtered, arena, labeler), filtered, what + ", filtered");
            }
            Labels heapJava = labelers.get(Backend.JAVA).label(g);
            sameBookkeeping(reference, heapJava.using(labelers.get(Backend.CPU_PARALLEL)), edges
                    + ": heap labels handed to a native labeler");
        }
    }

    @Example
    void resultsWithoutAnArenaAreOnTheHeap() {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = CsrGraph.fromEdges(arena, 6, new int[] {0, 1, 3}, new int[] {1, 2, 4});
            for (ComponentLabeler labeler : labelers.values()) {
                Labels labels = labeler.label(g);
                String b = labeler.backend().toString();
                assertArrayEquals(new int[] {0, 0, 0, 3, 3, 5}, labels.toArray(), b);
                for (MemorySegment s : List.of(labels.segment(), labels.sizes(), labels.componentLabels(
                        Labels.Order.SIZE_DESCENDING), labels.compact(Labels.Order.SMALLEST_MEMBER).segment(),
                        labels.filter(2, 3).segment(), labels.members().offsets(), labels.members().members(),
                        labels.componentMembers(3), labels.largestComponent(), labels.sizesByLabel())) {
                    assertFalse(s.isNative(), b + ": " + s);
                }
                assertTrue(labels.sizes().isReadOnly() && labels.componentMembers(3).isReadOnly()
                        && labels.members().members().isReadOnly() && labels.sizesByLabel().isReadOnly(), b);
            }
        }
    }

    @Example
    void meshLabelsWithoutAnArenaAreOnTheHeapAndMatchThoseInOne() {
        SplittableRandom random = new SplittableRandom(7);
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, 40, 30, 3);
            for (int i = 0; i < grid.cellCount(); i++) {
                grid.set(i, random.nextInt(100) < 45 ? 1 : 0);
            }
            MeshLabels unionFind = MeshUnionFind.label(grid, MeshOptions.defaults());
            assertFalse(unionFind.segment().isNative());
            for (ComponentLabeler labeler : labelers.values()) {
                String b = labeler.backend().toString();
                MeshLabels heap = labeler.label(grid);
                MeshLabels offHeap = labeler.label(grid, MeshOptions.defaults(), arena);
                assertFalse(heap.segment().isNative(), b);
                assertArrayEquals(offHeap.toArray(), heap.toArray(), b);
                assertArrayEquals(unionFind.toArray(), heap.toArray(), b + " against MeshUnionFind");
                assertEquals(offHeap.timings().backend(), heap.timings().backend(), b + ": the timings came along");
                sameBookkeeping(offHeap.labels(), heap.labels(), b + " on a mesh");
            }
        }
    }

    static Labels nativeCopy(Labels labels, Arena arena, ComponentLabeler labeler) {
        MemorySegment s = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, labels.vertexCount()));
        MemorySegment.copy(labels.toArray(), 0, s, ValueLayout.JAVA_INT, 0, labels.vertexCount());
        return Labels.of(s, labels.vertexCount()).using(labeler);
    }

    static int[] ints(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_INT);
    }

    /** Every book-keeping method gives {@code actual} the answers it gives {@code expected}. */
    static void sameBookkeeping(Labels expected, Labels actual, String what) {
        assertArrayEquals(expected.toArray(), actual.toArray(), what + ": labels");
        assertEquals(expected.count(), actual.count(), what + ": count");
        assertEquals(expected.summary(), actual.summary(), what + ": summary");
        for (Labels.Order order : Labels.Order.values()) {
            String w = what + " in " + order;
            assertArrayEquals(ints(expected.sizes(order)), ints(actual.sizes(order)), w + ": sizes");
            assertArrayEquals(ints(expected.componentLabels(order)), ints(actual.componentLabels(order)), w + ": labels");
            assertEquals(expected.components(order).toList(), actual.components(order).toList(), w + ": components");
            Labels compact = actual.compact(order);
            assertArrayEquals(expected.compact(order).toArray(), compact.toArray(), w + ": compaction");
            assertEquals(expected.count(), compact.count(), w + ": components after compaction");
            MemberLists want = expected.members(order);
            MemberLists got = actual.members(order);
            assertEquals(want.count(), got.count(), w + ": member lists");
            assertArrayEquals(ints(want.offsets()), ints(got.offsets()), w + ": member offsets");
            assertArrayEquals(ints(want.members()), ints(got.members()), w + ": members");
        }
        assertEquals(expected.largest(3), actual.largest(3), what + ": three largest");
        for (Histogram.Binning binning : Histogram.Binning.values()) {
            Histogram want = expected.histogram(binning);
            Histogram got = actual.histogram(binning);
            assertArrayEquals(want.sizes(), got.sizes(), what + ": " + binning + " histogram sizes");
            assertArrayEquals(want.counts(), got.counts(), what + ": " + binning + " histogram counts");
        }
        Labels filtered = actual.filter(2, 10);
        assertArrayEquals(expected.filter(2, 10).toArray(), filtered.toArray(), what + ": filter 2..10");
        assertEquals(expected.filter(2, 10).count(), filtered.count(), what + ": components after filtering");
        int[] labels = ints(expected.componentLabels(Labels.Order.SIZE_DESCENDING));
        for (int c = 0; c < Math.min(4, labels.length); c++) {
            assertArrayEquals(ints(expected.componentMembers(labels[c])), ints(actual.componentMembers(labels[c])),
                    what + ": members of " + labels[c]);
        }
        assertArrayEquals(ints(expected.largestComponent()), ints(actual.largestComponent()), what + ": largest");
        assertArrayEquals(ints(expected.sizesByLabel()), ints(actual.sizesByLabel()), what + ": sizes by label");
        assertEquals(expected.largestComponentSize(), actual.largestComponentSize(), what + ": largest size");
        assertEquals(expected.largestComponentLabel(), actual.largestComponentLabel(), what + ": largest label");
        for (int v = 0; v < expected.vertexCount(); v += Math.max(1, expected.vertexCount() / 7)) {
            assertEquals(expected.componentSize(v), actual.componentSize(v), what + ": size at " + v);
        }
    }
}
