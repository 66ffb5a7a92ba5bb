package org.ccl4j;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.ccl4j.engine.spi.LibraryInfo;

/**
 * What this installation can do.
 *
 * @param version            the native library's version, MAJOR.MINOR.PATCH: the jar's without -SNAPSHOT;
 *                           "unavailable" without the library
 * @param backends           the backends usable now ({@link Backend#JAVA} always)
 * @param cudaCompiled       whether the native library contains the CUDA backend
 * @param cudaArchitectures  compiled device code, e.g. [sm_80, sm_90, compute_90]
 * @param cudaRuntimeVersion e.g. 13000, or 0
 * @param cudaDriverVersion  the installed driver's CUDA version, or 0 without a driver
 * @param devices            the CUDA devices present
 * @param cpuThreads         threads the CPU_PARALLEL backend uses by default
 * @param nativeLibrary      the file the native library was loaded from, or null when it was not
 * @param nativeLibraryOrigin where that file came from: {@code java.library.path}, or the jar's copy
 *                           extracted into the per-user cache (or the temporary directory), with any
 *                           library of {@code java.library.path} that was passed over and why
 *                           (its version differs from this jar's); null when none was loaded
 * @param nativeLoadError    why the native library could not be loaded, or null
 */
public record Capabilities(String version, Set<Backend> backends, boolean cudaCompiled, List<String> cudaArchitectures,
                           int cudaRuntimeVersion, int cudaDriverVersion, List<DeviceInfo> devices, int cpuThreads,
                           String nativeLibrary, String nativeLibraryOrigin, String nativeLoadError) {
    /** Copies the collections: the record holds unmodifiable ones. */
    public Capabilities {
        backends = Set.copyOf(backends);
        cudaArchitectures = List.copyOf(cudaArchitectures);
        devices = List.copyOf(devices);
    }

    /** The capabilities the engines report. */
    static Capabilities of(LibraryInfo i) {
        Set<Backend> backends = EnumSet.noneOf(Backend.class);
        i.backends().forEach(b -> backends.add(Backend.valueOf(b)));
        List<DeviceInfo> devices = i.devices().stream().map(d -> new DeviceInfo(d.index(), d.name(), d.totalMemory(),
                d.computeMajor(), d.computeMinor(), d.multiprocessors())).toList();
        return new Capabilities(i.version(), backends, i.cudaCompiled(), i.cudaArchitectures(), i.cudaRuntimeVersion(),
                i.cudaDriverVersion(), devices, i.cpuThreads(), i.nativeLibrary(), i.nativeLibraryOrigin(),
                i.nativeLoadError());
    }
}
