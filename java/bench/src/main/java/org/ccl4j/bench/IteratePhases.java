package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The phases init and iterate (the whole fixpoint loop of scan, analysis and labelling) of the
 * label-equivalence mesh algorithm, kernel D, on CUDA or serially on the CPU.
 */
public abstract class IteratePhases extends PhaseBenchmark {
    protected IteratePhases(Backend backend, MeshAlgorithm algorithm) {
        super(backend, algorithm);
    }

    @Benchmark
    public void init(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void iterate(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
