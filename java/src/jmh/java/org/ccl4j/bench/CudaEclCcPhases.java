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
 * ECL-CC (Jaiganesh &amp; Burtscher 2018) on CUDA: initialisation, the three degree tiers of hooking (thread, warp, block), the final pointer jumping.
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseState}). Graph resident on the device; times include the call and the wait for the
 * device (the empty call and the copies are in {@link FfmCallBenchmark} and {@link CudaTransferBenchmark}).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx16g"})
public class CudaEclCcPhases {
    @State(Scope.Thread)
    public static class Init extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Init() {
            super(Backend.CUDA, Algorithm.ECL_CC, "init");
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double init(Init state) {
        return state.runPhase();
    }

    @State(Scope.Thread)
    public static class Compute1 extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Compute1() {
            super(Backend.CUDA, Algorithm.ECL_CC, "compute1");
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double compute1(Compute1 state) {
        return state.runPhase();
    }

    @State(Scope.Thread)
    public static class Compute2 extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Compute2() {
            super(Backend.CUDA, Algorithm.ECL_CC, "compute2");
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double compute2(Compute2 state) {
        return state.runPhase();
    }

    @State(Scope.Thread)
    public static class Compute3 extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Compute3() {
            super(Backend.CUDA, Algorithm.ECL_CC, "compute3");
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double compute3(Compute3 state) {
        return state.runPhase();
    }

    @State(Scope.Thread)
    public static class Finalize extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Finalize() {
            super(Backend.CUDA, Algorithm.ECL_CC, "finalize");
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double finalize(Finalize state) {
        return state.runPhase();
    }
}
