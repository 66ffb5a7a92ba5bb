package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Afforest's phases on the native CPU backends ({@link SamplingPhases}), for CPU_PARALLEL
 * ({@code cpu}, all cores) and CPU_SERIAL ({@code cpu-serial}). Before each invocation the phases
 * before the measured one run again, untimed ({@link PhaseBenchmark}).
 */
public class CpuAfforestPhases extends SamplingPhases {
    @Param({"grid2d_1024", "grid3d_64", "rmat18", "test-graphs/random.egr"})
    public String graph;

    @Param({"cpu-parallel", "cpu-serial"})
    public String backend;

    public CpuAfforestPhases() {
        super(Backend.CPU_PARALLEL, Algorithm.AFFOREST);
    }
}
