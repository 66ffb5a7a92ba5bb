package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Afforest (Sutton, Ben-Nun &amp; Barak 2018) on CUDA: ECL-CC's initialisation, the sampling of the
 * first two neighbours, compress (roots, the giant component and its bitmap), link (ECL-CC's three
 * degree tiers over the vertices outside the giant component), the final pointer jumping.
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Graph resident on the device; times include the call and the wait for the
 * device.
 */
public class CudaAfforestPhases extends PhaseBenchmark {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CudaAfforestPhases() {
        super(Backend.CUDA, Algorithm.AFFOREST);
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
