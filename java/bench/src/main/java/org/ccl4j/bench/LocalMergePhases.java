package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The phases local (union-find within a tile, or a CPU thread's slab of rows) and merge (the
 * neighbour pairs across their borders) of the mesh union-finds; each subclass adds its last
 * phase, which points every cell at its root.
 */
public abstract class LocalMergePhases extends PhaseBenchmark {
    protected LocalMergePhases(Backend backend, MeshAlgorithm algorithm) {
        super(backend, algorithm);
    }

    @Benchmark
    public void local(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void merge(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
