package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Hawick, Leist &amp; Playne 2010, kernel 3 on CUDA: init (uncoloured vertices), search (the whole loop: a launch per level of each component's breadth-first search). Slow on graphs of many or long components (BENCHMARKS.md).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). Graph resident on the device; times include the call and the wait for the
 * device (the empty call and the copies are in {@link FfmCallBenchmark} and {@link CudaTransferBenchmark}).
 */
public class CudaHawickBfsPhases extends SearchPhases {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CudaHawickBfsPhases() {
        super(Backend.CUDA, Algorithm.HAWICK_BFS);
    }
}
