package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The phases of Afforest, on the CPU and on CUDA: init (the first smaller neighbour, the roots, the
 * early giant tree), sample (the first two neighbours), compress (roots, the giant component and
 * its bitmap), link (the edges outside it), finalize.
 */
public abstract class SamplingPhases extends PhaseBenchmark {
    protected SamplingPhases(Backend backend, Algorithm algorithm) {
        super(backend, algorithm);
    }

    @Benchmark
    public void init(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void sample(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void compress(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void link(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void finalize(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
