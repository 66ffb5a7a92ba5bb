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
import org.ccl4j.io.Input;
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
    /** What the mapping of renumbered ids beside binary labels adds to their name. */
    static final String IDS_SUFFIX = ".ids.csv";

    @Spec
    private CommandSpec command;

    @ParentCommand
    private Main main;

    @Parameters(paramLabel = "FILE", description = "The graph: .csr, .egr, Matrix Market, SNAP, DIMACS or an edge"
            + " list (spaces, tabs or commas; ids numbers or text), plain or gzip-compressed; - reads standard input.")
    private Input file;

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

    @Option(names = "--device-memory", paramLabel = "SIZE", converter = ByteSizes.class,
            description = "CUDA: the device memory labelling may use (bytes, or with K, M, G, T: 512M, 4G); default:"
                    + " what is free. A graph whose copy does not fit is streamed through the GPU in blocks"
                    + " (algorithm streamed, which --algorithm auto picks), its progress on standard error and the"
                    + " time to its first block in the output; another algorithm is refused.")
    private Long deviceMemory;

    @Option(names = "--keep-ids", description = "Keep SNAP vertex ids as they are instead of renumbering them.")
    private boolean keepIds;

    @Mixin
    private GraphInput graphInput;

    @Option(names = "--check", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Check the graph (monotone offsets, ids in range, symmetry) before labelling (default)."
                    + " --no-check labels a .csr or .egr file's arrays as they are: only for files checked before.")
    private boolean check;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the labels: text (\"vertex label\" lines) when"
            + " FILE ends in .txt or .tsv, otherwise raw little-endian int32, one per vertex. When the file's ids"
            + " were numbered 0..n-1 in order of first appearance (SNAP without --keep-ids, edge lists of text or"
            + " 64-bit ids), text lines start with the file's id instead, and binary labels get the mapping beside"
            + " them: FILE" + IDS_SUFFIX + ", \"vertex,id\" lines.")
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
                .withCpuThreads(run.threads).withMaxIterations(run.maxIterations).withDeviceMemory(deviceMemory == null ? 0 : deviceMemory);
        PrintWriter stdout = command.commandLine().getOut();

        // Shared: the checks of a mapped graph and the labels' passes run on every core.
        try (Arena arena = Arena.ofShared(); ComponentLabeler labeler = ComponentLabeler.create(backend, run.devices());
             OutputFile.Group outputs = new OutputFile.Group()) {
            GraphInput.Read read = graphInput.read(file, format, keepIds, arena, progressOptions, main);
            GraphFile input = read.file();
            // binary labels name vertices 0..n-1: the file's ids of renumbered vertices go beside them
            Path idsFile = out != null && input.isRenumbered() && !isText(out) ? idsFile(out) : null;
            CsrGraph graph = input.graph();
            LabelProgress progress = new LabelProgress(total -> progressOptions.start(main, "label", total),
                    System::nanoTime);
            LabelOptions heard = options.withProgress(progress);
            // canonical labels, as --out expects; the table's rows are in raster order all the same
            try (GraphStatistics table = regions == null ? null
                    : progress.during(() -> labeler.labelWithStatistics(graph, heard, Numbering.CANONICAL))) {
                Labels labels = table == null ? progress.during(() -> labeler.label(graph, heard, arena))
                        : Labels.of(table.labels(), graph.vertexCount()).using(labeler);
                Double firstBlockMs = progress.firstBlockMs();
                Timings t = table == null ? labels.timings() : table.timings();
                RegionsCsv rows = table == null ? null : RegionsCsv.of(table);
                if (rows != null) {
                    rows.write(outputs, regions);
                }
                if (out != null) {
                    writeLabels(outputs, out, bookkeeping.compact ? labels.compact(Labels.Order.SMALLEST_MEMBER)
                            : labels, input);
                }
                if (idsFile != null) {
                    outputs.write(idsFile, input.vertexIds()::writeCsv);
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
                    result.put("idsRenumbered", input.isRenumbered());
                    if (idsFile != null) {
                        result.put("idsFile", idsFile.toString());
                    }
                    result.set("readMs", Json.number(read.ms()));
                    if (firstBlockMs != null) {
                        result.set("firstBlockMs", Json.number(firstBlockMs));
                    }
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
                    if (input.isRenumbered()) {
                        stdout.printf("ids: the file's %s ids, numbered in order of first appearance%s%n",
                                input.vertexIds().isNumeric() ? "numeric" : "text",
                                idsFile != null ? "; mapping: " + idsFile
                                        : out != null ? "; " + out + " names vertices by them" : "");
                    }
                    stdout.printf("components: %d, largest: %d vertices%n", labels.count(),
                            labels.largestComponentSize());
                    stdout.printf("backend: %s, algorithm: %s, %.3f ms", CliNames.of(t.backend()),
                            CliNames.algorithm(t.algorithm()), t.totalMs());
                    StringBuilder p = new StringBuilder();
                    t.phasesMs().forEach((k, v) -> p.append(p.isEmpty() ? " (" : ", ").append(k).append(' ')
                            .append(String.format(Locale.ROOT, "%.3f", v)));
                    stdout.println(p.isEmpty() ? "" : p + ")");
                    if (firstBlockMs != null) {
                        stdout.printf("first block to the GPU: %.3f ms after the labelling started%n", firstBlockMs);
                    }
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

    /** Whether --out {@code path} is written as text, by its extension. */
    private static boolean isText(Path path) {
        String name = String.valueOf(path.getFileName());
        return name.endsWith(".txt") || name.endsWith(".tsv");
    }

    /** Where the mapping of renumbered ids goes beside binary labels {@code out}: {@code out.ids.csv}. */
    static Path idsFile(Path out) {
        return Path.of(out + IDS_SUFFIX);
    }

    private static void writeLabels(OutputFile.Group outputs, Path path, Labels labels, GraphFile input)
            throws IOException {
        boolean text = isText(path);
        outputs.write(path, file -> {
            if (text) {
                LabelWriter.writeText(labels.segment(), labels.vertexCount(), input.vertexIds(), file);
            } else {
                LabelWriter.writeBinary(labels.segment(), labels.vertexCount(), file);
            }
        });
    }
}
