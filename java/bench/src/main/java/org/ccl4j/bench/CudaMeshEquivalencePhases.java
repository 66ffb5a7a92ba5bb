package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Param;

/**
 * Kernel D (label equivalence) on CUDA: init, and iterate (the whole fixpoint loop; each pass is a scan, an analysis and a labelling kernel, which {@code ccl4j_label_mesh} times apart).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Fields of {@link BenchMeshes}, cells copied to the device once.
 */
public class CudaMeshEquivalencePhases extends IteratePhases {
    @Param({"2d_8192_p05", "2d_8192_p06", "2d_16384_p06", "3d_512_p025", "3d_512_p035", "2d_512_p05", "3d_64_p025"})
    public String field;

    public CudaMeshEquivalencePhases() {
        super(Backend.CUDA, MeshAlgorithm.EQUIVALENCE);
    }
}
