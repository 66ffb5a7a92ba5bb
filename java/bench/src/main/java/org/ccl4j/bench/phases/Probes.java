package org.ccl4j.bench.phases;

import static org.ccl4j.bench.ffi.ccl4j_bench_h.*;
import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.BackendUnavailableException;
import org.ccl4j.engine.nativelib.NativeLibrary;

/**
 * The costs around the kernels: an empty native call, and host-to-device copies from a segment
 * (page-locked or ordinary) into a CUDA context's graph buffer. For the benchmarks, not part of
 * the API.
 */
public final class Probes implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment context;
    private final MemorySegment msOut;
    private boolean closed;

    private Probes(MemorySegment context) {
        this.context = context;
        this.msOut = arena.allocate(ValueLayout.JAVA_DOUBLE);
    }

    /** Opens a CUDA context on {@code device} for {@link #copyToDevice}. */
    public static Probes cuda(int device) {
        return new Probes(Native.createContext(CCL4J_BACKEND_CUDA(), device));
    }

    /** Loads the native library, or throws {@link BackendUnavailableException} saying why it cannot be. */
    public static void load() {
        if (!NativeLibrary.load()) {
            throw new BackendUnavailableException(NativeLibrary.loadError());
        }
    }

    /** An empty native call: returns {@code value}. Call {@link #load()} first. */
    public static int noop(int value) {
        return ccl4j_noop(value);
    }

    /**
     * Copies {@code host} (native memory) to the device and waits; returns the copy's CUDA-event
     * time in ms.
     */
    public double copyToDevice(MemorySegment host) {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (!host.isNative()) {
            throw new IllegalArgumentException("copies to the device need a native segment, not a heap one");
        }
        Native.check(ccl4j_copy_to_device(context, host, host.byteSize(), msOut), context);
        return msOut.get(ValueLayout.JAVA_DOUBLE, 0);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ccl4j_context_destroy(context);
            arena.close();
        }
    }
}
