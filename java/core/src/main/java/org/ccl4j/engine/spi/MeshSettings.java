package org.ccl4j.engine.spi;

/**
 * How to label a grid: the algorithm by its name in the algorithm table ({@code "AUTO"} for the
 * engine's choice), the connectivity as it applies to the grid (4 or 8 in 2D, 6 or 26 in 3D, a
 * single layer's 3D stencils taken as the planar ones; the API's {@code MeshOptions.connectivityFor}
 * resolves it, except for a Cahn-Hilliard field, which the native library fits itself), the periodic axes, whether cells join by
 * equal value ({@code sameValue}) or as non-zero foreground, and the tuning of the API's
 * {@code MeshOptions}, which checked the values; {@code memoryBudget} bounds the memory of labelling one
 * slab of a grid labelled in slabs (bytes, 0: slabs only where the whole grid does not fit), and
 * {@code progress} hears after each slab.
 */
public record MeshSettings(String algorithm, int connectivity, boolean periodicX, boolean periodicY,
                           boolean periodicZ, boolean sameValue, int cpuThreads, int blockSize, int tileSize,
                           int maxIterations, long memoryBudget, Progress progress) {
    /** The same settings with another algorithm. */
    public MeshSettings withAlgorithm(String name) {
        return new MeshSettings(name, connectivity, periodicX, periodicY, periodicZ, sameValue, cpuThreads, blockSize,
                tileSize, maxIterations, memoryBudget, progress);
    }

    /** The same settings with another connectivity. */
    public MeshSettings withConnectivity(int c) {
        return new MeshSettings(algorithm, c, periodicX, periodicY, periodicZ, sameValue, cpuThreads, blockSize,
                tileSize, maxIterations, memoryBudget, progress);
    }

    /** The same settings with open boundaries on every axis. */
    public MeshSettings open() {
        return new MeshSettings(algorithm, connectivity, false, false, false, sameValue, cpuThreads, blockSize, tileSize,
                maxIterations, memoryBudget, progress);
    }

    /** Whether any axis wraps around. */
    public boolean periodic() {
        return periodicX || periodicY || periodicZ;
    }
}
