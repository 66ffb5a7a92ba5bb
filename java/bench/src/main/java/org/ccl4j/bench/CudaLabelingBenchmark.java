package org.ccl4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.DeviceGraph;
import org.ccl4j.LabelOptions;
import org.ccl4j.PinnedMemory;
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
 * Labelling on the CUDA backend from Java: end to end (graph in page-locked Java memory, copied
 * in, labelled, labels copied back into page-locked Java memory) and with the graph resident on
 * the device (labels left there: kernels, launch and wait only). The graph is checked once at
 * set-up and labelled unchecked, except by {@code endToEndChecked}, which pays the input checks
 * (on the host, before the copy) every call as the defaults do.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx16g"})
public class CudaLabelingBenchmark {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    @Param({"ecl-cc"})
    public String algorithm;

    private Arena arena;
    private ComponentLabeler labeler;
    private CsrGraph pinnedGraph;
    private MemorySegment labels;
    private DeviceGraph resident;
    private LabelOptions options;
    private LabelOptions checked;

    @Setup
    public void upload() {
        BenchGraphs.requireCuda();
        arena = Arena.ofShared();
        CsrGraph g = BenchGraphs.get(graph);
        MemorySegment offsets = PinnedMemory.allocate(arena, g.offsets().byteSize());
        MemorySegment neighbors = PinnedMemory.allocate(arena, Math.max(4, g.neighbors().byteSize()))
                .asSlice(0, g.neighbors().byteSize());
        offsets.copyFrom(g.offsets());
        neighbors.copyFrom(g.neighbors());
        pinnedGraph = CsrGraph.wrap(offsets, g.offsetBytes(), neighbors);
        labels = PinnedMemory.allocate(arena, (long) g.vertexCount() * Integer.BYTES);
        labeler = ComponentLabeler.create(Backend.CUDA, 0);
        resident = labeler.upload(pinnedGraph);
        checked = LabelOptions.defaults().withAlgorithm(EnumNames.parse(Algorithm.class, algorithm));
        options = checked.withCheckInput(false);
    }

    @TearDown
    public void close() {
        if (labeler != null) {
            resident.close();
            labeler.close();
            arena.close();
        }
    }

    @Benchmark
    public int endToEnd() {
        return labeler.label(pinnedGraph, options, labels).get(0);
    }

    @Benchmark
    public int endToEndChecked() {
        return labeler.label(pinnedGraph, checked, labels).get(0);
    }

    @Benchmark
    public double resident() {
        return labeler.label(resident, options, null).timings().totalMs();
    }
}
