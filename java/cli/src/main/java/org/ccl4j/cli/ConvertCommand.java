package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.ccl4j.CsrGraph;
import org.ccl4j.io.GraphFile;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphFormatException;
import org.ccl4j.io.GraphWriter;
import org.ccl4j.io.Input;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j convert IN OUT}: reads a graph in any format that {@code label} reads and writes it
 * in any format of {@link GraphWriter}, by OUT's extension or {@code --to}; above all into
 * {@code .csr}, which {@code label} then maps without a copy and without testing it again.
 */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = {"Convert a graph file into another format: .csr (ccl4j's binary CSR, which label maps"
                + " without a copy), .egr, Matrix Market, SNAP, DIMACS or an edge list.",
                "The graph is written as ccl4j reads it: undirected, self loops and repeated edges dropped; a .csr"
                        + " file says so in its header, and label uses it without testing its lists again. Where"
                        + " the input's ids were numbered 0..n-1 in order of first appearance (SNAP without"
                        + " --keep-ids, edge lists of text or 64-bit ids), OUT holds those numbers and the file's"
                        + " ids go beside it, as OUT" + LabelCommand.IDS_SUFFIX + " (\"vertex,id\" lines), so that"
                        + " nothing is lost."},
        footerHeading = "%nExample:%n",
        footer = {"  ccl4j convert web-Google.txt.gz web-Google.csr",
                "  ccl4j label web-Google.csr"})
final class ConvertCommand implements Callable<Integer> {
    @Spec
    private CommandSpec command;

    @ParentCommand
    private Main main;

    @Parameters(index = "0", paramLabel = "IN", description = "The graph: .csr, .egr, Matrix Market, SNAP, DIMACS"
            + " or an edge list (spaces, tabs or commas; ids numbers or text), plain or gzip-compressed; - reads"
            + " standard input.")
    private Input in;

    @Parameters(index = "1", paramLabel = "OUT", description = "The file to write, replaced once complete: its"
            + " format by its extension (.csr, .egr, .mtx, .gr, .txt or .snap, .edges, .el, .tsv or .csv) unless"
            + " --to names it.")
    private Path out;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "auto",
            completionCandidates = Converters.GraphFormatNames.class,
            description = "IN's format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, by extension and"
                    + " content).")
    private GraphFormat format;

    @Option(names = "--to", paramLabel = "FORMAT", defaultValue = "auto",
            completionCandidates = Converters.GraphFormatNames.class,
            description = "OUT's format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, by OUT's extension).")
    private GraphFormat to;

    @Option(names = "--keep-ids", description = "Keep SNAP vertex ids as they are instead of renumbering them.")
    private boolean keepIds;

    @Mixin
    private GraphInput graphInput;

    @Mixin
    private Progress.Options progressOptions;

    @Option(names = "--json", description = "Print one JSON object instead of a line of text.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        GraphFormat target = to != GraphFormat.AUTO ? to : UsageException.whenInvalid(() -> GraphWriter.formatOf(out));
        OutputFile.check(out); // before a large graph is read
        long start = System.nanoTime();
        // shared: the writer tests a graph in shared memory in parallel
        try (Arena arena = Arena.ofShared(); OutputFile.Group outputs = new OutputFile.Group()) {
            GraphInput.Read read = graphInput.read(in, format, keepIds, arena, progressOptions, main);
            GraphFile input = read.file();
            CsrGraph graph = input.graph();
            if (input.format() == GraphFormat.CSR) {
                // The reader takes a .csr file's canonical flag at its word; the writers of edges take
                // each edge once, from one end, and would drop an arc whose reverse is missing.
                try {
                    graph.check();
                } catch (IllegalArgumentException e) {
                    throw new GraphFormatException(input.source(), -1, -1, "its canonical flag is set, but the "
                            + e.getMessage(), e);
                }
            }
            long writing = System.nanoTime();
            try (Progress progress = progressOptions.startQuietWhenShort(main, "write " + out.getFileName(),
                    graph.arcCount())) {
                progress.show("writing " + out.getFileName());
                outputs.write(out, file -> GraphWriter.write(graph, file, target,
                        arcs -> progress.reach(arcs, "writing " + out.getFileName())));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage()); // a graph that the format cannot hold
            }
            Path idsFile = input.isRenumbered() ? LabelCommand.idsFile(out) : null;
            if (idsFile != null) {
                outputs.write(idsFile, input.vertexIds()::writeCsv);
            }
            outputs.commit();
            double writeMs = (System.nanoTime() - writing) / 1e6;
            double ms = (System.nanoTime() - start) / 1e6;
            report(input, read, target, idsFile, writeMs, ms);
        }
        return Main.OK;
    }

    private void report(GraphFile input, GraphInput.Read read, GraphFormat target, Path idsFile, double writeMs,
                        double ms) throws IOException {
        CsrGraph graph = input.graph();
        long bytes = Files.size(out);
        PrintWriter stdout = command.commandLine().getOut();
        if (json) {
            ObjectNode result = Json.object().put("input", in.toString())
                    .put("inputFormat", input.format().formatName()).put("output", out.toString())
                    .put("format", target.formatName()).put("vertices", graph.vertexCount())
                    .put("arcs", graph.arcCount()).put("bytes", bytes).put("idsRenumbered", input.isRenumbered());
            if (idsFile != null) {
                result.put("idsFile", idsFile.toString());
            }
            result.set("readMs", Json.number(read.ms()));
            result.set("writeMs", Json.number(writeMs));
            result.set("ms", Json.number(ms));
            stdout.println(Json.write(result));
            return;
        }
        stdout.printf(Locale.ROOT, "%s (%s) -> %s (%s): %d vertices, %d arcs, %d bytes in %s (read %s, write %s)%n",
                in, input.format().formatName(), out, target.formatName(), graph.vertexCount(), graph.arcCount(),
                bytes, GraphInput.time(ms), read.time(), GraphInput.time(writeMs));
        if (idsFile != null) {
            stdout.printf("ids: the file's %s ids, numbered in order of first appearance; mapping: %s%n",
                    input.vertexIds().isNumeric() ? "numeric" : "text", idsFile);
        }
    }
}
