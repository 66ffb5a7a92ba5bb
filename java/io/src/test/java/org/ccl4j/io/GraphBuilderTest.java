package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;
import org.junit.jupiter.api.Test;

class GraphBuilderTest {

    /** The straightforward on-heap answer: sorted distinct neighbours, no self loops. */
    private static int[][] oracle(int atLeast, List<int[]> edges) {
        int n = atLeast;
        for (int[] e : edges) {
            n = Math.max(n, Math.max(e[0], e[1]) + 1);
        }
        List<TreeSet<Integer>> sets = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            sets.add(new TreeSet<>());
        }
        for (int[] e : edges) {
            if (e[0] != e[1]) {
                sets.get(e[0]).add(e[1]);
                sets.get(e[1]).add(e[0]);
            }
        }
        return sets.stream().map(s -> s.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
    }

    private static CsrGraph build(Arena arena, int atLeast, List<int[]> edges) {
        GraphBuilder builder = new GraphBuilder().vertexCount(atLeast);
        for (int[] e : edges) {
            builder.addEdge(e[0], e[1]);
        }
        assertEquals(edges.size(), builder.edgeCount());
        return builder.build(arena);
    }

    @Provide
    Arbitrary<List<int[]>> edgeLists() {
        // Few distinct ids, so that repeats, reversed repeats and self loops are frequent.
        Arbitrary<Integer> ids = Arbitraries.integers().between(0, 40);
        return Arbitraries.frequencyOf(Tuple.of(3, ids), Tuple.of(1, Arbitraries.integers().between(0, 3000)))
                .tuple2().map(t -> new int[] {t.get1(), t.get2()})
                .list().ofMaxSize(400);
    }

    @Property(tries = 300)
    void buildsTheSymmetrisedCleanGraph(@ForAll("edgeLists") List<int[]> edges,
                                        @ForAll @IntRange(max = 60) int atLeast) {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = build(arena, atLeast, edges);
            assertLists(oracle(atLeast, edges), g);
            assertEquals(Integer.BYTES, g.offsetBytes());
            g.check();
        }
    }

    @Test
    void manyEdgesSpanSeveralChunksAndBuckets() {
        Random random = new Random(42);
        List<int[]> edges = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            edges.add(new int[] {random.nextInt(200_000), random.nextInt(200_000)});
        }
        try (Arena arena = Arena.ofConfined()) {
            assertLists(oracle(0, edges), build(arena, 0, edges));
        }
    }

    @Test
    void largeGraphsArePartitionedInSeveralSweeps() {
        // 12M arcs (96 MB partitioned) exceed one sweep's 64 MB. The oracle sorts packed arcs.
        int n = 3_000_000;
        int m = 6_000_000;
        long[] arcs = new long[2 * m];
        GraphBuilder builder = new GraphBuilder();
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < m; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            // a skewed choice of ends: low ids are hubs, so lists of many lengths occur
            int u = (int) ((x >>> 1) % n) / (i % 3 == 0 ? 1000 : 1);
            int v = (int) ((x >>> 33) % n);
            builder.addEdge(u, v);
            arcs[2 * i] = u == v ? Long.MAX_VALUE : ((long) u << 32) | v;
            arcs[2 * i + 1] = u == v ? Long.MAX_VALUE : ((long) v << 32) | u;
        }
        Arrays.sort(arcs);
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = builder.build(arena);
            assertEquals(n, g.vertexCount());
            long arc = 0;
            long previous = -1;
            for (long packed : arcs) {
                if (packed == previous || packed == Long.MAX_VALUE) {
                    continue;
                }
                previous = packed;
                int u = (int) (packed >>> 32);
                assertEquals((int) packed, g.neighbor(arc), "arc " + arc);
                assertTrue(arc >= g.offset(u) && arc < g.offset(u + 1), "arc " + arc + " of vertex " + u);
                arc++;
            }
            assertEquals(arc, g.arcCount());
        }
    }

    @Test
    void sortsAHubTooLongForTheHeapPath() {
        // 1.5M leaves in shuffled order, each twice: the hub's list takes the in-place segment sort.
        int leaves = 1_500_000;
        int[] order = new int[leaves];
        for (int i = 0; i < leaves; i++) {
            order[i] = i + 1;
        }
        Random random = new Random(7);
        for (int i = leaves - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        GraphBuilder builder = new GraphBuilder();
        for (int leaf : order) {
            builder.addEdge(0, leaf);
        }
        for (int leaf : order) {
            builder.addEdge(leaf, 0);
        }
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = builder.build(arena);
            assertEquals(leaves + 1, g.vertexCount());
            assertEquals(2L * leaves, g.arcCount());
            assertEquals(leaves, g.degree(0));
            for (int i = 0; i < leaves; i++) {
                assertEquals(i + 1, g.neighbor(i));
            }
            for (int leaf = 1; leaf <= leaves; leaf += 997) {
                assertEquals(1, g.degree(leaf));
                assertEquals(0, g.neighbor(g.offset(leaf)));
            }
        }
    }

    @Test
    void vertexCountIsTheLargerOfRequestAndLargestIdPlusOne() {
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(10, new GraphBuilder().vertexCount(10).addEdge(1, 2).build(arena).vertexCount());
            assertEquals(8, new GraphBuilder().vertexCount(3).addEdge(7, 2).build(arena).vertexCount());
            // a self loop is dropped but its vertex counts
            CsrGraph loop = new GraphBuilder().addEdge(4, 4).build(arena);
            assertLists(new int[][] {{}, {}, {}, {}, {}}, loop);
            CsrGraph empty = new GraphBuilder().build(arena);
            assertEquals(0, empty.vertexCount());
            assertEquals(0, empty.arcCount());
            assertEquals(0, empty.offset(0));
        }
    }

    @Test
    void dropsSelfLoopsAndRepeatsAndSortsLists() {
        try (Arena arena = Arena.ofConfined()) {
            GraphBuilder builder = new GraphBuilder();
            int[][] edges = {{3, 1}, {1, 3}, {3, 1}, {1, 1}, {0, 3}, {2, 3}, {3, 3}, {2, 0}};
            for (int[] e : edges) {
                builder.addEdge(e[0], e[1]);
            }
            assertEquals(8, builder.edgeCount());
            CsrGraph g = builder.build(arena);
            assertLists(new int[][] {{2, 3}, {3}, {0, 3}, {0, 1, 2}}, g);
            assertEquals(4, g.offsetBytes());
        }
    }

    @Test
    void fromEdgesUsesTheBuilder() {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = CsrGraph.fromEdges(arena, 4, new int[] {0, 1, 1}, new int[] {1, 0, 2});
            assertLists(new int[][] {{1}, {0, 2}, {1}, {}}, g);
        }
    }

    @Test
    void rejectsInvalidIdsAndReuse() {
        GraphBuilder builder = new GraphBuilder();
        assertThrows(IllegalArgumentException.class, () -> builder.addEdge(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> builder.addEdge(2, -5));
        assertThrows(IllegalArgumentException.class, () -> builder.addEdge(Integer.MAX_VALUE, 0));
        assertThrows(IllegalArgumentException.class, () -> builder.vertexCount(-1));
        assertEquals(0, builder.edgeCount());
        try (Arena arena = Arena.ofConfined()) {
            builder.addEdge(0, 1).build(arena);
            assertThrows(IllegalStateException.class, () -> builder.addEdge(1, 2));
            assertThrows(IllegalStateException.class, () -> builder.build(arena));
        }
        GraphBuilder closed = new GraphBuilder().addEdge(0, 1);
        closed.close();
        closed.close();
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalStateException.class, () -> closed.build(arena));
        }
    }
}
