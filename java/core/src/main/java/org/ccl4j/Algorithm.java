package org.ccl4j;

/** Graph labelling algorithms. Every one returns the same canonical labels. */
public enum Algorithm implements LabelingAlgorithm {
    /**
     * The backend's best algorithm: on CUDA, Afforest for graphs with more than three arcs per
     * vertex on average and ECL-CC for sparser ones; Afforest on the native CPU backends;
     * union-find in Java. Chosen from measurements on the suites of BENCHMARKS.md: on an H100
     * Afforest was faster than ECL-CC on 7 of the 8 suite graphs with more than three arcs per
     * vertex (1.25x slower on the one without a giant component) and slower on the 3 with two;
     * on 2 cores Afforest is faster than GAPBS's Afforest on every graph of the quick suite. On
     * CUDA a graph in host memory whose copy does not fit the device ({@link
     * LabelOptions#deviceMemory()}, or the free memory) is streamed ({@link #STREAMED}) on the
     * first device. The timings name the algorithm that ran.
     */
    AUTO,
    /**
     * ECL-CC (Jaiganesh &amp; Burtscher 2018): initialisation with the first smaller neighbour,
     * hooking of representatives with compare-and-swap, intermediate pointer jumping. CUDA and
     * native CPU backends.
     */
    ECL_CC,
    /**
     * Hawick, Leist &amp; Playne 2010, Algorithm 1: each uncoloured vertex's component coloured by a
     * depth-first search (with an explicit stack). Native CPU backends, one thread.
     */
    CPU_REFERENCE,
    /**
     * Hawick, Leist &amp; Playne 2010, kernel 1: edge-parallel over the arcs, each lowering the larger
     * colour of its ends with atomicMin, repeated until no colour changes. CUDA and CPU (serial).
     */
    HAWICK_EDGE,
    /**
     * Hawick et al., kernel 2: vertex-parallel over CSR, each vertex of the frontier taking the
     * smallest colour among its neighbours, with two frontier arrays swapped between launches.
     * CUDA and CPU (serial).
     */
    HAWICK_VERTEX,
    /** Hawick et al., kernel 3: one breadth-first search per component. CUDA and CPU (serial). */
    HAWICK_BFS,
    /**
     * Komura 2016, generalized label reduction on nearest-neighbour lists: residual lists of smaller
     * neighbours, analysis, label reduction with atomicMin, analysis. CUDA and CPU (serial).
     */
    KOMURA,
    /**
     * Afforest (Sutton, Ben-Nun &amp; Barak 2018): every vertex linked with its first two
     * neighbours, the component most vertices then share found by sampling, and only the other
     * vertices' remaining edges linked, so that the edges inside a giant component are never
     * read. CUDA and native CPU backends.
     */
    AFFOREST,
    /**
     * Afforest across the bus, for graphs larger than the GPU's memory: only the parent array (4
     * bytes a vertex) and a bitmap live on the device; the arcs cross in blocks through page-locked
     * staging buffers, each arc at most once, gathered on host threads while the previous block is
     * uploaded and linked. The first three arcs of every row are linked first, the giant component
     * found by sampling, and the rest of the rows outside it sent; the giant component's own rows
     * never cross. Reads the graph where it lies, memory-mapped files included. Asked for by name on
     * a labeler of several devices ({@link Devices}), the rows and arcs are shared out among them, each device
     * streaming its share over its own link into a forest of its own, the forests merged on the
     * first; the labels are the same. CUDA only, graphs in host memory (not a {@link DeviceGraph}).
     */
    STREAMED,
    /**
     * Lock-free union-find in Java, on ForkJoin threads ({@link LabelOptions#cpuThreads()}): roots
     * hooked under smaller vertices with compare-and-set, path halving, each edge joined once. The
     * JAVA backend's algorithm; runs on any backend without native code, on graphs and on edge
     * lists ({@link ComponentLabeler#label(EdgeList, LabelOptions)}). {@link UnionFind} is its
     * single-threaded counterpart, the test oracle.
     */
    UNION_FIND;
}
