package org.ccl4j.spark;

import java.util.Map;

/**
 * What one labelling did: where ccl4j ran and how much was left for the rounds and the driver.
 * The Spark UI shows the same counts as named accumulators ("ccl4j batches on CUDA", ...) on the
 * stages that labelled, and the driver logs them at INFO when the run ends.
 *
 * @param batchesByEngine the batches of edges ccl4j labelled, by the backend that labelled them
 *                        ({@code CUDA}, {@code CPU_PARALLEL}, {@code CPU_SERIAL}, {@code JAVA}): each
 *                        partition with an edge in the local contraction, in every round's small star
 *                        and its contraction, each merge, and the driver's; a task that Spark retries
 *                        counts again
 * @param pairsAfterLocalContraction the {@code (vertex, local root)} pairs that left the partitions
 * @param mergeLevels the times the partitions' stars were merged pairwise
 * @param rounds the rounds of large star, small star and contraction
 * @param driverPairs the pairs labelled in the driver's one call
 */
public record RunMetrics(Map<String, Long> batchesByEngine, long pairsAfterLocalContraction, int mergeLevels,
                         int rounds, long driverPairs) {
    /** Copies the map. */
    public RunMetrics {
        batchesByEngine = Map.copyOf(batchesByEngine);
    }
}
