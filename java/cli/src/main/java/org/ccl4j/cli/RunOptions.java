package org.ccl4j.cli;

import org.ccl4j.Backend;
import org.ccl4j.Devices;

import picocli.CommandLine.Option;

/**
 * Where and how {@code label} and {@code mesh} run: {@code --backend}, {@code --devices} (or
 * {@code --device}), {@code --threads}, {@code --max-iterations}.
 */
final class RunOptions {
    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.BackendNames.class,
            description = "Where to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE} = cuda if a GPU is"
                    + " present, else cpu).")
    Backend backend;

    @Option(names = "--devices", paramLabel = "all|N[,N...]", description = "CUDA devices: all, or indices (0,2);"
            + " --algorithm streamed shares a graph out among them, the rest runs on the first (default: all).")
    Devices devices;

    @Option(names = "--device", paramLabel = "N", description = "One CUDA device: the same as --devices N.")
    Integer device;

    @Option(names = "--threads", paramLabel = "N", description = "CPU threads, at most max(256, 4 x the processors)"
            + " (default: 0 = all cores).")
    int threads;

    @Option(names = "--max-iterations", paramLabel = "N", description = "Stop an iterative algorithm (such as"
            + " hawick-edge or cpu-raster) that has not converged after N iterations, with exit code 7 (default: 0 ="
            + " the vertex or cell count + 2, which no correct run exceeds).")
    int maxIterations;

    /** The CUDA devices of --devices or --device. */
    Devices devices() {
        return devices(devices, device);
    }

    /** The CUDA devices of a command's --devices ({@code list}) or --device ({@code one}), at most one of them given; all by default. */
    static Devices devices(Devices list, Integer one) {
        if (list != null && one != null) {
            throw new UsageException("--device and --devices are the same choice: give one of them");
        }
        if (one == null) {
            return list == null ? Devices.all() : list;
        }
        if (one < 0) {
            throw new UsageException("--device must not be negative, got " + one);
        }
        return Devices.of(one);
    }

    /** Device and thread counts are indexes and counts, the iteration limit a count: not negative. */
    void check() {
        devices();
        checkThreads(threads);
        if (maxIterations < 0) {
            throw new UsageException("--max-iterations must not be negative, got " + maxIterations);
        }
    }

    /**
     * Refuses a --threads count that the library would refuse under the name of its own field: it
     * takes at most max(256, 4 x the processors), since every labelling thread keeps its workers
     * alive. The JVM's processor count is at most the native library's (a CPU quota lowers the
     * JVM's only), so a count accepted here is accepted by every backend.
     */
    static void checkThreads(int threads) {
        int processors = Runtime.getRuntime().availableProcessors();
        int limit = Math.max(256, 4 * processors);
        if (threads < 0 || threads > limit) {
            throw new UsageException("--threads " + threads + " is outside 0.." + limit + " (0: all cores; at most"
                    + " max(256, 4 x " + processors + " processors))");
        }
    }
}
