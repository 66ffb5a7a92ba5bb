package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/** The phases init and search (every breadth-first search) of Hawick's kernel 3. */
public abstract class SearchPhases extends PhaseBenchmark {
    protected SearchPhases(Backend backend, Algorithm algorithm) {
        super(backend, algorithm);
    }

    @Benchmark
    public void init(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void search(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
