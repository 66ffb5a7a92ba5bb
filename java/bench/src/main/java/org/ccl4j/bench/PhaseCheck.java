package org.ccl4j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.CsrGraph;
import org.ccl4j.UnionFind;
import org.ccl4j.bench.phases.PhaseRun;
import org.ccl4j.Grid;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshOptions;
import org.ccl4j.MeshUnionFind;

/**
 * Checks, before the per-phase benchmarks are trusted, that their phase runs label each graph as
 * the Java union-find does: every phase once in order, then from a reset to every phase. Prints
 * a line per (backend, algorithm, graph), and exits 1 on a mismatch. With {@code --runs N}, it
 * then runs every phase N times more, each after a reset, and prints the median, minimum and
 * maximum of the phase's own time (CUDA events on the GPU): the per-phase figures without the
 * cost of the call and the wait that JMH's host clock includes.
 *
 * <pre>java -cp ccl4j-benchmarks.jar org.ccl4j.bench.PhaseCheck [--runs N] [--mesh] BACKEND ALGORITHM[,ALGORITHM...] INPUT...</pre>
 * BACKEND is cuda, cpu-parallel or cpu-serial; ALGORITHM a graph algorithm's name (ecl-cc, komura, ...,
 * as {@link EnumNames}); INPUT a graph as the benchmarks' {@code graph} parameter. With
 * {@code --mesh}: ALGORITHM a mesh algorithm's name (union-find, equivalence, cpu-parallel, ...),
 * INPUT a field of {@link BenchMeshes} (the connectivity it names, foreground mode), and the
 * oracle the Java {@link MeshUnionFind}.
 */
public final class PhaseCheck {
    private PhaseCheck() {
    }

    public static void main(String[] args) {
        int runs = 0;
        int first = 0;
        if (args.length > 1 && args[0].equals("--runs")) {
            runs = Integer.parseInt(args[1]);
            first = 2;
        }
        boolean mesh = args.length > first && args[first].equals("--mesh");
        if (mesh) {
            first++;
        }
        if (args.length - first < 3) {
            System.err.println("usage: PhaseCheck [--runs N] [--mesh] BACKEND ALGORITHM[,ALGORITHM...] INPUT...");
            System.exit(2);
        }
        Backend backend = EnumNames.parse(Backend.class, args[first]);
        List<String> algorithms = Arrays.asList(args[first + 1].split(","));
        boolean ok = true;
        try {
            for (String name : Arrays.asList(args).subList(first + 2, args.length)) {
                if (mesh) {
                    BenchMeshes.Field field = BenchMeshes.get(name);
                    Grid grid = field.grid();
                    int[] expected = null;
                    for (String a : algorithms) {
                        MeshOptions options = field.options().withAlgorithm(EnumNames.parse(MeshAlgorithm.class, a));
                        if (expected == null) {
                            expected = MeshUnionFind.label(grid, options).segment().toArray(ValueLayout.JAVA_INT);
                        }
                        try (PhaseRun run = PhaseRun.openMesh(backend, 0, grid, options)) {
                            ok &= check(run, EnumNames.of(backend) + " " + a + " " + name, expected, runs);
                        }
                    }
                } else {
                    CsrGraph graph = BenchGraphs.get(name);
                    int[] expected = oracle(graph);
                    for (String a : algorithms) {
                        try (PhaseRun run = PhaseRun.open(backend, 0, graph, EnumNames.parse(Algorithm.class, a))) {
                            ok &= check(run, EnumNames.of(backend) + " " + a + " " + name, expected, runs);
                        }
                    }
                }
            }
        } catch (BackendUnavailableException e) {
            System.err.println("PhaseCheck: the " + EnumNames.of(backend) + " backend is unavailable: " + e.getMessage());
            System.exit(4);
        }
        System.exit(ok ? 0 : 1);
    }

    private static boolean check(PhaseRun run, String what, int[] expected, int runs) {
        List<String> times = new ArrayList<>();
        for (int i = 0; i < run.phases().size(); i++) {
            times.add(String.format(Locale.ROOT, "%s %.3f ms", run.phases().get(i), run.run(i)));
        }
        boolean ok = Arrays.equals(expected, run.labels());
        for (int start = 1; ok && start < run.phases().size(); start++) {
            run.reset(start);
            for (int i = start; i < run.phases().size(); i++) {
                run.run(i);
            }
            ok = Arrays.equals(expected, run.labels());
        }
        System.out.println((ok ? "ok       " : "MISMATCH ") + what + ": " + String.join(", ", times));
        if (runs > 0) {
            List<String> medians = new ArrayList<>();
            for (int i = 0; i < run.phases().size(); i++) {
                double[] ms = new double[runs];
                for (int r = 0; r < runs; r++) {
                    run.reset(i);
                    ms[r] = run.run(i);
                }
                Arrays.sort(ms);
                double median = runs % 2 == 1 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
                medians.add(String.format(Locale.ROOT, "%s %.4f (%.4f-%.4f)", run.phases().get(i), median, ms[0],
                        ms[runs - 1]));
            }
            System.out.println("  phase ms, median (min-max) of " + runs + ": " + String.join(", ", medians));
        }
        return ok;
    }

    private static int[] oracle(CsrGraph g) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment labels = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, g.vertexCount()));
            UnionFind.label(g, labels);
            return labels.asSlice(0, (long) g.vertexCount() * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
        }
    }
}
