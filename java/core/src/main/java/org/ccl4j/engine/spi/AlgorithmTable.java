package org.ccl4j.engine.spi;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The one table of labelling algorithms: the native library's registry ({@code ccl4j_get_algorithm_info})
 * and the JVM's own entries. The engines check requests against it; which algorithm AUTO picks is
 * each engine's own rule (the native registry's for the native library).
 */
public record AlgorithmTable(List<AlgorithmInfo> entries) {
    public AlgorithmTable {
        entries = List.copyOf(entries);
    }

    public Optional<AlgorithmInfo> find(AlgorithmInfo.Kind kind, String name) {
        return entries.stream().filter(e -> e.kind() == kind && e.name().equals(name)).findFirst();
    }

    /**
     * The entry of {@code name}, checked to run on {@code backend}.
     *
     * @throws UnsupportedOperationException naming the backends it runs on
     */
    public AlgorithmInfo require(AlgorithmInfo.Kind kind, String name, String backend) {
        AlgorithmInfo a = find(kind, name).orElseThrow(() -> new UnsupportedOperationException("the "
                + kind(kind) + " algorithm " + name + " is not available here (the native library is not loaded)"));
        if (!a.backends().contains(backend)) {
            throw new UnsupportedOperationException("the " + kind(kind) + " algorithm " + name + " runs on "
                    + new TreeSet<>(a.backends()) + ", not on " + backend);
        }
        return a;
    }

    /**
     * Checks that mesh algorithm {@code name} writes int64 labels on {@code backend}.
     *
     * @param why why the labels are int64, for the message
     * @throws UnsupportedOperationException naming the algorithms that do
     */
    public void requireWide(String name, String backend, String why) {
        AlgorithmInfo a = require(AlgorithmInfo.Kind.MESH, name, backend);
        if (!a.wideBackends().contains(backend)) {
            String writers = entries.stream().filter(e -> e.wideBackends().contains(backend))
                    .map(AlgorithmInfo::name).collect(Collectors.joining(", ", "[", "]"));
            throw new UnsupportedOperationException("int64 labels (" + why + ") are written on " + backend + " by "
                    + writers + " (which AUTO picks), not by " + name);
        }
    }

    /**
     * Whether an edge list is labelled by the JVM's union-find ({@code UNION_FIND}) rather than the
     * engine's own (AUTO); the other algorithms label CSR graphs only.
     *
     * @throws IllegalArgumentException for an algorithm of CSR graphs
     */
    public boolean runsEdgesOnJvm(String algorithm) {
        if (algorithm.equals("AUTO")) {
            return false;
        }
        if (find(AlgorithmInfo.Kind.GRAPH, algorithm).map(AlgorithmInfo::jvm).orElse(false)) {
            return true;
        }
        throw new IllegalArgumentException(algorithm + " labels CSR graphs; an edge list is labelled by a union-find"
                + " over its edges: pass AUTO (this backend's) or UNION_FIND (the Java one), or build the graph with"
                + " CsrGraph.fromEdges(arena, edges) to label it with " + algorithm);
    }

    private static String kind(AlgorithmInfo.Kind kind) {
        return kind == AlgorithmInfo.Kind.MESH ? "mesh" : "graph";
    }
}
