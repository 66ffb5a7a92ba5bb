package org.ccl4j.bench;

import java.util.concurrent.TimeUnit;

import org.ccl4j.CsrGraph;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a Java user would pick instead: JGraphT's {@code ConnectivityInspector} on a
 * {@code SimpleGraph<Integer, DefaultEdge>} (jgrapht-core), with the graph built from the CSR
 * ({@code buildAndInspect}) or already built ({@code inspect}; a new inspector each time, since it
 * caches its answer). Compare with {@link CpuLabelingBenchmark} on the same graphs, and with
 * {@link JGraphTAdapterBenchmark}, ccl4j's drop-in for the inspector.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx8g"})
public class JGraphTBaseline {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    private CsrGraph csr;
    private Graph<Integer, DefaultEdge> built;

    @Setup(Level.Trial)
    public void load() {
        csr = BenchGraphs.get(graph);
        built = build(csr, 0);
    }

    /** A {@code SimpleGraph} of {@code csr}'s edges, vertex {@code v} the Integer {@code first + v}, added in order. */
    static Graph<Integer, DefaultEdge> build(CsrGraph csr, int first) {
        Graph<Integer, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
        int n = csr.vertexCount();
        for (int v = 0; v < n; v++) {
            g.addVertex(first + v);
        }
        for (int v = 0; v < n; v++) {
            long end = csr.offset(v + 1);
            for (long arc = csr.offset(v); arc < end; arc++) {
                int u = csr.neighbor(arc);
                if (u > v) {
                    g.addEdge(first + v, first + u);
                }
            }
        }
        return g;
    }

    @Benchmark
    public int buildAndInspect() {
        return new ConnectivityInspector<>(build(csr, 0)).connectedSets().size();
    }

    @Benchmark
    public int inspect() {
        return new ConnectivityInspector<>(built).connectedSets().size();
    }
}
