package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

class CsrGraphTest {

    private static IllegalArgumentException rejected(int[] offsets, int[] neighbors) {
        try (Arena arena = Arena.ofConfined()) {
            return assertThrows(IllegalArgumentException.class, () -> CsrGraph.fromArrays(arena, offsets, neighbors));
        }
    }

    @Test
    void malformedArraysAreRejectedWithTheOffender() {
        assertTrue(rejected(new int[] {1, 1}, new int[] {0}).getMessage().contains("offsets[0] must be 0"));
        assertTrue(rejected(new int[] {0, 2, 1}, new int[] {1, 0}).getMessage().contains("offsets decrease at vertex 1"));
        assertTrue(rejected(new int[] {0, 1, 1}, new int[] {1, 0}).getMessage().contains("holds 2 arcs"));
        String range = rejected(new int[] {0, 1, 2}, new int[] {1, 7}).getMessage();
        assertTrue(range.contains("neighbour id 7 at arc 1"), range);
        assertTrue(rejected(new int[] {0, 1}, new int[] {-1}).getMessage().contains("neighbour id -1"));
        assertTrue(rejected(new int[0], new int[0]).getMessage().contains("n+1 >= 1"));
    }

    /** The offsets are checked in chunks of vertices (in parallel where shared): the first decrease is named. */
    @Test
    void theFirstDecreaseIsNamedWhicheverChunkHoldsIt() {
        int n = 100_000;
        for (int at : new int[] {16_384, 16_385, 50_000, n}) {
            for (int second : new int[] {0, at == n ? 0 : 70_000}) {
                int[] offsets = new int[n + 1];
                for (int v = 1; v <= n; v++) {
                    offsets[v] = v >= at ? 1 : 2;
                }
                if (second > 0) {
                    offsets[second] = 0;
                }
                for (Arena arena : new Arena[] {Arena.ofConfined(), Arena.ofShared()}) {
                    try (arena) {
                        String message = assertThrows(IllegalArgumentException.class,
                                () -> CsrGraph.fromArrays(arena, offsets, new int[] {0, 0})).getMessage();
                        assertTrue(message.contains("offsets decrease at vertex " + (at - 1) + ":"), at + ": " + message);
                    }
                }
            }
        }
    }

    @Test
    void wrapChecksWidthsAndPlacement() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment offsets = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 0);
            MemorySegment none = arena.allocate(4).asSlice(0, 0);
            assertThrows(IllegalArgumentException.class, () -> CsrGraph.wrap(offsets, 3, none));
            assertThrows(IllegalArgumentException.class,
                    () -> CsrGraph.wrap(MemorySegment.ofArray(new int[] {0}), 4, none));
            assertThrows(IllegalArgumentException.class, () -> CsrGraph.wrap(offsets, 4, arena.allocate(6)));
            assertThrows(IllegalArgumentException.class, () -> CsrGraph.wrap(offsets.asSlice(1, 4), 4, none));
            CsrGraph g = CsrGraph.wrap(offsets, 4, none);
            assertEquals(1, g.vertexCount());
            assertEquals(0, g.degree(0));
        }
    }

    @Test
    void longOffsetsAreNarrowedWhenTheArcsFit() {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = CsrGraph.fromArrays(arena, new long[] {0, 1, 2}, new int[] {1, 0});
            assertEquals(4, g.offsetBytes());
            assertEquals(2, g.arcCount());
            assertEquals(0, g.neighbor(1));
            assertThrows(IllegalArgumentException.class, () -> CsrGraph.fromArrays(arena, new long[] {0, 5}, new int[] {0}));
        }
    }

    @Test
    void viewsAreReadOnly() {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = CsrGraph.fromArrays(arena, new int[] {0, 1, 2}, new int[] {1, 0});
            assertThrows(IllegalArgumentException.class, () -> g.neighbors().set(ValueLayout.JAVA_INT, 0, 5));
            assertThrows(IllegalArgumentException.class, () -> g.offsets().set(ValueLayout.JAVA_INT, 0, 5));
        }
    }

    @Test
    void symmetryCheckCountsMultiplicity() {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph.fromArrays(arena, new int[] {0, 2, 4}, new int[] {1, 1, 0, 0}).check();
            CsrGraph unbalanced = CsrGraph.fromArrays(arena, new int[] {0, 2, 3, 4}, new int[] {1, 1, 0, 2});
            assertThrows(IllegalArgumentException.class, unbalanced::check);
        }
    }
}
