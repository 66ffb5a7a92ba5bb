package org.ccl4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.LabelOptions;
import org.ccl4j.UnionFind;
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
 * End-to-end labelling on each CPU backend of a graph already in memory (CPU_PARALLEL and
 * CPU_SERIAL ECL-CC, the JAVA backend's parallel union-find on all cores), against Java union-finds
 * on one thread: the oracle {@link UnionFind} over the same segments, and a plain union-find with
 * path halving over the CSR arrays copied to {@code int[]} — the baseline a Java user would write.
 * JGraphT is in {@link JGraphTBaseline}. Graphs: {@link BenchGraphs}.
 * The graphs are wrapped segments, checked once at set-up and labelled unchecked, except by
 * {@code cpuParallelEclCcChecked}, which pays the input checks every call as the defaults do.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
public class CpuLabelingBenchmark {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    private CsrGraph csr;
    private int[] offsets;
    private int[] neighbors;
    private ComponentLabeler parallel;
    private ComponentLabeler serial;
    private ComponentLabeler java;

    @Setup(Level.Trial)
    public void load() {
        csr = BenchGraphs.get(graph);
        csr.check();
        offsets = new int[csr.vertexCount() + 1];
        for (int v = 0; v <= csr.vertexCount(); v++) {
            offsets[v] = (int) csr.offset(v);
        }
        neighbors = csr.neighbors().toArray(ValueLayout.JAVA_INT);
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

    private static final LabelOptions UNCHECKED = LabelOptions.defaults().withCheckInput(false);

    @Benchmark
    public int cpuParallelEclCc() {
        try (Arena labels = Arena.ofConfined()) {
            return parallel.label(csr, UNCHECKED, labels).get(csr.vertexCount() - 1);
        }
    }

    @Benchmark
    public int cpuParallelEclCcChecked() {
        try (Arena labels = Arena.ofConfined()) {
            return parallel.label(csr, LabelOptions.defaults(), labels).get(csr.vertexCount() - 1);
        }
    }

    @Benchmark
    public int cpuSerialEclCc() {
        try (Arena labels = Arena.ofConfined()) {
            return serial.label(csr, UNCHECKED, labels).get(csr.vertexCount() - 1);
        }
    }

    /** The JAVA backend: {@code Algorithm.UNION_FIND}, lock-free on ForkJoin threads. */
    @Benchmark
    public int javaParallelUnionFind() {
        try (Arena labels = Arena.ofConfined()) {
            return java.label(csr, UNCHECKED, labels).get(csr.vertexCount() - 1);
        }
    }

    /** The oracle: the single-threaded union-find over the same segments. */
    @Benchmark
    public int javaSerialUnionFind() {
        try (Arena labels = Arena.ofConfined()) {
            MemorySegment out = labels.allocate(ValueLayout.JAVA_INT, csr.vertexCount());
            UnionFind.label(csr, out);
            return out.getAtIndex(ValueLayout.JAVA_INT, csr.vertexCount() - 1);
        }
    }

    /** The baseline: union-find with path halving on int[] CSR arrays, as plain Java code. */
    @Benchmark
    public int plainJavaUnionFindOnArrays() {
        int n = offsets.length - 1;
        int[] parent = new int[n];
        for (int v = 0; v < n; v++) {
            parent[v] = v;
        }
        for (int u = 0; u < n; u++) {
            for (int a = offsets[u]; a < offsets[u + 1]; a++) {
                int v = neighbors[a];
                if (v > u) {
                    int ru = find(parent, u);
                    int rv = find(parent, v);
                    if (ru < rv) {
                        parent[rv] = ru;
                    } else if (rv < ru) {
                        parent[ru] = rv;
                    }
                }
            }
        }
        for (int v = 0; v < n; v++) {
            parent[v] = parent[parent[v]];
        }
        return parent[n - 1];
    }

    private static int find(int[] parent, int v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    }
}
