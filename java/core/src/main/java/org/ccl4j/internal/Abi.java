package org.ccl4j.internal;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BiFunction;

import org.ccl4j.internal.ffi.ccl4j_csr;
import org.ccl4j.internal.ffi.ccl4j_label_options;
import org.ccl4j.internal.ffi.ccl4j_mesh;
import org.ccl4j.internal.ffi.ccl4j_mesh_options;

/**
 * What every caller of the C ABI shares, in ABI terms only (it knows no API type, so that the API,
 * the physics package and the benchmark probes all build on it without a package cycle): the
 * code tables between the API's enum constants (by name) and the ABI's ids, the structs filled from
 * plain values, error messages and out-parameters.
 */
public final class Abi {
    private Abi() {
    }

    /** Codes of {@code ccl4j_status}, by the name of {@code Ccl4jException.Status} they map to. */
    public static String statusName(int status) {
        if (status == CCL4J_INVALID_ARGUMENT()) return "INVALID_ARGUMENT";
        if (status == CCL4J_INVALID_INPUT()) return "INVALID_INPUT";
        if (status == CCL4J_BACKEND_UNAVAILABLE()) return "BACKEND_UNAVAILABLE";
        if (status == CCL4J_OUT_OF_MEMORY()) return "OUT_OF_MEMORY";
        if (status == CCL4J_DEVICE_ERROR()) return "DEVICE_ERROR";
        if (status == CCL4J_NOT_CONVERGED()) return "NOT_CONVERGED";
        if (status == CCL4J_UNSUPPORTED()) return "UNSUPPORTED";
        return "INTERNAL_ERROR";
    }

    /**
     * Throws for a failed status, with the context's message: {@link IllegalArgumentException} for
     * bad arguments or input, {@link UnsupportedOperationException} for an unsupported combination,
     * and for every other failure what {@code failure} makes of the status's name and the message
     * (the API's exceptions, which this package cannot name).
     */
    public static void check(int status, MemorySegment context,
                             BiFunction<String, String, RuntimeException> failure) {
        if (status == CCL4J_SUCCESS()) {
            return;
        }
        String message = errorMessage(context);
        throw switch (statusName(status)) {
            case "INVALID_ARGUMENT", "INVALID_INPUT" -> new IllegalArgumentException(message);
            case "UNSUPPORTED" -> new UnsupportedOperationException(message);
            case String name -> failure.apply(name, message);
        };
    }

    /** The context's last error message ({@code MemorySegment.NULL}: the thread's last one). */
    public static String errorMessage(MemorySegment context) {
        return ccl4j_context_error_message(context).reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** Reads the pointer a native function stored through an out-parameter. */
    public static MemorySegment pointer(MemorySegment out) {
        return out.get(ValueLayout.ADDRESS, 0);
    }

    /** {@code ccl4j_backend} of the API's {@code Backend} constant {@code name}; -1 for JAVA. */
    public static int backendCode(String name) {
        return switch (name) {
            case "AUTO" -> CCL4J_BACKEND_AUTO();
            case "CUDA" -> CCL4J_BACKEND_CUDA();
            case "CPU_PARALLEL" -> CCL4J_BACKEND_CPU_PARALLEL();
            case "CPU_SERIAL" -> CCL4J_BACKEND_CPU_SERIAL();
            case "JAVA" -> -1;
            default -> throw new IllegalArgumentException("no backend " + name);
        };
    }

    /** The name of the {@code Backend} constant of a native backend code. */
    public static String backendName(int code) {
        return nameOf(code, new String[] {"AUTO", "CUDA", "CPU_PARALLEL", "CPU_SERIAL"}, Abi::backendCode, "backend");
    }

    /** The ABI's algorithm id of the graph {@code Algorithm} constant {@code name}; -1 for the Java union-find. */
    public static int algorithmCode(String name) {
        return switch (name) {
            case "AUTO" -> CCL4J_ALGORITHM_AUTO();
            case "ECL_CC" -> CCL4J_ALGORITHM_ECL_CC();
            case "CPU_REFERENCE" -> CCL4J_ALGORITHM_CPU_REFERENCE();
            case "HAWICK_EDGE" -> CCL4J_ALGORITHM_HAWICK_EDGE();
            case "HAWICK_VERTEX" -> CCL4J_ALGORITHM_HAWICK_VERTEX();
            case "HAWICK_BFS" -> CCL4J_ALGORITHM_HAWICK_BFS();
            case "KOMURA" -> CCL4J_ALGORITHM_KOMURA();
            case "UNION_FIND" -> -1;
            default -> throw new IllegalArgumentException("no graph algorithm " + name);
        };
    }

    /** The name of the graph {@code Algorithm} constant of a native algorithm id. */
    public static String algorithmName(int code) {
        return nameOf(code, new String[] {"AUTO", "ECL_CC", "CPU_REFERENCE", "HAWICK_EDGE", "HAWICK_VERTEX",
            "HAWICK_BFS", "KOMURA"}, Abi::algorithmCode, "graph algorithm");
    }

    /** The ABI's algorithm id of the {@code MeshAlgorithm} constant {@code name}; -1 for the Java union-find. */
    public static int meshAlgorithmCode(String name) {
        return switch (name) {
            case "AUTO" -> CCL4J_ALGORITHM_AUTO();
            case "NEIGHBOUR" -> CCL4J_ALGORITHM_MESH_NEIGHBOUR();
            case "LOCAL" -> CCL4J_ALGORITHM_MESH_LOCAL();
            case "DIRECTIONAL" -> CCL4J_ALGORITHM_MESH_DIRECTIONAL();
            case "EQUIVALENCE" -> CCL4J_ALGORITHM_MESH_EQUIVALENCE();
            case "KOMURA" -> CCL4J_ALGORITHM_MESH_KOMURA();
            case "UNION_FIND" -> CCL4J_ALGORITHM_MESH_UNION_FIND();
            case "CPU_RASTER" -> CCL4J_ALGORITHM_MESH_CPU_RASTER();
            case "CPU_EQUIVALENCE" -> CCL4J_ALGORITHM_MESH_CPU_EQUIVALENCE();
            case "CPU_PARALLEL" -> CCL4J_ALGORITHM_MESH_CPU_PARALLEL();
            case "JAVA" -> -1;
            default -> throw new IllegalArgumentException("no mesh algorithm " + name);
        };
    }

    /** The name of the {@code MeshAlgorithm} constant of a native algorithm id. */
    public static String meshAlgorithmName(int code) {
        return nameOf(code, new String[] {"AUTO", "NEIGHBOUR", "LOCAL", "DIRECTIONAL", "EQUIVALENCE", "KOMURA",
            "UNION_FIND", "CPU_RASTER", "CPU_EQUIVALENCE", "CPU_PARALLEL"}, Abi::meshAlgorithmCode, "mesh algorithm");
    }

    private static String nameOf(int code, String[] names, java.util.function.ToIntFunction<String> codeOf,
                                 String what) {
        for (String name : names) {
            if (codeOf.applyAsInt(name) == code) {
                return name;
            }
        }
        throw new IllegalStateException("native library reported unknown " + what + " " + code);
    }

    /** A {@code ccl4j_csr} describing a graph's buffers. */
    public static MemorySegment csr(Arena arena, int vertexCount, long arcCount, int offsetBytes,
                                    MemorySegment offsets, MemorySegment neighbors) {
        MemorySegment s = ccl4j_csr.allocate(arena);
        ccl4j_csr.vertex_count(s, vertexCount);
        ccl4j_csr.arc_count(s, arcCount);
        ccl4j_csr.offset_width(s, offsetBytes);
        ccl4j_csr.offsets(s, offsets);
        ccl4j_csr.neighbors(s, neighbors);
        return s;
    }

    /** A {@code ccl4j_label_options}. */
    public static MemorySegment labelOptions(Arena arena, int algorithm, boolean checkInput, int cpuThreads,
                                             int blockSize, int warpThreshold, int blockThreshold, int maxIterations) {
        MemorySegment s = ccl4j_label_options.allocate(arena);
        ccl4j_label_options.algorithm(s, algorithm);
        ccl4j_label_options.flags(s, checkInput ? CCL4J_CHECK_INPUT() : 0);
        ccl4j_label_options.cpu_threads(s, cpuThreads);
        ccl4j_label_options.block_size(s, blockSize);
        ccl4j_label_options.warp_threshold(s, warpThreshold);
        ccl4j_label_options.block_threshold(s, blockThreshold);
        ccl4j_label_options.max_iterations(s, maxIterations);
        return s;
    }

    /** A {@code ccl4j_mesh} pointing at {@code cells}; strides in cells, 0 for dense. */
    public static MemorySegment mesh(Arena arena, int width, int height, int depth, boolean bytes,
                                     MemorySegment cells, long rowStride, long layerStride) {
        MemorySegment s = ccl4j_mesh.allocate(arena);
        ccl4j_mesh.width(s, width);
        ccl4j_mesh.height(s, height);
        ccl4j_mesh.depth(s, depth);
        ccl4j_mesh.cell_type(s, bytes ? CCL4J_CELL_U8() : CCL4J_CELL_I32());
        ccl4j_mesh.cells(s, cells);
        ccl4j_mesh.row_stride(s, rowStride);
        ccl4j_mesh.layer_stride(s, layerStride);
        return s;
    }

    /** A {@code ccl4j_mesh_options}. */
    public static MemorySegment meshOptions(Arena arena, int algorithm, int connectivity, boolean periodicX,
                                            boolean periodicY, boolean periodicZ, boolean sameValue, int cpuThreads,
                                            int blockSize, int tileSize, int maxIterations) {
        MemorySegment s = ccl4j_mesh_options.allocate(arena);
        ccl4j_mesh_options.algorithm(s, algorithm);
        ccl4j_mesh_options.connectivity(s, connectivity);
        ccl4j_mesh_options.periodic(s, (periodicX ? CCL4J_PERIODIC_X() : 0) | (periodicY ? CCL4J_PERIODIC_Y() : 0)
                | (periodicZ ? CCL4J_PERIODIC_Z() : 0));
        ccl4j_mesh_options.mode(s, sameValue ? CCL4J_MESH_SAME_VALUE() : CCL4J_MESH_FOREGROUND());
        ccl4j_mesh_options.cpu_threads(s, cpuThreads);
        ccl4j_mesh_options.block_size(s, blockSize);
        ccl4j_mesh_options.tile_size(s, tileSize);
        ccl4j_mesh_options.max_iterations(s, maxIterations);
        return s;
    }
}
