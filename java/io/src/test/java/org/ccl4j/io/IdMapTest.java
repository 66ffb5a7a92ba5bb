package org.ccl4j.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

class IdMapTest {

    private static void assertNumbersInOrderOfFirstAppearance(List<Long> ids) {
        Map<Long, Integer> oracle = new HashMap<>();
        try (IdMap map = new IdMap(); Arena arena = Arena.ofConfined()) {
            for (long id : ids) {
                int expected = oracle.computeIfAbsent(id, k -> oracle.size());
                assertEquals(expected, map.numberOf(id), () -> "number of " + id);
            }
            // every id again, after all growth
            for (long id : ids) {
                assertEquals(oracle.get(id), map.numberOf(id));
            }
            assertEquals(oracle.size(), map.size());
            MemorySegment back = arena.allocate(ValueLayout.JAVA_LONG, map.size());
            map.copyIdsTo(back);
            long[] expectedIds = new long[oracle.size()];
            oracle.forEach((id, number) -> expectedIds[number] = id);
            assertArrayEquals(expectedIds, back.toArray(ValueLayout.JAVA_LONG));
        }
    }

    @Provide
    Arbitrary<List<Long>> idSequences() {
        Arbitrary<Long> ids = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.longs().between(0, 300)),
                Tuple.of(2, Arbitraries.longs().between(0, 50_000_000)),
                Tuple.of(1, Arbitraries.longs().between(0, Long.MAX_VALUE)),
                Tuple.of(1, Arbitraries.of(0L, 1L << 40, (1L << 40) - 1, 1L << 62, Long.MAX_VALUE)));
        return ids.list().ofMaxSize(3000);
    }

    @Property(tries = 100)
    void numbersIdsInOrderOfFirstAppearance(@ForAll("idSequences") List<Long> ids) {
        assertNumbersInOrderOfFirstAppearance(ids);
    }

    @Test
    void movesHashedIdsToTheGrowingDirectTable() {
        // 10M is too large for the direct table at first and is hashed; numbering 2.2M small ids
        // lets the table grow past it (to 2^24 slots, 8 per id), and 10M must move along.
        List<Long> ids = new ArrayList<>();
        ids.add(10_000_000L);
        ids.add(Long.MAX_VALUE);
        for (long id = 0; id < 2_200_000; id += 1) {
            ids.add(id * 7 % 2_200_000);
        }
        ids.add(11_000_000L);
        ids.add(10_000_000L);
        assertNumbersInOrderOfFirstAppearance(ids);
    }

    @Test
    void memoryFollowsTheNumberOfIdsNotTheirValues() {
        try (IdMap map = new IdMap()) {
            long empty = map.reservedBytes();
            // One id of four million would fit a direct table of 16 MB; it costs nothing like that.
            assertEquals(0, map.numberOf(4_000_000));
            assertEquals(1, map.numberOf(1L << 39));
            assertEquals(empty, map.reservedBytes(), "two ids take two hash slots, no direct table");
            // Dense ids grow the direct table, at most 8 slots per id (a power of two above the largest).
            for (long id = 0; id < 100_000; id++) {
                map.numberOf(id);
            }
            assertTrue(map.reservedBytes() <= empty + 8L * Integer.BYTES * map.size(), () -> map.reservedBytes() + " bytes");
            assertEquals(100_002, map.size());
        }
    }

    @Test
    void growsTheHashMapForManyLargeIds() {
        // Sparse ids far beyond the direct table: the hash map must grow several times.
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < 100_000; i++) {
            ids.add(1_000_000_000L + i * 7_919L);
            ids.add((i * 2_654_435_761L) % 5_000L);
        }
        assertNumbersInOrderOfFirstAppearance(ids);
    }
}
