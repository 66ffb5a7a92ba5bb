package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.ccl4j.io.GraphGenerator;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j generate-graph KIND FILE PARAM...}: one graph of {@link GraphGenerator}, written as
 * {@code .egr}; the arguments of the suite's reference generator, so that scripts (those of the
 * GPU machine, for the native benchmarks) make the suite's files with the CLI's jar alone.
 */
@Command(name = "generate-graph", mixinStandardHelpOptions = true,
        description = "Generate a graph of the benchmark suite's kinds and write it as .egr (ECL's binary CSR).",
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
                "writes rmat22 of shared/BENCHMARKS.md. ccl4j bench makes its graphs so too."})
final class GenerateGraphCommand implements Callable<Integer> {
    @Spec
    private CommandSpec command;

    @Parameters(index = "0", paramLabel = "KIND", completionCandidates = Converters.GraphKindNames.class,
            description = "The kind of graph: ${COMPLETION-CANDIDATES}.")
    private String kind;

    @Parameters(index = "1", paramLabel = "FILE", description = "The .egr file to write (replaced if it exists).")
    private Path file;

    @Parameters(index = "2..*", paramLabel = "PARAM", arity = "0..*",
            description = "The kind's parameters, in order (see below).")
    private List<String> params = List.of();

    @Option(names = "--json", description = "Print one JSON object instead of a line of text.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        long heap = UsageException.whenInvalid(() -> GraphGenerator.heapBytes(kind, params));
        HeapLimit.require(heap, "generate-graph " + kind + " " + String.join(" ", params));
        OutputFile.check(file);
        long start = System.nanoTime();
        GraphGenerator.Csr graph = GraphGenerator.generate(kind, params);
        OutputFile.write(file, graph::writeEgr);
        double ms = (System.nanoTime() - start) / 1e6;
        PrintWriter out = command.commandLine().getOut();
        if (json) {
            ObjectNode o = Json.object().put("file", file.toString()).put("kind", kind);
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
}
