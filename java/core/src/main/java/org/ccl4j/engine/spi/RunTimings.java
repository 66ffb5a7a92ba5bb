package org.ccl4j.engine.spi;

import java.util.Map;

/**
 * What one call measured: the whole call in milliseconds, its phases in the order they ran, the
 * iterations of its iterative part (0 when none), and the backend and algorithm that ran, by the
 * names of the API's constants (AUTO resolved).
 */
public record RunTimings(double totalMs, Map<String, Double> phasesMs, int iterations, String backend,
                         String algorithm) {
}
