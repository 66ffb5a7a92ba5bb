package org.ccl4j;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.ccl4j.engine.spi.RunTimings;

/**
 * What one labelling call measured, for graphs and meshes alike.
 *
 * @param totalMs    the whole call, host clock, in milliseconds
 * @param phasesMs   named phases in the order they ran (CUDA events on the GPU, e.g. h2d, init,
 *                   compute1, finalize, d2h for ECL-CC; a steady clock on the CPU)
 * @param iterations iterations of the algorithm's iterative part (scans, kernel launches), or 0 when
 *                   it has none
 * @param backend    the backend that ran
 * @param algorithm  the algorithm that ran (AUTO resolved): an {@link Algorithm} for graphs, a
 *                   {@link MeshAlgorithm} for meshes
 */
public record Timings(double totalMs, Map<String, Double> phasesMs, int iterations, Backend backend,
                      LabelingAlgorithm algorithm) {
    /** Copies the phases, keeping their order: the record holds an unmodifiable map. */
    public Timings {
        phasesMs = Collections.unmodifiableMap(new LinkedHashMap<>(phasesMs));
    }

    /** The same timings with phase {@code name} of {@code ms} added at the end, and to the total. */
    Timings with(String name, double ms) {
        Map<String, Double> phases = new LinkedHashMap<>(phasesMs);
        phases.put(name, ms);
        return new Timings(totalMs + ms, phases, iterations, backend, algorithm);
    }

    /** The timings of a graph or edge-list call. */
    static Timings of(RunTimings t) {
        return new Timings(t.totalMs(), t.phasesMs(), t.iterations(), Backend.valueOf(t.backend()),
                Algorithm.valueOf(t.algorithm()));
    }

    /** The timings of a mesh call. */
    static Timings ofMesh(RunTimings t) {
        return new Timings(t.totalMs(), t.phasesMs(), t.iterations(), Backend.valueOf(t.backend()),
                MeshAlgorithm.valueOf(t.algorithm()));
    }
}
