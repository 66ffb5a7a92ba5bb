package org.ccl4j.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Numbers the ids of an edge list {@code 0, 1, 2, ...} in order of first appearance: numbers in an
 * {@link IdMap} while every id is one (SNAP's ids always are), then, from the first id that is
 * text, every id as text in a {@link TokenMap}, the numbers seen so far moved there in their order
 * as their decimal text. A numeric id is then its shortest decimal form, so {@code 007} and {@code 7}
 * remain one vertex.
 */
final class Numbering implements AutoCloseable {
    private static final int MAX_DIGITS = 19;

    private IdMap numbers = new IdMap();
    private TokenMap text;
    private final byte[] digits = new byte[MAX_DIGITS];
    private final MemorySegment digitSegment = MemorySegment.ofArray(digits);

    /** The number of distinct ids seen. */
    int size() {
        return text == null ? numbers.size() : text.size();
    }

    /** Whether every id so far was a number. */
    boolean numeric() {
        return text == null;
    }

    /**
     * The number of the numeric id {@code id} ({@code >= 0}), giving it the next when it is new.
     *
     * @return the number, or -1 when {@link Integer#MAX_VALUE} ids are already numbered
     */
    int numberOf(long id) {
        if (text == null) {
            return numbers.numberOf(id);
        }
        int length = decimal(id);
        return text.numberOf(digitSegment, MAX_DIGITS - length, length);
    }

    /**
     * The number of the text id {@code bytes[0 .. length-1]}, giving it the next when it is new.
     *
     * @return the number, or -1 when {@link Integer#MAX_VALUE} ids are already numbered
     */
    int numberOf(MemorySegment bytes, int length) {
        if (text == null) {
            toText();
        }
        return text.numberOf(bytes, 0, length);
    }

    /** The ids, numbers or text, in {@code arena}, vertex {@code v}'s at index {@code v}. */
    VertexIds copyTo(Arena arena) {
        if (text == null) {
            MemorySegment ids = arena.allocate(ValueLayout.JAVA_LONG, numbers.size());
            numbers.copyIdsTo(ids);
            return VertexIds.ofNumbers(ids);
        }
        MemorySegment[] parts = text.copyTo(arena);
        return VertexIds.ofText(parts[0], parts[1]);
    }

    @Override
    public void close() {
        if (numbers != null) {
            numbers.close();
        }
        if (text != null) {
            text.close();
        }
    }

    /** Moves the numbers seen so far to a text map, in their order. */
    private void toText() {
        TokenMap map = new TokenMap();
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment ids = scratch.allocate(ValueLayout.JAVA_LONG, Math.max(1, numbers.size()));
            numbers.copyIdsTo(ids);
            for (int i = 0; i < numbers.size(); i++) {
                int length = decimal(ids.getAtIndex(ValueLayout.JAVA_LONG, i));
                map.numberOf(digitSegment, MAX_DIGITS - length, length);
            }
        } catch (RuntimeException | Error e) {
            map.close();
            throw e;
        }
        numbers.close();
        numbers = null;
        text = map;
    }

    /** Writes {@code id} in decimal at the end of {@link #digits}; returns the number of digits. */
    private int decimal(long id) {
        int at = MAX_DIGITS;
        do {
            digits[--at] = (byte) ('0' + id % 10);
            id /= 10;
        } while (id != 0);
        return MAX_DIGITS - at;
    }
}
