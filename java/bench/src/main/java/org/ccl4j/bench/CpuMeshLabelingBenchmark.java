package org.ccl4j.bench;

import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.Grid;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshOptions;
import org.ccl4j.MeshUnionFind;
import org.ccl4j.StatisticsOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * End-to-end mesh labelling on the CPU of a field already in memory (the connectivity its name gives,
 * foreground mode): the native {@code CPU_PARALLEL} mesh union-find on all cores, the JAVA backend's parallel
 * union-find on all cores, and the single-threaded Java oracle {@link MeshUnionFind}; the first two
 * also with the statistics of every cluster in the same call (what they add to labelling alone).
 * Each call allocates its labels. Fields: {@link BenchMeshes}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
public class CpuMeshLabelingBenchmark {
    @Param({"2d_2048_p06", "3d_128_p025", "2d_2048_p06_c8", "3d_128_p025_c26"})
    public String field;

    private Grid grid;
    private MeshOptions options;
    private ComponentLabeler parallel;
    private ComponentLabeler java;

    @Setup(Level.Trial)
    public void load() {
        BenchMeshes.Field f = BenchMeshes.get(field);
        grid = f.grid();
        options = f.options();
        parallel = ComponentLabeler.create(Backend.CPU_PARALLEL);
        java = ComponentLabeler.create(Backend.JAVA);
    }

    @TearDown(Level.Trial)
    public void close() {
        parallel.close();
        java.close();
    }

    private static final StatisticsOptions STATISTICS = StatisticsOptions.defaults();

    @Benchmark
    public long cpuParallel() {
        try (Arena labels = Arena.ofConfined()) {
            return parallel.label(grid, options.withAlgorithm(MeshAlgorithm.CPU_PARALLEL), labels)
                    .get(grid.cellCount() - 1);
        }
    }

    /** As {@link #cpuParallel}, with the statistics of every cluster (raster numbering) in the same call. */
    @Benchmark
    public long cpuParallelWithStatistics() {
        try (Arena table = Arena.ofConfined()) {
            return parallel.labelWithStatistics(grid, options.withAlgorithm(MeshAlgorithm.CPU_PARALLEL), STATISTICS, table)
                    .count();
        }
    }

    /** As {@link #javaParallelUnionFind}, with the statistics of every cluster. */
    @Benchmark
    public long javaParallelWithStatistics() {
        try (Arena table = Arena.ofConfined()) {
            return java.labelWithStatistics(grid, options, STATISTICS, table).count();
        }
    }

    /** The JAVA backend: {@code MeshAlgorithm.JAVA}, lock-free on ForkJoin threads. */
    @Benchmark
    public long javaParallelUnionFind() {
        try (Arena labels = Arena.ofConfined()) {
            return java.label(grid, options, labels).get(grid.cellCount() - 1);
        }
    }

    /** The oracle: the single-threaded union-find, into native labels as the others. */
    @Benchmark
    public long javaSerialUnionFind() {
        try (Arena labels = Arena.ofConfined()) {
            return MeshUnionFind.label(grid, options, labels.allocate((long) grid.cellCount() * Integer.BYTES, 4))
                    .get(grid.cellCount() - 1);
        }
    }
}
