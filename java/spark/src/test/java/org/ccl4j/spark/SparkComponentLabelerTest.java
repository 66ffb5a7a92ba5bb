package org.ccl4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

class SparkComponentLabelerTest {
    /** Rounds until no pair is left: every step of the rounds runs, none is skipped by merges or the driver. */
    private static final SparkComponentLabeler ROUNDS = SparkComponentLabeler.create().withDriverThreshold(0)
            .withMergeLimit(0);
    /** Partitions merged pairwise down to one, which holds the labels: no round, nothing on the driver. */
    private static final SparkComponentLabeler MERGES = SparkComponentLabeler.create().withDriverThreshold(0);

    private static Map<Long, Long> run(SparkComponentLabeler labeler, long[][] edges, long[] vertices, int partitions) {
        Dataset<Row> table = TestSpark.edgeTable(edges, partitions);
        Dataset<Row> result = vertices == null ? labeler.components(table)
                : labeler.components(table, TestSpark.vertexTable(vertices));
        return TestSpark.collect(result);
    }

    /** Path 0-1-...-(n-1), its edges in a shuffled order across partitions, so that no partition holds a run of it. */
    private static long[][] path(long first, int n, long step) {
        long[][] edges = new long[n - 1][];
        for (int i = 0; i < n - 1; i++) {
            // edges i and i + 1 of the path are far apart in the table
            int slot = (int) ((i * 37L) % (n - 1));
            edges[i] = new long[] {first + step * slot, first + step * (slot + 1)};
        }
        return edges;
    }

    @Test
    void pathsAcrossPartitionsAreOneComponentAndAgreeWithGraphX() {
        long[][] a = path(1000, 200, 1);
        long[][] b = path(-50, 30, -3);                  // descending ids, negative
        long[][] edges = new long[a.length + b.length][];
        System.arraycopy(a, 0, edges, 0, a.length);
        System.arraycopy(b, 0, edges, a.length, b.length);
        Map<Long, Long> labels = run(ROUNDS.withPartitions(4), edges, null, 4);
        assertEquals(200 + 30, labels.size());
        for (long v = 1000; v < 1200; v++) {
            assertEquals(1000L, labels.get(v), "vertex " + v);
        }
        for (int i = 0; i < 30; i++) {
            assertEquals(-50L - 3 * 29, labels.get(-50L - 3 * i), "vertex " + (-50 - 3 * i));
        }
        // GraphX's Pregel takes one superstep per step of the path: only the short path is compared
        Map<Long, Long> shortPath = new HashMap<>(labels);
        shortPath.keySet().removeIf(v -> v >= 1000);
        assertEquals(TestSpark.graphx(b, new long[0], 4), shortPath);
    }

    @Test
    void starsSplitAcrossPartitionsWithDuplicatesAndSelfLoops() {
        List<long[]> edges = new ArrayList<>();
        for (long leaf = 1; leaf <= 100; leaf++) {
            edges.add(new long[] {leaf * 10, 7});           // centre 7, the smallest id of its star
            edges.add(new long[] {7, leaf * 10});           // the same edge again, reversed
        }
        for (long leaf = 1; leaf <= 40; leaf++) {
            edges.add(new long[] {-leaf, 5000});            // a second star whose centre is its largest id
        }
        edges.add(new long[] {5000, 5000});
        edges.add(new long[] {99999, 99999});               // only a self loop: its own component
        long[][] array = edges.toArray(long[][]::new);
        Map<Long, Long> labels = run(ROUNDS.withPartitions(3), array, null, 5);
        assertEquals(101 + 41 + 1, labels.size());
        assertEquals(7L, labels.get(1000L));
        assertEquals(-40L, labels.get(5000L));
        assertEquals(-40L, labels.get(-1L));
        assertEquals(99999L, labels.get(99999L));
        assertEquals(TestSpark.graphx(array, new long[0], 3), labels);
    }

    @Test
    void idsNearTheEndsOfLong() {
        long max = Long.MAX_VALUE;
        long min = Long.MIN_VALUE;
        long[][] edges = {
            {max, max - 1}, {max - 2, max - 1}, {max - 3, max - 4},
            {min, min + 1}, {-1, 0}, {0, max - 5}, {min + 2, max - 5},
        };
        long[] vertices = {max - 6, min + 3, 42};
        Map<Long, Long> labels = run(ROUNDS, edges, vertices, 3);
        assertEquals(max - 2, labels.get(max));
        assertEquals(max - 4, labels.get(max - 3));
        assertEquals(min, labels.get(min + 1));
        assertEquals(min + 2, labels.get(max - 5));
        assertEquals(min + 2, labels.get(-1L));
        assertEquals(max - 6, labels.get(max - 6));
        assertEquals(42L, labels.get(42L));
        assertEquals(TestSpark.graphx(edges, vertices, 3), labels);
    }

    @Test
    void theDriverThresholdChangesNothingButWhereTheLastPairsAreLabelled() {
        long[][] edges = path(0, 120, 2);
        Map<Long, Long> onDriver = run(SparkComponentLabeler.create(), edges, null, 4);
        Map<Long, Long> someRounds = run(ROUNDS.withDriverThreshold(20), edges, null, 4);
        Map<Long, Long> allRounds = run(ROUNDS, edges, null, 4);
        assertEquals(onDriver, someRounds);
        assertEquals(onDriver, allRounds);
        assertEquals(120, onDriver.size());
        assertTrue(onDriver.values().stream().allMatch(c -> c == 0L));
    }

    /**
     * The metrics name the engine that labelled every batch (the native CPU backend here, or the
     * JVM without the library): one a partition in the local contraction and in each round's small
     * star, and the driver's; the rounds and the pairs match the threshold.
     */
    @Test
    void theMetricsSayWhichEngineLabelledHowManyBatches() {
        long[][] edges = path(0, 400, 1);
        List<RunMetrics> seen = new ArrayList<>();
        Map<Long, Long> onDriver = run(SparkComponentLabeler.create().withMergeLimit(0).withMetricsListener(seen::add),
                edges, null, 4);
        Map<Long, Long> inRounds = run(ROUNDS.withMetricsListener(seen::add), edges, null, 4);
        assertEquals(onDriver, inRounds);
        assertEquals(2, seen.size());
        String engine = ComponentLabeler.capabilities().backends().contains(Backend.CPU_PARALLEL) ? "CPU_PARALLEL" : "JAVA";
        RunMetrics driver = seen.get(0);
        assertEquals(Map.of(engine, 4L + 1), driver.batchesByEngine(), "four partitions and the driver: " + driver);
        assertEquals(0, driver.rounds());
        assertEquals(driver.pairsAfterLocalContraction(), driver.driverPairs());
        assertTrue(driver.pairsAfterLocalContraction() >= 399, "a path's stars keep a pair a vertex: " + driver);
        RunMetrics rounds = seen.get(1);
        assertTrue(rounds.rounds() >= 1 && rounds.driverPairs() == 0, rounds.toString());
        assertEquals(Set.of(engine), rounds.batchesByEngine().keySet(), rounds.toString());
        long batches = rounds.batchesByEngine().get(engine);
        // the four partitions first; then each round labels its non-empty partitions twice (small star, contraction)
        assertTrue(batches >= 4 + rounds.rounds() && batches <= 4 + 8L * rounds.rounds(), rounds.toString());
    }

    /**
     * Merging the partitions' stars pairwise down to one gives the labels with no round; under a
     * merge limit the merges stop where a merged partition would hold more, and rounds finish.
     */
    @Test
    void mergedPartitionsGiveTheSameLabelsAsRounds() {
        long[][] path = path(0, 600, 1);
        long[][] edges = new long[path.length + 4][];
        System.arraycopy(path, 0, edges, 0, path.length);
        edges[path.length] = new long[] {700, 700};       // a vertex with only self loops, in two partitions
        edges[path.length + 1] = new long[] {3, 3};       // a self loop on the path
        edges[path.length + 2] = new long[] {-9, -9};
        edges[path.length + 3] = new long[] {700, 700};
        List<RunMetrics> seen = new ArrayList<>();
        Map<Long, Long> rounds = run(ROUNDS, edges, null, 5);
        Map<Long, Long> merged = run(MERGES.withMetricsListener(seen::add), edges, null, 5);
        Map<Long, Long> someMerges = run(MERGES.withMergeLimit(200).withMetricsListener(seen::add), edges, null, 5);
        assertEquals(rounds, merged);
        assertEquals(rounds, someMerges);
        assertEquals(602, merged.size());
        assertEquals(700L, merged.get(700L));
        assertEquals(-9L, merged.get(-9L));
        merged.keySet().removeAll(List.of(700L, -9L));
        assertTrue(merged.values().stream().allMatch(c -> c == 0L));
        RunMetrics all = seen.get(0);
        assertEquals(3, all.mergeLevels(), "5 partitions, then 3, 2, 1: " + all);
        assertTrue(all.rounds() == 0 && all.driverPairs() == 0, all.toString());
        RunMetrics limited = seen.get(1);
        assertTrue(limited.mergeLevels() >= 1 && limited.mergeLevels() < 3 && limited.rounds() >= 1, limited.toString());
        assertEquals(TestSpark.graphx(path(0, 40, 1), new long[0], 3), run(MERGES, path(0, 40, 1), null, 3));
    }

    @Test
    void checkpointsReliableAndLocalGiveTheSameLabels(@TempDir Path dir) throws Exception {
        long[][] edges = path(5, 80, 1);
        Map<Long, Long> local = run(ROUNDS.withCheckpointInterval(1), edges, null, 4);
        TestSpark.context().setCheckpointDir(dir.toString());
        Map<Long, Long> reliable = run(ROUNDS.withCheckpointInterval(1), edges, null, 4);
        assertEquals(80, local.size());
        assertTrue(local.values().stream().allMatch(c -> c == 5L));
        assertEquals(local, reliable);
        try (var files = Files.walk(dir)) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("rdd-")), "no checkpoint written");
        }
    }

    @Test
    void intColumnsAndIsolatedVerticesFromTheVertexTable() {
        StructType schema = new StructType().add("dst", DataTypes.IntegerType).add("weight", DataTypes.DoubleType)
                .add("src", DataTypes.ShortType);
        Dataset<Row> edges = TestSpark.session().createDataFrame(List.of(
                RowFactory.create(3, 1.0, (short) 4), RowFactory.create(9, 2.0, (short) 4)), schema);
        Dataset<Row> vertices = TestSpark.session().createDataFrame(List.of(RowFactory.create(1L), RowFactory.create(4L)),
                new StructType().add("id", DataTypes.LongType));
        Dataset<Row> result = ROUNDS.components(edges, vertices);
        assertEquals(SparkComponentLabeler.RESULT_SCHEMA, result.schema());
        assertEquals(Map.of(1L, 1L, 3L, 3L, 4L, 3L, 9L, 3L), TestSpark.collect(result));
    }

    @Test
    void theJavaRddVariant() {
        List<Tuple2<Long, Long>> edges = List.of(new Tuple2<>(8L, 6L), new Tuple2<>(6L, 2L), new Tuple2<>(11L, 12L));
        JavaRDD<Tuple2<Long, Long>> rdd = TestSpark.context().parallelize(edges, 2);
        JavaPairRDD<Long, Long> result = ROUNDS.components(rdd, TestSpark.context().parallelize(List.of(100L, 2L)));
        Map<Long, Long> labels = new HashMap<>(result.collectAsMap());
        assertEquals(Map.of(2L, 2L, 6L, 2L, 8L, 2L, 11L, 11L, 12L, 11L, 100L, 100L), labels);
        // unpersisted, the result is computed again from its lineage, through the rounds' freed RDDs
        result.unpersist(true);
        assertEquals(labels, new HashMap<>(result.collectAsMap()));
    }

    @Test
    void tasksThatFailOnceAreRetriedWithTheSameResult() {
        long[][] edges = path(3, 60, 1);
        JavaRDD<Tuple2<Long, Long>> flaky = TestSpark.edgeTable(edges, 4).javaRDD().map(r -> {
            // the first attempt of every task over partition 1 of the edges fails
            if (TaskContext.getPartitionId() == 1 && TaskContext.get().attemptNumber() == 0) {
                throw new IllegalStateException("injected failure");
            }
            return new Tuple2<>(r.getLong(0), r.getLong(1));
        });
        JavaPairRDD<Long, Long> result = ROUNDS.components(flaky);
        Map<Long, Long> labels = new HashMap<>(result.collectAsMap());
        result.unpersist(false);
        assertEquals(60, labels.size());
        assertTrue(labels.values().stream().allMatch(c -> c == 3L), labels.toString());
    }

    @Test
    void aMissingColumnIsNamed() {
        Dataset<Row> edges = TestSpark.edgeTable(new long[][] {{1, 2}}, 1).withColumnRenamed("dst", "to");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SparkComponentLabeler.create().components(edges));
        assertTrue(e.getMessage().contains("no column 'dst'") && e.getMessage().contains("src, to"), e.getMessage());
        Dataset<Row> good = TestSpark.edgeTable(new long[][] {{1, 2}}, 1);
        Dataset<Row> noId = TestSpark.vertexTable(new long[] {1}).withColumnRenamed("id", "vertex");
        e = assertThrows(IllegalArgumentException.class, () -> SparkComponentLabeler.create().components(good, noId));
        assertTrue(e.getMessage().contains("vertex table has no column 'id'"), e.getMessage());
    }

    @Test
    void nonIntegralIdColumnsAreRefused() {
        Dataset<Row> strings = TestSpark.session().createDataFrame(List.of(RowFactory.create("a", 1L)),
                new StructType().add("src", DataTypes.StringType).add("dst", DataTypes.LongType));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SparkComponentLabeler.create().components(strings));
        assertTrue(e.getMessage().contains("'src'") && e.getMessage().contains("string"), e.getMessage());
        Dataset<Row> doubles = TestSpark.session().createDataFrame(List.of(RowFactory.create(1L, 2.5)),
                new StructType().add("src", DataTypes.LongType).add("dst", DataTypes.DoubleType));
        e = assertThrows(IllegalArgumentException.class, () -> SparkComponentLabeler.create().components(doubles));
        assertTrue(e.getMessage().contains("'dst'") && e.getMessage().contains("double"), e.getMessage());
    }

    @Test
    void nullIdsAreRefused() {
        Dataset<Row> edges = TestSpark.session().createDataFrame(
                List.of(RowFactory.create(1L, 2L), RowFactory.create(3L, null)),
                new StructType().add("src", DataTypes.LongType).add("dst", DataTypes.LongType));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SparkComponentLabeler.create().components(edges));
        assertTrue(e.getMessage().contains("[3,null]"), e.getMessage());

        Dataset<Row> vertices = TestSpark.session().createDataFrame(List.of(RowFactory.create((Long) null)),
                new StructType().add("id", DataTypes.LongType));
        e = assertThrows(IllegalArgumentException.class, () -> SparkComponentLabeler.create()
                .components(TestSpark.edgeTable(new long[][] {{1, 2}}, 1), vertices));
        assertTrue(e.getMessage().contains("null id"), e.getMessage());

        JavaRDD<Tuple2<Long, Long>> rdd = TestSpark.context().parallelize(List.of(new Tuple2<>(1L, null)), 1);
        SparkException failed = assertThrows(SparkException.class, () -> SparkComponentLabeler.create().components(rdd));
        assertTrue(failed.getMessage().contains("edge (1,null) has a null id"), failed.getMessage());
    }

    @Test
    void settingsOutsideTheirRangesAreRefused() {
        SparkComponentLabeler l = SparkComponentLabeler.create();
        assertThrows(IllegalArgumentException.class, () -> l.withDriverThreshold(-1));
        assertThrows(IllegalArgumentException.class, () -> l.withDriverThreshold((1L << 29) + 1));
        assertThrows(IllegalArgumentException.class, () -> l.withCheckpointInterval(-1));
        assertThrows(IllegalArgumentException.class, () -> l.withPartitions(-1));
        assertThrows(IllegalArgumentException.class, () -> l.withMaxRounds(0));
        assertThrows(IllegalArgumentException.class, () -> l.withMergeLimit(-1));
        assertThrows(IllegalArgumentException.class, () -> l.withMergeLimit((1L << 29) + 1));
    }

    @Test
    void aLongPathTakesLogarithmicallyManyRounds() {
        // pointer jumping (large star) halves a path a round; contraction alone would peel one leaf a round
        Map<Long, Long> labels = run(ROUNDS.withMaxRounds(14), path(0, 2000, 1), null, 4);
        assertEquals(2000, labels.size());
        assertTrue(labels.values().stream().allMatch(c -> c == 0L));
    }

    @Test
    void tooFewRoundsSayHowManyPairsAreLeft() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> run(ROUNDS.withMaxRounds(1), path(0, 300, 1), null, 4));
        assertTrue(e.getMessage().contains("pairs left after 1 rounds"), e.getMessage());
    }
}
