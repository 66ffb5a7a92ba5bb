package org.ccl4j.spark;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Connected components of a Spark edge table, labelled by ccl4j in every executor. Every vertex gets
 * the smallest vertex id of its component, as GraphX's {@code ConnectedComponents} gives it.
 *
 * <h2>Algorithm</h2>
 * Edges are pairs of {@code long} ids, in any order, repeated or self loops. A <em>star</em> of a
 * set of edges is, for each of its components, the pairs {@code (v, root)} of every vertex {@code v}
 * but the root, the component's smallest id: it connects what the edges connect, with fewer or as
 * many pairs as there were edges. Batches of edges become stars by ccl4j ({@code LocalStars}): the
 * ids compacted to {@code 0..n-1} in ascending order, one {@code ComponentLabeler.label(EdgeList)}
 * call, the canonical labels read back as roots.
 * <ol>
 * <li><b>Local contraction.</b> Each partition of the edges becomes its star, in place: only
 *     {@code (vertex, local root)} pairs leave it. The pairs are the edges of the next step.</li>
 * <li><b>Merges</b>, while half as many partitions would hold at most {@link #withMergeLimit
 *     mergeLimit} pairs each on average: the partitions are joined two by two ({@code coalesce}, no shuffle) and each
 *     joined one becomes the star of its pairs, so that stars of overlapping vertex sets shrink into
 *     one (the chunk stitching of dask-image, and the forests-only merging of union-find on
 *     MapReduce). One partition left holds the star of every edge: the labels, with no round and
 *     nothing for the driver.</li>
 * <li><b>Rounds</b>, while more than {@link #withDriverThreshold driverThreshold} pairs are left:
 *   <ol>
 *   <li>large star (Kiveris et al., "Connected Components in MapReduce and Beyond", 2014): the pairs
 *       are grouped by vertex, both ways, and every neighbour larger than a vertex {@code u} is linked
 *       to the smallest of {@code u} and its neighbours; no more pairs than before;</li>
 *   <li>small star, by ccl4j: the pairs are re-partitioned by their larger end and each partition
 *       becomes its star (every vertex with its smaller neighbours, and whatever else the partition
 *       connects, linked to their smallest id);</li>
 *   <li>contraction: the pairs are grouped by vertex, both ways, and a vertex whose only neighbour
 *       is smaller leaves the graph, remembered as {@code (vertex, neighbour)} in the round's forest;
 *       then a local contraction as in 1.</li>
 *   </ol>
 *   Large and small stars alternated turn every component into a star around its smallest id in
 *   O(log² n) rounds (Kiveris et al.); contraction then removes its leaves, so the pairs run out.</li>
 * <li><b>Driver.</b> The remaining pairs are collected and labelled in one ccl4j call on the driver.</li>
 * <li><b>Join back.</b> The forests, newest first, are joined with the labels known so far: a
 *     vertex removed with neighbour {@code u} has {@code u}'s label, or {@code u} where {@code u} has
 *     none (it was left alone: the smallest of its component). Every vertex of a component of two
 *     or more is then a labelled vertex or, the smallest, a label. The vertices with only self
 *     loops (found by the local contraction) and those of the vertex table that are neither are
 *     their own components.</li>
 * </ol>
 *
 * <h2>Shuffles</h2>
 * Local contraction and merges shuffle nothing (a merge reads its two partitions where they lie,
 * and counts them in one job). A round shuffles its pairs three times (grouping by vertex
 * twice, sending each pair both ways, and re-partitioning once) and runs two jobs (the counts of the
 * round's pairs and of its forest, both persisted). The join back shuffles each forest once; the
 * result shuffles the labels' distinct values (the smallest ids) and, when there are vertices with
 * only self loops or a vertex table, those vertices and the labels once more.
 *
 * <h2>Memory</h2>
 * Every JVM that labels (the executors', and the driver's for the last pairs) makes one
 * {@code ComponentLabeler} at its first partition and keeps it while it runs: on the GPUs Spark
 * assigned the task (resource {@code gpu}) or else every GPU of the machine, one CUDA context a
 * JVM whose engine takes the tasks' calls one at a time; the CPU without a GPU; the JVM without
 * the native library. Each JVM logs its engine once at INFO, and {@link RunMetrics} counts the
 * batches each engine labelled. A partition labelled by ccl4j holds its edges in arrays, about 50
 * bytes an edge (the ids, their sorted copy, the local ids and the off-heap edge list and labels);
 * a partition of more than
 * 2<sup>30</sup> edges is refused; a merged partition holds about {@code mergeLimit} pairs (8,000,000
 * by default, some 400 MB). A grouping by vertex holds one vertex's neighbours at a time, so
 * a vertex of very high degree needs its neighbour list in one executor's memory. The driver holds
 * at most {@code driverThreshold} pairs at once, about 50 bytes each. Every round's forest stays
 * persisted ({@link StorageLevel#MEMORY_AND_DISK()}) until the labels are joined back; the forests
 * of all rounds together hold at most one pair per vertex. The result is computed before it is
 * returned, persisted, and the forests freed. The vertices with only self loops in a partition are
 * kept (persisted) until the end; they are few unless the edges are mostly self loops.
 *
 * <h2>Long runs</h2>
 * Every round's RDDs descend from the previous round's: with {@link #withCheckpointInterval} every
 * so many rounds the pairs and the forest are checkpointed (reliably, to the
 * {@code SparkContext}'s checkpoint directory when one is set, otherwise locally on the executors),
 * which cuts their lineage. A local checkpoint lives in the executors' block stores: an executor
 * lost after it fails the job, where a reliable one is read back; set a checkpoint directory on a
 * cluster. Without checkpoints a lost block is computed again from the input (every step is
 * deterministic: the stars do not depend on the order of a partition's edges).
 *
 * <p>Instances are immutable; the {@code with...} methods return copies.
 */
public final class SparkComponentLabeler {
    /** The id columns must hold integers of at most 64 bits. */
    private static final Set<DataType> ID_TYPES = Set.of(
            DataTypes.ByteType, DataTypes.ShortType, DataTypes.IntegerType, DataTypes.LongType);

    /** The result's schema: {@code id} and {@code component}, both {@code long}, neither null. */
    public static final StructType RESULT_SCHEMA = new StructType(new StructField[] {
            DataTypes.createStructField("id", DataTypes.LongType, false),
            DataTypes.createStructField("component", DataTypes.LongType, false)});

    private static final Logger LOG = LoggerFactory.getLogger(SparkComponentLabeler.class);

    private final long driverThreshold;
    private final int checkpointInterval;
    private final int partitions;
    private final int maxRounds;
    private final long mergeLimit;
    private final Consumer<RunMetrics> metricsListener;

    private SparkComponentLabeler(long driverThreshold, int checkpointInterval, int partitions, int maxRounds,
                                  long mergeLimit, Consumer<RunMetrics> metricsListener) {
        this.driverThreshold = driverThreshold;
        this.checkpointInterval = checkpointInterval;
        this.partitions = partitions;
        this.maxRounds = maxRounds;
        this.mergeLimit = mergeLimit;
        this.metricsListener = metricsListener;
    }

    private SparkComponentLabeler with(long threshold, int interval, int count, int rounds, long limit,
                                       Consumer<RunMetrics> listener) {
        return new SparkComponentLabeler(threshold, interval, count, rounds, limit, listener);
    }

    /**
     * Defaults: partitions merged while a merged one holds at most 8,000,000 pairs on average, rounds until at
     * most 1,000,000 pairs are left for the driver, no checkpoints, as many partitions as the edges
     * have (at least the context's default parallelism), at most 200 rounds.
     *
     * @return a labeler with the default settings
     */
    public static SparkComponentLabeler create() {
        return new SparkComponentLabeler(1_000_000, 0, 0, 200, 8_000_000, m -> { });
    }

    /**
     * At most this many pairs are labelled on the driver, in one ccl4j call; rounds run until so
     * few are left. 0 runs rounds until none are left.
     *
     * @param edges the most pairs labelled on the driver, in {@code [0, 2^29]}
     * @return a copy with this threshold
     */
    public SparkComponentLabeler withDriverThreshold(long edges) {
        if (edges < 0 || edges > 1L << 29) {
            throw new IllegalArgumentException("driver threshold " + edges + " is outside [0, 2^29]");
        }
        return with(edges, checkpointInterval, partitions, maxRounds, mergeLimit, metricsListener);
    }

    /**
     * Checkpoints the pairs and the forest every {@code rounds} rounds, cutting their lineage; 0
     * (the default) never does. Reliable when the context has a checkpoint directory
     * ({@code SparkContext.setCheckpointDir}), otherwise local ({@code RDD.localCheckpoint}).
     *
     * @param rounds the rounds between checkpoints, 0 for none
     * @return a copy with this interval
     */
    public SparkComponentLabeler withCheckpointInterval(int rounds) {
        if (rounds < 0) {
            throw new IllegalArgumentException("checkpoint interval " + rounds + " is negative");
        }
        return with(driverThreshold, rounds, partitions, maxRounds, mergeLimit, metricsListener);
    }

    /**
     * The partitions of every shuffle; 0 (the default) takes the edges' number of partitions, at
     * least the context's default parallelism.
     *
     * @param count the number of partitions, 0 for the default
     * @return a copy with this number of partitions
     */
    public SparkComponentLabeler withPartitions(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("partition count " + count + " is negative");
        }
        return with(driverThreshold, checkpointInterval, count, maxRounds, mergeLimit, metricsListener);
    }

    /**
     * Stops with an {@link IllegalStateException} after this many rounds rather than running on: the
     * rounds' count grows as log² of the vertices, so reaching it means something is wrong.
     *
     * @param rounds the most rounds, at least 1
     * @return a copy with this limit
     */
    public SparkComponentLabeler withMaxRounds(int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("max rounds " + rounds + " is less than 1");
        }
        return with(driverThreshold, checkpointInterval, partitions, rounds, mergeLimit, metricsListener);
    }

    /**
     * Hands {@code listener} the metrics of every labelling when it ends, on the driver's thread:
     * which engine labelled how many batches, the pairs left after the local contraction, the
     * rounds, the driver's pairs. The driver also logs them at INFO, and the Spark UI shows the
     * engines' counts as named accumulators.
     *
     * @param listener takes the metrics of each run
     * @return a copy with this listener
     */
    public SparkComponentLabeler withMetricsListener(Consumer<RunMetrics> listener) {
        Objects.requireNonNull(listener, "listener");
        return with(driverThreshold, checkpointInterval, partitions, maxRounds, mergeLimit, listener);
    }

    /**
     * Merges the partitions' stars pairwise (without a shuffle) while a merged partition would hold
     * at most {@code pairs} pairs on average, each merge labelled by ccl4j in one task; 0 never
     * merges. The bound is what one task holds: about 50 bytes a pair.
     *
     * @param pairs the most pairs a merged partition holds on average, in {@code [0, 2^29]}
     * @return a copy with this limit
     */
    public SparkComponentLabeler withMergeLimit(long pairs) {
        if (pairs < 0 || pairs > 1L << 29) {
            throw new IllegalArgumentException("merge limit " + pairs + " is outside [0, 2^29]");
        }
        return with(driverThreshold, checkpointInterval, partitions, maxRounds, pairs, metricsListener);
    }

    /**
     * {@link #components(Dataset, Dataset)} without a vertex table: the vertices are the edges' ends.
     *
     * @param edges columns {@code src} and {@code dst}, integral ids without nulls
     * @return {@code (id, component)} for every vertex, {@link #RESULT_SCHEMA}
     */
    public Dataset<Row> components(Dataset<Row> edges) {
        return components(edges, null);
    }

    /**
     * The component of every vertex: {@code (id, component)}, the component being the smallest id
     * in it. The vertices are the edges' ends and the vertex table's ids (isolated ones are their
     * own components). Other columns are ignored.
     *
     * @param edges columns {@code src} and {@code dst}, integral ids (byte, short, int or long) without nulls
     * @param vertices a column {@code id} of the same kind, or null for none
     * @return {@code (id, component)} for every vertex, once each, {@link #RESULT_SCHEMA}; computed
     *         and persisted ({@code MEMORY_AND_DISK}): {@code unpersist()} it when done
     * @throws IllegalArgumentException for a missing or non-integral column, or a null id (found by a
     *                                  Spark job before the labelling starts)
     */
    public Dataset<Row> components(Dataset<Row> edges, Dataset<Row> vertices) {
        Objects.requireNonNull(edges, "edges");
        Column src = idColumn(edges, "src", "edge");
        Column dst = idColumn(edges, "dst", "edge");
        Column id = vertices == null ? null : idColumn(vertices, "id", "vertex");
        // a null found inside a task would surface as a task failure; finding it first names the row
        List<Row> nullEdge = edges.filter(src.isNull().or(dst.isNull())).limit(1).collectAsList();
        if (!nullEdge.isEmpty()) {
            throw new IllegalArgumentException("edge " + nullEdge.get(0) + " has a null src or dst");
        }
        if (vertices != null && !vertices.filter(id.isNull()).isEmpty()) {
            throw new IllegalArgumentException("the vertex table has a null id");
        }
        JavaRDD<Tuple2<Long, Long>> pairs = edges.select(src.cast(DataTypes.LongType), dst.cast(DataTypes.LongType))
                .javaRDD().map(r -> new Tuple2<>(r.getLong(0), r.getLong(1)));
        JavaRDD<Long> ids = vertices == null ? null
                : vertices.select(id.cast(DataTypes.LongType)).javaRDD().map(r -> r.getLong(0));
        JavaPairRDD<Long, Long> labels = components(pairs, ids);
        Dataset<Row> result = edges.sparkSession()
                .createDataFrame(labels.map(t -> RowFactory.create(t._1(), t._2())), RESULT_SCHEMA)
                .persist(StorageLevel.MEMORY_AND_DISK());
        // cached as the caller's Dataset, so that the RDD it came from, which they cannot reach, can go
        result.count();
        labels.unpersist(false);
        return result;
    }

    /**
     * {@link #components(JavaRDD, JavaRDD)} without extra vertices.
     *
     * @param edges the edges, {@code (one end, other end)}
     * @return {@code (vertex, component)} for every end of an edge
     */
    public JavaPairRDD<Long, Long> components(JavaRDD<Tuple2<Long, Long>> edges) {
        return components(edges, null);
    }

    /**
     * The component of every vertex, {@code (vertex, component)}: the smallest id of its component.
     * Runs the jobs now; the result is persisted ({@code MEMORY_AND_DISK}): unpersist it when done.
     *
     * @param edges the edges, {@code (one end, other end)}; repeated edges and self loops are fine,
     *              a null id fails the job with an {@link IllegalArgumentException} naming the edge
     * @param vertices further vertices (isolated ones are their own components), or null for none
     * @return {@code (vertex, component)} for the ends of the edges and {@code vertices}, once each
     */
    public JavaPairRDD<Long, Long> components(JavaRDD<Tuple2<Long, Long>> edges, JavaRDD<Long> vertices) {
        Objects.requireNonNull(edges, "edges");
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(edges.context());
        int p = partitions > 0 ? partitions : Math.max(edges.getNumPartitions(), sc.defaultParallelism());
        Partitioner byVertex = new HashPartitioner(p);
        JavaRDD<Tuple2<Long, Long>> checked = edges.map(SparkComponentLabeler::checked);
        EngineTally tally = new EngineTally(sc.sc());

        // The stars of the partitions, and (v, v) for each vertex with only self loops there.
        JavaRDD<Tuple2<Long, Long>> pairs = checked.mapPartitions(batch -> LocalStars.stars(batch, tally))
                .persist(StorageLevel.MEMORY_AND_DISK());
        long count = pairs.count();
        long afterLocalContraction = count;
        int levels = 0;
        for (int parts = pairs.getNumPartitions(); count > 0 && parts > 1 && count / ((parts + 1) / 2) <= mergeLimit;
             parts = pairs.getNumPartitions()) {
            JavaRDD<Tuple2<Long, Long>> joined = pairs.coalesce((parts + 1) / 2)
                    .mapPartitions(batch -> LocalStars.stars(batch, tally)).persist(StorageLevel.MEMORY_AND_DISK());
            count = joined.count();
            pairs.unpersist(false);
            pairs = joined;
            levels++;
        }
        List<JavaPairRDD<Long, Long>> forests = new ArrayList<>();
        int round = 0;
        // One partition left holds the star of every edge: the labels, with nothing left to round or
        // collect (its (v, v) pairs are the vertices with only self loops, their own components).
        boolean merged = pairs.getNumPartitions() == 1;
        JavaRDD<Long> loops = null;
        if (!merged) {
            // the rounds and the driver take edges: the (v, v) pairs wait aside for the result
            loops = pairs.filter(t -> t._1().equals(t._2())).map(Tuple2::_1).persist(StorageLevel.MEMORY_AND_DISK());
            JavaRDD<Tuple2<Long, Long>> edgesOnly = pairs.filter(t -> !t._1().equals(t._2()))
                    .persist(StorageLevel.MEMORY_AND_DISK());
            count = edgesOnly.count();
            if (loops.isEmpty()) {
                loops.unpersist(false);
                loops = null;
            }
            pairs.unpersist(false);
            pairs = edgesOnly;
        }
        while (!merged && count > driverThreshold) {
            if (++round > maxRounds) {
                throw new IllegalStateException(count + " pairs left after " + maxRounds + " rounds");
            }
            JavaRDD<Tuple2<Long, Long>> small = JavaPairRDD.fromJavaRDD(largeStar(pairs, byVertex))
                    .partitionBy(byVertex).map(t -> t).mapPartitions(batch -> LocalStars.stars(batch, tally));
            JavaRDD<long[]> grouped = contract(small, byVertex).persist(StorageLevel.MEMORY_AND_DISK());
            JavaRDD<Tuple2<Long, Long>> next = grouped.filter(t -> t[0] == EDGE).map(t -> new Tuple2<>(t[1], t[2]))
                    .mapPartitions(batch -> LocalStars.stars(batch, tally)).persist(StorageLevel.MEMORY_AND_DISK());
            JavaPairRDD<Long, Long> forest = grouped.filter(t -> t[0] == LEAF)
                    .mapToPair(t -> new Tuple2<>(t[1], t[2])).persist(StorageLevel.MEMORY_AND_DISK());
            if (checkpointInterval > 0 && round % checkpointInterval == 0) {
                checkpoint(sc, next.rdd());
                checkpoint(sc, forest.rdd());
            }
            count = next.count();
            forest.count();
            grouped.unpersist(false);
            pairs.unpersist(false);
            pairs = next;
            forests.add(forest);
        }

        long driverPairs = 0;
        JavaPairRDD<Long, Long> labels;
        if (merged) {
            labels = JavaPairRDD.fromJavaRDD(pairs);
        } else {
            List<Tuple2<Long, Long>> rest = pairs.collect();
            long[] from = new long[rest.size()];
            long[] to = new long[rest.size()];
            for (int i = 0; i < from.length; i++) {
                from[i] = rest.get(i)._1();
                to[i] = rest.get(i)._2();
            }
            pairs.unpersist(false);
            driverPairs = from.length;
            labels = JavaPairRDD.fromJavaRDD(sc.parallelize(LocalStars.stars(from, to, tally), p));
        }
        for (int i = forests.size() - 1; i >= 0; i--) {
            // (vertex, neighbour) -> (neighbour, vertex) joined with the neighbour's label
            JavaPairRDD<Long, Long> resolved = forests.get(i).mapToPair(Tuple2::swap)
                    .leftOuterJoin(labels, byVertex)
                    .mapToPair(t -> new Tuple2<>(t._2()._1(), t._2()._2().orElse(t._1())));
            labels = labels.union(resolved);
        }
        // Every vertex of a component of two or more is a key of the labels or, the smallest, a value.
        JavaRDD<Long> roots = labels.filter(t -> !t._1().equals(t._2())).values().distinct(p);
        JavaPairRDD<Long, Long> covered = labels.union(roots.mapToPair(c -> new Tuple2<>(c, c)));
        JavaPairRDD<Long, Long> result = covered;
        if (vertices != null || loops != null) {
            // The rest (only self loops, or only in the vertex table) are their own components.
            JavaRDD<Long> table = vertices == null ? null : vertices.map(SparkComponentLabeler::checked);
            JavaRDD<Long> extra = loops == null ? table : table == null ? loops : loops.union(table);
            result = covered.union(extra.mapToPair(v -> new Tuple2<>(v, v)).reduceByKey(byVertex, (a, b) -> a)
                    .subtractByKey(covered, byVertex));
        }
        // mapped once more so that Spark's class tag of the elements is Tuple2, which collect() needs
        result = result.mapToPair(t -> t).persist(StorageLevel.MEMORY_AND_DISK());
        // computed once here, so that the forests can go: the caller owns the persisted result
        result.count();
        if (loops != null) {
            loops.unpersist(false);
        }
        for (JavaPairRDD<Long, Long> forest : forests) {
            forest.unpersist(false);
        }
        if (merged) {
            pairs.unpersist(false);
        }
        RunMetrics metrics = new RunMetrics(tally.counts(), afterLocalContraction, levels, round, driverPairs);
        LOG.info("ccl4j-spark: batches labelled by engine {}, {} pairs after the local contraction, {} merge levels,"
                + " {} rounds, {} pairs labelled on the driver", metrics.batchesByEngine(),
                metrics.pairsAfterLocalContraction(), metrics.mergeLevels(), metrics.rounds(), metrics.driverPairs());
        metricsListener.accept(metrics);
        return result;
    }

    private static final long EDGE = 0;
    private static final long LEAF = 1;

    /**
     * Large star: for every vertex u, each neighbour larger than u linked to the smallest of u and its
     * neighbours. Every pair is sent to both ends; each comes out at most once, from its smaller end.
     */
    private static JavaRDD<Tuple2<Long, Long>> largeStar(JavaRDD<Tuple2<Long, Long>> pairs, Partitioner byVertex) {
        return bothWays(pairs).groupByKey(byVertex).flatMap(g -> {
            long u = g._1();
            long min = u;
            for (long v : g._2()) {
                min = Math.min(min, v);
            }
            List<Tuple2<Long, Long>> out = new ArrayList<>();
            Set<Long> seen = new HashSet<>();
            for (long v : g._2()) {
                if (v > u && seen.add(v)) {
                    out.add(new Tuple2<>(v, min));
                }
            }
            return out.iterator();
        });
    }

    /**
     * Contraction: a vertex whose one neighbour is smaller leaves as {@code {LEAF, vertex,
     * neighbour}}; every other pair comes out once, from its larger end, as {@code {EDGE, larger,
     * smaller}}. Only a larger end leaves, so the smallest id of every component stays.
     */
    private static JavaRDD<long[]> contract(JavaRDD<Tuple2<Long, Long>> pairs, Partitioner byVertex) {
        return bothWays(pairs).groupByKey(byVertex).flatMap(g -> {
            long u = g._1();
            Set<Long> neighbours = new HashSet<>();
            for (long v : g._2()) {
                neighbours.add(v);
            }
            if (neighbours.size() == 1) {
                long v = neighbours.iterator().next();
                if (v < u) {
                    return List.of(new long[] {LEAF, u, v}).iterator();
                }
            }
            List<long[]> out = new ArrayList<>();
            for (long v : neighbours) {
                if (v < u) {
                    out.add(new long[] {EDGE, u, v});
                }
            }
            return out.iterator();
        });
    }

    private static JavaPairRDD<Long, Long> bothWays(JavaRDD<Tuple2<Long, Long>> pairs) {
        return pairs.flatMapToPair(e -> List.of(e, e.swap()).iterator());
    }

    private static void checkpoint(JavaSparkContext sc, org.apache.spark.rdd.RDD<?> rdd) {
        if (sc.getCheckpointDir().isPresent()) {
            rdd.checkpoint();
        } else {
            rdd.localCheckpoint();
        }
    }

    private static Tuple2<Long, Long> checked(Tuple2<Long, Long> e) {
        if (e == null || e._1() == null || e._2() == null) {
            throw new IllegalArgumentException("edge " + e + " has a null id");
        }
        return e;
    }

    private static Long checked(Long v) {
        if (v == null) {
            throw new IllegalArgumentException("a vertex id is null");
        }
        return v;
    }

    /** The column {@code name} of {@code table}, refused when missing or not integral. */
    private static Column idColumn(Dataset<Row> table, String name, String what) {
        StructType schema = table.schema();
        int i;
        try {
            i = schema.fieldIndex(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the " + what + " table has no column '" + name + "'; its columns: "
                    + String.join(", ", schema.fieldNames()), e);
        }
        DataType type = schema.fields()[i].dataType();
        if (!ID_TYPES.contains(type)) {
            throw new IllegalArgumentException("column '" + name + "' of the " + what + " table is "
                    + type.simpleString() + "; ids must be integers (tinyint, smallint, int or bigint)");
        }
        return table.col(name);
    }
}
