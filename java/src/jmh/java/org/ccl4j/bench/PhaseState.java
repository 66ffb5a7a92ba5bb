package org.ccl4j.bench;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.internal.bench.PhaseRun;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The state of a per-phase benchmark: one algorithm's phases on one graph (a {@link PhaseRun}),
 * brought back before every invocation, outside the timed region, to the state the phase starts
 * from ({@code @Setup(Level.Invocation)}: the phases before it run again). The timed region is
 * one phase and the wait for it. Subclasses name the backend and algorithm, and declare the
 * {@code graph} parameter; the phase is the one the benchmark method is named after.
 *
 * <p>A new algorithm gets its per-phase benchmarks as a class like {@link CudaKomuraPhases}: one
 * state subclass, and a method per phase named as {@code ccl4j.h} names the phase.
 */
public abstract class PhaseState {
    private final Backend backend;
    private final Algorithm algorithm;
    protected PhaseRun run;
    protected int phase;

    protected PhaseState(Backend backend, Algorithm algorithm) {
        this.backend = backend;
        this.algorithm = algorithm;
    }

    /** The graph parameter of the subclass. */
    protected abstract String graph();

    /** The backend to run on; a parameter of the CPU benchmarks. */
    protected Backend backend() {
        return backend;
    }

    /** The phase is the one the running benchmark method is named after. */
    @Setup(Level.Trial)
    public void open(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        String phaseName = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        if (backend() == Backend.CUDA) {
            BenchGraphs.requireCuda();
        }
        run = PhaseRun.open(backend(), 0, BenchGraphs.get(graph()), algorithm);
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

    /** Runs the phase; returns its native-measured time in ms (for the blackhole). */
    public double runPhase() {
        return run.run(phase);
    }
}
