package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The phases of Komura's label reduction, on a graph or a lattice: init (labels, and residual
 * lists on a graph), analysis1, reduction, analysis2.
 */
public abstract class LabelReductionPhases extends PhaseBenchmark {
    protected LabelReductionPhases(Backend backend, Algorithm algorithm) {
        super(backend, algorithm);
    }

    protected LabelReductionPhases(Backend backend, MeshAlgorithm algorithm) {
        super(backend, algorithm);
    }

    @Benchmark
    public void init(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void analysis1(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void reduction(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void analysis2(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
