package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.LabelOptions;
import org.ccl4j.Labels;
import org.ccl4j.io.GraphFile;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.LabelWriter;
import org.ccl4j.io.ReadOptions;

/** {@code ccl4j label FILE [...]}: reads a graph, labels it, reports and optionally writes the labels. */
final class LabelCommand {
    private LabelCommand() {
    }

    static int run(List<String> args, PrintStream out) throws IOException {
        Arguments a = new Arguments(args, Set.of("format", "backend", "algorithm", "device", "threads", "out", "top"),
                Set.of("json", "keep-ids", "check", "stats", "compact"));
        if (a.positionals().size() != 1) {
            throw new UsageException("label needs exactly one FILE, got " + a.positionals().size() + " arguments");
        }
        Path file = Path.of(a.positionals().get(0));
        GraphFormat format = parse(() -> GraphFormat.fromName(a.get("format", "auto")));
        Backend backend = parse(() -> CliNames.parse(Backend.class, a.get("backend", "auto")));
        Algorithm algorithm = parse(() -> CliNames.parse(Algorithm.class, a.get("algorithm", "auto")));
        int device = a.getInt("device", 0);
        int threads = a.getInt("threads", 0);
        if (device < 0 || threads < 0) {
            throw new UsageException("--device and --threads must not be negative");
        }
        LabelStatistics.Options bookkeeping = LabelStatistics.Options.of(a);
        backend = backendFor(backend, algorithm);
        LabelOptions options = LabelOptions.defaults().withAlgorithm(algorithm).withCheckInput(a.flag("check"))
                .withCpuThreads(threads);

        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(backend, device)) {
            GraphFile input = read(file, format, new ReadOptions(a.flag("keep-ids")), arena);
            CsrGraph graph = input.graph();
            Labels labels = labeler.label(graph, options, arena);
            if (a.get("out", null) != null) {
                writeLabels(Path.of(a.get("out", null)), bookkeeping.compact() ? labels.compact(Labels.Order.SMALLEST_MEMBER)
                        : labels, input);
            }
            LabelStatistics statistics = bookkeeping.of(labels);
            Map<String, Double> phases = labels.timings().phasesMs();
            if (a.flag("json")) {
                Json timings = new Json().put("total", labels.timings().totalMs());
                phases.forEach(timings::put);
                Json json = new Json().put("vertices", graph.vertexCount()).put("arcs", graph.arcCount())
                        .put("components", labels.count()).put("largestComponent", labels.largestComponentSize())
                        .put("backend", CliNames.of(labels.timings().backend()))
                        .put("algorithm", CliNames.algorithm(labels.timings().algorithm()))
                        .put("iterations", labels.timings().iterations()).put("timingsMs", timings);
                out.println(statistics == null ? json : statistics.addTo(json));
            } else {
                out.printf("%s: %d vertices, %d arcs (%s)%n", file, graph.vertexCount(), graph.arcCount(), input.format());
                out.printf("components: %d, largest: %d vertices%n", labels.count(), labels.largestComponentSize());
                out.printf("backend: %s, algorithm: %s, %.3f ms", CliNames.of(labels.timings().backend()),
                        CliNames.algorithm(labels.timings().algorithm()), labels.timings().totalMs());
                StringBuilder p = new StringBuilder();
                phases.forEach((k, v) -> p.append(p.isEmpty() ? " (" : ", ").append(k).append(' ')
                        .append(String.format(java.util.Locale.ROOT, "%.3f", v)));
                out.println(p.isEmpty() ? "" : p + ")");
                if (statistics != null) {
                    statistics.print(out);
                }
            }
        }
        return Main.OK;
    }

    /** Reads the graph; I/O failures name the file (the JDK's messages do not always). */
    private static GraphFile read(Path file, GraphFormat format, ReadOptions options, Arena arena) throws IOException {
        try {
            return GraphReader.read(file, format, options, arena);
        } catch (java.nio.file.NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** union-find is pure Java and cpu-reference a serial CPU algorithm: "auto" picks their backend. */
    private static Backend backendFor(Backend requested, Algorithm algorithm) {
        if (requested != Backend.AUTO) {
            return requested;
        }
        return switch (algorithm) {
            case UNION_FIND -> Backend.JAVA;
            case CPU_REFERENCE -> Backend.CPU_SERIAL;
            default -> Backend.AUTO;
        };
    }

    private static void writeLabels(Path path, Labels labels, GraphFile input) throws IOException {
        String name = path.getFileName().toString();
        if (name.endsWith(".txt") || name.endsWith(".tsv")) {
            LabelWriter.writeText(labels.segment(), labels.vertexCount(), input.originalIds(), path);
        } else {
            LabelWriter.writeBinary(labels.segment(), labels.vertexCount(), path);
        }
    }

    private static <T> T parse(java.util.function.Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
