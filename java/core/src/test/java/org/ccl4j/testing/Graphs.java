package org.ccl4j.testing;

import org.ccl4j.CsrGraph;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Edge lists of the shapes that break labelling algorithms: long ordered and shuffled paths,
 * stars and hubs (every ECL-CC degree tier), isolated vertices, many tiny components, one giant
 * component, cliques, duplicates and self loops, permuted ids, empty graphs.
 */
public final class Graphs {
    private Graphs() {
    }

    /** An undirected multigraph as given, before clean-up. */
    public record EdgeList(String shape, int vertexCount, int[] sources, int[] targets) {
        @Override
        public String toString() {
            return shape + "(n=" + vertexCount + ", edges=" + sources.length + ")";
        }

        public CsrGraph toCsr(Arena arena) {
            return CsrGraph.fromEdges(arena, vertexCount, sources, targets);
        }
    }

    public static Arbitrary<EdgeList> any() {
        Arbitrary<Long> seeds = Arbitraries.longs();
        Arbitrary<Integer> shapes = Arbitraries.integers().between(0, 11);
        Arbitrary<Integer> sizes = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Arbitraries.integers().between(0, 40)),
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(41, 2_000)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(2_001, 40_000)));
        return Combinators.combine(shapes, sizes, seeds).as(Graphs::make);
    }

    public static EdgeList make(int shape, int n, long seed) {
        Random r = new Random(seed);
        Edges e = new Edges();
        String name;
        switch (shape) {
            case 0 -> {
                name = "empty-or-isolated";
            }
            case 1 -> {
                name = "ordered-path";
                for (int v = 1; v < n; v++) {
                    e.add(v - 1, v);
                }
            }
            case 2 -> {
                name = "shuffled-path";
                int[] p = permutation(n, r);
                for (int v = 1; v < n; v++) {
                    e.add(p[v - 1], p[v]);
                }
            }
            case 3 -> {
                name = "stars";
                // hubs of degree in every ECL-CC tier: <= 16, 17..352 and > 352
                int v = 0;
                while (v < n) {
                    int degree = Math.min(n - v - 1, new int[] {3, 16, 17, 200, 353, 1200}[r.nextInt(6)]);
                    for (int k = 1; k <= degree; k++) {
                        e.add(v, v + k);
                    }
                    v += degree + 1 + r.nextInt(3);
                }
            }
            case 4 -> {
                name = "cliques";
                int v = 0;
                while (v < n) {
                    int size = Math.min(n - v, 1 + r.nextInt(12));
                    for (int a = 0; a < size; a++) {
                        for (int b = a + 1; b < size; b++) {
                            e.add(v + a, v + b);
                        }
                    }
                    v += size;
                }
            }
            case 5 -> {
                name = "random-sparse";
                long m = (long) (n * (0.3 + r.nextDouble()));
                for (long i = 0; i < m && n > 0; i++) {
                    e.add(r.nextInt(n), r.nextInt(n));
                }
            }
            case 6 -> {
                name = "random-dense";
                int m = Math.min(200_000, n * (4 + r.nextInt(20)));
                for (int i = 0; i < m && n > 0; i++) {
                    e.add(r.nextInt(n), r.nextInt(n));
                }
            }
            case 7 -> {
                name = "many-tiny";
                for (int v = 0; v + 1 < n; v += 2 + r.nextInt(3)) {
                    e.add(v, v + 1);
                }
            }
            case 8 -> {
                name = "giant-shuffled";
                int[] p = permutation(n, r);
                for (int v = 1; v < n; v++) {
                    e.add(p[r.nextInt(v)], p[v]); // a random tree
                }
            }
            case 9 -> {
                name = "duplicates-and-self-loops";
                for (int i = 0; i < n; i++) {
                    int a = r.nextInt(n);
                    int b = r.nextBoolean() ? a : r.nextInt(n);
                    e.add(a, b);
                    e.add(b, a);
                    e.add(a, b);
                }
            }
            case 10 -> {
                name = "disjoint-union";
                int v = 0;
                while (v < n) {
                    int size = Math.min(n - v, 1 + r.nextInt(300));
                    int edges = size * 2;
                    for (int i = 0; i < edges; i++) {
                        e.add(v + r.nextInt(size), v + r.nextInt(size));
                    }
                    v += size;
                }
                e.permute(n, r);
            }
            default -> {
                name = "grid-permuted";
                int w = Math.max(1, (int) Math.sqrt(n));
                for (int v = 0; v < n; v++) {
                    if ((v + 1) % w != 0 && v + 1 < n && r.nextInt(10) > 0) {
                        e.add(v, v + 1);
                    }
                    if (v + w < n && r.nextInt(10) > 0) {
                        e.add(v, v + w);
                    }
                }
                e.permute(n, r);
            }
        }
        return new EdgeList(name, n, e.sources(), e.targets());
    }

    /** The same graph with 64-bit offsets, to exercise the wide path. */
    public static CsrGraph withWideOffsets(CsrGraph g, Arena arena) {
        MemorySegment offsets = arena.allocate(ValueLayout.JAVA_LONG, (long) g.vertexCount() + 1);
        for (int v = 0; v <= g.vertexCount(); v++) {
            offsets.setAtIndex(ValueLayout.JAVA_LONG, v, g.offset(v));
        }
        MemorySegment neighbors = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, g.arcCount()))
                .asSlice(0, g.arcCount() * Integer.BYTES);
        MemorySegment.copy(g.neighbors(), 0, neighbors, 0, g.arcCount() * Integer.BYTES);
        return CsrGraph.wrap(offsets, Long.BYTES, neighbors);
    }

    private static int[] permutation(int n, Random r) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static final class Edges {
        private final List<int[]> pairs = new ArrayList<>();

        void add(int a, int b) {
            pairs.add(new int[] {a, b});
        }

        void permute(int n, Random r) {
            int[] p = permutation(n, r);
            for (int[] pair : pairs) {
                pair[0] = p[pair[0]];
                pair[1] = p[pair[1]];
            }
        }

        public int[] sources() {
            return pairs.stream().mapToInt(p -> p[0]).toArray();
        }

        public int[] targets() {
            return pairs.stream().mapToInt(p -> p[1]).toArray();
        }
    }
}
