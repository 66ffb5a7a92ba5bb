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
 * Hawick, Leist &amp; Playne 2010, kernel 1 on CUDA: init (identity colours and the edge list), propagate (the whole fixpoint loop of edge-parallel atomicMin launches, each followed by chain resolution).
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
public class CudaHawickEdgePhases {
    @State(Scope.Thread)
    public static class Run extends PhaseState {
        @Param({"grid2d_1024", "rmat18", "test-graphs/random.egr"})
        public String graph;

        public Run() {
            super(Backend.CUDA, Algorithm.HAWICK_EDGE);
        }

        @Override
        protected String graph() {
            return graph;
        }
    }

    @Benchmark
    public double init(Run state) {
        return state.runPhase();
    }

    @Benchmark
    public double propagate(Run state) {
        return state.runPhase();
    }
}
