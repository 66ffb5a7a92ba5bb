package org.ccl4j;

import org.ccl4j.internal.CliNames;

/** Graph labelling algorithms. Every one returns the same canonical labels. */
public enum Algorithm {
    /**
     * The backend's best algorithm: ECL-CC on CUDA and the native CPU backends, union-find in Java.
     * Chosen from measurements on the suite of BENCHMARKS.md: ECL-CC is the fastest algorithm on all
     * 11 graphs on an H100, while every other choice was 5x slower somewhere.
     */
    AUTO("auto", 0),
    /**
     * ECL-CC (Jaiganesh &amp; Burtscher 2018): initialisation with the first smaller neighbour,
     * hooking of representatives with compare-and-swap, intermediate pointer jumping. CUDA and
     * native CPU backends.
     */
    ECL_CC("ecl", 1),
    /**
     * Hawick, Leist &amp; Playne 2010, Algorithm 1: each uncoloured vertex's component coloured by a
     * depth-first search (with an explicit stack). Native CPU backends, one thread.
     */
    CPU_REFERENCE("cpu-reference", 2),
    /**
     * Hawick, Leist &amp; Playne 2010, kernel 1: edge-parallel over the arcs, each lowering the larger
     * colour of its ends with atomicMin, repeated until no colour changes. CUDA and CPU (serial).
     */
    HAWICK_EDGE("hawick-edge", 3),
    /**
     * Hawick et al., kernel 2: vertex-parallel over CSR, each vertex of the frontier taking the
     * smallest colour among its neighbours, with two frontier arrays swapped between launches.
     * CUDA and CPU (serial).
     */
    HAWICK_VERTEX("hawick-vertex", 4),
    /** Hawick et al., kernel 3: one breadth-first search per component. CUDA and CPU (serial). */
    HAWICK_BFS("hawick-bfs", 5),
    /**
     * Komura 2016, generalized label reduction on nearest-neighbour lists: residual lists of smaller
     * neighbours, analysis, label reduction with atomicMin, analysis. CUDA and CPU (serial).
     */
    KOMURA("komura", 6),
    /** Union-find with path halving, in Java; runs on any backend without native code. */
    UNION_FIND("union-find", -1);

    private final String cliName;
    private final int nativeCode;

    Algorithm(String cliName, int nativeCode) {
        this.cliName = cliName;
        this.nativeCode = nativeCode;
    }

    /** The name used on the command line. */
    public String cliName() {
        return cliName;
    }

    int nativeCode() {
        return nativeCode;
    }

    static Algorithm fromNativeCode(int code) {
        for (Algorithm a : values()) {
            if (a.nativeCode == code) {
                return a;
            }
        }
        throw new IllegalStateException("native library reported algorithm " + code + ", which is not a graph algorithm");
    }

    /** Parses a command-line name. */
    public static Algorithm fromCliName(String name) {
        return CliNames.parse("algorithm", name, values(), Algorithm::cliName);
    }
}
