package org.ccl4j.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.split;
import static org.apache.spark.sql.functions.trim;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The public SNAP graphs of ../shared/graphs (beside the checkout), read by Spark's text reader as a
 * user reads a SNAP edge file, labelled in merges, in rounds and on the driver: the component count and
 * largest component of expected.tsv (an independent tool's), and every label GraphX's. Without
 * ../shared a notice says they are not checked.
 */
class SharedSnapGraphsTest {
    private static final Path SHARED_GRAPHS = Path.of("..", "shared", "graphs");

    @TestFactory
    Stream<DynamicTest> snapGraphsHaveTheExpectedComponentsAndGraphXsLabels() throws IOException {
        Path expected = SHARED_GRAPHS.resolve("expected.tsv");
        if (!Files.isRegularFile(expected)) {
            System.out.println("NOTICE: " + expected + " not found - the shared SNAP graphs are not labelled on Spark");
            return Stream.empty();
        }
        List<String> rows = Files.readAllLines(expected);
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : rows.subList(1, rows.size())) {  // after the header
            String[] f = line.split("\t");
            Path file = SHARED_GRAPHS.resolve(f[0]);
            long components = Long.parseLong(f[2]);
            long largest = Long.parseLong(f[3]);
            tests.add(DynamicTest.dynamicTest(f[0], () -> check(file, components, largest)));
        }
        return tests.stream();
    }

    private static void check(Path file, long components, long largest) {
        // SNAP's text: '#' comments, two ids a line separated by a tab or a space, CRLF in some files
        Column fields = split(trim(col("value")), "\\s+");
        Dataset<Row> edges = TestSpark.session().read().text(file.toString())
                .filter(not(col("value").startsWith("#")).and(length(trim(col("value"))).gt(0)))
                .select(fields.getItem(0).cast(DataTypes.LongType).as("src"),
                        fields.getItem(1).cast(DataTypes.LongType).as("dst"))
                .repartition(4);
        List<long[]> pairs = new ArrayList<>();
        for (Row r : edges.collectAsList()) {
            pairs.add(new long[] {r.getLong(0), r.getLong(1)});
        }
        Map<Long, Long> graphx = TestSpark.graphx(pairs.toArray(long[][]::new), new long[0], 4);
        for (SparkComponentLabeler labeler : List.of(SparkComponentLabeler.create(),
                SparkComponentLabeler.create().withDriverThreshold(0),
                SparkComponentLabeler.create().withDriverThreshold(0).withMergeLimit(0))) {
            Map<Long, Long> labels = TestSpark.collect(labeler.components(edges));
            Map<Long, Long> sizes = new HashMap<>();
            labels.values().forEach(c -> sizes.merge(c, 1L, Long::sum));
            assertEquals(components, sizes.size(), file + ": components");
            assertEquals(largest, sizes.values().stream().mapToLong(Long::longValue).max().orElse(0), file + ": largest");
            assertEquals(graphx, labels, file + ": labels against GraphX's");
        }
    }
}
