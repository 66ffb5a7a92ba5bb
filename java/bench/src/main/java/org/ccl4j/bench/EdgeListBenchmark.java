package org.ccl4j.bench;

import java.lang.foreign.Arena;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;
import org.ccl4j.LabelOptions;
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
 * From an edge list in two {@code int[]} arrays to canonical labels in an {@code int[]}, every
 * step counted (the copies off-heap and back included): {@code edges} uniformly random edges
 * over {@code vertices} vertices (10 M and 10 M by default: mean degree 2, a giant component of
 * about 80% of the vertices beside many small ones), drawn once per trial from a fixed seed.
 *
 * <p>Labelled directly: a plain single-threaded union-find as a user would write it (path
 * halving, union by index, ~15 lines), against {@link ComponentLabeler#labelEdges} on
 * CPU_PARALLEL, CPU_SERIAL and the JAVA backend. Through a CSR graph: the canonical graph built
 * by {@link GraphBuilder} (what {@code CsrGraph.fromEdges} was) or by the native library's
 * parallel build ({@code CsrGraph.fromEdges} now), alone and then labelled on CPU_PARALLEL.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
public class EdgeListBenchmark {
    @Param("10000000")
    public int vertices;
    @Param("10000000")
    public int edges;

    private int[] sources;
    private int[] targets;
    private ComponentLabeler parallel;
    private ComponentLabeler serial;
    private ComponentLabeler java;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(19);
        sources = random.ints(edges, 0, vertices).toArray();
        targets = random.ints(edges, 0, vertices).toArray();
        parallel = ComponentLabeler.create(Backend.CPU_PARALLEL);
        serial = ComponentLabeler.create(Backend.CPU_SERIAL);
        java = ComponentLabeler.create(Backend.JAVA);
    }

    @TearDown(Level.Trial)
    public void close() {
        parallel.close();
        serial.close();
        java.close();
    }

    /** The baseline: what a Java user writes, on one thread. */
    @Benchmark
    public int[] plainJavaUnionFind() {
        int[] parent = new int[vertices];
        for (int v = 0; v < vertices; v++) {
            parent[v] = v;
        }
        for (int e = 0; e < sources.length; e++) {
            int a = find(parent, sources[e]);
            int b = find(parent, targets[e]);
            if (a < b) {
                parent[b] = a;
            } else if (b < a) {
                parent[a] = b;
            }
        }
        for (int v = 0; v < vertices; v++) {
            parent[v] = parent[parent[v]];  // roots are the smallest ids: canonical
        }
        return parent;
    }

    private static int find(int[] parent, int v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    }

    @Benchmark
    public int[] cpuParallel() {
        return parallel.labelEdges(vertices, sources, targets);
    }

    @Benchmark
    public int[] cpuSerial() {
        return serial.labelEdges(vertices, sources, targets);
    }

    /** The JAVA backend: the lock-free union-find over the edges on ForkJoin threads. */
    @Benchmark
    public int[] javaBackend() {
        return java.labelEdges(vertices, sources, targets);
    }

    /** The canonical CSR as {@code CsrGraph.fromEdges} built it before: {@link GraphBuilder}. */
    @Benchmark
    public long csrBuildGraphBuilder() {
        try (Arena arena = Arena.ofConfined()) {
            return builderGraph(arena).arcCount();
        }
    }

    /** The canonical CSR as {@code CsrGraph.fromEdges} builds it now: in parallel, natively. */
    @Benchmark
    public long csrBuildNative() {
        try (Arena arena = Arena.ofConfined()) {
            return CsrGraph.fromEdges(arena, vertices, sources, targets).arcCount();
        }
    }

    @Benchmark
    public int[] csrGraphBuilderThenCpuParallel() {
        try (Arena arena = Arena.ofConfined()) {
            return parallel.label(builderGraph(arena), LabelOptions.defaults(), arena).toArray();
        }
    }

    @Benchmark
    public int[] csrNativeThenCpuParallel() {
        try (Arena arena = Arena.ofConfined()) {
            return parallel.label(CsrGraph.fromEdges(arena, vertices, sources, targets), LabelOptions.defaults(), arena)
                    .toArray();
        }
    }

    private CsrGraph builderGraph(Arena arena) {
        try (GraphBuilder builder = new GraphBuilder().vertexCount(vertices)) {
            for (int e = 0; e < sources.length; e++) {
                builder.addEdge(sources[e], targets[e]);
            }
            return builder.build(arena);
        }
    }
}
