package org.ccl4j.bench;

import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.bench.phases.PhaseRun;
import org.ccl4j.MeshAlgorithm;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A per-phase benchmark: one algorithm's phases on one graph or mesh field (a {@link PhaseRun}),
 * brought back before every invocation, outside the timed region, to the state the phase starts
 * from ({@code @Setup(Level.Invocation)}: the phases before it run again). The timed region is
 * one phase and the wait for it; the phase is the one the running benchmark method is named after.
 *
 * <p>A subclass names the backend and the algorithm (a graph {@link Algorithm} or a
 * {@link MeshAlgorithm}) and declares the input's {@code @Param}: {@code graph} (a name of
 * {@link BenchGraphs}) for a graph algorithm, {@code field} (a name of {@link BenchMeshes}: the
 * connectivity it names, open boundaries, foreground mode) for a mesh algorithm; a {@code backend} parameter
 * ({@link EnumNames}), where it declares one, replaces the backend it names. Its {@code @Benchmark}
 * methods, one per phase and named as {@code ccl4j/bench.h} names the phase, call
 * {@link #runPhase(Blackhole)}; a phase list that several algorithms share is a class of its own
 * ({@link PropagatePhases}, {@link LabelReductionPhases}, ...). The methods take the blackhole
 * rather than return the time, since a {@code double finalize()} would clash with {@link Object}'s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx16g"})
public abstract class PhaseBenchmark {
    private final Backend backend;
    private final String inputParam;
    private final BiFunction<Backend, String, PhaseRun> opener;
    private PhaseRun run;
    private int phase;

    /** A graph algorithm's phases, on the graph of the subclass's {@code graph} parameter. */
    protected PhaseBenchmark(Backend backend, Algorithm algorithm) {
        this(backend, "graph", (b, graph) -> PhaseRun.open(b, 0, BenchGraphs.get(graph), algorithm));
    }

    /** A mesh algorithm's phases, on the field of the subclass's {@code field} parameter. */
    protected PhaseBenchmark(Backend backend, MeshAlgorithm algorithm) {
        this(backend, "field", (b, name) -> {
            BenchMeshes.Field field = BenchMeshes.get(name);
            return PhaseRun.openMesh(b, 0, field.grid(), field.options().withAlgorithm(algorithm));
        });
    }

    private PhaseBenchmark(Backend backend, String inputParam, BiFunction<Backend, String, PhaseRun> opener) {
        this.backend = backend;
        this.inputParam = inputParam;
        this.opener = opener;
    }

    /** Reads the subclass's parameters from JMH's, so that one method serves graphs and fields. */
    @Setup(Level.Trial)
    public void open(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        String phaseName = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        String backendName = params.getParam("backend");
        Backend on = backendName != null ? EnumNames.parse(Backend.class, backendName) : backend;
        if (on == Backend.CUDA) {
            BenchGraphs.requireCuda();
        }
        run = opener.apply(on, params.getParam(inputParam));
        phase = run.phase(phaseName);
    }

    @Setup(Level.Invocation)
    public void reset() {
        run.reset(phase);
    }

    @TearDown(Level.Trial)
    public void close() {
        if (run != null) {
            run.close();
        }
    }

    /** Runs the phase; its native-measured time in ms goes to the blackhole. */
    protected void runPhase(Blackhole blackhole) {
        blackhole.consume(run.run(phase));
    }
}
