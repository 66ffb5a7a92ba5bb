package org.ccl4j.testing;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;

/**
 * An edge list as a user may hand it in: the edges of a graph of {@link Graphs}, shuffled, a third
 * reversed, some repeated, self loops and isolated vertices added.
 */
public record Edges(String shape, int vertexCount, int[] sources, int[] targets) {
    public int[] pairs() {
        int[] pairs = new int[2 * sources.length];
        for (int i = 0; i < sources.length; i++) {
            pairs[2 * i] = sources[i];
            pairs[2 * i + 1] = targets[i];
        }
        return pairs;
    }

    /** The graph as {@link GraphBuilder} builds it: the oracle's input and the CSR build's reference. */
    public CsrGraph builderGraph(Arena arena) {
        try (GraphBuilder builder = new GraphBuilder().vertexCount(vertexCount)) {
            for (int i = 0; i < sources.length; i++) {
                builder.addEdge(sources[i], targets[i]);
            }
            return builder.build(arena);
        }
    }

    @Override
    public String toString() {
        return shape + "(n=" + vertexCount + ", edges=" + sources.length + ")";
    }

    /** Edge lists of every shape of {@link Graphs}, made messy. */
    public static Arbitrary<Edges> any() {
        return Combinators.combine(Graphs.any(), Arbitraries.longs()).as(Edges::messy);
    }

    /** The edges of {@code g} shuffled, a third reversed, some repeated, self loops and isolated vertices added. */
        static Edges messy(Graphs.EdgeList g, long seed) {
            Random r = new Random(seed);
            int n = g.vertexCount() + r.nextInt(4);
            List<int[]> edges = new ArrayList<>();
            for (int i = 0; i < g.sources().length; i++) {
                int u = g.sources()[i];
                int v = g.targets()[i];
                edges.add(r.nextInt(3) == 0 ? new int[] {v, u} : new int[] {u, v});
                if (r.nextInt(8) == 0) {
                    edges.add(new int[] {v, u});
                }
            }
            for (int k = r.nextInt(5); k > 0 && n > 0; k--) {
                int v = r.nextInt(n);
                edges.add(new int[] {v, v});
            }
            java.util.Collections.shuffle(edges, r);
            return new Edges(g.shape(), n, edges.stream().mapToInt(e -> e[0]).toArray(),
                    edges.stream().mapToInt(e -> e[1]).toArray());
        }
}
