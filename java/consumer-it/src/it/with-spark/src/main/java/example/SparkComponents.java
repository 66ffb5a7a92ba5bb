package example;

import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.ccl4j.spark.SparkComponentLabeler;

public class SparkComponents {
    public static void main(String[] args) {
        SparkConf conf = new SparkConf().setIfMissing("spark.master", "local[2]");  // spark-submit sets it
        SparkSession spark = SparkSession.builder().appName("components").config(conf).getOrCreate();
        Dataset<Row> edges = args.length > 0
                ? spark.read().parquet(args[0])                                     // columns src, dst
                : spark.createDataFrame(List.of(RowFactory.create(1L, 2L), RowFactory.create(3L, 2L),
                        RowFactory.create(10L, 11L), RowFactory.create(5L, 5L)),
                        new StructType().add("src", DataTypes.LongType).add("dst", DataTypes.LongType));
        Dataset<Row> components = SparkComponentLabeler.create().components(edges); // (id, component)
        for (Row r : components.orderBy("id").limit(20).collectAsList()) {
            System.out.println(r.getLong(0) + " -> " + r.getLong(1));
        }
    }
}
