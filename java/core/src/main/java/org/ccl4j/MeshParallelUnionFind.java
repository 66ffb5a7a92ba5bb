package org.ccl4j;

import java.lang.foreign.MemorySegment;

/**
 * Mesh labelling by lock-free union-find on several threads, in Java: {@link MeshAlgorithm#JAVA},
 * the mesh algorithm of the {@link Backend#JAVA} backend. {@link MeshUnionFind}, single-threaded,
 * stays the test oracle; both take the cells and neighbours from {@link MeshNeighbourhood}.
 *
 * <p>The labels segment is the parent array ({@link ConcurrentUnionFind}). Three phases, each a
 * {@link ForkJoinLoop} over rows: {@code init} makes every labelled cell its own root and marks
 * the others -1; {@code compute} joins every labelled cell with its connected backward neighbours,
 * across the threads' rows as within them; {@code finalize} points every labelled cell at its
 * root, the smallest index of its cluster.
 */
final class MeshParallelUnionFind {
    private MeshParallelUnionFind() {
    }

    /**
     * Labels {@code grid} into {@code labels} (at least {@code grid.cellCount()} ints, native or
     * int[]-backed) on {@code options.cpuThreads()} threads (0 = all cores).
     *
     * @throws IllegalArgumentException when the options' connectivity does not fit the grid
     */
    static MeshLabels label(Grid grid, MeshOptions options, MemorySegment labels) {
        return label(grid, options, labels, 0);
    }

    /**
     * As {@link #label(Grid, MeshOptions, MemorySegment)}, in leaves of {@code grain} rows
     * (0: the default, at least {@link ForkJoinLoop#MIN_LEAF_WORK} cells).
     */
    static MeshLabels label(Grid grid, MeshOptions options, MemorySegment labels, long grain) {
        int width = grid.width();
        long start = System.nanoTime();
        try (ForkJoinLoop loop = new ForkJoinLoop(options.cpuThreads(), grain, width)) {
            Grid shared = Grid.wrapStrided(loop.shared(grid.cells()), grid.type(), width, grid.height(), grid.depth(),
                    grid.rowStride(), grid.layerStride());
            MeshNeighbourhood cells = new MeshNeighbourhood(shared, options);
            MemorySegment parent = loop.shared(labels);
            loop.phase("init", cells.rows(), (from, to) -> cells.initRows(parent, (int) from, (int) to));
            loop.phase("compute", cells.rows(), (from, to) -> cells.joinRows((int) from, (int) to,
                    (i, j) -> ConcurrentUnionFind.union(parent, i, j)));
            loop.phase("finalize", cells.rows(),
                    (from, to) -> ConcurrentUnionFind.flatten(parent, from * width, to * width));
            double total = (System.nanoTime() - start) / 1e6;
            return new MeshLabels(grid.width(), grid.height(), grid.depth(), labels,
                    new Timings(total, loop.phases(), 0, Backend.JAVA, MeshAlgorithm.JAVA));
        }
    }
}
