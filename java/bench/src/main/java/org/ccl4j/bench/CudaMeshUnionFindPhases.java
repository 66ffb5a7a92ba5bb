package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The block union-find on CUDA (the GPU default): local (within tiles), merge (across tile borders), finalize.
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Fields of {@link BenchMeshes}, cells copied to the device once.
 */
public class CudaMeshUnionFindPhases extends LocalMergePhases {
    @Param({"2d_8192_p05", "2d_8192_p06", "2d_16384_p06", "3d_512_p025", "3d_512_p035", "2d_512_p05", "3d_64_p025",
        "2d_8192_p05_c8", "2d_8192_p06_c8", "2d_16384_p06_c8", "3d_512_p025_c26", "3d_512_p035_c26", "2d_512_p05_c8",
        "3d_64_p025_c26"})
    public String field;

    public CudaMeshUnionFindPhases() {
        super(Backend.CUDA, MeshAlgorithm.UNION_FIND);
    }

    @Benchmark
    public void finalize(Blackhole blackhole) {
        runPhase(blackhole);
    }
}
