package org.ccl4j.spark.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.graphx.Edge;
import org.apache.spark.graphx.Graph;
import org.apache.spark.graphx.lib.ConnectedComponents;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.ccl4j.spark.RunMetrics;
import org.ccl4j.spark.SparkComponentLabeler;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * ccl4j-spark against GraphX's {@code ConnectedComponents} on the same generated edges in local mode:
 * wall time, shuffle bytes written (summed over the tasks' metrics), ccl4j-spark's metrics (merges,
 * rounds) and GraphX's Pregel iterations, and the two results compared vertex by vertex. Arguments are {@code name=value}:
 * <ul>
 * <li>{@code graphs}: comma-separated {@code rmat:SCALE:EDGES} (R-MAT, a=0.57 b=0.19 c=0.19) and
 *     {@code grid:SIDE} (SIDE x SIDE 4-neighbour grid, ids scrambled), default
 *     {@code rmat:20:10000000,grid:2237,grid:100};</li>
 * <li>{@code master} (default {@code local[2]}), {@code partitions} (default 8), {@code runs}
 *     (default 1: the median is printed), {@code seed} (default 42), {@code graphxTimeoutS} (default
 *     900: a GraphX run past it is cancelled and reported as a time-out).</li>
 * </ul>
 * Generating and caching the edges is not timed; both sides start from the same cached edge RDD.
 */
public final class SparkVsGraphX {
    private static final ClassTag<Integer> INT = ClassTag$.MODULE$.apply(Integer.class);

    /** Shuffle bytes and jobs, from the listener bus (drained before reading). */
    static final class Metrics extends SparkListener {
        final AtomicLong shuffleBytes = new AtomicLong();
        final AtomicInteger jobs = new AtomicInteger();

        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
            if (end.taskMetrics() != null) {
                shuffleBytes.addAndGet(end.taskMetrics().shuffleWriteMetrics().bytesWritten());
            }
        }

        @Override
        public void onJobStart(SparkListenerJobStart start) {
            jobs.incrementAndGet();
        }
    }

    /**
     * GraphX's Pregel iterations, from its log line "Pregel finished iteration i": its jobs say
     * nothing exact (each iteration asks {@code isEmpty()}, one job or more).
     */
    static final class PregelIterations extends AbstractAppender {
        final AtomicInteger finished = new AtomicInteger();

        PregelIterations() {
            super("pregel-iterations", null, null, true, Property.EMPTY_ARRAY);
        }

        @Override
        public void append(LogEvent event) {
            if (event.getMessage().getFormattedMessage().startsWith("Pregel finished iteration")) {
                finished.incrementAndGet();
            }
        }

        /** Pregel's INFO lines to this appender only (not to the console). */
        static PregelIterations attach() {
            PregelIterations counter = new PregelIterations();
            counter.start();
            LoggerContext context = (LoggerContext) LogManager.getContext(false);
            String name = "org.apache.spark.graphx.Pregel";
            LoggerConfig logger = new LoggerConfig(name, Level.INFO, false);
            logger.addAppender(counter, Level.INFO, null);
            context.getConfiguration().addLogger(name, logger);
            context.updateLoggers();
            return counter;
        }
    }

    record Result(double seconds, long shuffleBytes, int rounds, JavaPairRDD<Long, Long> labels) {
    }

    private final JavaSparkContext sc;
    private final Metrics metrics = new Metrics();
    private final PregelIterations pregel = PregelIterations.attach();
    private final int partitions;
    private final long seed;
    private final long graphxTimeoutS;

    private SparkVsGraphX(JavaSparkContext sc, int partitions, long seed, long graphxTimeoutS) {
        this.sc = sc;
        this.partitions = partitions;
        this.seed = seed;
        this.graphxTimeoutS = graphxTimeoutS;
        sc.sc().addSparkListener(metrics);
    }

    public static void main(String[] args) throws Exception {
        String graphs = "rmat:20:10000000,grid:2237,grid:100";
        String master = "local[2]";
        int partitions = 8;
        int runs = 1;
        long seed = 42;
        long timeout = 900;
        for (String a : args) {
            String[] kv = a.split("=", 2);
            switch (kv[0]) {
                case "graphs" -> graphs = kv[1];
                case "master" -> master = kv[1];
                case "partitions" -> partitions = Integer.parseInt(kv[1]);
                case "runs" -> runs = Integer.parseInt(kv[1]);
                case "seed" -> seed = Long.parseLong(kv[1]);
                case "graphxTimeoutS" -> timeout = Long.parseLong(kv[1]);
                default -> throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        SparkSession spark = SparkSession.builder().master(master).appName("ccl4j-spark vs GraphX")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        SparkVsGraphX bench = new SparkVsGraphX(JavaSparkContext.fromSparkContext(spark.sparkContext()),
                partitions, seed, timeout);
        System.out.printf("master=%s partitions=%d runs=%d seed=%d graphxTimeoutS=%d java=%s cores=%d maxHeap=%dMiB%n",
                master, partitions, runs, seed, timeout, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        for (String g : graphs.split(",")) {
            bench.compare(g, runs);
        }
        spark.stop();
    }

    private void compare(String spec, int runs) throws Exception {
        JavaRDD<Tuple2<Long, Long>> edges = generate(spec).persist(StorageLevel.MEMORY_AND_DISK());
        long m = edges.count();
        long n = edges.flatMap(e -> List.of(e._1(), e._2()).iterator()).distinct().count();
        System.out.printf("%n== %s: %,d edges, %,d vertices, %d partitions%n", spec, m, n, edges.getNumPartitions());

        double[] oursTimes = new double[runs];
        double[] theirTimes = new double[runs];
        boolean timedOut = false;
        for (int r = 0; r < runs; r++) {
            Result ours = ccl4j(edges);
            oursTimes[r] = ours.seconds();
            System.out.printf("ccl4j-spark run %d: %.1f s, shuffle %,d bytes, %d rounds%n",
                    r + 1, ours.seconds(), ours.shuffleBytes(), ours.rounds());
            Result theirs = timedOut ? null : graphxWithin(edges);
            if (theirs == null) {
                timedOut = true;
                System.out.printf("GraphX run %d: time-out (cancelled after %d s)%n", r + 1, graphxTimeoutS);
            } else {
                theirTimes[r] = theirs.seconds();
                System.out.printf("GraphX run %d: %.1f s, shuffle %,d bytes, %d Pregel iterations%n",
                        r + 1, theirs.seconds(), theirs.shuffleBytes(), theirs.rounds());
                long differing = differing(ours.labels(), theirs.labels());
                System.out.printf("labels: %s (%,d vertices differ or are missing on one side)%n",
                        differing == 0 ? "EQUAL" : "DIFFERENT", differing);
                if (differing != 0) {
                    throw new AssertionError(spec + ": the labels differ");
                }
            }
            freeAllBut(edges);
        }
        double oursMedian = median(oursTimes);
        if (timedOut) {
            System.out.printf("median: ccl4j-spark %.1f s; GraphX time-out (> %d s)%n", oursMedian, graphxTimeoutS);
        } else {
            double theirMedian = median(theirTimes);
            System.out.printf("median: ccl4j-spark %.1f s, GraphX %.1f s, ratio %.1fx%n",
                    oursMedian, theirMedian, theirMedian / oursMedian);
        }
        edges.unpersist(true);
    }

    private interface Run {
        JavaPairRDD<Long, Long> run() throws Exception;
    }

    /** Times one labelling; the shuffle bytes and jobs are those of its own jobs. */
    private Result measure(Run run) throws Exception {
        System.gc();
        drainEvents();
        long bytes = metrics.shuffleBytes.get();
        int jobs = metrics.jobs.get();
        long t0 = System.nanoTime();
        JavaPairRDD<Long, Long> labels = run.run();
        double seconds = (System.nanoTime() - t0) / 1e9;
        drainEvents();
        return new Result(seconds, metrics.shuffleBytes.get() - bytes, metrics.jobs.get() - jobs, labels);
    }

    /** Every task's metrics counted: after a long Pregel run the bus takes more than its default 10 s. */
    private void drainEvents() throws TimeoutException {
        sc.sc().listenerBus().waitUntilEmpty(TimeUnit.MINUTES.toMillis(10));
    }

    private Result ccl4j(JavaRDD<Tuple2<Long, Long>> edges) throws Exception {
        AtomicReference<RunMetrics> seen = new AtomicReference<>();
        Result r = measure(() -> SparkComponentLabeler.create().withMetricsListener(seen::set).components(edges));
        RunMetrics m = seen.get();
        System.out.printf("ccl4j-spark: %s, %,d pairs after the local contraction, %d merge levels, %d rounds,"
                + " %,d pairs on the driver%n", m.batchesByEngine(), m.pairsAfterLocalContraction(), m.mergeLevels(),
                m.rounds(), m.driverPairs());
        return new Result(r.seconds(), r.shuffleBytes(), m.rounds(), r.labels());
    }

    /** GraphX in a job group of its own, cancelled past the time limit (then null). */
    private Result graphxWithin(JavaRDD<Tuple2<Long, Long>> edges) throws Exception {
        int iterations = pregel.finished.get();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<Result> run = thread.submit(() -> {
                sc.setJobGroup("graphx", "GraphX ConnectedComponents", true);
                return measure(() -> graphx(edges));
            });
            try {
                Result r = run.get(graphxTimeoutS, TimeUnit.SECONDS);
                return new Result(r.seconds(), r.shuffleBytes(), pregel.finished.get() - iterations, r.labels());
            } catch (TimeoutException e) {
                // a cancel that falls between two Pregel jobs finds none running: again until the run ends
                boolean ended = false;
                while (!ended) {
                    sc.cancelJobGroup("graphx");
                    try {
                        run.get(1, TimeUnit.SECONDS);
                        ended = true;
                    } catch (ExecutionException cancelled) {
                        ended = true;
                    } catch (TimeoutException stillRunning) {
                        // cancelled again on the next pass
                    }
                }
                System.out.printf("GraphX cancelled after %d Pregel iterations%n", pregel.finished.get() - iterations);
                return null;
            }
        } finally {
            thread.shutdown();
        }
    }

    private static JavaPairRDD<Long, Long> graphx(JavaRDD<Tuple2<Long, Long>> edges) {
        JavaRDD<Edge<Integer>> e = edges.map(t -> new Edge<>(t._1(), t._2(), 0));
        Graph<Integer, Integer> graph = Graph.fromEdges(e.rdd(), 0,
                StorageLevel.MEMORY_AND_DISK(), StorageLevel.MEMORY_AND_DISK(), INT, INT);
        Graph<Object, Integer> cc = ConnectedComponents.run(graph, INT, INT);
        JavaPairRDD<Long, Long> labels = cc.vertices().toJavaRDD()
                .mapToPair(t -> new Tuple2<>((Long) t._1(), (Long) t._2()))
                .persist(StorageLevel.MEMORY_AND_DISK());
        labels.count();
        return labels;
    }

    /** Vertices whose labels differ, or which only one side has. */
    private static long differing(JavaPairRDD<Long, Long> a, JavaPairRDD<Long, Long> b) {
        return a.fullOuterJoin(b)
                .filter(t -> !(t._2()._1().isPresent() && t._2()._2().isPresent()
                        && t._2()._1().get().equals(t._2()._2().get())))
                .count();
    }

    /** Whatever the last runs persisted (results, GraphX's graphs) goes, the edges stay. */
    private void freeAllBut(JavaRDD<?> keep) {
        for (var rdd : sc.getPersistentRDDs().values()) {
            if (rdd.id() != keep.id()) {
                rdd.unpersist(true);
            }
        }
    }

    private JavaRDD<Tuple2<Long, Long>> generate(String spec) {
        String[] p = spec.split(":");
        long s = seed;
        return switch (p[0]) {
            case "rmat" -> {
                int scale = Integer.parseInt(p[1]);
                long count = Long.parseLong(p[2]);
                yield slices(count).flatMap(slice -> rmat(scale, slice[0], slice[1], s));
            }
            case "grid" -> {
                long side = Long.parseLong(p[1]);
                yield slices(side).flatMap(rows -> grid(side, rows[0], rows[1]));
            }
            default -> throw new IllegalArgumentException("unknown graph " + spec);
        };
    }

    /** [0, count) in {@code partitions} ranges, one a partition. */
    private JavaRDD<long[]> slices(long count) {
        List<long[]> ranges = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            ranges.add(new long[] {count * i / partitions, count * (i + 1) / partitions});
        }
        return sc.parallelize(ranges, partitions);
    }

    /** R-MAT edges {@code [from, to)}: each edge its own seeded generator, so a partition's edges do not depend on the partitioning. */
    private static Iterator<Tuple2<Long, Long>> rmat(int scale, long from, long to, long seed) {
        List<Tuple2<Long, Long>> out = new ArrayList<>((int) (to - from));
        for (long i = from; i < to; i++) {
            SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
            long u = 0;
            long v = 0;
            for (int bit = 0; bit < scale; bit++) {
                double x = random.nextDouble();
                // quadrants a=0.57, b=0.19, c=0.19, d=0.05
                if (x >= 0.57 && x < 0.76) {
                    v |= 1L << bit;
                } else if (x >= 0.76 && x < 0.95) {
                    u |= 1L << bit;
                } else if (x >= 0.95) {
                    u |= 1L << bit;
                    v |= 1L << bit;
                }
            }
            out.add(new Tuple2<>(u, v));
        }
        return out.iterator();
    }

    /** The edges of rows {@code [from, to)} of a side x side grid: right and down neighbours. */
    private static Iterator<Tuple2<Long, Long>> grid(long side, long from, long to) {
        List<Tuple2<Long, Long>> out = new ArrayList<>();
        for (long r = from; r < to; r++) {
            for (long c = 0; c < side; c++) {
                long v = scramble(r * side + c);
                if (c + 1 < side) {
                    out.add(new Tuple2<>(v, scramble(r * side + c + 1)));
                }
                if (r + 1 < side) {
                    out.add(new Tuple2<>(v, scramble((r + 1) * side + c)));
                }
            }
        }
        return out.iterator();
    }

    /** A bijection of non-negative longs below 2^40, so that neighbours' ids are far apart and the smallest id is anywhere. */
    private static long scramble(long v) {
        return (v * 0x9E3779B97L) & ((1L << 40) - 1);
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
