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
import org.ccl4j.internal.ffi.ccl4j_label_options;
import org.ccl4j.internal.ffi.ccl4j_mesh;
import org.ccl4j.internal.ffi.ccl4j_mesh_options;
import org.ccl4j.internal.ffi.ccl4j_phase_time;
import org.ccl4j.internal.ffi.ccl4j_timings;
import org.ccl4j.mesh.Grid;
import org.ccl4j.mesh.MeshAlgorithm;
import org.ccl4j.mesh.MeshMode;
import org.ccl4j.mesh.MeshOptions;
import org.ccl4j.mesh.MeshTimings;

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
        Abi.check(status, context);
    }

    static MemorySegment csr(Arena arena, CsrGraph graph) {
        MemorySegment s = ccl4j_csr.allocate(arena);
        ccl4j_csr.vertex_count(s, graph.vertexCount());
        ccl4j_csr.arc_count(s, graph.arcCount());
        ccl4j_csr.offset_width(s, graph.offsetBytes());
        ccl4j_csr.offsets(s, graph.offsetsSegment());
        ccl4j_csr.neighbors(s, graph.neighborsSegment());
        return s;
    }

    static MemorySegment options(Arena arena, LabelOptions o, Algorithm algorithm) {
        MemorySegment s = ccl4j_label_options.allocate(arena);
        ccl4j_label_options.algorithm(s, algorithm.nativeCode());
        ccl4j_label_options.flags(s, o.checkInput() ? CCL4J_CHECK_INPUT() : 0);
        ccl4j_label_options.cpu_threads(s, o.cpuThreads());
        ccl4j_label_options.block_size(s, o.blockSize());
        ccl4j_label_options.warp_threshold(s, o.warpThreshold());
        ccl4j_label_options.block_threshold(s, o.blockThreshold());
        ccl4j_label_options.max_iterations(s, o.maxIterations());
        return s;
    }

    /** The timings of a graph labelling call (graph algorithm ids only). */
    static Timings timings(MemorySegment t) {
        return new Timings(ccl4j_timings.total_ms(t), phases(t), ccl4j_timings.iterations(t),
                Backend.fromNativeCode(ccl4j_timings.backend(t)), Algorithm.fromNativeCode(ccl4j_timings.algorithm(t)));
    }

    /** The timings of a mesh labelling call (mesh algorithm ids only). */
    static MeshTimings meshTimings(MemorySegment t) {
        return new MeshTimings(ccl4j_timings.total_ms(t), phases(t), ccl4j_timings.iterations(t),
                Backend.fromNativeCode(ccl4j_timings.backend(t)), Abi.meshAlgorithm(ccl4j_timings.algorithm(t)));
    }

    private static Map<String, Double> phases(MemorySegment t) {
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
            return new Capabilities("unavailable", EnumSet.of(Backend.JAVA), false, List.of(), 0, 0, List.of(), 0,
                    NativeLibrary.loadError());
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment c = ccl4j_capabilities.allocate(arena);
            check(ccl4j_get_capabilities(c), MemorySegment.NULL);
            Set<Backend> backends = EnumSet.of(Backend.JAVA);
            int mask = ccl4j_capabilities.backends(c);
            for (Backend b : Backend.values()) {
                if (b.nativeCode() >= 0 && (mask & (1 << b.nativeCode())) != 0) {
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
                    ccl4j_capabilities.cpu_threads(c), null);
        }
    }

    /** Reads the pointer a native function stored through an out-parameter. */
    static MemorySegment pointer(MemorySegment out) {
        return out.get(ValueLayout.ADDRESS, 0);
    }
}
