package org.ccl4j;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.ccl4j.internal.NativeLibrary;
import org.ccl4j.internal.Abi;
import org.ccl4j.internal.ffi.ccl4j_capabilities;
import org.ccl4j.internal.ffi.ccl4j_csr;
import org.ccl4j.internal.ffi.ccl4j_device_info;
import org.ccl4j.internal.ffi.ccl4j_memory_needs;
import org.ccl4j.internal.ffi.ccl4j_phase_time;
import org.ccl4j.internal.ffi.ccl4j_timings;

/** The translation between the Java API and the C ABI: structs in, statuses out. */
final class NativeCalls {
    private NativeCalls() {
    }

    /** Loads the library or throws {@link BackendUnavailableException} saying why not. */
    static void requireLibrary() {
        if (!NativeLibrary.load()) {
            throw new BackendUnavailableException(NativeLibrary.loadError());
        }
    }

    /** Throws the exception that matches a failed status, carrying the native message. */
    static void check(int status, MemorySegment context) {
        Abi.check(status, context, (name, message) -> Ccl4jException.of(Ccl4jException.Status.valueOf(name), message));
    }

    /** The graph's shape as a {@code ccl4j_csr}; its arrays are arguments of their own. */
    static MemorySegment csr(Arena arena, CsrGraph graph) {
        return Abi.csr(arena, graph.vertexCount(), graph.arcCount(), graph.offsetBytes());
    }

    /** The edge list's shape as a {@code ccl4j_edges}; its arrays are arguments of their own. */
    static MemorySegment edges(Arena arena, EdgeList edges) {
        return Abi.edges(arena, edges.vertexCount(), edges.edgeCount(), edges.stride());
    }

    /**
     * The canonical CSR of {@code edges} ({@code ccl4j_csr_build_*}), built on all cores in the
     * library's memory and written into {@code arena} at its exact size, on a context of its own
     * (a CPU one costs nothing to make) so that builds on several threads run side by side.
     *
     * @throws IllegalArgumentException naming the first edge with an id out of range
     */
    static CsrGraph csr(EdgeList edges, Arena arena) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            check(ccl4j_context_create(code(Backend.CPU_PARALLEL), 0, out), MemorySegment.NULL);
            MemorySegment context = pointer(out);
            try {
                MemorySegment shape = ccl4j_csr.allocate(call);
                MemorySegment buildOut = call.allocate(ValueLayout.ADDRESS);  // zeroed: NULL unless made
                int status = ccl4j_csr_build_create(context, edges(call, edges), edges.sourcesSegment(),
                        edges.targetsSegment(), buildOut, shape);
                MemorySegment build = pointer(buildOut);
                try {
                    check(status, context);
                    int n = (int) ccl4j_csr.vertex_count(shape);
                    long arcs = ccl4j_csr.arc_count(shape);
                    int width = ccl4j_csr.offset_width(shape);
                    // not zeroed: the build writes every entry; at least a byte, as malloc(0) may be NULL
                    MemorySegment offsets = UninitializedMemory.allocate(arena, (n + 1L) * width, width);
                    MemorySegment neighbors = UninitializedMemory.allocate(arena, Math.max(1, arcs) * Integer.BYTES,
                            Integer.BYTES).asSlice(0, arcs * Integer.BYTES);
                    check(ccl4j_csr_build_write(context, build, offsets, neighbors), context);
                    return CsrGraph.owned(offsets, width, neighbors, true);  // canonical by construction
                } finally {
                    ccl4j_csr_build_destroy(build);
                }
            } finally {
                ccl4j_context_destroy(context);
            }
        }
    }

    /** The options as a {@code ccl4j_label_options}, with {@code algorithm} and {@code checkInput} in place of theirs. */
    static MemorySegment options(Arena arena, LabelOptions o, Algorithm algorithm, boolean checkInput) {
        return Abi.labelOptions(arena, code(algorithm), checkInput, o.cpuThreads(), o.blockSize(),
                o.warpThreshold(), o.blockThreshold(), o.maxIterations());
    }

    /** The grid's shape as a {@code ccl4j_mesh}, with its strides; its cells are an argument of their own. */
    static MemorySegment mesh(Arena arena, Grid grid) {
        return Abi.mesh(arena, grid.width(), grid.height(), grid.depth(), grid.type() == Grid.CellType.U8,
                grid.rowStride(), grid.layerStride());
    }

    /** The options as a {@code ccl4j_mesh_options}, with {@code algorithm} in place of theirs. */
    static MemorySegment meshOptions(Arena arena, MeshOptions o, MeshAlgorithm algorithm) {
        return Abi.meshOptions(arena, code(algorithm), o.connectivity(), o.periodicX(), o.periodicY(),
                o.periodicZ(), o.mode() == MeshMode.SAME_VALUE, o.cpuThreads(), o.blockSize(), o.tileSize(),
                o.maxIterations());
    }

    /**
     * What labelling {@code grid} with {@code algorithm} and labels of {@code labelBytes} needs on
     * {@code context} ({@code ccl4j_mesh_memory_needs}); the cells are not read.
     */
    static MemoryNeeds meshMemoryNeeds(MemorySegment context, Grid grid, MeshOptions options, MeshAlgorithm algorithm,
                                       int labelBytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = ccl4j_memory_needs.allocate(arena);
            check(ccl4j_mesh_memory_needs(context, mesh(arena, grid), meshOptions(arena, options, algorithm), labelBytes,
                    out), context);
            return new MemoryNeeds(labelBytes, ccl4j_memory_needs.labels_bytes(out), ccl4j_memory_needs.host_bytes(out),
                    ccl4j_memory_needs.device_bytes(out), ccl4j_memory_needs.host_available(out),
                    ccl4j_memory_needs.device_available(out));
        }
    }

    static int code(Backend backend) {
        return Abi.backendCode(backend.name());
    }

    static int code(Algorithm algorithm) {
        return Abi.algorithmCode(algorithm.name());
    }

    static int code(MeshAlgorithm algorithm) {
        return Abi.meshAlgorithmCode(algorithm.name());
    }

    static Backend backend(int code) {
        return Backend.valueOf(Abi.backendName(code));
    }

    /** The timings of a graph labelling call (graph algorithm ids only). */
    static Timings timings(MemorySegment t) {
        return new Timings(ccl4j_timings.total_ms(t), phases(t), ccl4j_timings.iterations(t),
                backend(ccl4j_timings.backend(t)), Algorithm.valueOf(Abi.algorithmName(ccl4j_timings.algorithm(t))));
    }

    /** The timings of a mesh labelling call (mesh algorithm ids only). */
    static Timings meshTimings(MemorySegment t) {
        return new Timings(ccl4j_timings.total_ms(t), phases(t), ccl4j_timings.iterations(t),
                backend(ccl4j_timings.backend(t)), MeshAlgorithm.valueOf(Abi.meshAlgorithmName(ccl4j_timings.algorithm(t))));
    }

    static Map<String, Double> phases(MemorySegment t) {
        Map<String, Double> phases = new LinkedHashMap<>();
        int count = Math.min(ccl4j_timings.phase_count(t), CCL4J_MAX_PHASES());
        for (int i = 0; i < count; i++) {
            MemorySegment p = ccl4j_timings.phases(t, i);
            phases.put(ccl4j_phase_time.name(p).getString(0), ccl4j_phase_time.ms(p));
        }
        return phases;
    }

    static Capabilities capabilities() {
        if (!NativeLibrary.load()) {
            return new Capabilities("unavailable", EnumSet.of(Backend.JAVA), false, List.of(), 0, 0, List.of(), 0, null,
                    null, NativeLibrary.loadError());
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment c = ccl4j_capabilities.allocate(arena);
            check(ccl4j_get_capabilities(c), MemorySegment.NULL);
            Set<Backend> backends = EnumSet.of(Backend.JAVA);
            int mask = ccl4j_capabilities.backends(c);
            for (Backend b : Backend.values()) {
                if (b != Backend.JAVA && (mask & (1 << code(b))) != 0) {
                    backends.add(b);
                }
            }
            String archs = ccl4j_capabilities.cuda_archs(c).getString(0);
            List<DeviceInfo> devices = new ArrayList<>();
            for (int i = 0; i < ccl4j_capabilities.device_count(c); i++) {
                MemorySegment d = ccl4j_device_info.allocate(arena);
                check(ccl4j_get_device_info(i, d), MemorySegment.NULL);
                devices.add(new DeviceInfo(i, ccl4j_device_info.name(d).getString(0),
                        ccl4j_device_info.total_memory(d), ccl4j_device_info.compute_major(d),
                        ccl4j_device_info.compute_minor(d), ccl4j_device_info.multiprocessors(d)));
            }
            return new Capabilities(ccl4j_capabilities.version(c).getString(0), backends,
                    ccl4j_capabilities.cuda_compiled(c) != 0,
                    archs.isBlank() ? List.of() : Arrays.asList(archs.trim().split("\\s+")),
                    ccl4j_capabilities.cuda_runtime_version(c), ccl4j_capabilities.cuda_driver_version(c), devices,
                    ccl4j_capabilities.cpu_threads(c), NativeLibrary.loadedFrom().toString(), NativeLibrary.origin(),
                    null);
        }
    }

    /** Reads the pointer a native function stored through an out-parameter. */
    static MemorySegment pointer(MemorySegment out) {
        return Abi.pointer(out);
    }
}
