package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Host memory from the native library: page-locked when a CUDA device is usable, 64-byte aligned. */
final class HostAllocation {
    private HostAllocation() {
    }

    /** {@code bytes} of host memory freed when {@code arena} closes. */
    static MemorySegment pinned(Arena arena, long bytes, NativeCalls calls) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            MemorySegment pinned = call.allocate(ValueLayout.JAVA_INT);
            calls.check(ccl4j_host_alloc(bytes, out, pinned), MemorySegment.NULL);
            return Abi.pointer(out).reinterpret(bytes, arena, HostAllocation::free);
        }
    }

    private static void free(MemorySegment segment) {
        ccl4j_host_free(segment);
    }
}
