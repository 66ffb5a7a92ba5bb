package org.ccl4j.bench;

import java.util.concurrent.TimeUnit;

import org.ccl4j.Backend;
import org.ccl4j.mesh.MeshAlgorithm;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Kernel D (label equivalence) on CUDA: init, and iterate (the whole fixpoint loop; each pass is a scan, an analysis and a labelling kernel, which {@code ccl4j_label_mesh} times apart).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link MeshPhaseState}). Fields of {@link BenchMeshes}, cells copied to the device once.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx16g"})
public class CudaMeshEquivalencePhases {
    @State(Scope.Thread)
    public static class Run extends MeshPhaseState {
        @Param({"2d_8192_p05", "2d_8192_p06", "2d_16384_p06", "3d_512_p025", "3d_512_p035", "2d_512_p05", "3d_64_p025"})
        public String field;

        public Run() {
            super(Backend.CUDA, MeshAlgorithm.EQUIVALENCE);
        }

        @Override
        protected String field() {
            return field;
        }
    }

    @Benchmark
    public double init(Run state) {
        return state.runPhase();
    }

    @Benchmark
    public double iterate(Run state) {
        return state.runPhase();
    }
}
