package org.ccl4j.bench.phases;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.internal.Abi;
import org.ccl4j.internal.NativeLibrary;

/** What the benchmark probes share: loading the library, contexts, backend and algorithm codes. */
final class Native {
    private Native() {
    }

    static MemorySegment createContext(int backend, int device) {
        if (!NativeLibrary.load()) {
            throw new BackendUnavailableException(NativeLibrary.loadError());
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            Abi.check(ccl4j_context_create(backend, device, out), MemorySegment.NULL);
            return out.get(ValueLayout.ADDRESS, 0);
        }
    }

    /** The native backend code; the JAVA backend has no native phases. */
    static int backendCode(Backend backend) {
        return switch (backend) {
            case AUTO -> CCL4J_BACKEND_AUTO();
            case CUDA -> CCL4J_BACKEND_CUDA();
            case CPU_PARALLEL -> CCL4J_BACKEND_CPU_PARALLEL();
            case CPU_SERIAL -> CCL4J_BACKEND_CPU_SERIAL();
            case JAVA -> throw new IllegalArgumentException("the JAVA backend runs no native code, so it has no native phases");
        };
    }

    /** The native algorithm code; union-find is pure Java. A new algorithm must be added here. */
    static int algorithmCode(Algorithm algorithm) {
        return switch (algorithm) {
            case AUTO -> CCL4J_ALGORITHM_AUTO();
            case ECL_CC -> CCL4J_ALGORITHM_ECL_CC();
            case CPU_REFERENCE -> CCL4J_ALGORITHM_CPU_REFERENCE();
            case HAWICK_EDGE -> CCL4J_ALGORITHM_HAWICK_EDGE();
            case HAWICK_VERTEX -> CCL4J_ALGORITHM_HAWICK_VERTEX();
            case HAWICK_BFS -> CCL4J_ALGORITHM_HAWICK_BFS();
            case KOMURA -> CCL4J_ALGORITHM_KOMURA();
            case UNION_FIND -> throw new IllegalArgumentException("union-find is pure Java: it has no native phases");
        };
    }
}
