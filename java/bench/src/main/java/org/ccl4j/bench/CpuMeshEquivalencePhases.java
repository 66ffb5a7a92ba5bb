package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.Param;

/**
 * Hawick et al.'s CPU II (kernel D run serially): init, and iterate (the whole loop of scan, analysis and labelling).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Fields of {@link BenchMeshes}.
 */
public class CpuMeshEquivalencePhases extends IteratePhases {
    @Param({"2d_512_p05", "2d_512_p06", "3d_64_p025"})
    public String field;

    public CpuMeshEquivalencePhases() {
        super(Backend.CPU_PARALLEL, MeshAlgorithm.CPU_EQUIVALENCE);
    }
}
