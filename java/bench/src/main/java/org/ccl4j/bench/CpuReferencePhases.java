package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Hawick, Leist &amp; Playne 2010, Algorithm 1 (the CPU reference, serial): label, its one phase
 * (identity colours and a depth-first search from each vertex not yet reached).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). The algorithm is serial on both CPU backends, so CPU_PARALLEL stands for both.
 */
public class CpuReferencePhases extends PhaseBenchmark {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CpuReferencePhases() {
        super(Backend.CPU_PARALLEL, Algorithm.CPU_REFERENCE);
    }

    @Benchmark
    public void label(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
