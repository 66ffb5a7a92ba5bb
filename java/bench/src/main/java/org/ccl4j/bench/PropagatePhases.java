package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The phases init and propagate (the whole fixpoint loop), of the graph and mesh algorithms that
 * propagate labels until nothing changes: Hawick's kernels 1 and 2, the mesh kernels A to C.
 */
public abstract class PropagatePhases extends PhaseBenchmark {
    protected PropagatePhases(Backend backend, Algorithm algorithm) {
        super(backend, algorithm);
    }

    protected PropagatePhases(Backend backend, MeshAlgorithm algorithm) {
        super(backend, algorithm);
    }

    @Benchmark
    public void init(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void propagate(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
