package org.ccl4j.mesh;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.ccl4j.Backend;

/**
 * What one mesh labelling call measured.
 *
 * @param totalMs    the whole call, host clock, in milliseconds
 * @param phasesMs   named phases in the order they ran (CUDA events on the GPU, a steady clock on the CPU)
 * @param iterations iterations of the algorithm's iterative part (scans, kernel launches), or 0
 * @param backend    the backend that ran
 * @param algorithm  the algorithm that ran (AUTO resolved)
 */
public record MeshTimings(double totalMs, Map<String, Double> phasesMs, int iterations, Backend backend,
                          MeshAlgorithm algorithm) {
    public MeshTimings {
        phasesMs = Collections.unmodifiableMap(new LinkedHashMap<>(phasesMs));
    }
}
