package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Komura 2016's generalized label reduction on the CPU (serial): init (labels and residual lists),
 * analysis1, reduction, analysis2.
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). The algorithm is serial on both CPU backends, so CPU_PARALLEL stands for both.
 */
public class CpuKomuraPhases extends LabelReductionPhases {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CpuKomuraPhases() {
        super(Backend.CPU_PARALLEL, Algorithm.KOMURA);
    }
}
