package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.Blackhole;

/**
 * ECL-CC (Jaiganesh &amp; Burtscher 2018) on CUDA: initialisation, the three degree tiers of hooking (thread, warp, block), the final pointer jumping.
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Graph resident on the device; times include the call and the wait for the
 * device (the empty call and the copies are in {@link FfmCallBenchmark} and {@link CudaTransferBenchmark}).
 */
public class CudaEclCcPhases extends PhaseBenchmark {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CudaEclCcPhases() {
        super(Backend.CUDA, Algorithm.ECL_CC);
    }

    @Benchmark
    public void init(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void compute1(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void compute2(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void compute3(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void finalize(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
