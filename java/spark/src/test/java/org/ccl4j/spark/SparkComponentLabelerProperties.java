package org.ccl4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;

/** Random graphs, labelled with merges, in rounds and on the driver, against GraphX's ConnectedComponents. */
class SparkComponentLabelerProperties {
    /** A random graph: vertices {@code base + i * step} for i in [0, n), edges between them, extra isolated vertices. */
    record RandomGraph(long[][] edges, long[] vertices) {
        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("edges");
            for (long[] e : edges) {
                s.append(" ").append(e[0]).append('-').append(e[1]);
            }
            s.append(", vertices");
            for (long v : vertices) {
                s.append(" ").append(v);
            }
            return s.toString();
        }
    }

    @Provide
    Arbitrary<RandomGraph> graphs() {
        Arbitrary<Integer> n = Arbitraries.integers().between(1, 60);
        // ids near both ends of long, around zero, and spread out
        Arbitrary<Long> base = Arbitraries.of(0L, -30L, Long.MAX_VALUE - 600, Long.MIN_VALUE, 1L << 40);
        Arbitrary<Long> step = Arbitraries.of(1L, 7L, -1L);
        return Combinators.combine(n, base, step).flatAs((count, b, s) -> {
            long first = s < 0 ? b + 600 : b;            // a negative step counts down from inside the range
            Arbitrary<long[]> edge = Arbitraries.integers().between(0, count - 1).array(int[].class).ofSize(2)
                    .map(e -> new long[] {first + s * e[0], first + s * e[1]});
            Arbitrary<long[][]> edges = edge.array(long[][].class).ofMinSize(0).ofMaxSize(90);
            Arbitrary<long[]> isolated = Arbitraries.integers().between(0, count - 1)
                    .map(i -> first + s * i).array(long[].class).ofMaxSize(5);
            return Combinators.combine(edges, isolated).as(RandomGraph::new);
        });
    }

    @Property(tries = 15, shrinking = ShrinkingMode.OFF)
    void sameComponentsAsGraphX(@ForAll("graphs") RandomGraph graph,
                                @ForAll @IntRange(min = 1, max = 4) int partitions,
                                @ForAll("thresholds") long threshold, @ForAll("mergeLimits") long mergeLimit) {
        SparkComponentLabeler labeler = SparkComponentLabeler.create().withDriverThreshold(threshold)
                .withPartitions(partitions).withMergeLimit(mergeLimit);
        Map<Long, Long> ours = TestSpark.collect(labeler.components(
                TestSpark.edgeTable(graph.edges(), partitions), TestSpark.vertexTable(graph.vertices())));
        assertEquals(TestSpark.graphx(graph.edges(), graph.vertices(), partitions), ours);
    }

    @Provide
    Arbitrary<Long> thresholds() {
        return Arbitraries.of(0L, 5L, 1_000_000L);
    }

    /** No merging, merging that stops early, merging down to one partition. */
    @Provide
    Arbitrary<Long> mergeLimits() {
        return Arbitraries.of(0L, 3L, 8_000_000L);
    }
}
