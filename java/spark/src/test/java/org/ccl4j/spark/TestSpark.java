package org.ccl4j.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.graphx.Edge;
import org.apache.spark.graphx.Graph;
import org.apache.spark.graphx.lib.ConnectedComponents;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/** One local SparkSession for every test class of this JVM (Spark takes seconds to start), and GraphX as the reference. */
final class TestSpark {
    private static SparkSession session;

    private TestSpark() {
    }

    static synchronized SparkSession session() {
        if (session == null) {
            // two threads, and a failed task tried once more (local mode's default is no retry)
            session = SparkSession.builder().master("local[2,2]").appName("ccl4j-spark-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .getOrCreate();
            // Spark's shutdown hook stops the session when the JVM ends
        }
        return session;
    }

    static JavaSparkContext context() {
        return JavaSparkContext.fromSparkContext(session().sparkContext());
    }

    /** Edges {@code (src, dst)} as a table of {@code partitions} partitions, one after another. */
    static Dataset<Row> edgeTable(long[][] edges, int partitions) {
        List<Row> rows = new ArrayList<>();
        for (long[] e : edges) {
            rows.add(RowFactory.create(e[0], e[1]));
        }
        StructType schema = new StructType()
                .add("src", DataTypes.LongType, false)
                .add("dst", DataTypes.LongType, false);
        return session().createDataFrame(context().parallelize(rows, partitions), schema);
    }

    static Dataset<Row> vertexTable(long[] ids) {
        List<Row> rows = new ArrayList<>();
        for (long id : ids) {
            rows.add(RowFactory.create(id));
        }
        return session().createDataFrame(rows, new StructType().add("id", DataTypes.LongType, false));
    }

    static Map<Long, Long> collect(Dataset<Row> components) {
        Map<Long, Long> out = new HashMap<>();
        for (Row r : components.collectAsList()) {
            Long before = out.put(r.getLong(0), r.getLong(1));
            if (before != null) {
                throw new AssertionError("vertex " + r.getLong(0) + " appears twice");
            }
        }
        return out;
    }

    /** GraphX's ConnectedComponents of the same edges and vertices: the smallest id of each component. */
    static Map<Long, Long> graphx(long[][] edges, long[] vertices, int partitions) {
        JavaSparkContext sc = context();
        List<Edge<Integer>> edgeList = new ArrayList<>();
        for (long[] e : edges) {
            edgeList.add(new Edge<>(e[0], e[1], 0));
        }
        List<Tuple2<Object, Integer>> vertexList = new ArrayList<>();
        for (long v : vertices) {
            vertexList.add(new Tuple2<>(v, 0));
        }
        ClassTag<Integer> tag = ClassTag$.MODULE$.apply(Integer.class);
        JavaRDD<Edge<Integer>> edgeRdd = sc.parallelize(edgeList, partitions);
        JavaRDD<Tuple2<Object, Integer>> vertexRdd = sc.parallelize(vertexList, partitions);
        Graph<Integer, Integer> graph = Graph.apply(vertexRdd.rdd(), edgeRdd.rdd(), 0,
                StorageLevel.MEMORY_ONLY(), StorageLevel.MEMORY_ONLY(), tag, tag);
        Graph<Object, Integer> cc = ConnectedComponents.run(graph, tag, tag);
        Map<Long, Long> out = new HashMap<>();
        for (Tuple2<Object, Object> t : cc.vertices().toJavaRDD().collect()) {
            out.put((Long) t._1(), (Long) t._2());
        }
        graph.unpersist(false);
        cc.unpersist(false);
        return out;
    }
}
