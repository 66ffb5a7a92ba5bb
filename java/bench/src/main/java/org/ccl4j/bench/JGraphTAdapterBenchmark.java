package org.ccl4j.bench;

import java.util.concurrent.TimeUnit;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.jgrapht.Ccl4jConnectivityInspector;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultEdge;
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
 * ccl4j-jgrapht's {@link Ccl4jConnectivityInspector} on the {@code SimpleGraph<Integer, DefaultEdge>}
 * of {@link JGraphTBaseline}: a new inspector and its {@code connectedSets()} per invocation (numbering
 * the vertices, listing the edges, labelling, grouping), against {@link JGraphTBaseline#inspect} on
 * the same graph. {@code labeler}: {@code default}, the inspector's own (a CPU_PARALLEL labeler per
 * labelling), or a labeler of the benchmark's on that backend, opened once. {@code vertices}:
 * {@code 0..n-1}, which the inspector numbers through an array, or {@code 1..n}, numbered through a
 * {@code HashMap} as any other vertex objects are.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx8g"})
public class JGraphTAdapterBenchmark {
    @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
    public String graph;

    @Param({"default", "CPU_SERIAL", "JAVA"})
    public String labeler;

    @Param({"0..n-1", "1..n"})
    public String vertices;

    private Graph<Integer, DefaultEdge> built;
    private ComponentLabeler own;  // null: the inspector's default

    @Setup(Level.Trial)
    public void load() {
        built = JGraphTBaseline.build(BenchGraphs.get(graph), vertices.equals("0..n-1") ? 0 : 1);
        own = labeler.equals("default") ? null : ComponentLabeler.create(Backend.valueOf(labeler));
    }

    @TearDown(Level.Trial)
    public void close() {
        if (own != null) {
            own.close();
        }
    }

    @Benchmark
    public int inspect() {
        var inspector = own == null ? new Ccl4jConnectivityInspector<>(built)
                : new Ccl4jConnectivityInspector<>(built, own);
        return inspector.connectedSets().size();
    }
}
