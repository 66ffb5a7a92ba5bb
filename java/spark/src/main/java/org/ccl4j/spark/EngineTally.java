package org.ccl4j.spark;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.util.LongAccumulator;
import org.ccl4j.Backend;

/**
 * One run's count of the batches ccl4j labelled, by engine: a named accumulator per backend, which
 * the Spark UI shows on the stages that labelled ("ccl4j batches on CPU_PARALLEL").
 */
final class EngineTally implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<String, LongAccumulator> batches = new LinkedHashMap<>();

    EngineTally(SparkContext sc) {
        for (Backend b : Backend.values()) {
            if (b != Backend.AUTO) {
                batches.put(b.name(), sc.longAccumulator("ccl4j batches on " + b.name()));
            }
        }
    }

    /** One more batch labelled on {@code backend} (a resolved backend's name). */
    void add(String backend) {
        batches.get(backend).add(1);
    }

    /** The engines that labelled at least one batch, with their counts. */
    Map<String, Long> counts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        batches.forEach((name, accumulator) -> {
            if (accumulator.value() > 0) {
                counts.put(name, accumulator.value());
            }
        });
        return counts;
    }
}
