package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Param;

/**
 * Hawick, Leist &amp; Playne's kernel A on CUDA: init, and propagate (the whole fixpoint loop of neighbour passes).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Fields of {@link BenchMeshes}, cells copied to the device once. The denser fields (p = 0.6, 0.35) take seconds to converge: give them with {@code -p field=...} to run them.
 */
public class CudaMeshNeighborPhases extends PropagatePhases {
    @Param({"2d_8192_p05", "3d_512_p025", "2d_512_p05", "3d_64_p025"})
    public String field;

    public CudaMeshNeighborPhases() {
        super(Backend.CUDA, MeshAlgorithm.NEIGHBOR);
    }
}
