package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Afforest (Sutton, Ben-Nun &amp; Barak 2018) on CUDA ({@link SamplingPhases}), where link runs
 * ECL-CC's three degree tiers over the vertices outside the giant component.
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Graph resident on the device; times include the call and the wait for the
 * device.
 */
public class CudaAfforestPhases extends SamplingPhases {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CudaAfforestPhases() {
        super(Backend.CUDA, Algorithm.AFFOREST);
    }
}
