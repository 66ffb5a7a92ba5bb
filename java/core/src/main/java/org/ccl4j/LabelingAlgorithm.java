package org.ccl4j;

/**
 * A labelling algorithm: of graphs ({@link Algorithm}) or of meshes ({@link MeshAlgorithm}). What
 * {@link Timings#algorithm()} reports, whichever kind of input was labelled.
 */
public sealed interface LabelingAlgorithm permits Algorithm, MeshAlgorithm {
    /**
     * The constant's name, as {@link Enum#name()}.
     *
     * @return the name of the enum constant
     */
    String name();
}
