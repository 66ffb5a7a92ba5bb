package org.ccl4j.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.ccl4j.io.GraphGenerator;

/**
 * The benchmark graphs: made by {@link GraphGenerator} in this JVM and cached as {@code .egr}
 * files named after the graph ({@code rmat22.egr}). The full suite is the one of
 * {@code shared/BENCHMARKS.md}, with its component counts; the quick suite has the same kinds of
 * graph at sizes a 2-core machine handles in seconds, with the component counts of the generated
 * graphs. Public (in a package the module does not export) for the JMH benchmarks, which use the
 * same graphs.
 */
public final class BenchSuite {
    /**
     * A suite graph.
     *
     * @param name       the name used in tables and for the cached file (as in BENCHMARKS.md)
     * @param generator  {@link GraphGenerator}'s arguments: the kind, then its parameters
     * @param components the graph's number of connected components, which bench checks
     */
    public record Graph(String name, List<String> generator, long components) {
        /** The name of the cached file: {@code NAME.egr}. */
        public String fileName() {
            return name + ".egr";
        }

        /** Generates the graph in memory. */
        public GraphGenerator.Csr generate() {
            return GraphGenerator.generate(generator.get(0), generator.subList(1, generator.size()));
        }
    }

    /** The quick suite: every kind of graph at a size a 2-core machine labels in seconds. */
    public static final List<Graph> QUICK = List.of(
            new Graph("grid2d_1024", List.of("grid2d", "1024"), 1),
            new Graph("bond2d_1024_p05", List.of("bond2d", "1024", "0.5"), 103_665),
            new Graph("grid3d_64", List.of("grid3d", "64"), 1),
            new Graph("r4_2e18", List.of("uniform", "18", "4"), 1),
            new Graph("rmat18", List.of("rmat", "18", "8"), 113_245),
            new Graph("ws_2e18", List.of("ws", "18", "10", "0.1"), 1),
            new Graph("powerlaw_2e18", List.of("powerlaw", "18", "16"), 215),
            new Graph("line_2e20", List.of("line", "20"), 1),
            new Graph("shuffledline_2e20", List.of("shuffledline", "20"), 1),
            new Graph("disjoint_300k", List.of("disjoint", "300000", "1800000", "100"), 103));

    /** The full suite of {@code shared/BENCHMARKS.md}. */
    public static final List<Graph> FULL = List.of(
            new Graph("grid2d_4096", List.of("grid2d", "4096"), 1),
            new Graph("bond2d_4096_p05", List.of("bond2d", "4096", "0.5"), 1_650_445),
            new Graph("grid3d_256", List.of("grid3d", "256"), 1),
            new Graph("r4_2e23", List.of("uniform", "23", "4"), 1),
            new Graph("rmat22", List.of("rmat", "22", "8"), 2_187_144),
            new Graph("kron21", List.of("rmat", "21", "44"), 586_040),
            new Graph("ws_2e23", List.of("ws", "23", "10", "0.1"), 1),
            new Graph("powerlaw_2e22", List.of("powerlaw", "22", "16"), 3_870),
            new Graph("line_2e24", List.of("line", "24"), 1),
            new Graph("shuffledline_2e24", List.of("shuffledline", "24"), 1),
            new Graph("disjoint_5m", List.of("disjoint", "5000000", "30000000", "100"), 130));

    /**
     * The suite named {@code quick} or {@code full}.
     *
     * @throws UsageException for another name
     */
    public static List<Graph> named(String suite) {
        return switch (suite) {
            case "quick" -> QUICK;
            case "full" -> FULL;
            default -> throw new UsageException("unknown suite '" + suite + "'; expected quick or full");
        };
    }

    /** The graph of either suite named {@code name} (the names are unique across both), if any. */
    static Optional<Graph> graph(String name) {
        return Stream.concat(QUICK.stream(), FULL.stream()).filter(g -> g.name().equals(name)).findFirst();
    }

    private BenchSuite() {
    }

    /**
     * Returns the cached file of {@code g} in {@code dir}, generating it first if needed: refused
     * before it starts when the graph does not fit in the heap. The file is written whole or not
     * at all ({@link OutputFile}); several processes may write the same suite graph at once, and as
     * they write the same bytes, the last move wins harmlessly.
     */
    public static Path file(Graph g, Path dir) throws IOException {
        Path file = dir.resolve(g.fileName());
        if (!Files.exists(file)) {
            HeapLimit.require(GraphGenerator.heapBytes(g.generator().get(0), g.generator().subList(1,
                    g.generator().size())), "the bench graph " + g.name());
            OutputFile.createParents(file);
            OutputFile.write(file, g.generate()::writeEgr);
        }
        return file;
    }
}
