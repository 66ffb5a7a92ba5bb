/**
 * ccl4j I/O: the files that ccl4j's labeler reads and writes.
 *
 * <ul>
 * <li>{@link org.ccl4j.io}: graph files, read into off-heap {@code CsrGraph}s and written back
 *     ({@link org.ccl4j.io.GraphReader}, {@link org.ccl4j.io.GraphWriter}) in the formats of
 *     {@link org.ccl4j.io.GraphFormat}: ccl4j's binary CSR ({@code .csr}), ECL's ({@code .egr}),
 *     Matrix Market, SNAP edge lists, DIMACS ({@code .gr}, {@code .col}, {@code .clq}) and plain edge
 *     lists; labels as raw int32 or text ({@link org.ccl4j.io.LabelWriter}); the benchmark suite's
 *     graph generators ({@link org.ccl4j.io.GraphGenerator}).</li>
 * <li>{@link org.ccl4j.io.grid}: images and volumes, read into off-heap {@code Grid}s and written
 *     back ({@link org.ccl4j.io.grid.GridReader}, {@link org.ccl4j.io.grid.GridWriter}) as PGM,
 *     PNG, NumPy, NRRD, NIfTI-1, TIFF or raw cells; label pictures
 *     ({@link org.ccl4j.io.grid.LabelImageWriter}); the test fields of Hawick et al.
 *     ({@link org.ccl4j.io.grid.GridGenerators}).</li>
 * </ul>
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *      ComponentLabeler labeler = ComponentLabeler.create()) {
 *     CsrGraph graph = GraphReader.read(Path.of("graph.mtx"), arena).graph();   // format detected
 *     System.out.println(labeler.label(graph).count() + " components");
 * }
 * }</pre>
 *
 * <p>The module requires {@code org.ccl4j} transitively (its API names ccl4j's types), and
 * {@code java.desktop} for writing PNG files and reading and writing TIFF files through
 * {@code javax.imageio}; PNG files are read by a decoder of its own.
 */
module org.ccl4j.io {
    requires transitive org.ccl4j;
    requires java.desktop;

    exports org.ccl4j.io;
    exports org.ccl4j.io.grid;
}
