package org.ccl4j.jgrapht;

import java.util.Random;
import java.util.function.Supplier;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.ccl4j.testing.Graphs;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultDirectedGraph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.DirectedPseudograph;
import org.jgrapht.graph.Multigraph;
import org.jgrapht.graph.Pseudograph;
import org.jgrapht.graph.SimpleGraph;

/**
 * JGraphT graphs of every kind over the core's test edge lists (paths, stars, cliques, grids,
 * duplicates and self loops, isolated vertices, empty graphs), with vertices that are no integers
 * and are added in a random order, so that {@code vertexSet()} order is not the lists' numbering.
 */
final class TestGraphs {
    private TestGraphs() {
    }

    /** The graph classes, from simple to directed pseudographs; those without loops drop them. */
    enum Kind {
        SIMPLE(() -> new SimpleGraph<>(DefaultEdge.class)),
        MULTIGRAPH(() -> new Multigraph<>(DefaultEdge.class)),
        PSEUDOGRAPH(() -> new Pseudograph<>(DefaultEdge.class)),
        DIRECTED(() -> new DefaultDirectedGraph<>(DefaultEdge.class)),
        DIRECTED_PSEUDOGRAPH(() -> new DirectedPseudograph<>(DefaultEdge.class));

        private final Supplier<Graph<Object, DefaultEdge>> create;

        Kind(Supplier<Graph<Object, DefaultEdge>> create) {
            this.create = create;
        }
    }

    /**
     * Vertex objects: strings; sites, whose hash codes collide in fours, so lookups need equals;
     * the integers 0..n-1 (numbered through an array); integers spread over negative and positive
     * values (numbered through a map).
     */
    enum Vertices {
        STRINGS, SITES, INTEGERS, SPREAD_INTEGERS;

        Object make(int id, int n) {
            return switch (this) {
                case STRINGS -> "v" + id;
                case SITES -> new Site(id, "s" + id);
                case INTEGERS -> id;
                case SPREAD_INTEGERS -> 3 * id - n;
            };
        }
    }

    /** A vertex with value-based equality (a record's) and hash codes shared by four ids. */
    record Site(int id, String tag) {
        @Override
        public int hashCode() {
            return id >> 2;
        }
    }

    /**
     * A vertex equal to {@code v} but another object (integers of -128..127 excepted, which
     * {@code Integer.valueOf} shares): queries must find vertices by equals.
     */
    static Object copyOf(Object v) {
        return switch (v) {
            case Site s -> new Site(s.id(), new String(s.tag()));
            case String s -> new String(s);
            case Integer i -> Integer.valueOf(i.intValue());
            default -> throw new IllegalArgumentException("not a test vertex: " + v);
        };
    }

    /** One generated graph: the edge list, the graph class, the vertex objects, the insertion order's seed. */
    record Case(Graphs.EdgeList edges, Kind kind, Vertices vertices, long seed) {
        Graph<Object, DefaultEdge> build() {
            Graph<Object, DefaultEdge> g = kind.create.get();
            int n = edges.vertexCount();
            Object[] v = new Object[n];
            for (int i = 0; i < n; i++) {
                v[i] = vertices.make(i, n);
            }
            for (int i : permutation(n, new Random(seed))) {
                g.addVertex(v[i]);
            }
            boolean loops = g.getType().isAllowingSelfLoops();
            int[] s = edges.sources();
            int[] t = edges.targets();
            for (int i = 0; i < s.length; i++) {
                if (s[i] != t[i] || loops) {
                    g.addEdge(v[s[i]], v[t[i]]);  // a repeat in a graph without multiple edges adds nothing
                }
            }
            return g;
        }

        @Override
        public String toString() {
            return kind + " of " + vertices + " over " + edges + ", insertion order seed " + seed;
        }
    }

    /** Graphs of up to 2,000 vertices, most of them small (up to 40). */
    static Arbitrary<Case> cases() {
        Arbitrary<Integer> sizes = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.integers().between(0, 40)),
                Tuple.of(3, Arbitraries.integers().between(41, 2_000)));
        Arbitrary<Graphs.EdgeList> edges = Combinators.combine(Arbitraries.integers().between(0, 11), sizes,
                Arbitraries.longs()).as(Graphs::make);
        return Combinators.combine(edges, Arbitraries.of(Kind.class), Arbitraries.of(Vertices.class),
                Arbitraries.longs()).as(Case::new);
    }

    private static int[] permutation(int n, Random r) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int x = p[i];
            p[i] = p[j];
            p[j] = x;
        }
        return p;
    }
}
