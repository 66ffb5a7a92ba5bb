package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.internal.bench.PhaseRun;
import org.ccl4j.mesh.MeshAlgorithm;
import org.ccl4j.mesh.MeshOptions;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * {@link PhaseState} for a mesh algorithm: one algorithm's phases on one field of
 * {@link BenchMeshes} (face connectivity, open boundaries, foreground mode), brought back before
 * every invocation, untimed, to the state the phase starts from. Subclasses name the backend and
 * algorithm, and declare the {@code field} parameter; the phase is the one the benchmark method is
 * named after.
 */
public abstract class MeshPhaseState {
    private final Backend backend;
    private final MeshAlgorithm algorithm;
    protected PhaseRun run;
    protected int phase;

    protected MeshPhaseState(Backend backend, MeshAlgorithm algorithm) {
        this.backend = backend;
        this.algorithm = algorithm;
    }

    /** The field parameter of the subclass. */
    protected abstract String field();

    /** The backend to run on; a parameter of some CPU benchmarks. */
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
        run = PhaseRun.openMesh(backend(), 0, BenchMeshes.get(field()), MeshOptions.defaults().withAlgorithm(algorithm));
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
