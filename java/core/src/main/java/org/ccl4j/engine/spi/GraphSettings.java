package org.ccl4j.engine.spi;

/**
 * How to label a graph or an edge list: the algorithm by its name in the algorithm table
 * ({@code "AUTO"} for the engine's choice), whether to check the input first, and the tuning of
 * the API's {@code LabelOptions}, which checked the values; {@code deviceMemory} is the device
 * memory a CUDA labelling may use (0: what is free).
 */
public record GraphSettings(String algorithm, boolean checkInput, int cpuThreads, int blockSize, int warpThreshold,
                            int blockThreshold, int maxIterations, long deviceMemory) {
}
