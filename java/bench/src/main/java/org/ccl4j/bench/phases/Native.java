package org.ccl4j.bench.phases;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.Ccl4jException;
import org.ccl4j.CsrGraph;
import org.ccl4j.Grid;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.engine.nativelib.Abi;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.nativelib.NativeLibrary;

/**
 * The probes' side of the C ABI, built on {@link Abi} and the public API (the benchmarks see the
 * library as a user does, plus its unexported ABI layer): contexts, structs, codes and statuses.
 */
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
            return Abi.pointer(out);
        }
    }

    /** Throws the exception that matches a failed status, as the library does. */
    static void check(int status, MemorySegment context) {
        Abi.check(status, context, (name, message) -> Ccl4jException.of(Ccl4jException.Status.valueOf(name), message));
    }

    /** The native backend code; the JAVA backend has no native phases. */
    static int backendCode(Backend backend) {
        if (backend == Backend.JAVA) {
            throw new IllegalArgumentException("the JAVA backend runs no native code, so it has no native phases");
        }
        return Abi.backendCode(backend.name());
    }

    /** The native algorithm code; union-find is pure Java. */
    static int algorithmCode(Algorithm algorithm) {
        if (algorithm == Algorithm.UNION_FIND) {
            throw new IllegalArgumentException("union-find is pure Java: it has no native phases");
        }
        return Abi.algorithmCode(algorithm.name());
    }

    /** The graph's shape; its arrays are arguments of their own. */
    static MemorySegment csr(Arena arena, CsrGraph graph) {
        return Abi.csr(arena, graph.vertexCount(), graph.arcCount(), graph.offsetBytes());
    }

    static MemorySegment mesh(Arena arena, Grid grid) {
        return Abi.mesh(arena, grid.width(), grid.height(), grid.depth(),
                IntensityData.ValueType.valueOf(grid.type().name()), grid.rowStride(), grid.layerStride());
    }

    static MemorySegment meshOptions(Arena arena, MeshOptions o, MeshAlgorithm algorithm) {
        if (algorithm == MeshAlgorithm.JAVA) {
            throw new IllegalArgumentException("the Java mesh union-find runs no native code: it has no native phases");
        }
        return Abi.meshOptions(arena, Abi.meshAlgorithmCode(algorithm.name()), o.connectivity(), o.periodicX(),
                o.periodicY(), o.periodicZ(), o.mode() == MeshMode.SAME_VALUE, o.delta(), o.cpuThreads(), o.blockSize(),
                o.tileSize(), o.maxIterations());
    }
}
