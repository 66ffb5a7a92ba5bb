/**
 * ccl4j: connected-component labelling of graphs and meshes on NVIDIA GPUs and CPUs, through the
 * Foreign Function &amp; Memory API. Start with {@link org.ccl4j.ComponentLabeler}.
 *
 * <ul>
 * <li>{@link org.ccl4j}: the labeler and its backends, the inputs (graphs in CSR form, edge lists,
 *     2D and 3D grids of cells), the options, and the results: canonical labels (each vertex or
 *     cell labelled with the smallest id or index of its component, on every backend alike), their
 *     book-keeping (counts, compaction, sizes, histograms, member lists, filters), statistics tables
 *     with a row per component, and shortest-path distances within components.</li>
 * <li>{@link org.ccl4j.physics}: lattices, bond percolation, Swendsen–Wang cluster updates of the
 *     Ising model and Cahn–Hilliard coarsening, labelled by the same engines.</li>
 * </ul>
 * Files (graph formats, images, volumes, label pictures) are the module {@code org.ccl4j.io}
 * (ccl4j-io); JGraphT graphs, the module {@code org.ccl4j.jgrapht} (ccl4j-jgrapht).
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *      ComponentLabeler labeler = ComponentLabeler.create()) {         // AUTO: CUDA if present, else CPU
 *     CsrGraph graph = CsrGraph.fromEdges(arena, 6, new int[] {0, 1, 3}, new int[] {1, 2, 4});
 *     Labels labels = labeler.label(graph);                            // 0 0 0 3 3 5
 *     System.out.println(labels.count() + " components, the largest has "
 *             + labels.largestComponentSize() + " vertices");          // 3 components, ... 3 vertices
 * }
 * }</pre>
 *
 * <p>The native library is inside this module (Linux x86-64, glibc 2.28 or newer: the CUDA backend
 * when it was built with {@code nvcc}, and the CPU backends); it needs native access, granted with
 * {@code --enable-native-access=org.ccl4j} (or {@code ALL-UNNAMED} on the class path). Where it
 * cannot load (another platform, or {@code -Dccl4j.native=false}),
 * {@link org.ccl4j.ComponentLabeler#create()} labels on the pure-Java backend and logs one warning
 * saying why. The module requires only {@code java.base}.
 */
module org.ccl4j {
    exports org.ccl4j;
    exports org.ccl4j.physics;
}
