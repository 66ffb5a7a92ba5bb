package org.ccl4j;

import org.ccl4j.engine.spi.MeshSettings;

/**
 * How to label a mesh. Zero means "the default" for every numeric parameter.
 *
 * @param algorithm     the algorithm; {@link MeshAlgorithm#AUTO} picks the backend's best
 * @param connectivity  4 or 8 for 2D grids, 6, 18 (faces and edges) or 26 for 3D grids; 0 = face neighbours (4 in 2D, 6 in 3D). A
 *                      single layer (depth 1) takes 6 and 26 too, as 4 and 8: a {@code W×H×1} volume is
 *                      labelled as other tools (scikit-image, cc3d) label it
 * @param periodicX     wrap-around boundary along x (else open)
 * @param periodicY     wrap-around boundary along y
 * @param periodicZ     wrap-around boundary along z (no effect on a 2D grid: a single layer's neighbour across
 *                      z is the cell itself)
 * @param mode          which cells are labelled and which neighbours connect
 * @param delta         {@link MeshMode#SAME_VALUE}: neighbours connect when their values differ by at most delta
 *                      (cc3d's {@code delta}, for float cells above all; the difference taken in double, so every
 *                      backend agrees; a NaN cell connects to nothing); 0 = equal values only
 * @param cpuThreads    threads of {@link MeshAlgorithm#CPU_PARALLEL} on the CPU_PARALLEL backend and of
 *                      {@link MeshAlgorithm#JAVA}; 0 = all cores;
 *                      at most max(256, 4 x the processors), as for {@link LabelOptions#cpuThreads()}
 * @param blockSize     CUDA threads per block; 0 = the algorithm's default
 * @param tileSize      {@link MeshAlgorithm#LOCAL}: tile edge in cells; 0 = its default
 * @param maxIterations iterative algorithms fail with a {@link org.ccl4j.Ccl4jException} after this many
 *                      iterations; 0 = cell count + 2, which no correct run exceeds
 * @param wideLabels    int64 labels on any grid; without it labels are int32 on grids of at most
 *                      {@link Integer#MAX_VALUE} cells and int64 beyond ({@link #labelBytesFor(Grid)}).
 *                      Int64 labels are written by {@link MeshAlgorithm#UNION_FIND},
 *                      {@link MeshAlgorithm#CPU_PARALLEL} and {@link MeshAlgorithm#JAVA}, the
 *                      algorithms that {@link MeshAlgorithm#AUTO} picks
 * @param memoryBudget  bytes that labelling one slab may take when a grid is labelled in slabs along its
 *                      slowest axis (z in 3D, y in 2D): device memory on CUDA, host memory of the slab's labels and
 *                      working arrays on the CPU backends and in Java. A grid whose labelling needs more is labelled
 *                      in slabs; the labels and statistics are those of the whole grid. 0 = slabs only where the
 *                      whole grid does not fit: on CUDA when it needs more device memory than is free, elsewhere
 *                      when its cells and labels exceed the host memory available (grids and labels in
 *                      memory-mapped files). Applies to the calls of {@link ComponentLabeler} that label a grid
 * @param progress      hears after each slab of a grid labelled in slabs ({@link ProgressListener#NONE}: nothing)
 */
public record MeshOptions(MeshAlgorithm algorithm, int connectivity, boolean periodicX, boolean periodicY,
                          boolean periodicZ, MeshMode mode, double delta, int cpuThreads, int blockSize, int tileSize,
                          int maxIterations, boolean wideLabels, long memoryBudget, ProgressListener progress) {

    private static final MeshOptions DEFAULTS = new MeshOptions(MeshAlgorithm.AUTO, 0, false, false, false,
            MeshMode.FOREGROUND, 0, 0, 0, 0, 0, false, 0, ProgressListener.NONE);

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException for a null algorithm or mode, a connectivity other than 0, 4, 8, 6, 18 or 26, a
     *                                  negative number, or a block size that is not 0 or a multiple of 32 up to 1024
     */
    public MeshOptions {
        if (algorithm == null) {
            throw new IllegalArgumentException("algorithm must not be null");
        }
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        if (!(delta >= 0) || Double.isInfinite(delta)) {
            throw new IllegalArgumentException("delta must be a finite number >= 0, got " + delta);
        }
        if (delta != 0 && mode != MeshMode.SAME_VALUE) {
            throw new IllegalArgumentException("delta " + delta + " applies to MeshMode.SAME_VALUE only; "
                    + "foreground mode connects every non-zero cell");
        }
        if (connectivity != 0 && connectivity != 4 && connectivity != 8 && connectivity != 6 && connectivity != 18
                && connectivity != 26) {
            throw new IllegalArgumentException("connectivity must be 4 or 8 (2D), 6, 18 or 26 (3D), or 0 for face neighbours, got "
                    + connectivity);
        }
        if (cpuThreads < 0) {
            throw new IllegalArgumentException("cpuThreads must not be negative, got " + cpuThreads);
        }
        if (blockSize < 0 || blockSize > 1024 || blockSize % 32 != 0) {
            throw new IllegalArgumentException("blockSize must be 0 or a multiple of 32 up to 1024, got " + blockSize);
        }
        if (tileSize < 0) {
            throw new IllegalArgumentException("tileSize must not be negative, got " + tileSize);
        }
        if (maxIterations < 0) {
            throw new IllegalArgumentException("maxIterations must not be negative, got " + maxIterations);
        }
        if (memoryBudget < 0) {
            throw new IllegalArgumentException("memoryBudget must not be negative, got " + memoryBudget);
        }
        if (progress == null) {
            throw new IllegalArgumentException("progress must not be null (ProgressListener.NONE hears nothing)");
        }
    }

    /**
     * These options as the engines take them for {@code grid}: the connectivity as it applies to it.
     *
     * @throws IllegalArgumentException when the connectivity does not fit the grid
     */
    MeshSettings settings(Grid grid) {
        return new MeshSettings(algorithm.name(), connectivityFor(grid), periodicX, periodicY, periodicZ,
                mode == MeshMode.SAME_VALUE, delta, cpuThreads, blockSize, tileSize, maxIterations, memoryBudget,
                progress::progress);
    }

    /**
     * The defaults: the backend's best algorithm, face neighbours, open boundaries, foreground mode.
     *
     * @return the default options
     */
    public static MeshOptions defaults() {
        return DEFAULTS;
    }

    /**
     * With algorithm {@code a} ({@link MeshAlgorithm#AUTO}: the backend's best).
     *
     * @param a the algorithm
     * @return these options with {@code a}
     */
    public MeshOptions withAlgorithm(MeshAlgorithm a) {
        return new MeshOptions(a, connectivity, periodicX, periodicY, periodicZ, mode, delta, cpuThreads, blockSize, tileSize,
                maxIterations, wideLabels, memoryBudget, progress);
    }

    /**
     * 4 or 8 (2D), 6, 18 or 26 (3D, and 2D as 4, 8 and 8), 0 for face neighbours.
     *
     * @param c the connectivity: 4 or 8 in 2D, 6, 18 or 26 in 3D, 0 for face neighbours
     * @return these options with connectivity {@code c}
     */
    public MeshOptions withConnectivity(int c) {
        return new MeshOptions(algorithm, c, periodicX, periodicY, periodicZ, mode, delta, cpuThreads, blockSize, tileSize,
                maxIterations, wideLabels, memoryBudget, progress);
    }

    /**
     * Periodic (wrap-around) or open boundaries, per axis.
     *
     * @param x whether the x axis wraps around
     * @param y whether the y axis wraps around
     * @param z whether the z axis wraps around
     * @return these options with those boundaries
     */
    public MeshOptions withPeriodic(boolean x, boolean y, boolean z) {
        return new MeshOptions(algorithm, connectivity, x, y, z, mode, delta, cpuThreads, blockSize, tileSize, maxIterations,
                wideLabels, memoryBudget, progress);
    }

    /**
     * Periodic boundaries on every axis, or open ones.
     *
     * @param all whether every axis wraps around
     * @return these options with those boundaries
     */
    public MeshOptions withPeriodic(boolean all) {
        return withPeriodic(all, all, all);
    }

    /**
     * With mode {@code m}: which cells are labelled and which neighbours connect.
     *
     * @param m the mode
     * @return these options with mode {@code m}
     */
    public MeshOptions withMode(MeshMode m) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, m,
                m == MeshMode.SAME_VALUE ? delta : 0, cpuThreads, blockSize,
                tileSize, maxIterations, wideLabels, memoryBudget, progress);
    }

    /**
     * Same-value labelling in which neighbours connect when their values differ by at most
     * {@code d} (see {@link #delta()}): the mode becomes {@link MeshMode#SAME_VALUE}.
     *
     * @param d the largest difference of connected neighbours, finite and {@code >= 0}
     * @return these options in same-value mode with delta {@code d}
     * @throws IllegalArgumentException when {@code d} is negative, infinite or NaN
     */
    public MeshOptions withDelta(double d) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, MeshMode.SAME_VALUE, d,
                cpuThreads, blockSize, tileSize, maxIterations, wideLabels, memoryBudget, progress);
    }

    /**
     * With {@code threads} threads of {@link MeshAlgorithm#CPU_PARALLEL} (0: all cores; see {@link #cpuThreads()}).
     *
     * @param threads the number of threads, or 0 for all cores
     * @return these options with {@code threads} threads
     */
    public MeshOptions withCpuThreads(int threads) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, mode, delta, threads, blockSize,
                tileSize, maxIterations, wideLabels, memoryBudget, progress);
    }

    /**
     * With {@code threadsPerBlock} CUDA threads per block (0: the algorithm's default).
     *
     * @param threadsPerBlock the threads per block, or 0 for the algorithm's default
     * @return these options with {@code threadsPerBlock}
     */
    public MeshOptions withBlockSize(int threadsPerBlock) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, mode, delta, cpuThreads,
                threadsPerBlock, tileSize, maxIterations, wideLabels, memoryBudget, progress);
    }

    /**
     * With a tile edge of {@code cells} cells for {@link MeshAlgorithm#LOCAL} (0: its default).
     *
     * @param cells the tile edge in cells, or 0 for the default
     * @return these options with that tile edge
     */
    public MeshOptions withTileSize(int cells) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, mode, delta, cpuThreads, blockSize,
                cells, maxIterations, wideLabels, memoryBudget, progress);
    }

    /**
     * With an iteration limit (0: cell count + 2; see {@link #maxIterations()}).
     *
     * @param iterations the most iterations an iterative algorithm may run, or 0 for the default
     * @return these options with the limit
     */
    public MeshOptions withMaxIterations(int iterations) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, mode, delta, cpuThreads, blockSize,
                tileSize, iterations, wideLabels, memoryBudget, progress);
    }

    /**
     * With int64 labels on every grid ({@code true}), or int64 labels only where int32 ones cannot
     * hold the cells ({@code false}, the default); see {@link #wideLabels()}.
     *
     * @param wide whether every grid gets int64 labels
     * @return these options with that choice
     */
    public MeshOptions withWideLabels(boolean wide) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, mode, delta, cpuThreads, blockSize,
                tileSize, maxIterations, wide, memoryBudget, progress);
    }

    /**
     * With a budget of {@code bytes} for labelling one slab of a grid (0: slabs only where the
     * whole grid does not fit); see {@link #memoryBudget()}.
     *
     * @param bytes the most memory that labelling one slab may take, or 0
     * @return these options with that budget
     */
    public MeshOptions withMemoryBudget(long bytes) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, mode, delta, cpuThreads, blockSize,
                tileSize, maxIterations, wideLabels, bytes, progress);
    }

    /**
     * The bytes of one label of {@code grid} under these options: 8 (int64) when {@link #wideLabels()}
     * is set or the grid has more than {@link Integer#MAX_VALUE} cells, else 4 (int32).
     *
     * @param grid the grid to label
     * @return 4 or 8
     */
    public int labelBytesFor(Grid grid) {
        return wideLabels || grid.cellCount() > Integer.MAX_VALUE ? Long.BYTES : Integer.BYTES;
    }

    /**
     * The bytes of one label of {@code grid} in {@code numbering}, as
     * {@link ComponentLabeler#labelWithStatistics} writes them: canonical labels as
     * {@link #labelBytesFor(Grid)} says; labels 1..k or 0..k-1 (RASTER, SIZE) in 4 bytes whatever
     * the grid's size, since a table holds at most {@link Integer#MAX_VALUE} rows, unless
     * {@link #wideLabels()} asks for 8.
     *
     * @param grid      the grid to label
     * @param numbering the numbering of the labels
     * @return 4 or 8
     */
    public int labelBytesFor(Grid grid, Numbering numbering) {
        return numbering == Numbering.CANONICAL || wideLabels ? labelBytesFor(grid) : Integer.BYTES;
    }

    /**
     * The connectivity these options give {@code grid}: the face neighbours when it is 0. On a single
     * layer (depth 1) 6 gives 4, and 18 and 26 give 8, which connect the same cells there: the
     * neighbours across z are absent, or with periodic z the cell itself or its plane neighbours.
     *
     * @param grid the grid to label
     * @return 4, 8, 6, 18 or 26
     * @throws IllegalArgumentException when the connectivity does not fit the grid (4/8 on a 3D grid)
     */
    public int connectivityFor(Grid grid) {
        boolean threeD = grid.is3d();
        if (connectivity == 0) {
            return threeD ? 6 : 4;
        }
        if (!threeD) {
            return connectivity == 6 ? 4 : connectivity == 18 || connectivity == 26 ? 8 : connectivity;
        }
        if (connectivity != 6 && connectivity != 18 && connectivity != 26) {
            throw new IllegalArgumentException("connectivity " + connectivity + " does not fit " + grid
                    + ": expected 6, 18 or 26, or 0 for face neighbours");
        }
        return connectivity;
    }

    /**
     * With a listener that hears after each slab of a grid labelled in slabs (see
     * {@link #memoryBudget()}); the whole grid at once calls it nothing.
     *
     * @param listener what hears; {@link ProgressListener#NONE} for nothing
     * @return these options with the listener
     */
    public MeshOptions withProgress(ProgressListener listener) {
        return new MeshOptions(algorithm, connectivity, periodicX, periodicY, periodicZ, mode, delta, cpuThreads, blockSize,
                tileSize, maxIterations, wideLabels, memoryBudget, listener);
    }
}
