package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;

import org.ccl4j.engine.spi.EdgeData;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.engine.spi.GraphSettings;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.MemoryFigures;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.RowNumbering;
import org.ccl4j.engine.spi.RunTimings;
import org.ccl4j.internal.Failures;
import org.ccl4j.internal.ffi.ccl4j_memory_needs;
import org.ccl4j.internal.ffi.ccl4j_phase_time;
import org.ccl4j.internal.ffi.ccl4j_statistics_options;
import org.ccl4j.internal.ffi.ccl4j_timings;

/** The translation between the engines' data and the C ABI: structs in, statuses and timings out. */
final class NativeCalls {
    private final Failures failures;

    NativeCalls(Failures failures) {
        this.failures = failures;
    }

    /** Throws the exception that matches a failed status, carrying the native message. */
    void check(int status, MemorySegment context) {
        Abi.check(status, context, failures::of);
    }

    /** A new native context on {@code backend} (an API name; AUTO resolved by the library). */
    MemorySegment createContext(String backend, int[] devices) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            boolean gpu = backend.equals("CUDA") || backend.equals("AUTO");
            if (gpu && devices.length > 1) {
                check(ccl4j_context_create_devices(call.allocateFrom(ValueLayout.JAVA_INT, devices), devices.length, out),
                        MemorySegment.NULL);
            } else {
                check(ccl4j_context_create(Abi.backendCode(backend), devices[0], out), MemorySegment.NULL);
            }
            return Abi.pointer(out);
        }
    }

    /** The CUDA devices of a context, in order; none on the CPU backends. */
    int[] contextDevices(MemorySegment context) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment count = call.allocate(ValueLayout.JAVA_INT);
            check(ccl4j_context_get_devices(context, MemorySegment.NULL, 0, count), context);
            int n = count.get(ValueLayout.JAVA_INT, 0);
            MemorySegment devices = call.allocate(ValueLayout.JAVA_INT, Math.max(1, n));
            check(ccl4j_context_get_devices(context, devices, n, count), context);
            return devices.asSlice(0, (long) n * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
        }
    }

    /** The graph's shape as a {@code ccl4j_csr}; its arrays are arguments of their own. */
    static MemorySegment csr(Arena arena, GraphData graph) {
        return Abi.csr(arena, graph.vertexCount(), graph.arcCount(), graph.offsetBytes());
    }

    /** The edge list's shape as a {@code ccl4j_edges}; its arrays are arguments of their own. */
    static MemorySegment edges(Arena arena, EdgeData edges) {
        return Abi.edges(arena, edges.vertexCount(), edges.edgeCount(), edges.stride());
    }

    /**
     * The settings as a {@code ccl4j_label_options}, with {@code checkInput} in place of theirs and
     * no progress listener (only {@code ccl4j_label_graph} hears one).
     */
    static MemorySegment options(Arena arena, GraphSettings s, boolean checkInput) {
        return options(arena, s, checkInput, MemorySegment.NULL);
    }

    /** As {@link #options(Arena, GraphSettings, boolean)}, with the listener {@code progress} (a stub, or NULL). */
    static MemorySegment options(Arena arena, GraphSettings s, boolean checkInput, MemorySegment progress) {
        return Abi.labelOptions(arena, Abi.algorithmCode(s.algorithm()), checkInput, s.cpuThreads(), s.blockSize(),
                s.warpThreshold(), s.blockThreshold(), s.maxIterations(), s.deviceMemory(), progress);
    }

    /** The grid's shape as a {@code ccl4j_mesh}, with its strides; its cells are an argument of their own. */
    static MemorySegment mesh(Arena arena, GridData grid) {
        return Abi.mesh(arena, grid.width(), grid.height(), grid.depth(), grid.type(), grid.rowStride(),
                grid.layerStride());
    }

    /** The settings as a {@code ccl4j_mesh_options}. */
    static MemorySegment meshOptions(Arena arena, MeshSettings s) {
        return Abi.meshOptions(arena, Abi.meshAlgorithmCode(s.algorithm()), s.connectivity(), s.periodicX(),
                s.periodicY(), s.periodicZ(), s.sameValue(), s.delta(), s.cpuThreads(), s.blockSize(), s.tileSize(),
                s.maxIterations());
    }

    /** A {@code ccl4j_statistics_options}; no intensity: the grid's own cells. */
    static MemorySegment statisticsOptions(Arena arena, RowNumbering numbering, IntensityData intensity,
                                           boolean measures) {
        MemorySegment s = ccl4j_statistics_options.allocate(arena);
        ccl4j_statistics_options.numbering(s, numbering.code());
        ccl4j_statistics_options.measurements(s, measures ? 1 : 0);
        if (intensity != null) {
            ccl4j_statistics_options.intensity_type(s, intensity.type().code());
            ccl4j_statistics_options.intensity_row_stride(s, intensity.rowStride());
            ccl4j_statistics_options.intensity_layer_stride(s, intensity.layerStride());
        }
        return s;
    }

    /** What labelling {@code grid} needs on {@code context} ({@code ccl4j_mesh_memory_needs}); the cells are not read. */
    MemoryFigures meshMemory(MemorySegment context, GridData grid, MeshSettings settings, int labelBytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = ccl4j_memory_needs.allocate(arena);
            check(ccl4j_mesh_memory_needs(context, mesh(arena, grid), meshOptions(arena, settings), labelBytes, out),
                    context);
            return new MemoryFigures(labelBytes, ccl4j_memory_needs.labels_bytes(out),
                    ccl4j_memory_needs.host_bytes(out), ccl4j_memory_needs.device_bytes(out),
                    ccl4j_memory_needs.host_available(out), ccl4j_memory_needs.device_available(out));
        }
    }

    /** The timings of a graph labelling call (graph algorithm ids). */
    static RunTimings timings(MemorySegment t) {
        return new RunTimings(ccl4j_timings.total_ms(t), phases(t), ccl4j_timings.iterations(t),
                Abi.backendName(ccl4j_timings.backend(t)), Abi.algorithmName(ccl4j_timings.algorithm(t)));
    }

    /** The timings of a mesh labelling call (mesh algorithm ids). */
    static RunTimings meshTimings(MemorySegment t) {
        return new RunTimings(ccl4j_timings.total_ms(t), phases(t), ccl4j_timings.iterations(t),
                Abi.backendName(ccl4j_timings.backend(t)), Abi.meshAlgorithmName(ccl4j_timings.algorithm(t)));
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
}
