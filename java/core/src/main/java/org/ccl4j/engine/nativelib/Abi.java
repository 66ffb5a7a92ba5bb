package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;

import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.AlgorithmInfo;
import org.ccl4j.internal.ffi.ccl4j_algorithm_info;
import org.ccl4j.internal.ffi.ccl4j_csr;
import org.ccl4j.internal.ffi.ccl4j_edges;
import org.ccl4j.internal.ffi.ccl4j_label_options;
import org.ccl4j.internal.ffi.ccl4j_mesh;
import org.ccl4j.internal.ffi.ccl4j_mesh_options;

/**
 * What every caller of the C ABI shares, in ABI terms (the native engine and the benchmark probes
 * build on it): the code tables between the API's enum constants (by name) and the ABI's ids
 * (algorithm ids from the native registry), the structs filled from plain values, error messages
 * and out-parameters.
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
            case "UNION_FIND" -> -1;
            default -> Registry.id(name, CCL4J_ALGORITHM_KIND_GRAPH());
        };
    }

    /** The name of the graph {@code Algorithm} constant of a native algorithm id. */
    public static String algorithmName(int code) {
        return code == CCL4J_ALGORITHM_AUTO() ? "AUTO" : Registry.name(code, CCL4J_ALGORITHM_KIND_GRAPH());
    }

    /**
     * The ABI's algorithm id of the {@code MeshAlgorithm} constant {@code name} (the registry's name
     * without its {@code MESH_} prefix); -1 for the Java union-find.
     */
    public static int meshAlgorithmCode(String name) {
        return switch (name) {
            case "AUTO" -> CCL4J_ALGORITHM_AUTO();
            case "JAVA" -> -1;
            default -> Registry.id(MESH_PREFIX + name, CCL4J_ALGORITHM_KIND_MESH());
        };
    }

    /** The name of the {@code MeshAlgorithm} constant of a native algorithm id. */
    public static String meshAlgorithmName(int code) {
        return code == CCL4J_ALGORITHM_AUTO() ? "AUTO"
                : Registry.name(code, CCL4J_ALGORITHM_KIND_MESH()).substring(MESH_PREFIX.length());
    }

    private static final String MESH_PREFIX = "MESH_";

    /**
     * The native library's algorithm registry, read once: the ids of the API's algorithm constants
     * come from here, by name, so that an algorithm added to the registry needs only its Java
     * constant.
     */
    private static final class Registry {
        private record Entry(int id, int kind, String name, int backends, int wideBackends) {
        }

        private static final List<Entry> ENTRIES = read();

        private static List<Entry> read() {
            // The bindings find their symbols among the libraries loaded so far: a caller whose first
            // native call is an algorithm's code (the per-phase runs) must not come before the load.
            if (!NativeLibrary.load()) {
                throw new IllegalStateException("the algorithm registry needs the native library: "
                        + NativeLibrary.loadError());
            }
            List<Entry> entries = new ArrayList<>();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment info = ccl4j_algorithm_info.allocate(arena);
                for (int i = 0, count = ccl4j_algorithm_count(); i < count; i++) {
                    check(ccl4j_get_algorithm_info(i, info), MemorySegment.NULL,
                            (status, message) -> new IllegalStateException(status + ": " + message));
                    entries.add(new Entry(ccl4j_algorithm_info.id(info), ccl4j_algorithm_info.kind(info),
                            ccl4j_algorithm_info.name(info).getString(0), ccl4j_algorithm_info.backends(info),
                            ccl4j_algorithm_info.wide_backends(info)));
                }
            }
            return List.copyOf(entries);
        }

        static int id(String name, int kind) {
            for (Entry e : ENTRIES) {
                if (e.kind == kind && e.name.equals(name)) {
                    return e.id;
                }
            }
            throw new IllegalArgumentException("the native library has no " + kindName(kind) + " algorithm " + name);
        }

        static String name(int id, int kind) {
            for (Entry e : ENTRIES) {
                if (e.kind == kind && e.id == id) {
                    return e.name;
                }
            }
            throw new IllegalStateException("native library reported unknown " + kindName(kind) + " algorithm " + id);
        }

        private static String kindName(int kind) {
            return kind == CCL4J_ALGORITHM_KIND_MESH() ? "mesh" : "graph";
        }
    }

    /**
     * The registry's algorithms as entries of the algorithm table: the API's names (mesh ones
     * without the {@code MESH_} prefix), backends by the API's names.
     */
    public static List<AlgorithmInfo> algorithms() {
        List<AlgorithmInfo> table = new ArrayList<>();
        for (Registry.Entry e : Registry.ENTRIES) {
            boolean mesh = e.kind == CCL4J_ALGORITHM_KIND_MESH();
            table.add(new AlgorithmInfo(mesh ? e.name.substring(MESH_PREFIX.length()) : e.name,
                    mesh ? AlgorithmInfo.Kind.MESH : AlgorithmInfo.Kind.GRAPH, backends(e.backends),
                    backends(e.wideBackends), false));
        }
        return table;
    }

    /** The API names of the native backends whose bits ({@code 1 << code}) are set. */
    static Set<String> backends(int mask) {
        Set<String> names = new TreeSet<>();
        for (String name : new String[] {"CUDA", "CPU_PARALLEL", "CPU_SERIAL"}) {
            if ((mask & (1 << backendCode(name))) != 0) {
                names.add(name);
            }
        }
        return names;
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

    /**
     * A {@code ccl4j_csr}: a graph's shape. Its arrays go to the native function as arguments of
     * their own, so that the FFM runtime checks they are alive and keeps them so for the call.
     */
    public static MemorySegment csr(Arena arena, int vertexCount, long arcCount, int offsetBytes) {
        MemorySegment s = ccl4j_csr.allocate(arena);
        ccl4j_csr.vertex_count(s, vertexCount);
        ccl4j_csr.arc_count(s, arcCount);
        ccl4j_csr.offset_width(s, offsetBytes);
        return s;
    }

    /**
     * A {@code ccl4j_edges}: an edge list's shape, {@code stride} 1 for two arrays, 2 for one of
     * interleaved pairs. Its arrays go to the native function as arguments of their own.
     */
    public static MemorySegment edges(Arena arena, int vertexCount, long edgeCount, int stride) {
        MemorySegment s = ccl4j_edges.allocate(arena);
        ccl4j_edges.vertex_count(s, vertexCount);
        ccl4j_edges.edge_count(s, edgeCount);
        ccl4j_edges.stride(s, stride);
        return s;
    }

    /**
     * A {@code ccl4j_label_options}; {@code progress} is a {@code ccl4j_progress_fn} (an upcall
     * stub that outlives the call) or NULL for none.
     */
    public static MemorySegment labelOptions(Arena arena, int algorithm, boolean checkInput, int cpuThreads,
                                             int blockSize, int warpThreshold, int blockThreshold, int maxIterations,
                                             long deviceMemory, MemorySegment progress) {
        MemorySegment s = ccl4j_label_options.allocate(arena);
        ccl4j_label_options.algorithm(s, algorithm);
        ccl4j_label_options.flags(s, checkInput ? CCL4J_CHECK_INPUT() : 0);
        ccl4j_label_options.cpu_threads(s, cpuThreads);
        ccl4j_label_options.block_size(s, blockSize);
        ccl4j_label_options.warp_threshold(s, warpThreshold);
        ccl4j_label_options.block_threshold(s, blockThreshold);
        ccl4j_label_options.max_iterations(s, maxIterations);
        ccl4j_label_options.device_memory(s, deviceMemory);
        ccl4j_label_options.progress(s, progress);
        return s;
    }

    /**
     * A {@code ccl4j_mesh}: a mesh's shape, strides in cells (0 for dense). Its cells go to the
     * native function as an argument of their own.
     */
    public static MemorySegment mesh(Arena arena, int width, int height, int depth, IntensityData.ValueType type,
                                     long rowStride, long layerStride) {
        MemorySegment s = ccl4j_mesh.allocate(arena);
        ccl4j_mesh.width(s, width);
        ccl4j_mesh.height(s, height);
        ccl4j_mesh.depth(s, depth);
        ccl4j_mesh.cell_type(s, switch (type) {
            case U8 -> CCL4J_CELL_U8();
            case U16 -> CCL4J_CELL_U16();
            case I32 -> CCL4J_CELL_I32();
            case F32 -> CCL4J_CELL_F32();
        });
        ccl4j_mesh.row_stride(s, rowStride);
        ccl4j_mesh.layer_stride(s, layerStride);
        return s;
    }

    /** A {@code ccl4j_mesh_options}. */
    public static MemorySegment meshOptions(Arena arena, int algorithm, int connectivity, boolean periodicX,
                                            boolean periodicY, boolean periodicZ, boolean sameValue, double delta,
                                            int cpuThreads, int blockSize, int tileSize, int maxIterations) {
        MemorySegment s = ccl4j_mesh_options.allocate(arena);
        ccl4j_mesh_options.algorithm(s, algorithm);
        ccl4j_mesh_options.connectivity(s, connectivity);
        ccl4j_mesh_options.periodic(s, (periodicX ? CCL4J_PERIODIC_X() : 0) | (periodicY ? CCL4J_PERIODIC_Y() : 0)
                | (periodicZ ? CCL4J_PERIODIC_Z() : 0));
        ccl4j_mesh_options.mode(s, sameValue ? CCL4J_MESH_SAME_VALUE() : CCL4J_MESH_FOREGROUND());
        ccl4j_mesh_options.delta(s, delta);
        ccl4j_mesh_options.cpu_threads(s, cpuThreads);
        ccl4j_mesh_options.block_size(s, blockSize);
        ccl4j_mesh_options.tile_size(s, tileSize);
        ccl4j_mesh_options.max_iterations(s, maxIterations);
        return s;
    }
}
