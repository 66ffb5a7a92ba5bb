package org.ccl4j.bench;

import java.util.concurrent.TimeUnit;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
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
 * ECL-CC's phases on the native CPU backends: init, compute (hooking), finalize, for
 * CPU_PARALLEL ({@code cpu}, OpenMP) and CPU_SERIAL ({@code cpu-serial}). Before each invocation
 * the phases before the measured one run again, untimed ({@link PhaseState}).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx16g"})
public class CpuEclCcPhases {
    @State(Scope.Thread)
    public static class Run extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        @Param({"cpu", "cpu-serial"})
        public String backend;

        public Run() {
            super(Backend.CPU_PARALLEL, Algorithm.ECL_CC);
        }

        @Override
        protected String graph() {
            return graph;
        }

        @Override
        protected Backend backend() {
            return Backend.fromCliName(backend);
        }
    }

    @Benchmark
    public double init(Run state) {
        return state.runPhase();
    }

    @Benchmark
    public double compute(Run state) {
        return state.runPhase();
    }

    @Benchmark
    public double finalize(Run state) {
        return state.runPhase();
    }
}
