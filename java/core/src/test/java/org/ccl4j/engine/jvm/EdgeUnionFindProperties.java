package org.ccl4j.engine.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import org.ccl4j.EdgeList;
import org.ccl4j.testing.Edges;
import org.ccl4j.testing.EngineData;
import org.ccl4j.testing.Oracle;

/**
 * The JVM's edge-list union-find ({@link EdgeUnionFind}) returns the oracle's labels on any split of
 * the work, with chunks of a few edges so that the threads race, from two arrays and from pairs,
 * in confined and shared arenas, and serially.
 */
class EdgeUnionFindProperties {
    @Provide
    Arbitrary<Edges> edgeLists() {
        return Edges.any();
    }

    /** How the Java union-find runs: threads (0 = all cores) and vertices and edges per chunk (0 = the default). */
    record Split(int threads, long grain) {
    }

    @Provide
    Arbitrary<Split> splits() {
        return Arbitraries.of(new Split(1, 0), new Split(0, 0), new Split(0, 1), new Split(4, 1), new Split(4, 7),
                new Split(3, 64), new Split(8, 3));
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void theJavaUnionFindMatchesTheOracleOnAnySplit(@ForAll("edgeLists") Edges edges, @ForAll("splits") Split split) {
        int n = edges.vertexCount();
        // shared: lists of a shared arena are copied first, those of a confined one read in place
        for (Arena arena : List.of(Arena.ofConfined(), Arena.ofShared())) {
            try (arena) {
                int[] expected = Oracle.labels(edges.builderGraph(arena));
                for (EdgeList list : List.of(EdgeList.fromArrays(arena, n, edges.sources(), edges.targets()),
                        EdgeList.fromPairs(arena, n, edges.pairs()))) {
                    MemorySegment out = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, n));
                    int[] labels = EdgeUnionFind.label(EngineData.edges(list), split.threads(), split.grain(), out).labels();
                    assertArrayEquals(expected, labels, split + " on " + list + " of " + edges);
                    assertArrayEquals(expected, out.asSlice(0, 4L * n).toArray(ValueLayout.JAVA_INT),
                            split + " on " + list + " of " + edges + ", copied out");
                    assertArrayEquals(expected, EdgeUnionFind.labelSerially(EngineData.edges(list), null).labels(),
                            "serially, " + list + " of " + edges);
                }
                assertArrayEquals(expected, EdgeUnionFind.label(n, edges.sources(), edges.targets(), split.threads(),
                        split.grain(), null).labels(), split + " on the arrays of " + edges);
            }
        }
    }
}
