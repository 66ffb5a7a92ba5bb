package org.ccl4j.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Numbers 63-bit ids {@code 0, 1, 2, ...} in order of first appearance, off-heap, so that maps of a
 * hundred million ids need no heap and no boxing.
 *
 * <p>Small ids, the common case, are looked up directly: a table of {@code int}s indexed by id
 * covers {@code 0 .. directLimit-1}, and grows while it stays within {@value #DIRECT_SLOTS_PER_ID}
 * slots per id numbered plus {@value #FIRST_DIRECT_LIMIT} (so dense ids cost 4 bytes each and a
 * lookup is one access). Larger ids go to an open-addressing hash map with linear probing (16-byte
 * slots: key, value, padding). Both grow with the number of ids numbered, never with an id's value:
 * a file of a few large ids takes a few kilobytes.
 */
final class IdMap implements AutoCloseable {
    private static final long EMPTY = -1;
    private static final int FIRST_HASH_BITS = 12;
    private static final long SLOT_BYTES = 16;
    private static final long DIRECT_SLOTS_PER_ID = 8;
    /** The first size of the direct table, and the slots it may hold beyond those that ids pay for. */
    private static final long FIRST_DIRECT_LIMIT = 1L << 12;
    private static final long MAX_DIRECT_LIMIT = 1L << 40;

    private int size;
    /** Direct table: at index id, the number of id plus one; 0 when id is not numbered. */
    private Arena directArena = Arena.ofConfined();
    private MemorySegment direct = MemorySegment.NULL;
    private long directLimit;
    private Arena hashArena;
    private MemorySegment slots;
    private int hashBits;
    private long mask;
    private int hashed;

    IdMap() {
        allocateHash(FIRST_HASH_BITS);
    }

    /** The number of distinct ids seen. */
    int size() {
        return size;
    }

    /**
     * The number of {@code id} ({@code >= 0}), giving it the next number when it is new.
     *
     * @return the number, or -1 when {@code id} is new and {@link Integer#MAX_VALUE} ids are already
     *         numbered
     */
    int numberOf(long id) {
        if (id < directLimit) {
            int stored = direct.getAtIndex(ValueLayout.JAVA_INT, id);
            if (stored != 0) {
                return stored - 1;
            }
            if (size == Integer.MAX_VALUE) {
                return -1;
            }
            direct.setAtIndex(ValueLayout.JAVA_INT, id, size + 1);
            return size++;
        }
        if (id < MAX_DIRECT_LIMIT) {
            long wanted = Math.max(FIRST_DIRECT_LIMIT, Long.highestOneBit(id) << 1);
            if (wanted <= DIRECT_SLOTS_PER_ID * size + FIRST_DIRECT_LIMIT) {
                growDirect(wanted);
                return numberOf(id);
            }
        }
        return hashedNumberOf(id);
    }

    /** The bytes of memory the map holds now: its direct table and its hash slots. */
    long reservedBytes() {
        return directLimit * Integer.BYTES + (mask + 1) * SLOT_BYTES;
    }

    /** Writes the ids into {@code ids} ({@link #size()} longs), each at its number. */
    void copyIdsTo(MemorySegment ids) {
        for (long id = 0; id < directLimit; id++) {
            int stored = direct.getAtIndex(ValueLayout.JAVA_INT, id);
            if (stored != 0) {
                ids.setAtIndex(ValueLayout.JAVA_LONG, stored - 1, id);
            }
        }
        for (long slot = 0; slot <= mask; slot++) {
            long key = slots.get(ValueLayout.JAVA_LONG, slot * SLOT_BYTES);
            if (key != EMPTY) {
                ids.setAtIndex(ValueLayout.JAVA_LONG, value(slots, slot), key);
            }
        }
    }

    @Override
    public void close() {
        directArena.close();
        hashArena.close();
    }

    private int hashedNumberOf(long id) {
        long slot = hash(id);
        while (true) {
            long key = slots.get(ValueLayout.JAVA_LONG, slot * SLOT_BYTES);
            if (key == id) {
                return value(slots, slot);
            }
            if (key == EMPTY) {
                break;
            }
            slot = (slot + 1) & mask;
        }
        if (size == Integer.MAX_VALUE) {
            return -1;
        }
        put(slots, slot, id, size);
        hashed++;
        // Grow at a load of 5/8: linear probing stays short and the map at most 2.5x its content.
        if (hashed > (mask + 1) / 8 * 5) {
            rehash(hashBits + 1, directLimit);
        }
        return size++;
    }

    /** Extends the direct table to {@code limit} ids and moves the hashed ids below it there. */
    private void growDirect(long limit) {
        Arena newArena = Arena.ofConfined();
        MemorySegment newDirect = newArena.allocate(ValueLayout.JAVA_INT, limit);
        MemorySegment.copy(direct, 0, newDirect, 0, directLimit * Integer.BYTES);
        directArena.close();
        directArena = newArena;
        direct = newDirect;
        directLimit = limit;
        rehash(hashBits, limit);
    }

    /** Rebuilds the hash map with {@code 2^bits} slots, moving ids below {@code directBelow} to the direct table. */
    private void rehash(int bits, long directBelow) {
        Arena oldArena = hashArena;
        MemorySegment old = slots;
        long oldCapacity = mask + 1;
        allocateHash(bits);
        hashed = 0;
        for (long s = 0; s < oldCapacity; s++) {
            long key = old.get(ValueLayout.JAVA_LONG, s * SLOT_BYTES);
            if (key == EMPTY) {
                continue;
            }
            int number = value(old, s);
            if (key < directBelow) {
                direct.setAtIndex(ValueLayout.JAVA_INT, key, number + 1);
                continue;
            }
            long slot = hash(key);
            while (slots.get(ValueLayout.JAVA_LONG, slot * SLOT_BYTES) != EMPTY) {
                slot = (slot + 1) & mask;
            }
            put(slots, slot, key, number);
            hashed++;
        }
        oldArena.close();
    }

    private long hash(long id) {
        // Fibonacci hashing: the top bits of the product spread consecutive ids over the table.
        return (id * 0x9E3779B97F4A7C15L) >>> (64 - hashBits);
    }

    private void allocateHash(int bits) {
        hashBits = bits;
        mask = (1L << bits) - 1;
        hashArena = Arena.ofConfined();
        slots = hashArena.allocate(SLOT_BYTES << bits, SLOT_BYTES);
        slots.fill((byte) 0xFF);
    }

    private static int value(MemorySegment slots, long slot) {
        return slots.get(ValueLayout.JAVA_INT, slot * SLOT_BYTES + Long.BYTES);
    }

    private static void put(MemorySegment slots, long slot, long key, int value) {
        slots.set(ValueLayout.JAVA_LONG, slot * SLOT_BYTES, key);
        slots.set(ValueLayout.JAVA_INT, slot * SLOT_BYTES + Long.BYTES, value);
    }
}
