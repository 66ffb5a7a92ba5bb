package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.Ccl4jException;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.DeviceGraph;
import org.ccl4j.DeviceInfo;
import org.ccl4j.Devices;
import org.ccl4j.LabelOptions;
import org.ccl4j.Labels;
import org.ccl4j.PinnedMemory;
import org.ccl4j.Timings;
import org.ccl4j.UnionFind;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.ReadOptions;
import org.ccl4j.io.internal.suite.BenchSuite;
import org.ccl4j.Grid;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshOptions;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j bench}: labels every graph of a suite with every chosen algorithm, checks each
 * result against the Java union-find and the suite's component count, and reports kernel and
 * end-to-end times; then the same for the suite's mesh fields with the chosen mesh algorithms
 * ({@link MeshBench}). The graphs are generated here ({@link BenchGraphFiles}) and cached in {@code --dir}.
 *
 * <p>Kernel time is what the native library measured for the labelling itself: on CUDA the CUDA
 * events of the kernels with the graph already resident on the device (the ECL-CC paper's
 * convention); on the CPU the labelling call without the Java side. End-to-end time is the host
 * clock around {@code label()} from graph buffers in Java memory (page-locked on CUDA) to labels in
 * Java memory, transfers included. Medians of the timed runs, after warm-up runs.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Label the benchmark suite (graphs, generated on first use, then mesh fields), check every"
        + " result against the Java union-find and the suite's component counts, print the times.")
final class BenchCommand implements Callable<Integer> {
    private static final Set<String> TRANSFER_PHASES = Set.of("h2d", "d2h");
    private static final Pattern PER_DEVICE_PHASE = Pattern.compile(".* [0-9]+");

    @Spec
    private CommandSpec command;

    @ParentCommand
    private Main main;

    @Option(names = "--suite", paramLabel = "NAME", defaultValue = "quick",
            completionCandidates = Converters.SuiteNames.class,
            description = "The benchmark suite of BENCHMARKS.md's tables (full) or smaller graphs and fields (quick);"
                    + " default: ${DEFAULT-VALUE}.")
    private String suite;

    @Option(names = "--graphs", paramLabel = "NAME", split = ",",
            description = "Only these graphs of the suite, or none (default: all).")
    private List<String> graphNames;

    @Option(names = "--file", paramLabel = "FILE",
            description = "Also a graph file of your own (any format label reads; a .csr file is mapped), checked"
                    + " against the Java union-find; repeatable. With --graphs none, only the files.")
    private List<Path> files = new ArrayList<>();

    @Option(names = "--fields", paramLabel = "NAME", split = ",",
            description = "Only these mesh fields (random site percolation; face neighbours, or 8 / 26 with a"
                    + " _c8 / _c26 name), or none (default: all).")
    private List<String> fieldNames;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.BackendNames.class,
            description = "Where to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private Backend backend;

    @Option(names = "--algorithm", paramLabel = "NAME|all", defaultValue = "auto",
            completionCandidates = Converters.AlgorithmNamesOrAll.class,
            description = "One graph algorithm or every one the backend runs: ${COMPLETION-CANDIDATES}"
                    + " (default: ${DEFAULT-VALUE}).")
    private String algorithmName;

    @Option(names = "--mesh-algorithm", paramLabel = "NAME|all", defaultValue = "auto",
            completionCandidates = Converters.MeshAlgorithmNamesOrAll.class,
            description = "One mesh algorithm or every one the backend runs: ${COMPLETION-CANDIDATES}"
                    + " (default: ${DEFAULT-VALUE}).")
    private String meshAlgorithmName;

    @Option(names = "--devices", paramLabel = "all|N[,N...]", description = "CUDA devices: all, or indices (0,2);"
            + " end-to-end labellings with --algorithm streamed are shared out among them, the rest run on the"
            + " first (default: all).")
    private Devices devices;

    @Option(names = "--device", paramLabel = "N", description = "One CUDA device: the same as --devices N.")
    private Integer device;

    @Option(names = "--threads", paramLabel = "N",
            description = "CPU threads of the cpu and java backends, at most max(256, 4 x the processors) (default: 0"
                    + " = all cores).")
    private int threads;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
            description = "Timed runs per graph or field (default: ${DEFAULT-VALUE}).")
    private int runs;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "2",
            description = "Untimed runs before them (default: ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "target/bench-graphs",
            description = "Where the generated graphs are cached, as NAME.egr (default: ${DEFAULT-VALUE}).")
    private Path dir;

    @Option(names = "--device-memory", paramLabel = "SIZE", converter = ByteSizes.class,
            description = "CUDA: the device memory a graph labelling may use (e.g. 512M); default: what is free."
                    + " Below what reading in place needs, streamed takes the staging buffers.")
    private Long deviceMemory;

    @Option(names = "--max-iterations", paramLabel = "N",
            description = "Stop iterative algorithms after N iterations and report them unconverged.")
    private int maxIterations;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the table as markdown.")
    private Path markdownFile;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    private boolean json;

    @Mixin
    private Progress.Options progressOptions;

    /** One measured (graph, algorithm) pair. */
    record Result(String graph, int vertices, long arcs, long components, Algorithm algorithm, Backend backend,
                  boolean correct, double[] kernelMs, double[] endToEndMs, double h2dMs, double d2hMs, int iterations) {
        double kernelMedian() {
            return median(kernelMs);
        }

        double endToEndMedian() {
            return median(endToEndMs);
        }

        double medgesPerSecond() {
            return arcs / 2.0 / (kernelMedian() * 1e3);
        }

        boolean converged() {
            return kernelMs.length > 0;
        }

        /** An algorithm stopped by --max-iterations: no times, the limit in place of the iterations. */
        static Result notConverged(String graph, CsrGraph g, Algorithm algorithm, Backend backend, int limit) {
            return new Result(graph, g.vertexCount(), g.arcCount(), -1, algorithm, backend, true, new double[0],
                    new double[0], 0, 0, limit);
        }
    }

    @Override
    public Integer call() throws IOException {
        List<BenchSuite.Graph> graphs = only(new ArrayList<>(BenchGraphFiles.suite(suite)), graphNames,
                BenchSuite.Graph::name, "--graphs", "graph");
        List<MeshBench.Field> fields = only(new ArrayList<>(MeshBench.named(suite)), fieldNames,
                MeshBench.Field::name, "--fields", "field");
        if (runs < 1 || warmup < 0 || maxIterations < 0 || threads < 0) {
            throw new UsageException("--runs must be at least 1, --warmup, --max-iterations and --threads not negative");
        }
        RunOptions.checkThreads(threads);
        Devices chosen = RunOptions.devices(devices, device);
        if (markdownFile != null) {
            OutputFile.check(markdownFile); // before the suite runs
        }
        PrintWriter out = command.commandLine().getOut();

        List<Result> results = new ArrayList<>();
        List<MeshBench.Result> meshResults = new ArrayList<>();
        boolean allCorrect = true;
        try (ComponentLabeler labeler = ComponentLabeler.create(backend, chosen)) {
            List<Algorithm> algorithms = algorithms(algorithmName, labeler.backend());
            List<MeshAlgorithm> meshAlgorithms = MeshBench.algorithms(meshAlgorithmName, labeler.backend());
            List<BenchSuite.Graph> inputs = new ArrayList<>(graphs);
            for (Path file : files) {
                inputs.add(new BenchSuite.Graph(file.toString(), List.of(), -1));  // components: the union-find's
            }
            try (Progress progress = progressOptions.start(main, "bench",
                    (long) inputs.size() * algorithms.size() + (long) fields.size() * meshAlgorithms.size())) {
                for (BenchSuite.Graph input : inputs) {
                    progress.show(input.name() + ": preparing");
                    boolean own = input.components() < 0;
                    try (Arena arena = Arena.ofShared()) {
                        CsrGraph mapped = own ? GraphReader.read(Path.of(input.name()), GraphFormat.AUTO, ReadOptions.defaults(),
                                arena).graph()
                                : GraphReader.read(BenchGraphFiles.file(input, dir), GraphFormat.EGR, ReadOptions.defaults(),
                                        arena).graph();
                        CsrGraph graph = labeler.backend() == Backend.CUDA ? pinnedCopy(mapped, arena) : mapped;
                        graph.check(); // once: the timed runs below label it unchecked
                        MemorySegment expected = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, graph.vertexCount()));
                        UnionFind.label(graph, expected);
                        BenchSuite.Graph g = own ? new BenchSuite.Graph(Path.of(input.name()).getFileName().toString(),
                                List.of(), roots(expected, graph.vertexCount())) : input;
                        for (Algorithm algorithm : algorithms) {
                            progress.show(g.name() + ": " + CliNames.of(algorithm));
                            LabelOptions options = LabelOptions.defaults().withAlgorithm(algorithm)
                                    .withCheckInput(false).withMaxIterations(maxIterations).withCpuThreads(threads)
                                    .withDeviceMemory(deviceMemory == null ? 0 : deviceMemory);
                            try {
                                Result r = measure(labeler, g, graph, options, expected, arena, runs, warmup);
                                allCorrect &= r.correct();
                                results.add(r);
                            } catch (Ccl4jException e) {
                                if (e.status() != Ccl4jException.Status.NOT_CONVERGED) {
                                    throw e;
                                }
                                // an iterative algorithm that needs more launches than allowed: reported, not timed
                                results.add(Result.notConverged(g.name(), graph, algorithm, labeler.backend(), maxIterations));
                            }
                            progress.step();
                        }
                    }
                }
                for (MeshBench.Field f : fields) {
                    progress.show(f.name() + ": preparing");
                    try (Arena arena = Arena.ofShared()) {
                        Grid grid = MeshBench.generate(f, labeler.backend(), arena);
                        MemorySegment expected = MeshBench.expected(f, grid, arena);
                        for (MeshAlgorithm algorithm : meshAlgorithms) {
                            progress.show(f.name() + ": " + CliNames.of(algorithm));
                            MeshOptions options = f.options().withAlgorithm(algorithm).withMaxIterations(maxIterations)
                                    .withCpuThreads(threads);
                            try {
                                MeshBench.Result r = MeshBench.measure(labeler, f, grid, options, expected, arena, runs, warmup);
                                allCorrect &= r.correct();
                                meshResults.add(r);
                            } catch (Ccl4jException e) {
                                if (e.status() != Ccl4jException.Status.NOT_CONVERGED) {
                                    throw e;
                                }
                                meshResults.add(MeshBench.notConverged(f, algorithm, labeler.backend(), maxIterations));
                            }
                            progress.step();
                        }
                    }
                }
            }
            String deviceName = (labeler.backend() == Backend.CUDA ? gpuNames(labeler.devices()) : cpuName())
                    + (threads > 0 ? " (--threads " + threads + ")" : ""); // the machine's threads, then those used
            if (json) {
                out.println(json(suite, labeler.backend(), deviceName, runs, results, meshResults));
            } else {
                if (!results.isEmpty() || meshResults.isEmpty()) {
                    out.print(table(results, deviceName));
                } else {
                    out.println("device: " + deviceName);
                }
                if (!meshResults.isEmpty()) {
                    out.print(MeshBench.table(meshResults));
                }
            }
            if (markdownFile != null) {
                String md = markdown(results, deviceName, runs)
                        + (meshResults.isEmpty() ? "" : "\n" + MeshBench.markdown(meshResults));
                OutputFile.write(markdownFile, file -> Files.writeString(file, md));
            }
        }
        return allCorrect ? Main.OK : Main.FAILURE;
    }

    /**
     * The suite entries named in {@code names}, all of them when it is null, none for "none".
     */
    private static <T> List<T> only(List<T> suite, List<String> names, java.util.function.Function<T, String> name,
                                     String option, String what) {
        if (names == null) {
            return suite;
        }
        if (names.equals(List.of("none"))) {
            return List.of();
        }
        for (String n : names) {
            if (suite.stream().noneMatch(e -> name.apply(e).equals(n))) {
                throw new UsageException(option + ": the suite has no " + what + " '" + n + "'");
            }
        }
        suite.removeIf(e -> !names.contains(name.apply(e)));
        return suite;
    }

    private static Result measure(ComponentLabeler labeler, BenchSuite.Graph g, CsrGraph graph, LabelOptions options,
                                  MemorySegment expected, Arena arena, int runs, int warmup) {
        Algorithm algorithm = options.algorithm();
        boolean cuda = labeler.backend() == Backend.CUDA && algorithm != Algorithm.UNION_FIND;
        MemorySegment labels = cuda ? PinnedMemory.allocate(arena, Math.max(1L, graph.vertexCount()) * Integer.BYTES)
                : arena.allocate(ValueLayout.JAVA_INT, Math.max(1, graph.vertexCount()));
        double[] endToEnd = new double[runs];
        double[] h2d = new double[runs];
        double[] d2h = new double[runs];
        double[] kernel = new double[runs];
        Labels last = null;
        for (int i = -warmup; i < runs; i++) {
            long start = System.nanoTime();
            last = labeler.label(graph, options, labels);
            double ms = (System.nanoTime() - start) / 1e6;
            if (i >= 0) {
                endToEnd[i] = ms;
                h2d[i] = last.timings().phasesMs().getOrDefault("h2d", 0.0);
                d2h[i] = last.timings().phasesMs().getOrDefault("d2h", 0.0);
                kernel[i] = cuda ? kernelMs(last.timings().phasesMs()) : last.timings().totalMs();
            }
        }
        boolean correct = labels.asSlice(0, (long) graph.vertexCount() * Integer.BYTES)
                .mismatch(expected.asSlice(0, (long) graph.vertexCount() * Integer.BYTES)) == -1;
        long components = last.count();
        correct &= g.components() == components;
        int iterations = last.timings().iterations();
        if (cuda && algorithm != Algorithm.STREAMED) {
            // Kernel-only: the graph resident on the device and the labels left there (STREAMED
            // labels host graphs only: its kernel column is its phases, transfers overlapped in them).
            try (DeviceGraph resident = labeler.upload(graph)) {
                for (int i = -warmup; i < runs; i++) {
                    Timings t = labeler.label(resident, options, null).timings();
                    if (i >= 0) {
                        kernel[i] = kernelMs(t.phasesMs());
                    }
                }
            }
        }
        // what ran (AUTO resolved), as for the backend and for meshes
        return new Result(g.name(), graph.vertexCount(), graph.arcCount(), components,
                (Algorithm) last.timings().algorithm(), last.timings().backend(), correct, kernel, endToEnd,
                median(h2d), median(d2h), iterations);
    }

    /** The components of canonical labels: the vertices that are their own label. */
    private static long roots(MemorySegment labels, int n) {
        long roots = 0;
        for (int v = 0; v < n; v++) {
            roots += labels.getAtIndex(ValueLayout.JAVA_INT, v) == v ? 1 : 0;
        }
        return roots;
    }

    /**
     * The sum of the kernel phases, transfers excluded (graph and mesh timings alike), and so are one
     * device's own phases of a labelling across several ("link 1"), which the common ones span.
     */
    static double kernelMs(Map<String, Double> phasesMs) {
        return phasesMs.entrySet().stream()
                .filter(e -> !TRANSFER_PHASES.contains(e.getKey()) && !PER_DEVICE_PHASE.matcher(e.getKey()).matches())
                .mapToDouble(Map.Entry::getValue).sum();
    }

    private static CsrGraph pinnedCopy(CsrGraph g, Arena arena) {
        MemorySegment offsets = PinnedMemory.allocate(arena, g.offsets().byteSize());
        MemorySegment neighbors = PinnedMemory.allocate(arena, Math.max(4, g.neighbors().byteSize()))
                .asSlice(0, g.neighbors().byteSize());
        offsets.copyFrom(g.offsets());
        neighbors.copyFrom(g.neighbors());
        return CsrGraph.wrap(offsets, g.offsetBytes(), neighbors);
    }

    private static List<Algorithm> algorithms(String name, Backend backend) {
        if (!name.equals("all")) {
            return List.of(UsageException.whenInvalid(() -> CliNames.parse(Algorithm.class, name)));
        }
        List<Algorithm> all = new ArrayList<>();
        for (Algorithm a : Algorithm.values()) {
            if (a != Algorithm.AUTO && runsOn(a, backend)) {
                all.add(a);
            }
        }
        return all;
    }

    private static boolean runsOn(Algorithm a, Backend backend) {
        return switch (backend) {
            case JAVA -> a == Algorithm.UNION_FIND;
            case CUDA -> a != Algorithm.CPU_REFERENCE;
            default -> a != Algorithm.STREAMED;  // CUDA only
        };
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** "NVIDIA H200", or for several devices "2 x NVIDIA H200 (devices 0,1)". */
    private static String gpuNames(List<Integer> devices) {
        List<DeviceInfo> all = ComponentLabeler.capabilities().devices();
        List<String> names = devices.stream().map(d -> all.get(d).name()).distinct().toList();
        if (devices.size() == 1) {
            return names.get(0);
        }
        return devices.size() + " x " + String.join(" / ", names) + " (devices "
                + String.join(",", devices.stream().map(String::valueOf).toList()) + ")";
    }

    private static String table(List<Result> results, String device) {
        StringBuilder b = new StringBuilder();
        b.append("device: ").append(device).append('\n');
        b.append(String.format(Locale.ROOT, "%-20s %-14s %12s %10s %10s %10s %12s %10s %10s %8s %6s  %s%n", "graph",
                "algorithm", "components", "kernel ms", "min", "max", "end-to-end", "h2d", "d2h", "Medge/s", "iters",
                "oracle"));
        for (Result r : results) {
            if (!r.converged()) {
                b.append(String.format(Locale.ROOT, "%-20s %-14s   no fixpoint within --max-iterations %d%n", r.graph(),
                        CliNames.of(r.algorithm()), r.iterations()));
                continue;
            }
            b.append(String.format(Locale.ROOT, "%-20s %-14s %12d %10.3f %10.3f %10.3f %12.3f %10s %10s %8.0f %6d  %s%n",
                    r.graph(), CliNames.of(r.algorithm()), r.components(), r.kernelMedian(),
                    Arrays.stream(r.kernelMs()).min().orElse(0), Arrays.stream(r.kernelMs()).max().orElse(0),
                    r.endToEndMedian(), transfer(r.backend(), r.h2dMs()), transfer(r.backend(), r.d2hMs()), r.medgesPerSecond(),
                    r.iterations(), r.correct() ? "ok" : "MISMATCH"));
        }
        return b.toString();
    }

    /** A transfer time, or "-" where nothing is transferred (the CPU backends). */
    static String transfer(Backend backend, double ms) {
        return backend == Backend.CUDA ? String.format(Locale.ROOT, "%.3f", ms) : "-";
    }

    private static String markdown(List<Result> results, String device, int runs) {
        StringBuilder b = new StringBuilder();
        b.append("Device: ").append(device).append(". Medians of ").append(runs)
                .append(" runs; kernel = labelling with the graph resident (CUDA events) or the native call (CPU).\n\n");
        b.append("| graph | algorithm | components | kernel ms (median) | min | max | end-to-end ms | h2d ms | d2h ms |"
                + " Medges/s | iterations | oracle |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            if (!r.converged()) {
                b.append(String.format(Locale.ROOT, "| %s | %s | | no fixpoint within %d iterations | | | | | | | | |%n",
                        r.graph(), CliNames.of(r.algorithm()), r.iterations()));
                continue;
            }
            b.append(String.format(Locale.ROOT, "| %s | %s | %,d | %.3f | %.3f | %.3f | %.3f | %s | %s | %.0f | %d | %s |%n",
                    r.graph(), CliNames.of(r.algorithm()), r.components(), r.kernelMedian(),
                    Arrays.stream(r.kernelMs()).min().orElse(0), Arrays.stream(r.kernelMs()).max().orElse(0),
                    r.endToEndMedian(), transfer(r.backend(), r.h2dMs()), transfer(r.backend(), r.d2hMs()), r.medgesPerSecond(),
                    r.iterations(), r.correct() ? "ok" : "MISMATCH"));
        }
        return b.toString();
    }

    private static String json(String suite, Backend backend, String device, int runs, List<Result> results,
                               List<MeshBench.Result> meshResults) {
        ObjectNode json = Json.object().put("suite", suite).put("backend", CliNames.of(backend)).put("device", device)
                .put("runs", runs);
        ArrayNode list = json.putArray("results");
        for (Result r : results) {
            ObjectNode o = list.addObject();
            if (!r.converged()) {
                o.put("graph", r.graph()).put("algorithm", CliNames.of(r.algorithm()))
                        .put("backend", CliNames.of(r.backend())).put("converged", false)
                        .put("maxIterations", r.iterations());
                continue;
            }
            o.put("graph", r.graph()).put("vertices", r.vertices()).put("arcs", r.arcs())
                    .put("components", r.components()).put("algorithm", CliNames.of(r.algorithm()))
                    .put("backend", CliNames.of(r.backend())).put("oracle", r.correct() ? "ok" : "mismatch");
            ObjectNode kernel = o.putObject("kernelMs");
            kernel.set("median", Json.number(r.kernelMedian()));
            kernel.set("min", Json.number(Arrays.stream(r.kernelMs()).min().orElse(0)));
            kernel.set("max", Json.number(Arrays.stream(r.kernelMs()).max().orElse(0)));
            o.set("endToEndMs", Json.number(r.endToEndMedian()));
            o.set("h2dMs", Json.number(r.h2dMs()));
            o.set("d2hMs", Json.number(r.d2hMs()));
            o.set("medgesPerSecond", Json.number(r.medgesPerSecond()));
            o.put("iterations", r.iterations());
        }
        json.set("meshes", MeshBench.json(meshResults));
        return Json.write(json);
    }

    private static String cpuName() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim() + ", "
                            + Runtime.getRuntime().availableProcessors() + " threads";
                }
            }
        } catch (IOException e) {
            // fall through to the generic name
        }
        return System.getProperty("os.arch") + ", " + Runtime.getRuntime().availableProcessors() + " threads";
    }
}
