package org.ccl4j.engine.spi;

/**
 * How to label a grid: the algorithm by its name in the algorithm table ({@code "AUTO"} for the
 * engine's choice), the connectivity as it applies to the grid (4 or 8 in 2D, 6, 18 or 26 in 3D, a
 * single layer's 3D stencils taken as the planar ones; the API's {@code MeshOptions.connectivityFor}
 * resolves it, except for a Cahn-Hilliard field, which the native library fits itself), the periodic axes, whether cells join by
 * equal value ({@code sameValue}; values at most {@code delta} apart when it is not 0) or as non-zero
 * foreground, and the tuning of the API's
 * {@code MeshOptions}, which checked the values; {@code memoryBudget} bounds the memory of labelling one
 * slab of a grid labelled in slabs (bytes, 0: slabs only where the whole grid does not fit), and
 * {@code progress} hears after each slab.
 */
public record MeshSettings(String algorithm, int connectivity, boolean periodicX, boolean periodicY,
                           boolean periodicZ, boolean sameValue, double delta, int cpuThreads, int blockSize,
                           int tileSize, int maxIterations, long memoryBudget, Progress progress) {
    /** The same settings with another algorithm. */
    public MeshSettings withAlgorithm(String name) {
        return new MeshSettings(name, connectivity, periodicX, periodicY, periodicZ, sameValue, delta, cpuThreads, blockSize,
                tileSize, maxIterations, memoryBudget, progress);
    }

    /** The same settings with another connectivity. */
    public MeshSettings withConnectivity(int c) {
        return new MeshSettings(algorithm, c, periodicX, periodicY, periodicZ, sameValue, delta, cpuThreads, blockSize,
                tileSize, maxIterations, memoryBudget, progress);
    }

    /** The same settings with open boundaries on every axis. */
    public MeshSettings open() {
        return new MeshSettings(algorithm, connectivity, false, false, false, sameValue, delta, cpuThreads, blockSize, tileSize,
                maxIterations, memoryBudget, progress);
    }

    /** Whether a cell of value {@code a} is labelled: every cell in same-value mode, else a non-zero one. */
    public boolean labelled(double a) {
        return sameValue || a != 0;
    }

    /**
     * Whether neighbouring labelled cells of values {@code a} and {@code b} connect, as the native
     * library's rule: both non-zero, or equal, or (delta not 0) at most delta apart; a NaN
     * connects to nothing in same-value mode.
     */
    public boolean connected(double a, double b) {
        if (!sameValue) {
            return a != 0 && b != 0;
        }
        return a == b || (delta != 0 && Math.abs(a - b) <= delta);
    }

    /** Whether connecting is an equivalence of values, so that two connections imply a third. */
    public boolean equivalence() {
        return !sameValue || delta == 0;
    }

    /** Whether any axis wraps around. */
    public boolean periodic() {
        return periodicX || periodicY || periodicZ;
    }
}
