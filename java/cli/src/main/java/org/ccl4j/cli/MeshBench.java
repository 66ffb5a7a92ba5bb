package org.ccl4j.cli;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.PinnedMemory;
import org.ccl4j.Grid;
import org.ccl4j.io.grid.GridGenerators;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshLabels;
import org.ccl4j.MeshOptions;
import org.ccl4j.Timings;
import org.ccl4j.MeshUnionFind;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The mesh part of {@code ccl4j bench}: random site-percolation fields (uint8 cells, foreground
 * mode), labelled with the chosen mesh algorithms and checked against {@link MeshUnionFind} at the
 * field's connectivity. The full suite is the fields of BENCHMARKS.md's mesh tables: each
 * field face-connected (4 in 2D, 6 in 3D) and, named with {@code _c8} or {@code _c26}, fully
 * connected; the quick one has smaller fields of the same kinds. Fields are generated from a fixed
 * seed, so every run labels the same cells.
 */
final class MeshBench {
    private static final long SEED = 1;

    private MeshBench() {
    }

    /**
     * A suite field: width × height × depth cells, each occupied with probability p, connected to
     * its neighbours under {@code connectivity} (4 or 8 in 2D, 6 or 26 in 3D).
     */
    record Field(String name, int width, int height, int depth, double p, int connectivity) {
        long cells() {
            return (long) width * height * depth;
        }

        MeshOptions options() {
            return MeshOptions.defaults().withConnectivity(connectivity);
        }
    }

    static final List<Field> QUICK = List.of(
            new Field("2d_1024_p05", 1024, 1024, 1, 0.5, 4),
            new Field("2d_1024_p06", 1024, 1024, 1, 0.6, 4),
            new Field("3d_64_p025", 64, 64, 64, 0.25, 6),
            new Field("3d_64_p035", 64, 64, 64, 0.35, 6),
            new Field("2d_1024_p05_c8", 1024, 1024, 1, 0.5, 8),
            new Field("2d_1024_p06_c8", 1024, 1024, 1, 0.6, 8),
            new Field("3d_64_p025_c26", 64, 64, 64, 0.25, 26),
            new Field("3d_64_p035_c26", 64, 64, 64, 0.35, 26));

    static final List<Field> FULL = List.of(
            new Field("2d_8192_p05", 8192, 8192, 1, 0.5, 4),
            new Field("2d_8192_p06", 8192, 8192, 1, 0.6, 4),
            new Field("2d_16384_p06", 16384, 16384, 1, 0.6, 4),
            new Field("3d_512_p025", 512, 512, 512, 0.25, 6),
            new Field("3d_512_p035", 512, 512, 512, 0.35, 6),
            new Field("2d_8192_p05_c8", 8192, 8192, 1, 0.5, 8),
            new Field("2d_8192_p06_c8", 8192, 8192, 1, 0.6, 8),
            new Field("2d_16384_p06_c8", 16384, 16384, 1, 0.6, 8),
            new Field("3d_512_p025_c26", 512, 512, 512, 0.25, 26),
            new Field("3d_512_p035_c26", 512, 512, 512, 0.35, 26));

    static List<Field> named(String suite) {
        return switch (suite) {
            case "quick" -> QUICK;
            case "full" -> FULL;
            default -> throw new UsageException("unknown suite '" + suite + "'; expected quick or full");
        };
    }

    /** One measured (field, algorithm) pair; no times when the iteration limit stopped it. */
    record Result(String field, long cells, int connectivity, long clusters, MeshAlgorithm algorithm, Backend backend, boolean correct,
                  double[] kernelMs, double[] endToEndMs, double h2dMs, double d2hMs, int iterations) {
        boolean converged() {
            return kernelMs.length > 0;
        }

        double kernelMedian() {
            return BenchCommand.median(kernelMs);
        }

        double endToEndMedian() {
            return BenchCommand.median(endToEndMs);
        }

        double gigapixelsPerSecond() {
            return cells / (kernelMedian() * 1e6);
        }
    }

    /** The algorithms {@code name} stands for on {@code backend}: one, or with "all" every one that runs there. */
    static List<MeshAlgorithm> algorithms(String name, Backend backend) {
        if (!name.equals("all")) {
            MeshAlgorithm a = UsageException.whenInvalid(() -> CliNames.parse(MeshAlgorithm.class, name));
            if (a != MeshAlgorithm.AUTO && !a.runsOn(backend)) {
                throw new UsageException("--mesh-algorithm " + name + " does not run on the " + CliNames.of(backend) + " backend");
            }
            return List.of(a);
        }
        List<MeshAlgorithm> all = new ArrayList<>();
        for (MeshAlgorithm a : MeshAlgorithm.values()) {
            if (a != MeshAlgorithm.AUTO && a.runsOn(backend) && (a != MeshAlgorithm.JAVA || backend == Backend.JAVA)) {
                all.add(a);
            }
        }
        return all;
    }

    /** Generates {@code field} (off-heap, in {@code arena}; page-locked on CUDA so the copy in is DMA). */
    static Grid generate(Field field, Backend backend, Arena arena) {
        Grid generated = GridGenerators.percolation(arena, field.width(), field.height(), field.depth(), field.p(), SEED);
        if (backend != Backend.CUDA) {
            return generated;
        }
        MemorySegment pinned = PinnedMemory.allocate(arena, generated.cells().byteSize());
        pinned.copyFrom(generated.cells());
        return Grid.wrap(pinned, Grid.CellType.U8, field.width(), field.height(), field.depth());
    }

    /** The oracle's labels of {@code field}'s {@code grid}, at the field's connectivity. */
    static MemorySegment expected(Field field, Grid grid, Arena arena) {
        MemorySegment labels = arena.allocate(ValueLayout.JAVA_INT, grid.cellCount());
        MeshUnionFind.label(grid, field.options(), labels);
        return labels;
    }

    /**
     * Labels {@code grid} warmup + runs times. Kernel time: the native phases without the
     * transfers (CUDA events on the GPU, the native call on the CPU); end-to-end: the host clock
     * around {@code label()}, cells and labels in Java memory.
     */
    static Result measure(ComponentLabeler labeler, Field field, Grid grid, MeshOptions options, MemorySegment expected,
                          Arena arena, int runs, int warmup) {
        boolean cuda = labeler.backend() == Backend.CUDA && options.algorithm() != MeshAlgorithm.JAVA;
        long bytes = (long) grid.cellCount() * Integer.BYTES;
        MemorySegment labels = cuda ? PinnedMemory.allocate(arena, bytes) : arena.allocate(bytes, Integer.BYTES);
        double[] kernel = new double[runs];
        double[] endToEnd = new double[runs];
        double[] h2d = new double[runs];
        double[] d2h = new double[runs];
        MeshLabels last = null;
        for (int i = -warmup; i < runs; i++) {
            long start = System.nanoTime();
            last = labeler.label(grid, options, labels);
            double ms = (System.nanoTime() - start) / 1e6;
            if (i >= 0) {
                Timings t = last.timings();
                endToEnd[i] = ms;
                h2d[i] = t.phasesMs().getOrDefault("h2d", 0.0);
                d2h[i] = t.phasesMs().getOrDefault("d2h", 0.0);
                kernel[i] = cuda ? BenchCommand.kernelMs(t.phasesMs()) : t.totalMs();
            }
        }
        boolean correct = labels.asSlice(0, bytes).mismatch(expected.asSlice(0, bytes)) == -1;
        return new Result(field.name(), field.cells(), field.connectivity(), last.count(),
                (MeshAlgorithm) last.timings().algorithm(),
                last.timings().backend(), correct, kernel, endToEnd, BenchCommand.median(h2d), BenchCommand.median(d2h),
                last.timings().iterations());
    }

    static Result notConverged(Field field, MeshAlgorithm algorithm, Backend backend, int limit) {
        return new Result(field.name(), field.cells(), field.connectivity(), -1, algorithm, backend, true, new double[0],
                new double[0], 0, 0, limit);
    }

    static String table(List<Result> results) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-20s %-16s %10s %10s %10s %10s %12s %10s %10s %8s %6s  %s%n", "field",
                "mesh algorithm", "clusters", "kernel ms", "min", "max", "end-to-end", "h2d", "d2h", "Gpx/s", "iters",
                "oracle"));
        for (Result r : results) {
            if (!r.converged()) {
                b.append(String.format(Locale.ROOT, "%-20s %-16s   no fixpoint within --max-iterations %d%n", r.field(),
                        CliNames.of(r.algorithm()), r.iterations()));
                continue;
            }
            b.append(String.format(Locale.ROOT, "%-20s %-16s %10d %10.3f %10.3f %10.3f %12.3f %10s %10s %8.3f %6d  %s%n",
                    r.field(), CliNames.of(r.algorithm()), r.clusters(), r.kernelMedian(), min(r.kernelMs()),
                    max(r.kernelMs()), r.endToEndMedian(), BenchCommand.transfer(r.backend(), r.h2dMs()),
                    BenchCommand.transfer(r.backend(), r.d2hMs()),
                    r.gigapixelsPerSecond(), r.iterations(), r.correct() ? "ok" : "MISMATCH"));
        }
        return b.toString();
    }

    static String markdown(List<Result> results) {
        StringBuilder b = new StringBuilder();
        b.append("| field | mesh algorithm | clusters | kernel ms (median) | min | max | end-to-end ms | h2d ms | d2h ms |"
                + " Gpx/s | iterations | oracle |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            if (!r.converged()) {
                b.append(String.format(Locale.ROOT, "| %s | %s | | no fixpoint within %d iterations | | | | | | | | |%n",
                        r.field(), CliNames.of(r.algorithm()), r.iterations()));
                continue;
            }
            b.append(String.format(Locale.ROOT, "| %s | %s | %,d | %.3f | %.3f | %.3f | %.3f | %s | %s | %.2f | %d | %s |%n",
                    r.field(), CliNames.of(r.algorithm()), r.clusters(), r.kernelMedian(), min(r.kernelMs()),
                    max(r.kernelMs()), r.endToEndMedian(), BenchCommand.transfer(r.backend(), r.h2dMs()),
                    BenchCommand.transfer(r.backend(), r.d2hMs()),
                    r.gigapixelsPerSecond(), r.iterations(), r.correct() ? "ok" : "MISMATCH"));
        }
        return b.toString();
    }

    static ArrayNode json(List<Result> results) {
        ArrayNode list = Json.array();
        for (Result r : results) {
            ObjectNode o = list.addObject().put("field", r.field()).put("cells", r.cells())
                    .put("connectivity", r.connectivity()).put("algorithm", CliNames.of(r.algorithm())).put("backend", CliNames.of(r.backend()));
            if (!r.converged()) {
                o.put("converged", false).put("maxIterations", r.iterations());
                continue;
            }
            o.put("clusters", r.clusters()).put("oracle", r.correct() ? "ok" : "mismatch");
            ObjectNode kernel = o.putObject("kernelMs");
            kernel.set("median", Json.number(r.kernelMedian()));
            kernel.set("min", Json.number(min(r.kernelMs())));
            kernel.set("max", Json.number(max(r.kernelMs())));
            o.set("endToEndMs", Json.number(r.endToEndMedian()));
            o.set("h2dMs", Json.number(r.h2dMs()));
            o.set("d2hMs", Json.number(r.d2hMs()));
            o.set("gigapixelsPerSecond", Json.number(r.gigapixelsPerSecond()));
            o.put("iterations", r.iterations());
        }
        return list;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(0);
    }
}
