package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.ccl4j.engine.Engines;

/**
 * Page-locked host memory for zero-copy transfers: buffers allocated here go to and from the GPU
 * by DMA, without staging through a driver buffer. Without a CUDA device the memory is ordinary
 * (64-byte aligned) host memory, so code using it runs everywhere.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined()) {
 *     MemorySegment neighbours = PinnedMemory.allocate(arena, arcs * Integer.BYTES);
 *     ...
 * } // freed here
 * }</pre>
 */
public final class PinnedMemory {
    private PinnedMemory() {
    }

    /**
     * Allocates {@code bytes} of host memory, page-locked when a CUDA device is usable, freed
     * when {@code arena} closes.
     *
     * @param arena the arena whose closing frees the memory
     * @param bytes the number of bytes
     * @return the memory
     */
    public static MemorySegment allocate(Arena arena, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("byte count must not be negative, got " + bytes);
        }
        return Engines.hostMemory(arena, bytes, Ccl4jException.FAILURES);
    }

    /**
     * Whether {@link #allocate} returns page-locked memory on this machine.
     *
     * @return whether a CUDA device is usable
     */
    public static boolean isPageLocked() {
        return ComponentLabeler.capabilities().backends().contains(Backend.CUDA);
    }
}
