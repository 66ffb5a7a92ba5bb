package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphStatistics;
import org.ccl4j.LabelOptions;
import org.ccl4j.Labels;
import org.ccl4j.Numbering;
import org.ccl4j.Timings;
import org.ccl4j.io.GraphFile;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.LabelWriter;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ccl4j label FILE [...]}: reads a graph, labels it, reports and optionally writes the labels. */
@Command(name = "label", mixinStandardHelpOptions = true,
        description = "Label the connected components of a graph.")
final class LabelCommand implements Callable<Integer> {
    @Spec
    private CommandSpec command;

    @ParentCommand
    private Main main;

    @Parameters(paramLabel = "FILE", description = "The graph: .egr, Matrix Market, SNAP, DIMACS or an edge list.")
    private Path file;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "auto",
            completionCandidates = Converters.GraphFormatNames.class,
            description = "Input format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, by extension and"
                    + " content).")
    private GraphFormat format;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.AlgorithmNames.class,
            description = "The algorithm: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private Algorithm algorithm;

    @Mixin
    private RunOptions run;

    @Option(names = "--keep-ids", description = "Keep SNAP vertex ids as they are instead of renumbering them.")
    private boolean keepIds;

    @Mixin
    private GraphInput graphInput;

    @Option(names = "--check", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Check the graph (monotone offsets, ids in range, symmetry) before labelling (default)."
                    + " --no-check labels an .egr file's arrays as they are: only for files checked before.")
    private boolean check;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the labels: text (\"vertex label\" lines) when"
            + " FILE ends in .txt or .tsv, otherwise raw little-endian int32, one per vertex.")
    private Path out;

    @Option(names = "--regions", paramLabel = "FILE", description = "Write one CSV row per component, labelled 1..k"
            + " in the order of their smallest vertex ids: label,vertices,edges,min_vertex,max_vertex,max_degree"
            + " (edges: arcs u -> v with u < v, and self-loops; max_degree: the most arcs leaving one vertex)."
            + " --stats then lists the largest components by these labels.")
    private Path regions;

    @Mixin
    private LabelStatistics.Options bookkeeping;

    @Mixin
    private Progress.Options progressOptions;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        run.check();
        bookkeeping.check(out);
        for (Path output : new Path[] {out, regions}) {
            if (output != null) {
                OutputFile.check(output); // before a large graph is read and labelled
            }
        }
        Backend backend = backendFor(run.backend, algorithm);
        LabelOptions options = LabelOptions.defaults().withAlgorithm(algorithm).withCheckInput(check)
                .withCpuThreads(run.threads).withMaxIterations(run.maxIterations);
        PrintWriter stdout = command.commandLine().getOut();

        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(backend, run.device);
             OutputFile.Group outputs = new OutputFile.Group()) {
            GraphInput.Read read = graphInput.read(file, format, keepIds, arena, progressOptions, main);
            GraphFile input = read.file();
            CsrGraph graph = input.graph();
            // canonical labels, as --out expects; the table's rows are in raster order all the same
            try (GraphStatistics table = regions == null ? null
                    : labeler.labelWithStatistics(graph, options, Numbering.CANONICAL)) {
                Labels labels = table == null ? labeler.label(graph, options, arena)
                        : Labels.of(table.labels(), graph.vertexCount()).using(labeler);
                Timings t = table == null ? labels.timings() : table.timings();
                RegionsCsv rows = table == null ? null : RegionsCsv.of(table);
                if (rows != null) {
                    rows.write(outputs, regions);
                }
                if (out != null) {
                    writeLabels(outputs, out, bookkeeping.compact ? labels.compact(Labels.Order.SMALLEST_MEMBER)
                            : labels, input);
                }
                outputs.commit();
                // with --regions the largest components go by the table's labels, as the CSV numbers them
                LabelStatistics statistics = rows != null ? bookkeeping.ofRegions(table.count(), table::vertices)
                        : bookkeeping.of(labels);
                if (json) {
                    ObjectNode result = Json.object().put("vertices", graph.vertexCount())
                            .put("arcs", graph.arcCount()).put("components", labels.count())
                            .put("largestComponent", labels.largestComponentSize())
                            .put("backend", CliNames.of(t.backend())).put("algorithm", CliNames.algorithm(t.algorithm()))
                            .put("iterations", t.iterations());
                    result.set("readMs", Json.number(read.ms()));
                    ObjectNode timings = result.putObject("timingsMs");
                    timings.set("total", Json.number(t.totalMs()));
                    t.phasesMs().forEach((phase, ms) -> timings.set(phase, Json.number(ms)));
                    if (rows != null) {
                        rows.addTo(result, bookkeeping.jsonRows());
                    }
                    stdout.println(Json.write(statistics == null ? result : statistics.addTo(result)));
                } else {
                    stdout.printf("%s: %d vertices, %d arcs (%s), read in %s%n", file, graph.vertexCount(),
                            graph.arcCount(), input.format(), read.time());
                    stdout.printf("components: %d, largest: %d vertices%n", labels.count(),
                            labels.largestComponentSize());
                    stdout.printf("backend: %s, algorithm: %s, %.3f ms", CliNames.of(t.backend()),
                            CliNames.algorithm(t.algorithm()), t.totalMs());
                    StringBuilder p = new StringBuilder();
                    t.phasesMs().forEach((k, v) -> p.append(p.isEmpty() ? " (" : ", ").append(k).append(' ')
                            .append(String.format(Locale.ROOT, "%.3f", v)));
                    stdout.println(p.isEmpty() ? "" : p + ")");
                    if (rows != null) {
                        stdout.printf("regions: %s (%d rows)%n", regions, table.count());
                    }
                    if (statistics != null) {
                        statistics.print(stdout);
                    }
                }
            }
        }
        return Main.OK;
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

    private static void writeLabels(OutputFile.Group outputs, Path path, Labels labels, GraphFile input)
            throws IOException {
        String name = path.getFileName().toString();
        boolean text = name.endsWith(".txt") || name.endsWith(".tsv");
        outputs.write(path, file -> {
            if (text) {
                LabelWriter.writeText(labels.segment(), labels.vertexCount(), input.originalIds(), file);
            } else {
                LabelWriter.writeBinary(labels.segment(), labels.vertexCount(), file);
            }
        });
    }
}
