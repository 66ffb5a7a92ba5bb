package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.ccl4j.engine.spi.LibraryInfo;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.internal.Failures;
import org.ccl4j.internal.ffi.ccl4j_capabilities;
import org.ccl4j.internal.ffi.ccl4j_device_info;

/** The native library's functions that need no context: what it can do, lattices, host memory. */
public final class LibraryFunctions {
    private LibraryFunctions() {
    }

    /** What this installation can do; without the library, the JVM alone and why. */
    public static LibraryInfo read(Failures failures) {
        if (!NativeLibrary.load()) {
            return new LibraryInfo("unavailable", Set.of("JAVA"), false, List.of(), 0, 0, List.of(), 0, null, null,
                    NativeLibrary.loadError());
        }
        NativeCalls calls = new NativeCalls(failures);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment c = ccl4j_capabilities.allocate(arena);
            calls.check(ccl4j_get_capabilities(c), MemorySegment.NULL);
            Set<String> backends = new TreeSet<>(Abi.backends(ccl4j_capabilities.backends(c)));
            backends.add("JAVA");
            String archs = ccl4j_capabilities.cuda_archs(c).getString(0);
            List<LibraryInfo.Device> devices = new ArrayList<>();
            for (int i = 0; i < ccl4j_capabilities.device_count(c); i++) {
                MemorySegment d = ccl4j_device_info.allocate(arena);
                calls.check(ccl4j_get_device_info(i, d), MemorySegment.NULL);
                devices.add(new LibraryInfo.Device(i, ccl4j_device_info.name(d).getString(0),
                        ccl4j_device_info.total_memory(d), ccl4j_device_info.compute_major(d),
                        ccl4j_device_info.compute_minor(d), ccl4j_device_info.multiprocessors(d)));
            }
            return new LibraryInfo(ccl4j_capabilities.version(c).getString(0), backends,
                    ccl4j_capabilities.cuda_compiled(c) != 0,
                    archs.isBlank() ? List.of() : Arrays.asList(archs.trim().split("\\s+")),
                    ccl4j_capabilities.cuda_runtime_version(c), ccl4j_capabilities.cuda_driver_version(c), devices,
                    ccl4j_capabilities.cpu_threads(c), NativeLibrary.loadedFrom().toString(), NativeLibrary.origin(),
                    null);
        }
    }

    /** A lattice of {@code kind} (a {@code CCL4J_LATTICE_*} code); the library is loaded. */
    public static Physics.Lattice lattice(int kind, int length, boolean periodic, long seed, Failures failures) {
        return NativePhysics.lattice(new NativeCalls(failures), kind, length, periodic, seed);
    }

    /** Host memory, page-locked when a CUDA device is usable, freed with {@code arena}; the library is loaded. */
    public static MemorySegment hostMemory(Arena arena, long bytes, Failures failures) {
        return HostAllocation.pinned(arena, bytes, new NativeCalls(failures));
    }
}
