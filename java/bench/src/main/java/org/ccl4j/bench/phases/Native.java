package org.ccl4j.bench.phases;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.Ccl4jException;
import org.ccl4j.Grid;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
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
            check(ccl4j_context_create(backend, device, out), MemorySegment.NULL);
            return out.get(ValueLayout.ADDRESS, 0);
        }
    }

    /** Throws the exception the API throws for a failed status, with the native message. */
    static void check(int status, MemorySegment context) {
        if (status == CCL4J_SUCCESS()) {
            return;
        }
        String message = Abi.errorMessage(context);
        throw switch (Abi.statusName(status)) {
            case "INVALID_ARGUMENT", "INVALID_INPUT" -> new IllegalArgumentException(message);
            case "BACKEND_UNAVAILABLE" -> new BackendUnavailableException(message);
            case "UNSUPPORTED" -> new UnsupportedOperationException(message);
            case String name -> new Ccl4jException(Ccl4jException.Status.valueOf(name), message);
        };
    }

    /** The grid as a {@code ccl4j_mesh} pointing at its cells, with its strides. */
    static MemorySegment mesh(Arena arena, Grid grid) {
        return Abi.mesh(arena, grid.width(), grid.height(), grid.depth(), grid.type() == Grid.CellType.U8,
                grid.cells(), grid.rowStride(), grid.layerStride());
    }

    /** The options, their algorithm included, as a {@code ccl4j_mesh_options}; the Java union-find has no phases. */
    static MemorySegment meshOptions(Arena arena, MeshOptions o) {
        if (o.algorithm() == MeshAlgorithm.JAVA) {
            throw new IllegalArgumentException("the Java mesh union-find runs no native code: it has no native phases");
        }
        return Abi.meshOptions(arena, Abi.meshAlgorithmCode(o.algorithm().name()), o.connectivity(), o.periodicX(),
                o.periodicY(), o.periodicZ(), o.mode() == MeshMode.SAME_VALUE, o.cpuThreads(), o.blockSize(),
                o.tileSize(), o.maxIterations());
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
