package org.ccl4j.io.internal.suite;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.ccl4j.io.GraphGenerator;

/**
 * The benchmark suites' graphs, made by {@link GraphGenerator}: {@code ccl4j bench} and
 * {@code ccl4j generate-graph NAME} (ccl4j-cli) and the JMH benchmarks (ccl4j-bench) label the
 * same graphs, and each caches them as {@code .egr} files named after the graph
 * ({@code rmat22.egr}) in its own way. The full suite is the one of BENCHMARKS.md's tables, with the
 * component counts its reference generator gives; the quick suite has the same kinds of graph at sizes a 2-core machine
 * handles in seconds, with the component counts of the generated graphs.
 *
 * <p>Public for those two modules, in a package that the module does not export: they use it
 * from the class path. A package of its own, not {@code org.ccl4j.io.internal}, which
 * {@code org.ccl4j.io} depends on: this table depends on {@code org.ccl4j.io}, and the packages
 * have no cycles.
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
            return GraphGenerator.generate(kind(), params());
        }

        /** The Java heap that {@link #generate()} needs at its peak ({@link GraphGenerator#heapBytes}). */
        public long heapBytes() {
            return GraphGenerator.heapBytes(kind(), params());
        }

        private String kind() {
            return generator.get(0);
        }

        private List<String> params() {
            return generator.subList(1, generator.size());
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

    /** The full suite: eleven graphs of 2^21 to 2^24 vertices. */
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

    private static final List<Graph> BOTH = Stream.concat(QUICK.stream(), FULL.stream()).toList();

    private BenchSuite() {
    }

    /** The graph of either suite named {@code name} (the names are unique across both), if any. */
    public static Optional<Graph> graph(String name) {
        return BOTH.stream().filter(g -> g.name().equals(name)).findFirst();
    }

    /** The names of both suites' graphs, the quick suite's first: those that {@link #graph} finds. */
    public static List<String> names() {
        return BOTH.stream().map(Graph::name).toList();
    }
}
