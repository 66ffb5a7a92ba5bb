package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The parallel CPU mesh union-find (the CPU default): local, merge, flatten, for CPU_PARALLEL ({@code cpu}, all cores) and CPU_SERIAL ({@code cpu-serial}).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Fields of {@link BenchMeshes}.
 */
public class CpuMeshParallelPhases extends LocalMergePhases {
    @Param({"2d_512_p05", "2d_512_p06", "3d_64_p025", "2d_512_p05_c8", "3d_64_p025_c26"})
    public String field;

    @Param({"cpu-parallel", "cpu-serial"})
    public String backend;

    public CpuMeshParallelPhases() {
        super(Backend.CPU_PARALLEL, MeshAlgorithm.CPU_PARALLEL);
    }

    @Benchmark
    public void flatten(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
