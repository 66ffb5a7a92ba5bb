package org.ccl4j;

/**
 * Hears how long work advances: labelling a grid in slabs ({@link MeshOptions#withProgress}) calls
 * it after each slab of each pass, on the labelling thread. It should return quickly; what it
 * throws ends the labelling with that exception.
 */
@FunctionalInterface
public interface ProgressListener {
    /** Hears nothing: the default. */
    ProgressListener NONE = (stage, done, total) -> { };

    /**
     * {@code done} of {@code total} steps are done, the last one in {@code stage} (for slabs:
     * {@code "label slabs"} while the slabs are labelled and joined, then {@code "write"} while
     * they are labelled again and their labels written; {@code total} counts both passes).
     *
     * @param stage what the last step did
     * @param done  the steps done, 1 to {@code total}
     * @param total the steps of the whole work
     */
    void progress(String stage, long done, long total);
}
