package org.ccl4j.engine.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.LabelOptions;


/**
 * The JAVA backend's memory by address: the caller's confined memory and global inputs are used
 * in place, anything another thread could free is copied, outputs written elsewhere are copied
 * back on commit only; and a graph whose checks were turned off fails with a message instead of
 * reading out of bounds.
 */
class RawMemoryTest {
    @Test
    void confinedAndGlobalMemoryIsUsedInPlaceTheRestIsCopied() {
        assertTrue(RawMemory.available(), "the tests run with native access enabled");
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared(); RawMemory memory = new RawMemory()) {
            MemorySegment mine = confined.allocateFrom(ValueLayout.JAVA_INT, 1, 2, 3);
            MemorySegment global = Arena.global().allocateFrom(ValueLayout.JAVA_INT, 4, 5);
            MemorySegment everybody = shared.allocateFrom(ValueLayout.JAVA_INT, 6, 7);
            MemorySegment heap = MemorySegment.ofArray(new int[] {8, 9});
            assertEquals(mine.address(), memory.input(mine));
            assertEquals(global.address(), memory.input(global));
            long copy = memory.input(everybody);
            assertNotEquals(everybody.address(), copy);
            assertEquals(7, RawMemory.getInt(copy, 1));
            assertEquals(9, RawMemory.getInt(memory.input(heap), 1));
        }
    }

    @Test
    void labelsOfOtherThreadsAreWrittenAsideAndCopiedBackOnCommit() {
        int[] labels = new int[3];
        try (Arena confined = Arena.ofConfined(); RawMemory memory = new RawMemory()) {
            MemorySegment mine = confined.allocate(ValueLayout.JAVA_INT, 3);
            assertEquals(mine.address(), memory.output(mine));
            long aside = memory.output(MemorySegment.ofArray(labels));
            RawMemory.setInt(aside, 2, 42);
            assertEquals(0, labels[2], "written before the commit");
            memory.commit();
        }
        assertArrayEquals(new int[] {0, 0, 42}, labels);
    }

    /**
     * A wrapped graph changed after its checks, labelled with checks off: the JAVA backend names
     * the arc and the id out of range, on one thread and on several.
     */
    @Test
    void anUncheckedGraphWithABadIdFailsWithItsArc() {
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(Backend.JAVA)) {
            for (int bad : new int[] {-1, 3, Integer.MAX_VALUE}) {
                MemorySegment offsets = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 3, 4);
                MemorySegment neighbors = arena.allocateFrom(ValueLayout.JAVA_INT, 1, 0, 2, 1);
                CsrGraph g = CsrGraph.wrap(offsets, Integer.BYTES, neighbors);
                neighbors.setAtIndex(ValueLayout.JAVA_INT, 2, bad);
                for (int threads : new int[] {1, 0}) {
                    var e = assertThrows(IllegalArgumentException.class, () -> labeler.label(g,
                            LabelOptions.defaults().withCheckInput(false).withCpuThreads(threads), arena));
                    assertEquals("neighbour id " + bad + " at arc 2 is outside 0 .. 2", e.getMessage());
                }
            }
        }
    }
}
