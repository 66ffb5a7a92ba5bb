package org.ccl4j.internal;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.ccl4j.BackendUnavailableException;
import org.ccl4j.Ccl4jException;
import org.ccl4j.internal.ffi.ccl4j_mesh;
import org.ccl4j.internal.ffi.ccl4j_mesh_options;
import org.ccl4j.mesh.Grid;
import org.ccl4j.mesh.MeshAlgorithm;
import org.ccl4j.mesh.MeshMode;
import org.ccl4j.mesh.MeshOptions;

/**
 * The translations to and from the C ABI that the library and its benchmark probes share: failed
 * statuses into exceptions, grids and mesh options into their structs, mesh algorithms into ids.
 */
public final class Abi {
    private Abi() {
    }

    /** Throws the exception that matches a failed status, carrying the native message. */
    public static void check(int status, MemorySegment context) {
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

    /** The grid as a {@code ccl4j_mesh} pointing at its cells, with its strides. */
    public static MemorySegment mesh(Arena arena, Grid grid) {
        MemorySegment s = ccl4j_mesh.allocate(arena);
        ccl4j_mesh.width(s, grid.width());
        ccl4j_mesh.height(s, grid.height());
        ccl4j_mesh.depth(s, grid.depth());
        ccl4j_mesh.cell_type(s, grid.type() == Grid.CellType.U8 ? CCL4J_CELL_U8() : CCL4J_CELL_I32());
        ccl4j_mesh.cells(s, grid.cells());
        ccl4j_mesh.row_stride(s, grid.rowStride());
        ccl4j_mesh.layer_stride(s, grid.layerStride());
        return s;
    }

    /** The options as a {@code ccl4j_mesh_options}, with {@code algorithm} in place of theirs. */
    public static MemorySegment meshOptions(Arena arena, MeshOptions o, MeshAlgorithm algorithm) {
        MemorySegment s = ccl4j_mesh_options.allocate(arena);
        ccl4j_mesh_options.algorithm(s, meshAlgorithmCode(algorithm));
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

    /** The C ABI's id of a native mesh algorithm; the Java union-find has none. */
    public static int meshAlgorithmCode(MeshAlgorithm a) {
        return switch (a) {
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
            case JAVA -> throw new IllegalArgumentException("the Java mesh union-find runs no native code: it has no native id and no native phases");
        };
    }

    /** The mesh algorithm of a native id. */
    public static MeshAlgorithm meshAlgorithm(int code) {
        for (MeshAlgorithm a : MeshAlgorithm.values()) {
            if (a != MeshAlgorithm.JAVA && meshAlgorithmCode(a) == code) {
                return a;
            }
        }
        throw new IllegalStateException("native library reported unknown mesh algorithm " + code);
    }
}
