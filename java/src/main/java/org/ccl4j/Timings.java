package org.ccl4j;

import java.util.Map;

/**
 * What one labelling call measured.
 *
 * @param totalMs    the whole call, host clock, in milliseconds
 * @param phasesMs   named phases in the order they ran (CUDA events on the GPU: h2d, init,
 *                   compute1, compute2, compute3, finalize, d2h; a steady clock on the CPU)
 * @param iterations iterations of the algorithm's iterative part, or 0 when it has none
 * @param backend    the backend that ran
 * @param algorithm  the algorithm that ran
 */
public record Timings(double totalMs, Map<String, Double> phasesMs, int iterations, Backend backend,
                      Algorithm algorithm) {
    public Timings {
        phasesMs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(phasesMs));
    }
}
