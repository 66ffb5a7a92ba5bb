package org.ccl4j.bench;

import org.ccl4j.Backend;
import org.ccl4j.internal.bench.PhaseRun;
import org.ccl4j.mesh.MeshAlgorithm;
import org.ccl4j.mesh.MeshOptions;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link PhaseState} for a mesh algorithm: one algorithm's phases on one field of
 * {@link BenchMeshes} (face connectivity, open boundaries, foreground mode), brought back before
 * every invocation, untimed, to the state the phase starts from. Subclasses name the backend,
 * algorithm and phase, and declare the {@code field} parameter.
 */
public abstract class MeshPhaseState {
    private final Backend backend;
    private final MeshAlgorithm algorithm;
    private final String phaseName;
    protected PhaseRun run;
    protected int phase;

    protected MeshPhaseState(Backend backend, MeshAlgorithm algorithm, String phaseName) {
        this.backend = backend;
        this.algorithm = algorithm;
        this.phaseName = phaseName;
    }

    /** The field parameter of the subclass. */
    protected abstract String field();

    /** The backend to run on; a parameter of some CPU benchmarks. */
    protected Backend backend() {
        return backend;
    }

    @Setup(Level.Trial)
    public void open() {
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
