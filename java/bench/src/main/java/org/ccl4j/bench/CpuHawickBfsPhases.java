package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Hawick, Leist &amp; Playne 2010, kernel 3 on the CPU (serial): init (uncoloured vertices, empty
 * frontiers), search (every breadth-first search, level by level, one per component).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseBenchmark}). The algorithm is serial on both CPU backends, so CPU_PARALLEL stands for both.
 */
public class CpuHawickBfsPhases extends SearchPhases {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    public CpuHawickBfsPhases() {
        super(Backend.CPU_PARALLEL, Algorithm.HAWICK_BFS);
    }
}
