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
 * Komura 2016's generalized label reduction on the CPU (serial): init (labels and residual lists),
 * analysis1, reduction, analysis2.
 *
 * <p>One benchmark per phase; before each invocation the phases before it run again, untimed
 * ({@link PhaseState}). The algorithm is serial on both CPU backends, so CPU_PARALLEL stands for both.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx16g"})
public class CpuKomuraPhases {
    @State(Scope.Thread)
    public static class Init extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Init() {
            super(Backend.CPU_PARALLEL, Algorithm.KOMURA, "init");
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
    public static class Analysis1 extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Analysis1() {
            super(Backend.CPU_PARALLEL, Algorithm.KOMURA, "analysis1");
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double analysis1(Analysis1 state) {
        return state.runPhase();
    }

    @State(Scope.Thread)
    public static class Reduction extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Reduction() {
            super(Backend.CPU_PARALLEL, Algorithm.KOMURA, "reduction");
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double reduction(Reduction state) {
        return state.runPhase();
    }

    @State(Scope.Thread)
    public static class Analysis2 extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Analysis2() {
            super(Backend.CPU_PARALLEL, Algorithm.KOMURA, "analysis2");
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double analysis2(Analysis2 state) {
        return state.runPhase();
    }
}
