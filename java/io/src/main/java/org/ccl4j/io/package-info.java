/**
 * Graph files: reading them into off-heap {@link org.ccl4j.CsrGraph}s, writing graphs and labels,
 * and generating the graphs of ccl4j's benchmark suite.
 *
 * <ul>
 * <li>{@link org.ccl4j.io.GraphReader} reads a file in any {@link org.ccl4j.io.GraphFormat}
 *     ({@code AUTO} detects it by extension and content): ccl4j's binary CSR ({@code .csr}, with a
 *     checked header and 4- or 8-byte offsets, memory-mapped), ECL's ({@code .egr}, memory-mapped
 *     when already clean), Matrix Market coordinate files, SNAP edge lists, DIMACS
 *     ({@code .gr}, {@code .col}, {@code .clq}) and plain edge lists. The result, a
 *     {@link org.ccl4j.io.GraphFile}, holds the graph, symmetrised with self loops and repeated
 *     edges dropped, and for renumbered SNAP ids the file's ids. {@link org.ccl4j.io.ReadOptions}
 *     keep the file's ids or allow more vertices than the file's size justifies.</li>
 * <li>{@link org.ccl4j.io.GraphWriter} writes a graph in the same formats, so that it reads back
 *     as written; {@link org.ccl4j.io.LabelWriter} writes labels as raw little-endian int32 or as
 *     text lines {@code vertex label}.</li>
 * <li>{@link org.ccl4j.io.GraphGenerator} generates the benchmark suite's graphs (grids, R-MAT,
 *     Watts–Strogatz, power law, ...) in the JVM, reproducing the suite's reference generator.</li>
 * </ul>
 * A malformed file raises a {@link org.ccl4j.io.GraphFormatException} naming the file, the line or
 * byte offset, the value and what is wrong with it; nothing is allocated beyond what the file's size
 * justifies.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *      ComponentLabeler labeler = ComponentLabeler.create()) {
 *     GraphFile file = GraphReader.read(Path.of("graph.mtx"), arena);  // format detected
 *     Labels labels = labeler.label(file.graph());
 *     LabelWriter.writeBinary(labels.segment(), labels.vertexCount(), Path.of("labels.bin"));
 *     GraphWriter.write(file.graph(), Path.of("graph.csr"), GraphFormat.CSR); // mapped when read again
 * }
 * }</pre>
 */
package org.ccl4j.io;
