/**
 * Images and volumes: reading them into off-heap {@link org.ccl4j.Grid}s, writing grids and label
 * pictures, and generating the test fields of Hawick, Leist &amp; Playne 2010.
 *
 * <ul>
 * <li>{@link org.ccl4j.io.grid.GridReader} reads a {@link org.ccl4j.io.grid.GridFormat}: PGM
 *     ({@code P2}, {@code P5}, 8 or 16 bits), PNG (a decoder of its own: every colour type and bit
 *     depth, interlaced or not; greyscale gives its samples, colour its luminance or, with
 *     {@link org.ccl4j.io.grid.GridReadOptions.ColorMode#RGB}, {@code 0xRRGGBB}) and raw cells
 *     (uint8 or little-endian int32, any size), and the arrays image users compare with: NumPy
 *     {@code .npy}, NRRD, NIfTI-1 and TIFF stacks (uint8 as uint8, the other integers widened to
 *     int32, float32 through a threshold). {@link org.ccl4j.io.grid.GridReadOptions} give the
 *     format, a raw file's dimensions and cell type, and a threshold that turns any input into a
 *     uint8 foreground field.</li>
 * <li>{@link org.ccl4j.io.grid.GridWriter} writes a grid as PGM, PNG (greyscale, 8 or 16 bits,
 *     through {@code javax.imageio}), NumPy, NRRD, NIfTI-1, TIFF or raw cells, by the extension.</li>
 * <li>{@link org.ccl4j.io.grid.LabelImageWriter} writes labels as raw little-endian int32 (int64
 *     for the wide labels of grids past 2^31 cells), as NumPy, NRRD, NIfTI-1 or TIFF arrays, or as
 *     PNG pictures, each cluster in its own colour, one picture per z-slice of a volume.</li>
 * <li>{@link org.ccl4j.io.grid.GridGenerators} makes the test fields deterministically: Hawick's
 *     spiral, random site percolation, a quenched binary alloy and Cahn–Hilliard domains, also from
 *     command-line specs such as {@code percolation:512x512:0.6:1}.</li>
 * </ul>
 * A malformed file raises an {@link org.ccl4j.io.grid.ImageFormatException} (an
 * {@link java.io.IOException}) naming the file, the line or byte offset and the problem; sizes are
 * checked against the file before the grid is allocated.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *      ComponentLabeler labeler = ComponentLabeler.create()) {
 *     Grid mask = GridReader.read(Path.of("scan.png"),
 *             GridReadOptions.defaults().withThreshold(128), arena);     // uint8: 1 where value >= 128
 *     MeshLabels labels = labeler.label(mask, MeshOptions.defaults().withConnectivity(8));
 *     LabelImageWriter.writePng(labels.segment(), mask.width(), mask.height(), mask.depth(),
 *             Path.of("clusters.png"));                                 // a colour per cluster
 *     Grid field = GridGenerators.fromSpec("percolation:512x512:0.6:1", arena);
 *     GridWriter.write(field, Path.of("field.pgm"));                     // .pgm, .png, else raw
 * }
 * }</pre>
 */
package org.ccl4j.io.grid;
