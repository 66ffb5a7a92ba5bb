/**
 * Connected-component labelling of graphs and meshes, on NVIDIA GPUs, on the CPU and in pure Java,
 * and the book-keeping that follows it.
 *
 * <p><b>The labeler.</b> {@link org.ccl4j.ComponentLabeler} labels on one {@link org.ccl4j.Backend}:
 * {@code CUDA}, {@code CPU_PARALLEL} and {@code CPU_SERIAL} run the native library inside this
 * module, {@code JAVA} runs without native code, and {@code AUTO} ({@link
 * org.ccl4j.ComponentLabeler#create()}) picks CUDA when a device is present, else the CPU, else
 * Java. Open one, label as often as needed, close it. Every algorithm on every backend returns the
 * same <em>canonical labels</em>: each vertex gets the smallest vertex id of its component, each
 * cell of a mesh the smallest linear index {@code x + width * (y + height * z)} of its cluster
 * (background cells -1).
 *
 * <p><b>Inputs.</b>
 * <ul>
 * <li>Graphs: {@link org.ccl4j.CsrGraph}, symmetric CSR arrays off-heap, made from arrays
 *     ({@code fromArrays}), from edges ({@code fromEdges}, {@link org.ccl4j.GraphBuilder}), or over
 *     your own segments without a copy ({@code wrap}); {@link org.ccl4j.EdgeList}, edges labelled
 *     without building a CSR; {@link org.ccl4j.DeviceGraph}, a graph kept on the GPU.
 *     {@link org.ccl4j.LabelOptions} choose the {@link org.ccl4j.Algorithm} and its parameters.</li>
 * <li>Meshes: {@link org.ccl4j.Grid}, 2D or 3D, uint8 or int32 cells, dense, strided or a region
 *     of a larger grid. {@link org.ccl4j.MeshOptions} choose the connectivity, periodic boundaries,
 *     the {@link org.ccl4j.MeshMode} and the {@link org.ccl4j.MeshAlgorithm};
 *     {@link org.ccl4j.MemoryNeeds} says what a labelling will need before it runs.</li>
 * </ul>
 *
 * <p><b>Results.</b> {@link org.ccl4j.Labels} (graphs) and {@link org.ccl4j.MeshLabels} (meshes,
 * int32 or, past 2^31 cells, int64 labels) with their {@link org.ccl4j.Timings}; the book-keeping
 * of {@code Labels}, run where the labels came from: count, compaction, sizes, a
 * {@link org.ccl4j.Histogram}, {@link org.ccl4j.MemberLists}, filters and the largest
 * {@link org.ccl4j.Component}s. Statistics tables, one row per component in a
 * {@link org.ccl4j.Numbering}: {@link org.ccl4j.MeshStatistics} ({@link org.ccl4j.Region}: size,
 * bounding box, centroid, faces touched, periodic wrapping, intensity sums over an
 * {@link org.ccl4j.Intensity}) and {@link org.ccl4j.GraphStatistics}
 * ({@link org.ccl4j.ComponentStatistics}). Shortest paths within components:
 * {@link org.ccl4j.Distances} and {@link org.ccl4j.DistanceMatrix}. {@link org.ccl4j.UnionFind} and
 * {@link org.ccl4j.MeshUnionFind} are the single-threaded references the tests compare with.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *      ComponentLabeler labeler = ComponentLabeler.create()) {         // AUTO: CUDA if present, else CPU
 *     CsrGraph graph = CsrGraph.fromEdges(arena, 6, new int[] {0, 1, 3}, new int[] {1, 2, 4});
 *     Labels labels = labeler.label(graph);                            // 0 0 0 3 3 5
 *     System.out.println(labels.count() + " components");              // 3 components
 *
 *     Grid image = Grid.allocate(arena, Grid.CellType.U8, 64, 64, 1);
 *     image.set(10, 20, 0, 1);
 *     image.set(11, 21, 0, 1);                                         // a diagonal neighbour
 *     MeshLabels clusters = labeler.label(image, MeshOptions.defaults().withConnectivity(8));
 *     System.out.println(clusters.count() + " cluster, label " + clusters.get(11, 21, 0)); // 1, 10 + 64 * 20
 * }
 * }</pre>
 *
 * <p><b>Failures.</b> Malformed input and options that do not fit it raise
 * {@link java.lang.IllegalArgumentException} before native code reads anything; an algorithm that
 * does not run on the labeler's backend raises {@link java.lang.UnsupportedOperationException}; a
 * backend that cannot run here, {@link org.ccl4j.BackendUnavailableException}; a native failure,
 * {@link org.ccl4j.Ccl4jException} with its {@link org.ccl4j.Ccl4jException.Status}.
 *
 * <p>{@link org.ccl4j.ComponentLabeler#capabilities()} says what this installation can do: the
 * library's version and where it was loaded from, the usable backends and the CUDA devices.
 * {@link org.ccl4j.PinnedMemory} allocates page-locked host memory for fast transfers to the GPU.
 */
package org.ccl4j;
