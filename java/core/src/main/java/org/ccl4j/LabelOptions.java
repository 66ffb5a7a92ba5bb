package org.ccl4j;

import org.ccl4j.engine.spi.GraphSettings;
import org.ccl4j.engine.spi.Progress;

/**
 * How to label: the algorithm and its tuning parameters. Zero means "the default" for every
 * numeric parameter.
 *
 * @param algorithm      the algorithm; {@link Algorithm#AUTO} picks the backend's best
 * @param checkInput     check the graph before labelling (offsets, ids in range, symmetry), unless the
 *                       library vouches for it (see {@link CsrGraph}); on by default. Off, a wrapped
 *                       graph is labelled unchecked: out-of-range ids may crash the JVM and an
 *                       asymmetric graph gives algorithm-dependent labels
 * @param cpuThreads     threads of the CPU_PARALLEL backend and of {@link Algorithm#UNION_FIND} (the
 *                       JAVA backend); 0 = all cores (the CPUs the process may run on;
 *                       OMP_NUM_THREADS plays no part), less, for native graph and edge-list
 *                       labelling, those that other running work keeps busy when the call starts
 *                       (a team larger than the free cores waits for descheduled members at
 *                       every step). At most max(256, 4 x the processors): more
 *                       are refused (IllegalArgumentException), since every labelling thread keeps
 *                       its worker threads alive
 * @param blockSize      CUDA threads per block; 0 = the algorithm's default
 * @param warpThreshold  ECL-CC: vertices of higher degree go to the warp tier; 0 = 16
 * @param blockThreshold ECL-CC: vertices of higher degree go to the block tier; 0 = 352
 * @param maxIterations  iterative algorithms fail with a {@link Ccl4jException} after this many
 *                       iterations instead of running on; 0 = vertex count + 2, which no correct
 *                       run exceeds
 * @param deviceMemory   CUDA: bytes of device memory a graph or edge-list labelling may use; 0 = what
 *                       the device has free. With {@link Algorithm#AUTO} a graph whose copy does not
 *                       fit is streamed through the GPU ({@link Algorithm#STREAMED}), and so is an
 *                       edge list; another algorithm that does not fit is refused with both sizes
 *                       named. Ignored off CUDA
 * @param progress       hears how a graph labelling advances, in arcs (see {@link ProgressListener});
 *                       {@link ProgressListener#NONE}: nothing. Edge lists and device-resident graphs
 *                       ignore it
 */
public record LabelOptions(Algorithm algorithm, boolean checkInput, int cpuThreads, int blockSize,
                           int warpThreshold, int blockThreshold, int maxIterations, long deviceMemory,
                           ProgressListener progress) {

    private static final LabelOptions DEFAULTS = new LabelOptions(Algorithm.AUTO, true, 0, 0, 0, 0, 0, 0,
            ProgressListener.NONE);

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException for a null algorithm or listener, a negative number, a block size that is
     *                                  not 0 or a multiple of 32 up to 1024, or a warp threshold above the block
     *                                  threshold
     */
    public LabelOptions {
        if (algorithm == null) {
            throw new IllegalArgumentException("algorithm must not be null");
        }
        if (cpuThreads < 0) {
            throw new IllegalArgumentException("cpuThreads must not be negative, got " + cpuThreads);
        }
        if (blockSize < 0 || blockSize > 1024 || blockSize % 32 != 0) {
            throw new IllegalArgumentException("blockSize must be 0 or a multiple of 32 up to 1024, got " + blockSize);
        }
        if (warpThreshold < 0 || blockThreshold < 0) {
            throw new IllegalArgumentException("degree thresholds must not be negative");
        }
        int warp = warpThreshold == 0 ? 16 : warpThreshold;
        int block = blockThreshold == 0 ? 352 : blockThreshold;
        if (warp > block) {
            throw new IllegalArgumentException("warpThreshold " + warp + " exceeds blockThreshold " + block);
        }
        if (maxIterations < 0) {
            throw new IllegalArgumentException("maxIterations must not be negative, got " + maxIterations);
        }
        if (deviceMemory < 0) {
            throw new IllegalArgumentException("deviceMemory must not be negative, got " + deviceMemory);
        }
        if (progress == null) {
            throw new IllegalArgumentException("progress must not be null (ProgressListener.NONE hears nothing)");
        }
    }

    /**
     * Options without a progress listener, as before {@code progress} was added.
     *
     * @param algorithm      the algorithm
     * @param checkInput     check the graph before labelling
     * @param cpuThreads     CPU threads; 0 = all cores
     * @param blockSize      CUDA threads per block; 0 = the default
     * @param warpThreshold  ECL-CC's warp tier threshold; 0 = 16
     * @param blockThreshold ECL-CC's block tier threshold; 0 = 352
     * @param maxIterations  the iteration limit; 0 = none that a correct run reaches
     * @param deviceMemory   CUDA: the device memory a graph labelling may use; 0 = what is free
     */
    public LabelOptions(Algorithm algorithm, boolean checkInput, int cpuThreads, int blockSize, int warpThreshold,
                        int blockThreshold, int maxIterations, long deviceMemory) {
        this(algorithm, checkInput, cpuThreads, blockSize, warpThreshold, blockThreshold, maxIterations, deviceMemory,
                ProgressListener.NONE);
    }

    /**
     * Options without a device memory budget, as before {@code deviceMemory} was added.
     *
     * @param algorithm      the algorithm
     * @param checkInput     check the graph before labelling
     * @param cpuThreads     CPU threads; 0 = all cores
     * @param blockSize      CUDA threads per block; 0 = the default
     * @param warpThreshold  ECL-CC's warp tier threshold; 0 = 16
     * @param blockThreshold ECL-CC's block tier threshold; 0 = 352
     * @param maxIterations  the iteration limit; 0 = none that a correct run reaches
     */
    public LabelOptions(Algorithm algorithm, boolean checkInput, int cpuThreads, int blockSize, int warpThreshold,
                        int blockThreshold, int maxIterations) {
        this(algorithm, checkInput, cpuThreads, blockSize, warpThreshold, blockThreshold, maxIterations, 0,
                ProgressListener.NONE);
    }

    /**
     * The defaults: the backend's best algorithm, input checks on, default tuning.
     *
     * @return the default options
     */
    public static LabelOptions defaults() {
        return DEFAULTS;
    }

    /**
     * These options as the engines take them, with {@code checkInput} in place of theirs; no listener
     * stays {@link Progress#NONE}, so that the engines know to spare the call one.
     */
    GraphSettings settings(boolean check) {
        return new GraphSettings(algorithm.name(), check, cpuThreads, blockSize, warpThreshold, blockThreshold,
                maxIterations, deviceMemory, progress == ProgressListener.NONE ? Progress.NONE : progress::progress);
    }

    /**
     * With algorithm {@code a} ({@link Algorithm#AUTO}: the backend's best).
     *
     * @param a the algorithm
     * @return these options with {@code a}
     */
    public LabelOptions withAlgorithm(Algorithm a) {
        return new LabelOptions(a, checkInput, cpuThreads, blockSize, warpThreshold, blockThreshold, maxIterations,
                deviceMemory, progress);
    }

    /**
     * With the input checks on (the default) or off. Turn them off only for a graph whose arrays
     * you have checked yourself ({@link CsrGraph#check()}) and do not change: an unchecked wrapped
     * graph with ids out of range may crash the JVM.
     *
     * @param check whether labelling checks the graph first
     * @return these options with the checks on or off
     */
    public LabelOptions withCheckInput(boolean check) {
        return new LabelOptions(algorithm, check, cpuThreads, blockSize, warpThreshold, blockThreshold,
                maxIterations, deviceMemory, progress);
    }

    /**
     * With {@code threads} threads on the CPU_PARALLEL backend (0: all cores; see {@link #cpuThreads()}).
     *
     * @param threads the number of threads, or 0 for all cores
     * @return these options with {@code threads} threads
     */
    public LabelOptions withCpuThreads(int threads) {
        return new LabelOptions(algorithm, checkInput, threads, blockSize, warpThreshold, blockThreshold,
                maxIterations, deviceMemory, progress);
    }

    /**
     * With {@code threadsPerBlock} CUDA threads per block (0: the algorithm's default).
     *
     * @param threadsPerBlock the threads per block, or 0 for the algorithm's default
     * @return these options with {@code threadsPerBlock}
     */
    public LabelOptions withBlockSize(int threadsPerBlock) {
        return new LabelOptions(algorithm, checkInput, cpuThreads, threadsPerBlock, warpThreshold, blockThreshold,
                maxIterations, deviceMemory, progress);
    }

    /**
     * With ECL-CC's degree thresholds of the warp and the block tier (0: 16 and 352).
     *
     * @param warp the degree from which ECL-CC hands a vertex to a warp (0: 16)
     * @param block the degree from which ECL-CC hands a vertex to a block (0: 352), at least {@code warp}
     * @return these options with the two thresholds
     */
    public LabelOptions withDegreeThresholds(int warp, int block) {
        return new LabelOptions(algorithm, checkInput, cpuThreads, blockSize, warp, block, maxIterations, deviceMemory,
                progress);
    }

    /**
     * With an iteration limit (0: vertex count + 2; see {@link #maxIterations()}).
     *
     * @param iterations the most iterations an iterative algorithm may run, or 0 for the default
     * @return these options with the limit
     */
    public LabelOptions withMaxIterations(int iterations) {
        return new LabelOptions(algorithm, checkInput, cpuThreads, blockSize, warpThreshold, blockThreshold, iterations,
                deviceMemory, progress);
    }

    /**
     * With a device memory budget for graph labelling on CUDA (0: what the device has free; see
     * {@link #deviceMemory()}). A small budget makes {@link Algorithm#AUTO} stream even a graph
     * that would fit.
     *
     * @param bytes the device memory a labelling may use, or 0 for the free memory
     * @return these options with the budget
     */
    public LabelOptions withDeviceMemory(long bytes) {
        return new LabelOptions(algorithm, checkInput, cpuThreads, blockSize, warpThreshold, blockThreshold,
                maxIterations, bytes, progress);
    }

    /**
     * With a listener that hears how a graph labelling advances, in arcs (see {@link ProgressListener}):
     * a graph streamed through the GPU is heard as it goes, from the first block of arcs sent on, and
     * every labelling that succeeds ends with {@code ("done", total, total)}. Edge lists and
     * device-resident graphs ignore it.
     *
     * @param listener what hears; {@link ProgressListener#NONE} for nothing
     * @return these options with the listener
     */
    public LabelOptions withProgress(ProgressListener listener) {
        return new LabelOptions(algorithm, checkInput, cpuThreads, blockSize, warpThreshold, blockThreshold,
                maxIterations, deviceMemory, listener);
    }
}
