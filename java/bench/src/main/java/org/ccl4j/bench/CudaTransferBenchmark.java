package org.ccl4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import org.ccl4j.PinnedMemory;
import org.ccl4j.bench.phases.Probes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * Host-to-device copies of {@code mib} MiB from a page-locked segment ({@link PinnedMemory}: DMA)
 * and from an ordinary native segment (staged through the driver's pinned buffers), into the
 * device buffer a host graph's neighbours go to. Divide the size by the time for GB/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
public class CudaTransferBenchmark {
    @Param({"16", "256"})
    public int mib;

    private Arena arena;
    private Probes probes;
    private MemorySegment pinned;
    private MemorySegment ordinary;

    @Setup
    public void allocate() {
        BenchGraphs.requireCuda();
        arena = Arena.ofShared();
        probes = Probes.cuda(0);
        long bytes = (long) mib << 20;
        pinned = PinnedMemory.allocate(arena, bytes);
        ordinary = arena.allocate(bytes, 64);
        pinned.fill((byte) 1);
        ordinary.fill((byte) 1);
    }

    @TearDown
    public void free() {
        if (probes != null) {
            probes.close();
            arena.close();
        }
    }

    @Benchmark
    public double h2dPinned() {
        return probes.copyToDevice(pinned);
    }

    @Benchmark
    public double h2dOrdinary() {
        return probes.copyToDevice(ordinary);
    }
}
