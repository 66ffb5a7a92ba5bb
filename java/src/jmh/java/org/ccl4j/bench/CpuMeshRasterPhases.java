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
 * Hawick et al.'s CPU I (alternating raster scans, serial): init, and scan (the whole loop of scans).
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link MeshPhaseState}). Fields of {@link BenchMeshes}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx16g"})
public class CpuMeshRasterPhases {
    @State(Scope.Thread)
    public static class Run extends MeshPhaseState {
        @Param({"2d_512_p05", "2d_512_p06", "3d_64_p025"})
        public String field;

        public Run() {
            super(Backend.CPU_PARALLEL, MeshAlgorithm.CPU_RASTER);
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
    public double scan(Run state) {
        return state.runPhase();
    }
}
