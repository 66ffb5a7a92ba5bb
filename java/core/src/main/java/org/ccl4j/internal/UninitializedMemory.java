package org.ccl4j.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Host memory that is not zeroed, for outputs that a call writes whole: labels, which every
 * labelling writes to the last entry. {@link Arena#allocate} zeroes what it allocates, on the
 * calling thread: for the 17.6 GB of int64 labels of 2.2 G cells that took twice as long as the
 * labelling itself (2 cores), touching every page once more before the labelling's threads did.
 * From the C library's {@code malloc}, freed with the arena; where native access is denied to this
 * module (the JAVA backend needs none), from the arena, zeroed.
 */
public final class UninitializedMemory {
    /** {@code malloc} and {@code free}; null where native access is denied to this module. */
    private static final MethodHandle MALLOC;
    private static final MethodHandle FREE;

    static {
        MethodHandle malloc = null;
        MethodHandle free = null;
        try {
            Linker linker = Linker.nativeLinker();
            malloc = linker.downcallHandle(linker.defaultLookup().findOrThrow("malloc"),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            free = linker.downcallHandle(linker.defaultLookup().findOrThrow("free"),
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
        } catch (IllegalCallerException e) {
            // native access denied: allocate() zeroes arena memory instead
        }
        MALLOC = malloc;
        FREE = free;
    }

    private UninitializedMemory() {
    }

    /**
     * {@code bytes} of host memory aligned to {@code alignment} (at most 16, what {@code malloc}
     * guarantees on 64-bit Linux), freed when {@code arena} closes; its contents are undefined.
     *
     * @throws OutOfMemoryError when {@code malloc} has no memory to give
     */
    public static MemorySegment allocate(Arena arena, long bytes, long alignment) {
        if (MALLOC == null) {
            return arena.allocate(bytes, alignment);
        }
        MemorySegment raw;
        try {
            raw = (MemorySegment) MALLOC.invokeExact(bytes);
        } catch (Throwable e) {
            throw new IllegalStateException("malloc failed", e);
        }
        if (raw.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("cannot allocate " + HostMemory.format(bytes) + " of host memory");
        }
        MemorySegment memory = raw.reinterpret(bytes, arena, UninitializedMemory::free);
        if (memory.address() % alignment != 0) {
            throw new IllegalStateException("malloc returned " + memory.address() + ", not aligned to " + alignment);
        }
        return memory;
    }

    private static void free(MemorySegment memory) {
        try {
            FREE.invokeExact(memory);
        } catch (Throwable e) {
            throw new IllegalStateException("free failed", e);
        }
    }
}
