package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.DistanceOracle;
import org.ccl4j.testing.Graphs;

/**
 * Distances within components agree with the oracle ({@link DistanceOracle}: a plain search from
 * every vertex, components from the union-find oracle) on every backend (JAVA, CPU_SERIAL,
 * CPU_PARALLEL, and CUDA when a device is present, else skipped with a notice), for BFS and, off
 * CUDA, Floyd-Warshall: the rows exactly (the means bit for bit) and the matrix. Graphs: the
 * shapes of {@link Graphs} up to 300 vertices, as canonical CSR (int32 and int64 offsets) and as
 * given (duplicates, self loops and unsorted lists kept).
 */
class DistancesProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the GPU distances are skipped in DistancesProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Graphs.EdgeList> graphs() {
        Arbitrary<Integer> sizes = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(0, 30)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(31, 300)));
        return Combinators.combine(Arbitraries.integers().between(0, 11), sizes, Arbitraries.longs())
                .as(Graphs::make);
    }

    /** The edges as given: each edge as two arcs (a self loop as one), duplicates kept, lists unsorted. */
    static CsrGraph asGiven(Graphs.EdgeList e, Arena arena) {
        int n = e.vertexCount();
        int[] degree = new int[n + 1];
        for (int i = 0; i < e.sources().length; i++) {
            degree[e.sources()[i] + 1]++;
            if (e.sources()[i] != e.targets()[i]) {
                degree[e.targets()[i] + 1]++;
            }
        }
        for (int v = 0; v < n; v++) {
            degree[v + 1] += degree[v];
        }
        int[] fill = degree.clone();
        int[] neighbors = new int[degree[n]];
        for (int i = 0; i < e.sources().length; i++) {
            int u = e.sources()[i];
            int v = e.targets()[i];
            neighbors[fill[u]++] = v;
            if (u != v) {
                neighbors[fill[v]++] = u;
            }
        }
        return CsrGraph.fromArrays(arena, degree, neighbors);
    }

    @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
    void everyBackendMatchesTheOracle(@ForAll("graphs") Graphs.EdgeList edges) {
        try (Arena arena = Arena.ofConfined()) {
            List<CsrGraph> forms = new ArrayList<>();
            CsrGraph canonical = edges.toCsr(arena);
            forms.add(canonical);
            forms.add(Graphs.withWideOffsets(canonical, arena));
            forms.add(asGiven(edges, arena));
            for (CsrGraph g : forms) {
                List<ComponentDistances> expected = DistanceOracle.rows(g);
                int[] matrix = DistanceOracle.matrix(g);
                for (Map.Entry<Backend, ComponentLabeler> e : labelers.entrySet()) {
                    List<DistanceAlgorithm> algorithms = e.getKey() == Backend.CUDA ? List.of(DistanceAlgorithm.BFS)
                            : List.of(DistanceAlgorithm.BFS, DistanceAlgorithm.FLOYD_WARSHALL);
                    for (DistanceAlgorithm a : algorithms) {
                        String what = edges + " on " + e.getKey() + " with " + a;
                        Distances d = e.getValue().distances(g, a);
                        assertEquals(expected, d.components(), what);
                        assertEquals(e.getKey(), d.backend(), what);
                        assertEquals(a, d.algorithm(), what);
                        assertArrayEquals(matrix, e.getValue().distanceMatrix(g, a).toArray(), what + ": matrix");
                    }
                }
            }
        }
    }
}
