package org.ccl4j.internal.bench;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.Ccl4jException;
import org.ccl4j.internal.ffi.ccl4j_mesh;
import org.ccl4j.internal.ffi.ccl4j_mesh_options;
import org.ccl4j.mesh.Grid;
import org.ccl4j.mesh.MeshAlgorithm;
import org.ccl4j.mesh.MeshMode;
import org.ccl4j.mesh.MeshOptions;
import org.ccl4j.internal.NativeLibrary;

/** What the benchmark probes share: loading the library, contexts, codes and failed statuses. */
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

    /** The native id of a mesh algorithm; the Java union-find has none. A new algorithm must be added here. */
    static int meshAlgorithmCode(MeshAlgorithm algorithm) {
        return switch (algorithm) {
            case AUTO -> CCL4J_ALGORITHM_AUTO();
            case NEIGHBOUR -> CCL4J_ALGORITHM_MESH_NEIGHBOUR();
            case LOCAL -> CCL4J_ALGORITHM_MESH_LOCAL();
            case DIRECTIONAL -> CCL4J_ALGORITHM_MESH_DIRECTIONAL();
            case EQUIVALENCE -> CCL4J_ALGORITHM_MESH_EQUIVALENCE();
            case KOMURA -> CCL4J_ALGORITHM_MESH_KOMURA();
            case UNION_FIND -> CCL4J_ALGORITHM_MESH_UNION_FIND();
            case CPU_RASTER -> CCL4J_ALGORITHM_MESH_CPU_RASTER();
            case CPU_EQUIVALENCE -> CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE();
            case CPU_PARALLEL -> CCL4J_ALGORITHM_MESH_CPU_PARALLEL();
            case JAVA -> throw new IllegalArgumentException("the Java mesh union-find runs no native code, so it has no native phases");
        };
    }

    /** The grid as a {@code ccl4j_mesh} pointing at its cells. */
    static MemorySegment mesh(Arena arena, Grid grid) {
        MemorySegment s = ccl4j_mesh.allocate(arena);
        ccl4j_mesh.width(s, grid.width());
        ccl4j_mesh.height(s, grid.height());
        ccl4j_mesh.depth(s, grid.depth());
        ccl4j_mesh.cell_type(s, grid.type() == Grid.CellType.U8 ? CCL4J_CELL_U8() : CCL4J_CELL_I32());
        ccl4j_mesh.cells(s, grid.cells());
        return s;
    }

    static MemorySegment meshOptions(Arena arena, MeshOptions o) {
        MemorySegment s = ccl4j_mesh_options.allocate(arena);
        ccl4j_mesh_options.algorithm(s, meshAlgorithmCode(o.algorithm()));
        ccl4j_mesh_options.connectivity(s, o.connectivity());
        ccl4j_mesh_options.periodic(s, (o.periodicX() ? CCL4J_PERIODIC_X() : 0) | (o.periodicY() ? CCL4J_PERIODIC_Y() : 0)
                | (o.periodicZ() ? CCL4J_PERIODIC_Z() : 0));
        ccl4j_mesh_options.mode(s, o.mode() == MeshMode.SAME_VALUE ? CCL4J_MESH_SAME_VALUE() : CCL4J_MESH_FOREGROUND());
        ccl4j_mesh_options.cpu_threads(s, o.cpuThreads());
        ccl4j_mesh_options.block_size(s, o.blockSize());
        ccl4j_mesh_options.tile_size(s, o.tileSize());
        ccl4j_mesh_options.max_iterations(s, o.maxIterations());
        return s;
    }

    /** Throws the exception the library's API throws for a failed status, with the native message. */
    static void check(int status, MemorySegment context) {
        if (status == CCL4J_SUCCESS()) {
            return;
        }
        String message = ccl4j_context_error_message(context).reinterpret(Long.MAX_VALUE).getString(0);
        if (status == CCL4J_INVALID_ARGUMENT() || status == CCL4J_INVALID_INPUT()) {
            throw new IllegalArgumentException(message);
        }
        if (status == CCL4J_BACKEND_UNAVAILABLE()) {
            throw new BackendUnavailableException(message);
        }
        if (status == CCL4J_UNSUPPORTED()) {
            throw new UnsupportedOperationException(message);
        }
        throw new Ccl4jException(status, message);
    }
}
