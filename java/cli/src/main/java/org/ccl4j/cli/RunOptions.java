package org.ccl4j.cli;

import org.ccl4j.Backend;

import picocli.CommandLine.Option;

/** Where {@code label} and {@code mesh} run: {@code --backend}, {@code --device}, {@code --threads}. */
final class RunOptions {
    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.BackendNames.class,
            description = "Where to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE} = cuda if a GPU is"
                    + " present, else cpu).")
    Backend backend;

    @Option(names = "--device", paramLabel = "N", description = "CUDA device index (default: ${DEFAULT-VALUE}).")
    int device;

    @Option(names = "--threads", paramLabel = "N", description = "CPU threads (default: all cores).")
    int threads;

    /** Device and thread counts are indexes and counts: not negative. */
    void check() {
        if (device < 0 || threads < 0) {
            throw new UsageException("--device and --threads must not be negative");
        }
    }
}
