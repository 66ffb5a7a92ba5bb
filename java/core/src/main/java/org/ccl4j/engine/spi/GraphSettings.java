package org.ccl4j.engine.spi;

/**
 * How to label a graph or an edge list: the algorithm by its name in the algorithm table
 * ({@code "AUTO"} for the engine's choice), whether to check the input first, and the tuning of
 * the API's {@code LabelOptions}, which checked the values; {@code deviceMemory} is the device
 * memory a CUDA labelling may use (0: what is free). {@code progress} hears a graph labelling in
 * arcs (of {@code 2 * arcCount}): a streamed one as it goes, every one that succeeds with
 * {@code ("done", total, total)} at its end, reported by the engine that labels (the native library
 * on its paths, so never twice); {@link Progress#NONE} when nothing listens, which costs nothing.
 * Edge lists and device-resident graphs ignore it.
 */
public record GraphSettings(String algorithm, boolean checkInput, int cpuThreads, int blockSize, int warpThreshold,
                            int blockThreshold, int maxIterations, long deviceMemory, Progress progress) {
}
