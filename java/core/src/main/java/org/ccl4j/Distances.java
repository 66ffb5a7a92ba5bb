package org.ccl4j;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.ccl4j.engine.spi.DistanceRows;

/**
 * Shortest-path distances within every component of a graph ({@link ComponentLabeler#distances}):
 * a row per component in canonical order (by smallest vertex, so row r is the component of the
 * r-th canonical label in increasing order), and what the call measured.
 *
 * @param components the rows
 * @param backend    the backend that ran
 * @param algorithm  the algorithm that ran (AUTO resolved)
 * @param totalMs    the call's time
 * @param phasesMs   its phases in order (check, label, bfs or floyd-warshall, reduce; on CUDA h2d
 *                   and d2h too)
 */
public record Distances(List<ComponentDistances> components, Backend backend, DistanceAlgorithm algorithm,
                        double totalMs, Map<String, Double> phasesMs) {
    /** Copies the rows and the phases, which the record holds unmodifiable. */
    public Distances {
        components = List.copyOf(components);
        phasesMs = Collections.unmodifiableMap(new LinkedHashMap<>(phasesMs));
    }

    /** The distances the engines computed. */
    static Distances of(DistanceRows d) {
        return new Distances(d.rows().stream().map(r -> new ComponentDistances(r.first(), r.vertices(), r.sum(),
                r.diameter(), r.mean())).toList(), Backend.valueOf(d.backend()),
                DistanceAlgorithm.valueOf(d.method().name()), d.totalMs(), d.phasesMs());
    }

    /**
     * The number of components.
     *
     * @return the number of rows
     */
    public int count() {
        return components.size();
    }

    /**
     * Row {@code row}.
     *
     * @param row the row index, below {@link #count()}
     * @return the distances within that component
     */
    public ComponentDistances component(int row) {
        return components.get(row);
    }
}
