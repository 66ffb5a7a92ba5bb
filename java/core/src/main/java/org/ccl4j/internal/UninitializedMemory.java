package org.ccl4j.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Host memory that is not zeroed, for outputs that a call writes whole: labels, which every
 * labelling writes to the last entry, and statistics columns. {@link Arena#allocate} zeroes what
 * it allocates, on the calling thread: for the 17.6 GB of int64 labels of 2.2 G cells that took
 * twice as long as the labelling itself (2 cores), touching every page once more before the
 * labelling's threads did.
 *
 * <p>Blocks of a megabyte or more are mapped pages of their own ({@code mmap}), unmapped when the
 * arena closes, so that their memory goes back to the system at once: from the C library's
 * {@code malloc}, a freed block stays with the process once malloc's adaptive threshold has grown
 * past its size (a thousand freed tables of a megabyte each kept the resident size at its peak).
 * Smaller blocks come from {@code malloc}. Where native access is denied to this module (the JAVA
 * backend needs none), all come from the arena, zeroed.
 */
public final class UninitializedMemory {
    /** From this size on, pages of their own. */
    private static final long MAPPED = 1 << 20;
    /** Linux's PROT_READ | PROT_WRITE and MAP_PRIVATE | MAP_ANONYMOUS. */
    private static final int READ_WRITE = 0x3;
    private static final int PRIVATE_ANONYMOUS = 0x22;

    /** The C library's functions; null where native access is denied (mmap off Linux, whose flags differ). */
    private static final MethodHandle MALLOC;
    private static final MethodHandle FREE;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;

    static {
        MethodHandle malloc = null;
        MethodHandle free = null;
        MethodHandle mmap = null;
        MethodHandle munmap = null;
        try {
            Linker linker = Linker.nativeLinker();
            malloc = linker.downcallHandle(linker.defaultLookup().findOrThrow("malloc"),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            free = linker.downcallHandle(linker.defaultLookup().findOrThrow("free"),
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
            if (System.getProperty("os.name", "").startsWith("Linux")) {
                mmap = linker.downcallHandle(linker.defaultLookup().findOrThrow("mmap"),
                        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
                munmap = linker.downcallHandle(linker.defaultLookup().findOrThrow("munmap"),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            }
        } catch (IllegalCallerException e) {
            // native access denied: allocate() zeroes arena memory instead
        }
        MALLOC = malloc;
        FREE = free;
        MMAP = mmap;
        MUNMAP = munmap;
    }

    private UninitializedMemory() {
    }

    /**
     * {@code bytes} of host memory aligned to {@code alignment} (at most 16, what {@code malloc}
     * guarantees on 64-bit Linux), freed when {@code arena} closes; its contents are undefined.
     *
     * @throws IllegalStateException when {@code arena} is closed
     * @throws OutOfMemoryError      when the C library has no memory to give
     */
    public static MemorySegment allocate(Arena arena, long bytes, long alignment) {
        if (!arena.scope().isAlive()) {
            throw new IllegalStateException("the arena to allocate in is closed");
        }
        if (MALLOC == null) {
            return arena.allocate(bytes, alignment);
        }
        MemorySegment memory = MMAP != null && bytes >= MAPPED ? mapped(arena, bytes) : allocated(arena, bytes);
        if (memory.address() % alignment != 0) {
            throw new IllegalStateException("the C library returned " + memory.address() + ", not aligned to "
                    + alignment);
        }
        return memory;
    }

    private static MemorySegment allocated(Arena arena, long bytes) {
        MemorySegment raw;
        try {
            raw = (MemorySegment) MALLOC.invokeExact(bytes);
        } catch (Throwable e) {
            throw new IllegalStateException("malloc failed", e);
        }
        if (raw.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("cannot allocate " + HostMemory.format(bytes) + " of host memory");
        }
        return raw.reinterpret(bytes, arena, UninitializedMemory::free);
    }

    private static MemorySegment mapped(Arena arena, long bytes) {
        MemorySegment raw;
        try {
            raw = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, bytes, READ_WRITE, PRIVATE_ANONYMOUS, -1, 0L);
        } catch (Throwable e) {
            throw new IllegalStateException("mmap failed", e);
        }
        if (raw.address() == -1L) {  // MAP_FAILED
            throw new OutOfMemoryError("cannot map " + HostMemory.format(bytes) + " of host memory");
        }
        return raw.reinterpret(bytes, arena, memory -> unmap(memory, bytes));
    }

    private static void free(MemorySegment memory) {
        try {
            FREE.invokeExact(memory);
        } catch (Throwable e) {
            throw new IllegalStateException("free failed", e);
        }
    }

    private static void unmap(MemorySegment memory, long bytes) {
        try {
            int ignored = (int) MUNMAP.invokeExact(memory, bytes);  // fails only for a range never mapped
        } catch (Throwable e) {
            throw new IllegalStateException("munmap failed", e);
        }
    }
}
