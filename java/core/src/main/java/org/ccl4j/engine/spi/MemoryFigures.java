package org.ccl4j.engine.spi;

/**
 * The memory a mesh labelling needs besides the cells, and what there is: the labels, the call's
 * own host memory, device memory on CUDA; availability -1 where unknown (the API's
 * {@code MemoryNeeds}).
 */
public record MemoryFigures(int labelBytes, long labelsBytes, long hostBytes, long deviceBytes, long hostAvailable,
                            long deviceAvailable) {
}
