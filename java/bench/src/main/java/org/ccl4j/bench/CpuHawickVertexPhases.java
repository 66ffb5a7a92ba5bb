package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Hawick, Leist &amp; Playne 2010, kernel 2 on the CPU (serial): init (identity colours and the
 * frontier flags), propagate (the whole fixpoint loop over the flagged vertices' adjacency lists,
 * each pass followed by chain resolution).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). The algorithm is serial on both CPU backends, so CPU_PARALLEL stands for both.
 */
public class CpuHawickVertexPhases extends PropagatePhases {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CpuHawickVertexPhases() {
        super(Backend.CPU_PARALLEL, Algorithm.HAWICK_VERTEX);
    }
}
