package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

/**
 * Labels whose arena was closed throw IllegalStateException rather than reading freed memory;
 * results the library put on the Java heap outlive that arena. JAVA-backend labels only: what
 * the native engine does with freed labels is tested with the native library.
 */
class FreedLabelsTest {
    @Test
    void labelsInAClosedArenaThrowIllegalStateException() {
        try (ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA);
             Arena graphArena = Arena.ofConfined()) {
            CsrGraph g = CsrGraph.fromEdges(graphArena, 5, new int[] {0, 3}, new int[] {1, 4});
            Arena arena = Arena.ofConfined();
            Labels labels = labeler.label(g, LabelOptions.defaults(), arena);
            MemorySegment view = labels.segment();
            // results from another Labels over the same memory, so that labels has read nothing yet
            Labels twin = labels.using(labeler);
            Labels compact = twin.compact(Labels.Order.SMALLEST_MEMBER);
            MemorySegment sizes = twin.sizes();
            arena.close();

            assertThrows(IllegalStateException.class, () -> labels.get(0));
            assertThrows(IllegalStateException.class, labels::toArray);
            assertThrows(IllegalStateException.class, labels::segment);
            assertThrows(IllegalStateException.class, () -> view.getAtIndex(ValueLayout.JAVA_INT, 0));
            assertThrows(IllegalStateException.class, labels::count);
            assertThrows(IllegalStateException.class, () -> labels.filter(1, 2));
            // results on the Java heap stay readable
            assertArrayEquals(new int[] {0, 0, 1, 2, 2}, compact.toArray());
            assertArrayEquals(new int[] {2, 1, 2}, sizes.toArray(ValueLayout.JAVA_INT));
        }
    }

    @Test
    void meshLabelsInAClosedArenaThrowIllegalStateException() {
        try (ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA);
             Arena gridArena = Arena.ofConfined()) {
            Grid grid = Grid.ofBytes(gridArena, new byte[] {1, 1, 0, 1}, 2, 2);
            Arena arena = Arena.ofConfined();
            MeshLabels labels = labeler.label(grid, MeshOptions.defaults(), arena);
            arena.close();

            assertThrows(IllegalStateException.class, () -> labels.get(0, 0, 0));
            assertThrows(IllegalStateException.class, labels::toArray);
            assertThrows(IllegalStateException.class, labels::count);
            assertThrows(IllegalStateException.class, () -> labels.componentSize(0));
        }
    }
}
