package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.Blackhole;

/**
 * ECL-CC's phases on the native CPU backends: init, compute (hooking), finalize, for
 * CPU_PARALLEL ({@code cpu}, all cores) and CPU_SERIAL ({@code cpu-serial}). Before each invocation
 * the phases before the measured one run again, untimed ({@link PhaseBenchmark}).
 */
public class CpuEclCcPhases extends PhaseBenchmark {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    @Param({"cpu-parallel", "cpu-serial"})
    public String backend;

    public CpuEclCcPhases() {
        super(Backend.CPU_PARALLEL, Algorithm.ECL_CC);
    }

    @Benchmark
    public void init(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void compute(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void finalize(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
