package org.ccl4j.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.ccl4j.CsrGraph;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphGenerator;
import org.ccl4j.io.GraphWriter;
import org.ccl4j.io.internal.suite.BenchSuite;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j generate-graph KIND FILE PARAM...}: one graph of {@link GraphGenerator}, written as
 * {@code .egr} or, with {@code --format}, in another format; the arguments of the suite's reference
 * generator, so that scripts (those of the GPU machine, for the native benchmarks) make the suite's
 * files with the CLI's jar alone. KIND may also name a graph of {@link BenchSuite} (no PARAM then),
 * so that a script comparing with another program (scripts/bench-gapbs.sh, GAPBS's {@code .el})
 * writes the very graphs that {@code bench} labels.
 */
@Command(name = "generate-graph", mixinStandardHelpOptions = true,
        description = "Generate a graph of the benchmark suite's kinds, or a graph of ccl4j bench's suites by name,"
                + " and write it as .egr (ECL's binary CSR) or in the format given by --format.",
        footerHeading = "%nKinds and their parameters:%n",
        footer = {
                "  grid2d SIDE               SIDE x SIDE lattice, 4 neighbours",
                "  bond2d SIDE P             grid2d keeping each bond with probability P",
                "  grid3d SIDE               SIDE^3 lattice, 6 neighbours",
                "  uniform SCALE DEGREE      2^SCALE vertices, DEGREE random partners each",
                "  rmat SCALE EDGEFACTOR     R-MAT (a=0.57, b=c=0.19), 2^SCALE*EDGEFACTOR edges",
                "  ws SCALE K P              Watts-Strogatz ring of degree K, rewired with P",
                "  powerlaw SCALE AVGDEGREE  2^SCALE*AVGDEGREE/2 edges, weights (i+1)^(-2/3)",
                "  line SCALE                the path 0-1-...-(2^SCALE-1)",
                "  shuffledline SCALE        the path in a random vertex order",
                "  disjoint N M COMPONENTS   N vertices, COMPONENTS groups, M edges in groups",
                "",
                "The graphs are the suite reference generator's, byte for byte (seed 42):",
                "  ccl4j generate-graph rmat rmat22.egr 22 8",
                "writes the suite's rmat22. ccl4j bench makes its graphs so too.",
                "A graph of bench's quick or full suite is named without PARAM:",
                "  ccl4j generate-graph rmat18 rmat18.el --format el",
                "",
                "Formats: egr (ECL's binary CSR); el (GAPBS's edge list: 'u v' per edge, 0-based,",
                "no comment line); edges (the same with a '#' first line); snap (tab-separated,",
                "'#' first line); mtx (Matrix Market, symmetric, 1-based); dimacs (.gr, 1-based).",
                "Text formats list each edge once; in the edge lists an isolated last vertex n-1",
                "is the self loop 'n-1 n-1', so that readers count n vertices."})
final class GenerateGraphCommand implements Callable<Integer> {
    @Spec
    private CommandSpec command;

    /** The formats the command writes: {@link GraphWriter}'s, and GAPBS's {@code .el}. */
    enum Format {
        EGR, EL, MTX, SNAP, DIMACS, EDGES
    }

    @Parameters(index = "0", paramLabel = "KIND", completionCandidates = Converters.GraphKindNames.class,
            description = "The kind of graph: ${COMPLETION-CANDIDATES}; or the name of a graph of ccl4j bench's"
                    + " suites (rmat18, grid2d_4096, ...), which takes no PARAM.")
    private String kindOrGraph;

    @Parameters(index = "1", paramLabel = "FILE", description = "The file to write (replaced if it exists).")
    private Path file;

    @Parameters(index = "2..*", paramLabel = "PARAM", arity = "0..*",
            description = "The kind's parameters, in order (see below).")
    private List<String> givenParams = List.of();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "egr",
            completionCandidates = Converters.GraphOutputFormatNames.class,
            description = "The file's format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}; see below).")
    private Format format;

    @Option(names = "--json", description = "Print one JSON object instead of a line of text.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        List<String> generator = generatorArguments();
        String kind = generator.get(0);
        List<String> params = generator.subList(1, generator.size());
        long heap = UsageException.whenInvalid(() -> GraphGenerator.heapBytes(kind, params));
        HeapLimit.require(heap, "generate-graph " + kind + " " + String.join(" ", params));
        OutputFile.check(file);
        long start = System.nanoTime();
        GraphGenerator.Csr graph = GraphGenerator.generate(kind, params);
        OutputFile.write(file, target -> write(graph, format, target));
        double ms = (System.nanoTime() - start) / 1e6;
        PrintWriter out = command.commandLine().getOut();
        if (json) {
            ObjectNode o = Json.object().put("file", file.toString()).put("format", CliNames.of(format))
                    .put("kind", kind);
            params.forEach(o.putArray("params")::add);
            o.put("vertices", graph.vertexCount()).put("arcs", graph.arcCount());
            o.set("ms", Json.number(ms));
            out.println(Json.write(o));
        } else {
            out.printf(Locale.ROOT, "%s: %d vertices, %d arcs, %.0f ms%n", file, graph.vertexCount(), graph.arcCount(),
                    ms);
        }
        return Main.OK;
    }

    /** KIND and its PARAMs, or the generator's arguments of the suite graph that KIND names. */
    private List<String> generatorArguments() {
        Optional<BenchSuite.Graph> suiteGraph = BenchSuite.graph(kindOrGraph);
        if (suiteGraph.isEmpty()) {
            List<String> arguments = new ArrayList<>(List.of(kindOrGraph));
            arguments.addAll(givenParams);
            return arguments;
        }
        if (!givenParams.isEmpty()) {
            throw new UsageException(kindOrGraph + " is a graph of the bench suites and takes no PARAM, got "
                    + givenParams);
        }
        return suiteGraph.get().generator();
    }

    private static void write(GraphGenerator.Csr graph, Format format, Path file) throws IOException {
        if (format == Format.EGR) {
            graph.writeEgr(file);
            return;
        }
        try (Arena arena = Arena.ofConfined(); OutputStream out = Files.newOutputStream(file)) {
            CsrGraph csr = graph.toCsrGraph(arena);
            if (format == Format.EL) {
                GraphWriter.write(csr, GraphFormat.EDGES, new WithoutFirstLine(out));
            } else { // the other names are GraphWriter's
                GraphWriter.write(csr, GraphFormat.fromName(CliNames.of(format)), out);
            }
        }
    }

    /**
     * Passes on all but the first line: GraphWriter's edge list without the {@code #} comment it
     * starts with, which GAPBS's {@code .el} reader would take for the end of the edges.
     */
    private static final class WithoutFirstLine extends FilterOutputStream {
        private boolean inFirstLine = true;

        WithoutFirstLine(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            if (inFirstLine) {
                inFirstLine = b != '\n';
            } else {
                out.write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            int from = offset;
            int end = offset + length;
            while (inFirstLine && from < end) {
                inFirstLine = bytes[from++] != '\n';
            }
            out.write(bytes, from, end - from);
        }
    }
}
