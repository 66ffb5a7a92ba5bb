package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Komura 2016's generalized label reduction on CUDA: init (labels and residual lists), analysis1, reduction, analysis2.
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Graph resident on the device; times include the call and the wait for the
 * device (the empty call and the copies are in {@link FfmCallBenchmark} and {@link CudaTransferBenchmark}).
 */
public class CudaKomuraPhases extends LabelReductionPhases {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CudaKomuraPhases() {
        super(Backend.CUDA, Algorithm.KOMURA);
    }
}
