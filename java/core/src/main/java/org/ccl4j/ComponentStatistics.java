package org.ccl4j;

/**
 * One row of a {@link GraphStatistics} table: a component of a graph with its label in the table's
 * numbering, its smallest and largest vertex id, its vertex and edge counts (edges: arcs u -> v
 * with {@code u < v}, and self-loop arcs, so that a symmetric CSR graph gives its edges), and the largest
 * degree (arcs) of its vertices.
 *
 * @param label the component's label in the table's numbering
 * @param minVertex its smallest vertex id: its canonical label
 * @param maxVertex its largest vertex id
 * @param vertices its number of vertices
 * @param edges its number of edges: arcs {@code u -> v} with {@code u < v}, and self-loop arcs
 * @param maxDegree the largest number of arcs leaving one of its vertices
 */
public record ComponentStatistics(int label, int minVertex, int maxVertex, long vertices, long edges, long maxDegree) {
}
