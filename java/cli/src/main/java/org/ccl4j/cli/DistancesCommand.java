package org.ccl4j.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.ccl4j.Backend;
import org.ccl4j.ComponentDistances;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.DistanceAlgorithm;
import org.ccl4j.DistanceMatrix;
import org.ccl4j.Distances;
import org.ccl4j.io.GraphFile;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.Input;
import org.ccl4j.io.VertexIds;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j distances FILE [...]}: the mean shortest-path length and the diameter of every
 * component of a graph (a search from every vertex: O(n (n + m))), and optionally its distance
 * matrix as CSV.
 */
@Command(name = "distances", mixinStandardHelpOptions = true,
        description = {"Shortest-path distances within the components of a graph (unweighted): per component its"
                + " vertices, the sum of d(u, v) over ordered pairs of distinct vertices, their mean and the"
                + " diameter, in the order of the components' smallest vertex ids.",
                "Costs a breadth-first search from every vertex, O(n (n + m)): meant for graphs of up to some"
                        + " hundred thousand vertices."})
final class DistancesCommand implements Callable<Integer> {
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

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.BackendNames.class,
            description = "Where to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE} = cuda if a GPU is"
                    + " present, else cpu).")
    private Backend backend;

    @Option(names = "--device", paramLabel = "N", description = "CUDA device index (default: ${DEFAULT-VALUE}).")
    private int device;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "auto",
            description = "auto, bfs (a search from every vertex) or floyd-warshall (O(n^3), CPU and Java backends,"
                    + " at most " + DistanceMatrix.MAX_VERTICES + " vertices) (default: ${DEFAULT-VALUE}).")
    private String algorithm;

    @Option(names = "--keep-ids", description = "Keep SNAP vertex ids as they are instead of renumbering them.")
    private boolean keepIds;

    @Mixin
    private GraphInput graphInput;

    @Option(names = "--matrix", paramLabel = "OUT.csv", description = "Write the distance matrix as CSV: row u holds"
            + " d(u, v) for v = 0 .. n-1, -1 where unreachable (at most " + DistanceMatrix.MAX_VERTICES
            + " vertices).")
    private Path matrix;

    @Mixin
    private Progress.Options progressOptions;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    private boolean json;

    private static DistanceAlgorithm algorithmOf(String name) {
        return switch (name) {
            case "auto" -> DistanceAlgorithm.AUTO;
            case "bfs" -> DistanceAlgorithm.BFS;
            case "floyd-warshall" -> DistanceAlgorithm.FLOYD_WARSHALL;
            default -> throw new UsageException("unknown distances algorithm '" + name
                    + "'; expected one of auto, bfs, floyd-warshall");
        };
    }

    @Override
    public Integer call() throws IOException {
        if (device < 0) {
            throw new UsageException("--device must not be negative");
        }
        DistanceAlgorithm a = algorithmOf(algorithm);
        if (matrix != null) {
            OutputFile.check(matrix); // before the graph is read and searched
        }
        PrintWriter stdout = command.commandLine().getOut();
        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(backend, device)) {
            GraphInput.Read read = graphInput.read(file, format, keepIds, arena, progressOptions, main);
            GraphFile input = read.file();
            CsrGraph graph = input.graph();
            if (matrix != null && graph.vertexCount() > DistanceMatrix.MAX_VERTICES) {
                throw new UsageException("--matrix takes graphs of at most " + DistanceMatrix.MAX_VERTICES
                        + " vertices; " + file + " has " + graph.vertexCount());
            }
            Distances d = labeler.distances(graph, a);
            if (matrix != null) {
                DistanceMatrix m = labeler.distanceMatrix(graph, a);
                OutputFile.write(matrix, path -> writeCsv(m, path));
            }
            // a component is named by its smallest vertex: by that vertex's id in the file when they were renumbered
            VertexIds ids = input.vertexIds();
            if (json) {
                ObjectNode result = Json.object().put("vertices", graph.vertexCount()).put("arcs", graph.arcCount())
                        .put("components", d.count()).put("backend", CliNames.of(d.backend()))
                        .put("algorithm", CliNames.of(d.algorithm()));
                result.set("readMs", Json.number(read.ms()));
                ObjectNode timings = result.putObject("timingsMs");
                timings.set("total", Json.number(d.totalMs()));
                d.phasesMs().forEach((phase, ms) -> timings.set(phase, Json.number(ms)));
                ArrayNode rows = result.putArray("rows");
                for (ComponentDistances c : d.components()) {
                    ObjectNode row = rows.addObject().put("label", c.label());
                    if (ids != null && ids.isNumeric()) {
                        row.put("fileId", ids.numericId(c.label()));
                    } else if (ids != null) {
                        row.put("fileId", ids.id(c.label()));
                    }
                    // the mean in full (shortest round-trip digits): it is exact arithmetic on exact sums
                    row.put("vertices", c.vertices()).put("pathSum", c.pathSum())
                            .put("meanPathLength", c.meanPathLength()).put("diameter", c.diameter());
                }
                stdout.println(Json.write(result));
            } else {
                stdout.printf("%s: %d vertices, %d arcs (%s), read in %s%n", file, graph.vertexCount(),
                        graph.arcCount(), input.format(), read.time());
                stdout.printf("components: %d; backend: %s, algorithm: %s, %.3f ms%n", d.count(),
                        CliNames.of(d.backend()), CliNames.of(d.algorithm()), d.totalMs());
                stdout.printf("%10s %10s %20s %14s %8s%n", ids != null ? "file id" : "label", "vertices", "path sum",
                        "mean path", "diameter");
                for (ComponentDistances c : d.components()) {
                    String label = ids != null ? ids.id(c.label()) : Integer.toString(c.label());
                    stdout.printf(Locale.ROOT, "%10s %10d %20d %14.6f %8d%n", label, c.vertices(), c.pathSum(),
                            c.meanPathLength(), c.diameter());
                }
                if (matrix != null) {
                    stdout.printf("matrix: %s (%d x %d)%n", matrix, graph.vertexCount(), graph.vertexCount());
                }
            }
        }
        return Main.OK;
    }

    private static void writeCsv(DistanceMatrix m, Path path) throws IOException {
        int n = m.vertexCount();
        try (BufferedWriter out = Files.newBufferedWriter(path)) {
            StringBuilder line = new StringBuilder();
            for (int u = 0; u < n; u++) {
                line.setLength(0);
                int[] row = m.row(u);
                for (int v = 0; v < n; v++) {
                    if (v > 0) {
                        line.append(',');
                    }
                    line.append(row[v]);
                }
                out.write(line.append('\n').toString());
            }
        }
    }
}
