package org.ccl4j.physics;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.Ccl4jException;
import org.ccl4j.LabelOptions;
import org.ccl4j.internal.Abi;
import org.ccl4j.internal.NativeLibrary;

/**
 * The physics package's side of the C ABI: contexts, options and statuses, built on {@link Abi}
 * and the public API only, so that this package depends on {@code org.ccl4j} and never the reverse.
 */
final class PhysicsCalls {
    private PhysicsCalls() {
    }

    static void requireLibrary() {
        if (!NativeLibrary.load()) {
            throw new BackendUnavailableException(NativeLibrary.loadError());
        }
    }

    /** Throws the exception that matches a failed status, as {@code ComponentLabeler} does. */
    static void check(int status, MemorySegment context) {
        Abi.check(status, context, (name, message) -> Ccl4jException.of(Ccl4jException.Status.valueOf(name), message));
    }

    /** Default label options with {@code algorithm}, without input checks: lattices are built well-formed. */
    static MemorySegment options(Arena arena, Algorithm algorithm) {
        LabelOptions o = LabelOptions.defaults();
        return Abi.labelOptions(arena, Abi.algorithmCode(algorithm.name()), false, o.cpuThreads(),
                o.blockSize(), o.warpThreshold(), o.blockThreshold(), o.maxIterations());
    }

    /** A native context for lattice runs on {@code backend} with {@code algorithm}. */
    static MemorySegment createContext(Backend backend, Algorithm algorithm) {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(algorithm, "algorithm");
        if (backend == Backend.JAVA || Abi.algorithmCode(algorithm.name()) < 0) {
            throw new UnsupportedOperationException("lattice runs need a native backend and algorithm, got "
                    + backend + " and " + algorithm);
        }
        requireLibrary();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            check(ccl4j_context_create(Abi.backendCode(backend.name()), 0, out), MemorySegment.NULL);
            return Abi.pointer(out);
        }
    }

    /** The backend a context resolved AUTO to. */
    static Backend resolvedBackend(MemorySegment context) {
        return Backend.valueOf(Abi.backendName(ccl4j_context_backend(context)));
    }
}
