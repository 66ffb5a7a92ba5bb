package org.ccl4j.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Numbers byte strings {@code 0, 1, 2, ...} in order of first appearance, off-heap: the ids of an
 * edge list that are not all numbers. The text of every id is appended to one pool, with its
 * offset in a second array; an open-addressing table with linear probing, at most half full,
 * holds in each slot the hash of an id and its number plus one (0: empty), so that a probe reads
 * the text only when the hashes agree: a lookup touches the table, and the pool once.
 *
 * <p>Memory, while reading: the text of each distinct id plus 24 to 40 bytes (8 for its offset,
 * 16 to 32 for table slots), and for a moment twice a part's size when it grows.
 */
final class TokenMap implements AutoCloseable {
    private static final int FIRST_TABLE_BITS = 12;
    private static final long FIRST_POOL_BYTES = 1 << 16;
    private static final long FIRST_IDS = 1 << 10;

    private int size;
    private Arena poolArena = Arena.ofConfined();
    private MemorySegment pool;
    private long poolBytes;
    /** Per number: the pool offset of its text (and, at {@code size}, the end of the pool). */
    private Arena offsetArena = Arena.ofConfined();
    private MemorySegment offsets;
    private Arena tableArena = Arena.ofConfined();
    private MemorySegment table;
    private int tableBits;
    private long mask;

    TokenMap() {
        pool = poolArena.allocate(FIRST_POOL_BYTES);
        offsets = offsetArena.allocate(ValueLayout.JAVA_LONG, FIRST_IDS + 1);
        allocateTable(FIRST_TABLE_BITS);
    }

    /** The number of distinct ids seen. */
    int size() {
        return size;
    }

    /** The bytes of text held. */
    long textBytes() {
        return poolBytes;
    }

    /**
     * The number of the id whose text is {@code text[from .. from+length-1]}, giving it the next
     * number when it is new.
     *
     * @return the number, or -1 when the id is new and {@link Integer#MAX_VALUE} ids are already
     *         numbered
     */
    int numberOf(MemorySegment text, long from, int length) {
        int hash = hash(text, from, length);
        long slot = slotOf(hash);
        while (true) {
            long stored = table.getAtIndex(ValueLayout.JAVA_LONG, slot);
            if (stored == 0) {
                break;
            }
            int number = (int) stored - 1;
            if ((int) (stored >>> 32) == hash && equal(number, text, from, length)) {
                return number;
            }
            slot = (slot + 1) & mask;
        }
        if (size == Integer.MAX_VALUE) {
            return -1;
        }
        append(text, from, length);
        table.setAtIndex(ValueLayout.JAVA_LONG, slot, slotValue(hash, size));
        size++;
        if (2L * size > mask + 1) {
            rehash(tableBits + 1);
        }
        return size - 1;
    }

    /**
     * Copies the texts into {@code arena}: the pool, and {@code size + 1} offsets that bound each
     * number's text.
     *
     * @return {pool, offsets}
     */
    MemorySegment[] copyTo(Arena arena) {
        offsets.setAtIndex(ValueLayout.JAVA_LONG, size, poolBytes);
        MemorySegment text = arena.allocate(Math.max(1, poolBytes)).asSlice(0, poolBytes);
        MemorySegment.copy(pool, 0, text, 0, poolBytes);
        MemorySegment bounds = arena.allocate(ValueLayout.JAVA_LONG, size + 1L);
        MemorySegment.copy(offsets, 0, bounds, 0, (size + 1L) * Long.BYTES);
        return new MemorySegment[] {text, bounds};
    }

    @Override
    public void close() {
        poolArena.close();
        offsetArena.close();
        tableArena.close();
    }

    private boolean equal(int number, MemorySegment text, long from, int length) {
        long start = offsets.getAtIndex(ValueLayout.JAVA_LONG, number);
        long end = number + 1 < size ? offsets.getAtIndex(ValueLayout.JAVA_LONG, number + 1) : poolBytes;
        return end - start == length && MemorySegment.mismatch(pool, start, end, text, from, from + length) < 0;
    }

    private void append(MemorySegment text, long from, int length) {
        if (poolBytes + length > pool.byteSize()) {
            Arena grown = Arena.ofConfined();
            MemorySegment bigger = grown.allocate(Math.max(2 * pool.byteSize(), poolBytes + length));
            MemorySegment.copy(pool, 0, bigger, 0, poolBytes);
            poolArena.close();
            poolArena = grown;
            pool = bigger;
        }
        if (size + 1L >= offsets.byteSize() / Long.BYTES) {
            long ids = 2 * (offsets.byteSize() / Long.BYTES);
            Arena grown = Arena.ofConfined();
            MemorySegment more = grown.allocate(ValueLayout.JAVA_LONG, ids);
            MemorySegment.copy(offsets, 0, more, 0, (long) size * Long.BYTES);
            offsetArena.close();
            offsetArena = grown;
            offsets = more;
        }
        MemorySegment.copy(text, from, pool, poolBytes, length);
        offsets.setAtIndex(ValueLayout.JAVA_LONG, size, poolBytes);
        poolBytes += length;
    }

    private void rehash(int bits) {
        Arena oldArena = tableArena;
        MemorySegment old = table;
        long oldSlots = mask + 1;
        allocateTable(bits);
        for (long s = 0; s < oldSlots; s++) {
            long stored = old.getAtIndex(ValueLayout.JAVA_LONG, s);
            if (stored == 0) {
                continue;
            }
            long slot = slotOf((int) (stored >>> 32));
            while (table.getAtIndex(ValueLayout.JAVA_LONG, slot) != 0) {
                slot = (slot + 1) & mask;
            }
            table.setAtIndex(ValueLayout.JAVA_LONG, slot, stored);
        }
        oldArena.close();
    }

    private void allocateTable(int bits) {
        tableBits = bits;
        mask = (1L << bits) - 1;
        tableArena = Arena.ofConfined();
        table = tableArena.allocate(ValueLayout.JAVA_LONG, 1L << bits);
    }

    /** A table slot: the hash in the high half, the number plus one (never 0) in the low half. */
    private static long slotValue(int hash, int number) {
        return (long) hash << 32 | (number + 1L);
    }

    private long slotOf(int hash) {
        // Fibonacci hashing spreads the 32-bit hash over the table's bits.
        return ((hash & 0xFFFFFFFFL) * 0x9E3779B97F4A7C15L) >>> (64 - tableBits);
    }

    /** A hash of the bytes, eight at a time, finished with MurmurHash3's mix; 32 bits. */
    private static int hash(MemorySegment text, long from, int length) {
        long h = 0x9E3779B97F4A7C15L ^ length;
        long i = from;
        long end = from + length;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            h = Long.rotateLeft(h ^ text.get(ValueLayout.JAVA_LONG_UNALIGNED, i) * 0xC2B2AE3D27D4EB4FL, 31)
                    * 0x9E3779B97F4A7C15L;
        }
        for (; i < end; i++) {
            h = (h ^ (text.get(ValueLayout.JAVA_BYTE, i) & 0xFF)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return (int) h;
    }
}
