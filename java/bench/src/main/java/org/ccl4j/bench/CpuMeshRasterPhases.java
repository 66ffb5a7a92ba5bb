package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Hawick et al.'s CPU I (alternating raster scans, serial): init, and scan (the whole loop of scans).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Fields of {@link BenchMeshes}.
 */
public class CpuMeshRasterPhases extends PhaseBenchmark {
    @Param({"2d_512_p05", "2d_512_p06", "3d_64_p025"})
    public String field;

    public CpuMeshRasterPhases() {
        super(Backend.CPU_PARALLEL, MeshAlgorithm.CPU_RASTER);
    }

    @Benchmark
    public void init(Blackhole blackhole) {
        runPhase(blackhole);
    }

    @Benchmark
    public void scan(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
