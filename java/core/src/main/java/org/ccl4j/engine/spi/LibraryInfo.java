package org.ccl4j.engine.spi;

import java.util.List;
import java.util.Set;

/**
 * What the installation can do (the API's {@code Capabilities}): backends by the API's names,
 * {@code JAVA} always among them; the library fields are null or empty without the library.
 */
public record LibraryInfo(String version, Set<String> backends, boolean cudaCompiled, List<String> cudaArchitectures,
                          int cudaRuntimeVersion, int cudaDriverVersion, List<Device> devices, int cpuThreads,
                          String nativeLibrary, String nativeLibraryOrigin, String nativeLoadError) {
    /** A CUDA device. */
    public record Device(int index, String name, long totalMemory, int computeMajor, int computeMinor,
                         int multiprocessors) {
    }
}
