package org.ccl4j;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;


/**
 * Mesh labelling algorithms. Every one returns the same canonical labels: the smallest linear
 * index {@code x + width * (y + height * z)} of each cell's cluster, -1 for background cells.
 */
public enum MeshAlgorithm implements LabelingAlgorithm {
    /** The backend's best: {@link #UNION_FIND} on CUDA, {@link #CPU_PARALLEL} on the CPU, {@link #JAVA} in Java. */
    AUTO(Where.ANY),
    /** Hawick, Leist &amp; Playne 2010, kernel A: each cell takes its neighbours' smallest label, to a fixpoint. CUDA. */
    NEIGHBOR(Where.CUDA),
    /** Kernel B: kernel A iterated in shared memory within tiles (tile size a parameter). CUDA. */
    LOCAL(Where.CUDA),
    /** Kernel C: directional propagation along rows, one pass per direction per dimension. CUDA. */
    DIRECTIONAL(Where.CUDA),
    /** Kernel D: label equivalence (scanning, analysis, labelling), iterated. CUDA. */
    EQUIVALENCE(Where.CUDA),
    /** Komura 2015/2016: the lattice algorithm with label reduction, no fixpoint loop. CUDA. */
    KOMURA(Where.CUDA),
    /** Block-based union-find (Playne &amp; Hawick 2018), the GPU default. CUDA. */
    UNION_FIND(Where.CUDA),
    /** Hawick et al.'s CPU I: alternating forward and backward raster scans, to a fixpoint. Native CPU, serial. */
    CPU_RASTER(Where.CPU),
    /** Hawick et al.'s CPU II: kernel D's label equivalence run serially. Native CPU, serial. */
    CPU_EQUIVALENCE(Where.CPU),
    /** Union-find over slabs of rows, joined along the seams; the CPU default. Native CPU, parallel. */
    CPU_PARALLEL(Where.CPU),
    /**
     * Lock-free union-find in Java, on ForkJoin threads over rows ({@link MeshOptions#cpuThreads()});
     * runs on any labeler without native code. {@link MeshUnionFind} is its single-threaded
     * counterpart, the test oracle.
     */
    JAVA(Where.ANY);

    private enum Where { ANY, CUDA, CPU }

    private final Set<Backend> backends;

    MeshAlgorithm(Where where) {
        this.backends = Collections.unmodifiableSet(switch (where) {
            case ANY -> EnumSet.allOf(Backend.class);
            case CUDA -> EnumSet.of(Backend.CUDA);
            case CPU -> EnumSet.of(Backend.CPU_PARALLEL, Backend.CPU_SERIAL);
        });
    }

    /**
     * The backends this algorithm runs on ({@link Backend#AUTO} stands for whichever it resolves to).
     *
     * @return the backends
     */
    public Set<Backend> backends() {
        return backends;
    }

    /**
     * Whether this algorithm runs on {@code backend} (a resolved one, not AUTO).
     *
     * @param backend a resolved backend
     * @return whether the algorithm runs there
     */
    public boolean runsOn(Backend backend) {
        return backends.contains(backend);
    }
}
