package org.ccl4j.engine.jvm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.internal.Segments;

/**
 * The memory of one labelling call of the JVM engine, by address: its inputs and its labels,
 * read and written by the call's threads without the checks that every access through a
 * {@link MemorySegment} makes (bounds, liveness, owner thread). The JIT repeats those checks at
 * every one of a union-find's scattered accesses, which made the JAVA backend twice as slow on
 * segments as on Java arrays.
 *
 * <p>What makes it safe is where addresses come from and what is done with them:
 * <ul>
 * <li>An address is handed out only for memory that no other thread can free during the call:
 * a segment of a confined arena that the calling thread owns (only it can close the arena, and it
 * is inside the call), or an input of the global arena, which is never freed. Every other segment
 * (a shared or automatic arena, the Java heap) is copied into an arena of the call first, and
 * labels that are not the caller's own are written there and copied back by {@link #commit()}.
 * So other threads can change an input of the global arena during the call, but no parent array.
 * <li>The algorithms compute addresses only from values they have checked against the extent of
 * the memory (a neighbour id against the vertex count, offsets against the arc count), from
 * parents they wrote themselves, or from a grid's geometry, which the API's {@code Grid} checked against its
 * segment.
 * <li>{@link ForkJoinLoop} returns only when every thread of a phase is done, even when one threw,
 * so no thread reads memory the caller has freed since.
 * </ul>
 *
 * <p>Reaching all memory needs {@link MemorySegment#reinterpret(long)}, a restricted method: when
 * native access is denied to this module, {@link #available()} is false and the JAVA backend
 * labels on one thread, through segments.
 */
final class RawMemory implements AutoCloseable {
    /** All of the address space: accesses through a constant segment cost no more than array accesses. */
    private static final MemorySegment EVERYTHING = everything();
    /** Plain accesses need no alignment check: the call's ints and longs are aligned anyway. */
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    /** Compare-and-set needs an aligned handle. */
    private static final VarHandle ALIGNED_INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle ALIGNED_LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Thread caller = Thread.currentThread();
    private final List<Runnable> copiesBack = new ArrayList<>();
    private Arena copies;

    private static MemorySegment everything() {
        try {
            return MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
        } catch (IllegalCallerException e) {
            return null;  // native access denied to this module
        }
    }

    /** Whether addresses can be used here: false when native access is denied to this module. */
    static boolean available() {
        return EVERYTHING != null;
    }

    /** The address of {@code segment}'s memory, to be read during the call, or of a copy of it. */
    long input(MemorySegment segment) {
        return readsInPlace(segment) ? segment.address() : copy(segment).address();
    }

    /**
     * Refuses memory that was freed: an address of it would reach whatever lies there now. Checked
     * once per call suffices for what is read in place: the calling thread alone can close its
     * confined arena, and it is inside the call; the global arena is never closed.
     */
    private static void requireAlive(MemorySegment segment) {
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the memory of an input or output of the call was freed (its arena is"
                    + " closed)");
        }
    }

    /**
     * Whether the call may read {@code segment} in place by address: native memory of the global
     * arena, or of a confined arena of the calling thread. Where not, a reader that must not copy
     * (labels of many gigabytes) goes through the segment.
     */
    boolean readsInPlace(MemorySegment segment) {
        requireAlive(segment);
        boolean global = segment.isNative() && segment.scope().equals(Arena.global().scope());
        return global || own(segment);
    }

    /**
     * The address where the call writes {@code labels}: their own memory when the calling thread
     * owns it, else memory of the call, copied into {@code labels} by {@link #commit()}.
     */
    long output(MemorySegment labels) {
        requireAlive(labels);
        if (own(labels)) {
            return labels.address();
        }
        MemorySegment scratch = allocate(labels.byteSize());
        copiesBack.add(() -> MemorySegment.copy(scratch, 0, labels, 0, scratch.byteSize()));
        return scratch.address();
    }

    /** Copies the outputs that were written elsewhere into their segments: once the call has succeeded. */
    void commit() {
        copiesBack.forEach(Runnable::run);
        copiesBack.clear();
    }

    @Override
    public void close() {
        if (copies != null) {
            copies.close();
        }
    }

    /** Native memory of a confined arena of the calling thread: nobody else can free or change it. */
    private boolean own(MemorySegment segment) {
        return segment.isNative() && segment.isAccessibleBy(caller) && !Segments.isShared(segment);
    }

    private MemorySegment copy(MemorySegment segment) {
        return allocate(segment.byteSize()).copyFrom(segment);
    }

    private MemorySegment allocate(long bytes) {
        if (copies == null) {
            copies = Arena.ofConfined();
        }
        return copies.allocate(bytes, Long.BYTES);
    }

    static int getInt(long address, long index) {
        return EVERYTHING.get(INT, address + (index << 2));
    }

    static void setInt(long address, long index, int value) {
        EVERYTHING.set(INT, address + (index << 2), value);
    }

    static long getLong(long address, long index) {
        return EVERYTHING.get(LONG, address + (index << 3));
    }

    static void setLong(long address, long index, long value) {
        EVERYTHING.set(LONG, address + (index << 3), value);
    }

    static int getUnsignedByte(long address, long index) {
        return Byte.toUnsignedInt(EVERYTHING.get(ValueLayout.JAVA_BYTE, address + index));
    }

    /** Value {@code index} of type {@code type} at {@code address}, exactly. */
    static double getValue(IntensityData.ValueType type, long address, long index) {
        return switch (type) {
            case U8 -> getUnsignedByte(address, index);
            case U16 -> Short.toUnsignedInt(EVERYTHING.get(ValueLayout.JAVA_SHORT_UNALIGNED, address + (index << 1)));
            case I32 -> getInt(address, index);
            case F32 -> EVERYTHING.get(ValueLayout.JAVA_FLOAT_UNALIGNED, address + (index << 2));
        };
    }

    /** Sets int {@code index} to {@code value} if it holds {@code expected}; returns what it held. */
    static int compareAndExchangeInt(long address, long index, int expected, int value) {
        return (int) ALIGNED_INT.compareAndExchange(EVERYTHING, address + (index << 2), expected, value);
    }

    /** Sets long {@code index} to {@code value} if it holds {@code expected}; returns what it held. */
    static long compareAndExchangeLong(long address, long index, long expected, long value) {
        return (long) ALIGNED_LONG.compareAndExchange(EVERYTHING, address + (index << 3), expected, value);
    }
}
