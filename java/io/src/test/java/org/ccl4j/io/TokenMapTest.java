package org.ccl4j.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/** The off-heap numbering of text ids, and of ids that turn from numbers to text, against a HashMap. */
class TokenMapTest {
    @Provide
    Arbitrary<List<String>> tokenSequences() {
        Arbitrary<String> tokens = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.strings().withCharRange('a', 'e').ofMinLength(1).ofMaxLength(3)),
                Tuple.of(2, Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(40)),
                Tuple.of(1, Arbitraries.strings().withCharRange('\u00e0', '\u00ff').ofMinLength(1).ofMaxLength(5)));
        return tokens.list().ofMaxSize(6000);
    }

    @Property(tries = 60)
    void numbersTokensInOrderOfFirstAppearance(@ForAll("tokenSequences") List<String> tokens) {
        Map<String, Integer> oracle = new HashMap<>();
        try (TokenMap map = new TokenMap(); Arena arena = Arena.ofConfined()) {
            for (String t : tokens) {
                int expected = oracle.computeIfAbsent(t, k -> oracle.size());
                assertEquals(expected, numberOf(map, t, arena), () -> "number of " + t);
            }
            for (String t : tokens) {
                assertEquals(oracle.get(t), numberOf(map, t, arena));
            }
            assertEquals(oracle.size(), map.size());
            MemorySegment[] parts = map.copyTo(arena);
            VertexIds ids = VertexIds.ofText(parts[0], parts[1]);
            assertEquals(oracle.size(), ids.count());
            oracle.forEach((t, n) -> assertEquals(t, ids.id(n)));
        }
    }

    @Provide
    Arbitrary<List<Object>> mixedSequences() {
        return Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.longs().between(0, 3000).map(Object.class::cast)),
                Tuple.of(1, Arbitraries.longs().between(0, Long.MAX_VALUE).map(Object.class::cast)),
                Tuple.of(2, Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(4)
                        .map(Object.class::cast))).list().ofMaxSize(3000);
    }

    /** Numbers until the first text id, then every id as text: the numbers keep their numbers. */
    @Property(tries = 60)
    void numberingSwitchesToTextKeepingTheOrder(@ForAll("mixedSequences") List<Object> ids) {
        Map<String, Integer> oracle = new HashMap<>();
        try (Numbering numbering = new Numbering(); Arena arena = Arena.ofConfined()) {
            for (Object id : ids) {
                int expected = oracle.computeIfAbsent(id.toString(), k -> oracle.size());
                int actual = id instanceof Long number ? numbering.numberOf(number) : numberOf(numbering, (String) id, arena);
                assertEquals(expected, actual, () -> "number of " + id);
            }
            assertEquals(oracle.size(), numbering.size());
            VertexIds copy = numbering.copyTo(arena);
            assertEquals(ids.stream().allMatch(Long.class::isInstance), copy.isNumeric());
            oracle.forEach((t, n) -> assertEquals(t, copy.id(n)));
        }
    }

    private static int numberOf(TokenMap map, String token, Arena arena) {
        byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
        MemorySegment segment = arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes);
        return map.numberOf(segment, 0, bytes.length);
    }

    private static int numberOf(Numbering numbering, String token, Arena arena) {
        byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
        return numbering.numberOf(arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes), bytes.length);
    }
}
